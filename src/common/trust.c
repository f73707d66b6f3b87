/*-------------------------------------------------------------------------
 *
 * trust.c
 *	  Which objects a role may let run their code with its rights.
 *
 * A run's clients, its maintenance, check_tpcb and pgbench_init act with
 * the rights of one role, the caller C (for a run: the role the clients log
 * in as).  Whatever they touch may run code: a table's triggers, rules,
 * row-level security policies, column defaults, check constraints and
 * index expressions, a view's query, the partitions and inheritance
 * children a statement reaches, and the functions and operators all of
 * these call.  That code runs with C's rights, so it must be code C
 * already trusts.  The rule: an object is trusted for C when its owner O
 * has the privileges of C, has_privs_of_role(O, C) (O is C, a superuser, or
 * a member of C); running O's code as C then gives O nothing it did not
 * have.  Anything else is refused with 42501, naming the object and its
 * owner.
 *
 * The owner of a relation is what matters most: only the owner may later
 * add triggers, rules, policies, defaults or children, so a trusted owner
 * also closes the window between this check and the statements.  The one
 * other way to add a trigger, the TRIGGER privilege, must be held by
 * trusted roles only.  Beyond owners, one level of called code is read
 * from the catalogue (pg_depend of the triggers, rules, policies,
 * defaults, constraints and indexes, and of the domains of its columns;
 * pg_inherits): the functions and
 * operators (and an operator's function and estimators) must have trusted
 * owners too.  What a trusted owner's function calls by name is that
 * owner's business.
 *
 * Names are found in the first schema of the search_path that has them, so
 * an object created later in a schema searched earlier would be found
 * instead, in the middle of a step too: the schemas searched before the one
 * where a statement found an object may be created in only by roles C
 * trusts (their owner, the holders of CREATE; never PUBLIC).
 *
 * The statements are read as the clients will read them: parse analysis
 * (no user code runs in it; planning would fold immutable functions, so
 * nothing is planned) as the clients' role under their search_path, in a
 * subtransaction rolled back at once, so that no lock is kept.  This file
 * only reads the catalogue and never runs a benchmark.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_attrdef.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_class.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_database.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_index.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_policy.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_rewrite.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "parser/analyze.h"
#include "parser/parser.h"
#include "fmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/resowner.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

#include "loopback.h"
#include "run_spec.h"
#include "script.h"
#include "script_sql.h"
#include "trust.h"

/*
 * The clients' identity and name resolution, read over a connection made
 * as they make theirs: the server and database it reached, its
 * current_user and search_path.  Everything is qualified: this runs under
 * the clients' own search_path.
 */
#define TRUST_CLIENTS_SQL \
	"SELECT pg_catalog.concat_ws(' '," \
	" (SELECT s.system_identifier FROM pg_catalog.pg_control_system() s)," \
	" (SELECT d.oid FROM pg_catalog.pg_database d" \
	"   WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())," \
	" (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER)," \
	" pg_catalog.current_setting('search_path'))"

bool
trust_read_clients(PGconn *conn, TrustClients *out, char **error)
{
	char	   *value = NULL;
	int64		sysid;			/* bigint in SQL */
	Oid			dbid;
	Oid			roleid;
	int			pos = 0;

	memset(out, 0, sizeof(*out));
	*error = loopback_exec(conn, TRUST_CLIENTS_SQL, &value, NULL);
	if (*error)
		return false;
	if (value == NULL ||
		sscanf(value, INT64_FORMAT " %u %u %n", &sysid, &dbid, &roleid, &pos) != 3)
	{
		*error = psprintf("unexpected answer \"%s\"", value ? value : "(null)");
		return false;
	}
	out->this_server = (uint64) sysid == GetSystemIdentifier();
	out->here = out->this_server && dbid == MyDatabaseId;
	out->roleid = roleid;
	out->search_path = pstrdup(value + pos);
	return true;
}

/* One check: the role, what uses the objects, what was already seen. */
typedef struct TrustWalk
{
	Oid			roleid;
	const char *search_path;	/* the clients', for statements; NULL otherwise */
	const char *source;
	List	   *relids_done;
	List	   *funcs_done;
	List	   *ops_done;
	List	   *types_done;
} TrustWalk;

static void
trust_refuse(const TrustWalk *w, Oid owner, Oid classid, Oid objid, const char *via)
{
	ObjectAddress addr;
	char	   *desc;
	char	   *owner_name = GetUserNameFromId(owner, true);
	char	   *role_name = GetUserNameFromId(w->roleid, true);

	ObjectAddressSet(addr, classid, objid);
	desc = getObjectDescription(&addr, true);
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("refusing to use %s owned by role \"%s\"",
					desc ? desc : "an object", owner_name ? owner_name : "?"),
			 errdetail("%s would run code of role \"%s\" with the rights of role \"%s\"%s%s.",
					   w->source, owner_name ? owner_name : "?", role_name ? role_name : "?",
					   via ? ", through " : "", via ? via : ""),
			 errhint("Run it as role \"%s\" (SET ROLE, or a runner of its own), or make role \"%s\" or a superuser the owner.",
					 owner_name ? owner_name : "?", role_name ? role_name : "?")));
}

/* O's code may run with C's rights when O already has C's privileges */
static void
trust_owner(const TrustWalk *w, Oid owner, Oid classid, Oid objid, const char *via)
{
	if (!has_privs_of_role(owner, w->roleid))
		trust_refuse(w, owner, classid, objid, via);
}

static char *
trust_describe(Oid classid, Oid objid)
{
	ObjectAddress addr;

	ObjectAddressSet(addr, classid, objid);
	return getObjectDescription(&addr, true);
}

static void
trust_function(TrustWalk *w, Oid funcid, const char *via)
{
	HeapTuple	tup;

	if (!OidIsValid(funcid) || list_member_oid(w->funcs_done, funcid))
		return;
	w->funcs_done = lappend_oid(w->funcs_done, funcid);
	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tup))
		return;
	trust_owner(w, ((Form_pg_proc) GETSTRUCT(tup))->proowner, ProcedureRelationId, funcid, via);
	ReleaseSysCache(tup);
}

/* an operator: its owner, its function, and the planner's estimators */
static void
trust_operator(TrustWalk *w, Oid opno, const char *via)
{
	HeapTuple	tup;
	Form_pg_operator op;
	char	   *desc;

	if (!OidIsValid(opno) || list_member_oid(w->ops_done, opno))
		return;
	w->ops_done = lappend_oid(w->ops_done, opno);
	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	if (!HeapTupleIsValid(tup))
		return;
	op = (Form_pg_operator) GETSTRUCT(tup);
	trust_owner(w, op->oprowner, OperatorRelationId, opno, via);
	desc = trust_describe(OperatorRelationId, opno);
	trust_function(w, op->oprcode, desc);
	trust_function(w, op->oprrest, desc);
	trust_function(w, op->oprjoin, desc);
	ReleaseSysCache(tup);
}

static void trust_type(TrustWalk *w, Oid typid, const char *via);

/*
 * What one object (a trigger, rule, policy, default, constraint, index)
 * refers to in pg_depend: its functions and operators are checked; the
 * relations it reads or writes (rules, policies) go on *worklist.
 */
static void
trust_depends(TrustWalk *w, Oid classid, Oid objid, List **worklist)
{
	Relation	depRel;
	ScanKeyData key[2];
	SysScanDesc scan;
	HeapTuple	tup;
	char	   *via = trust_describe(classid, objid);

	depRel = table_open(DependRelationId, AccessShareLock);
	ScanKeyInit(&key[0], Anum_pg_depend_classid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(classid));
	ScanKeyInit(&key[1], Anum_pg_depend_objid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(objid));
	scan = systable_beginscan(depRel, DependDependerIndexId, true, NULL, 2, key);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_depend dep = (Form_pg_depend) GETSTRUCT(tup);

		if (dep->refclassid == ProcedureRelationId)
			trust_function(w, dep->refobjid, via);
		else if (dep->refclassid == OperatorRelationId)
			trust_operator(w, dep->refobjid, via);
		else if (dep->refclassid == TypeRelationId)
			trust_type(w, dep->refobjid, via);
		else if (dep->refclassid == RelationRelationId && worklist &&
				 !list_member_oid(*worklist, dep->refobjid))
			*worklist = lappend_oid(*worklist, dep->refobjid);
	}
	systable_endscan(scan);
	table_close(depRel, AccessShareLock);
}

/*
 * The oids of the rows of catalog relid whose key column (an oid, the
 * leading column of index indexid) is value, read from column oidcol; for
 * pg_trigger also the trigger functions into *funcs.
 */
static List *
trust_rows(Oid catalog, Oid indexid, AttrNumber keycol, Oid value, AttrNumber oidcol)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	List	   *oids = NIL;

	rel = table_open(catalog, AccessShareLock);
	ScanKeyInit(&key, keycol, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(value));
	scan = systable_beginscan(rel, indexid, true, NULL, 1, &key);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, oidcol, RelationGetDescr(rel), &isnull);

		if (!isnull)
			oids = lappend_oid(oids, DatumGetObjectId(d));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return oids;
}

/*
 * A domain runs its constraints on every value stored into a column of its
 * type: its owner, and the functions and operators of its constraints
 * (and of the domains it is based on), must be trusted.
 */
static void
trust_type(TrustWalk *w, Oid typid, const char *via)
{
	HeapTuple	tup;
	Form_pg_type typ;
	List	   *cons;
	ListCell   *lc;

	if (!OidIsValid(typid) || list_member_oid(w->types_done, typid))
		return;
	w->types_done = lappend_oid(w->types_done, typid);
	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	if (!HeapTupleIsValid(tup))
		return;
	typ = (Form_pg_type) GETSTRUCT(tup);
	if (typ->typtype != TYPTYPE_DOMAIN)
	{
		ReleaseSysCache(tup);
		return;
	}
	trust_owner(w, typ->typowner, TypeRelationId, typid, via);
	ReleaseSysCache(tup);
	cons = trust_rows(ConstraintRelationId, ConstraintTypidIndexId, Anum_pg_constraint_contypid,
					  typid, Anum_pg_constraint_oid);
	foreach(lc, cons)
		trust_depends(w, ConstraintRelationId, lfirst_oid(lc), NULL);
	/* a domain over a domain: its base type's dependency */
	trust_depends(w, TypeRelationId, typid, NULL);
}

/* who may add triggers besides the owner: only roles C trusts */
static void
trust_trigger_grants(TrustWalk *w, HeapTuple classtup, Oid relid)
{
	bool		isnull;
	Datum		d = SysCacheGetAttr(RELOID, classtup, Anum_pg_class_relacl, &isnull);
	Acl		   *acl;
	AclItem    *items;

	if (isnull)
		return;
	acl = DatumGetAclP(d);
	items = ACL_DAT(acl);
	for (int i = 0; i < ACL_NUM(acl); i++)
	{
		Oid			grantee = items[i].ai_grantee;

		if ((ACLITEM_GET_PRIVS(items[i]) & ACL_TRIGGER) == 0)
			continue;
		if (grantee == ACL_ID_PUBLIC || !has_privs_of_role(grantee, w->roleid))
		{
			Form_pg_class cls = (Form_pg_class) GETSTRUCT(classtup);
			char	   *desc = trust_describe(RelationRelationId, relid);
			char	   *qualified = quote_qualified_identifier(get_namespace_name(cls->relnamespace),
															   NameStr(cls->relname));
			char	   *grantee_name = grantee == ACL_ID_PUBLIC ? "PUBLIC" :
				GetUserNameFromId(grantee, true);

			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("refusing to use %s on which role \"%s\" may create triggers",
							desc ? desc : "a relation", grantee_name ? grantee_name : "?"),
					 errdetail("%s would run code role \"%s\" may add at any time with the rights of role \"%s\".",
							   w->source, grantee_name ? grantee_name : "?",
							   GetUserNameFromId(w->roleid, true)),
					 errhint("REVOKE TRIGGER ON %s FROM %s.", qualified,
							 grantee == ACL_ID_PUBLIC ? "PUBLIC" : quote_identifier(grantee_name))));
		}
	}
}

static void
trust_relations(TrustWalk *w, List *relids)
{
	List	   *worklist = list_copy(relids);

	/* worklist grows while it is read: an index, not foreach */
	for (int i = 0; i < list_length(worklist); i++)
	{
		Oid			relid = list_nth_oid(worklist, i);
		HeapTuple	tup;
		Form_pg_class cls;
		List	   *oids;
		ListCell   *lc;

		CHECK_FOR_INTERRUPTS();
		if (list_member_oid(w->relids_done, relid))
			continue;
		w->relids_done = lappend_oid(w->relids_done, relid);
		tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
		if (!HeapTupleIsValid(tup))
			continue;			/* dropped meanwhile */
		cls = (Form_pg_class) GETSTRUCT(tup);
		trust_owner(w, cls->relowner, RelationRelationId, relid, NULL);
		trust_trigger_grants(w, tup, relid);
		ReleaseSysCache(tup);

		/* the types of its columns (domains' constraints) */
		trust_depends(w, RelationRelationId, relid, NULL);
		/* triggers: their functions, their WHEN clauses */
		oids = trust_rows(TriggerRelationId, TriggerRelidNameIndexId, Anum_pg_trigger_tgrelid,
						  relid, Anum_pg_trigger_oid);
		foreach(lc, oids)
		{
			Oid			tgoid = lfirst_oid(lc);
			List	   *fn = trust_rows(TriggerRelationId, TriggerOidIndexId, Anum_pg_trigger_oid,
										tgoid, Anum_pg_trigger_tgfoid);

			if (fn != NIL)
				trust_function(w, linitial_oid(fn), trust_describe(TriggerRelationId, tgoid));
			trust_depends(w, TriggerRelationId, tgoid, NULL);
		}
		/* rules (a view's query is its _RETURN rule) and policies: also what they touch */
		oids = trust_rows(RewriteRelationId, RewriteRelRulenameIndexId, Anum_pg_rewrite_ev_class,
						  relid, Anum_pg_rewrite_oid);
		foreach(lc, oids)
			trust_depends(w, RewriteRelationId, lfirst_oid(lc), &worklist);
		oids = trust_rows(PolicyRelationId, PolicyPolrelidPolnameIndexId, Anum_pg_policy_polrelid,
						  relid, Anum_pg_policy_oid);
		foreach(lc, oids)
			trust_depends(w, PolicyRelationId, lfirst_oid(lc), &worklist);
		/* column defaults and generated columns, check constraints, index expressions */
		oids = trust_rows(AttrDefaultRelationId, AttrDefaultIndexId, Anum_pg_attrdef_adrelid,
						  relid, Anum_pg_attrdef_oid);
		foreach(lc, oids)
			trust_depends(w, AttrDefaultRelationId, lfirst_oid(lc), NULL);
		oids = trust_rows(ConstraintRelationId, ConstraintRelidTypidNameIndexId,
						  Anum_pg_constraint_conrelid, relid, Anum_pg_constraint_oid);
		foreach(lc, oids)
			trust_depends(w, ConstraintRelationId, lfirst_oid(lc), NULL);
		oids = trust_rows(IndexRelationId, IndexIndrelidIndexId, Anum_pg_index_indrelid,
						  relid, Anum_pg_index_indexrelid);
		foreach(lc, oids)
			trust_depends(w, RelationRelationId, lfirst_oid(lc), NULL);
		/* partitions and inheritance children: a statement on the parent reaches them */
		oids = trust_rows(InheritsRelationId, InheritsParentIndexId, Anum_pg_inherits_inhparent,
						  relid, Anum_pg_inherits_inhrelid);
		foreach(lc, oids)
			if (!list_member_oid(worklist, lfirst_oid(lc)))
				worklist = lappend_oid(worklist, lfirst_oid(lc));
	}
}

void
trust_check_relations(Oid roleid, List *relids, const char *source)
{
	TrustWalk	w;

	memset(&w, 0, sizeof(w));
	w.roleid = roleid;
	w.source = source;
	trust_relations(&w, relids);
}

/* how long parse analysis may wait for a lock before the statement counts as not analysed */
#define TRUST_LOCK_TIMEOUT	"200ms"

/* What parse analysis of one statement names: relations, functions, operators. */
typedef struct TrustCollect
{
	List	   *relids;
	List	   *funcs;
	List	   *ops;
	List	   *path;			/* the schemas searched, in order (implicit ones too) */
	bool		unanalysed;		/* only the raw statement's relations are known */
} TrustCollect;

static void
trust_collect_rangevar(RangeVar *rv, TrustCollect *c)
{
	Oid			relid;

	if (rv == NULL)
		return;
	relid = RangeVarGetRelid(rv, NoLock, true);
	if (OidIsValid(relid))
		c->relids = list_append_unique_oid(c->relids, relid);
}

static bool
trust_collect_func(Oid funcid, void *context)
{
	TrustCollect *c = (TrustCollect *) context;

	c->funcs = list_append_unique_oid(c->funcs, funcid);
	return false;
}

static bool trust_collect_walker(Node *node, TrustCollect *c);

/* the utility statements that touch relations or call functions */
static void
trust_collect_utility(Node *stmt, TrustCollect *c)
{
	ListCell   *lc;

	switch (nodeTag(stmt))
	{
		case T_TruncateStmt:
			foreach(lc, ((TruncateStmt *) stmt)->relations)
				trust_collect_rangevar(lfirst_node(RangeVar, lc), c);
			break;
		case T_VacuumStmt:
			foreach(lc, ((VacuumStmt *) stmt)->rels)
				trust_collect_rangevar(lfirst_node(VacuumRelation, lc)->relation, c);
			break;
		case T_LockStmt:
			foreach(lc, ((LockStmt *) stmt)->relations)
				trust_collect_rangevar(lfirst_node(RangeVar, lc), c);
			break;
		case T_CopyStmt:
			trust_collect_rangevar(((CopyStmt *) stmt)->relation, c);
			break;
		case T_ExplainStmt:
			(void) trust_collect_walker(((ExplainStmt *) stmt)->query, c);
			break;
		case T_CreateTableAsStmt:
			(void) trust_collect_walker(((CreateTableAsStmt *) stmt)->query, c);
			break;
		case T_DeclareCursorStmt:
			(void) trust_collect_walker(((DeclareCursorStmt *) stmt)->query, c);
			break;
		case T_CallStmt:
			(void) trust_collect_walker((Node *) ((CallStmt *) stmt)->funcexpr, c);
			break;
		default:
			break;
	}
}

static bool
trust_collect_walker(Node *node, TrustCollect *c)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		Query	   *q = (Query *) node;
		ListCell   *lc;

		if (q->commandType == CMD_UTILITY && q->utilityStmt)
			trust_collect_utility(q->utilityStmt, c);
		foreach(lc, q->rtable)
		{
			RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);

			if (rte->rtekind == RTE_RELATION)
				c->relids = list_append_unique_oid(c->relids, rte->relid);
		}
		return query_tree_walker(q, trust_collect_walker, (void *) c, 0);
	}
	(void) check_functions_in_node(node, trust_collect_func, (void *) c);
	switch (nodeTag(node))
	{
		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			c->ops = list_append_unique_oid(c->ops, ((OpExpr *) node)->opno);
			break;
		case T_ScalarArrayOpExpr:
			c->ops = list_append_unique_oid(c->ops, ((ScalarArrayOpExpr *) node)->opno);
			break;
		case T_RowCompareExpr:
			{
				ListCell   *lc;

				foreach(lc, ((RowCompareExpr *) node)->opnos)
					c->ops = list_append_unique_oid(c->ops, lfirst_oid(lc));
			}
			break;
		default:
			break;
	}
	return expression_tree_walker(node, trust_collect_walker, (void *) c);
}

/* the relations a raw statement names, where its parse analysis fails */
static bool
trust_raw_walker(Node *node, List **relids)
{
	if (node == NULL)
		return false;
	if (IsA(node, RangeVar))
	{
		Oid			relid = RangeVarGetRelid((RangeVar *) node, NoLock, true);

		if (OidIsValid(relid))
			*relids = list_append_unique_oid(*relids, relid);
		return false;
	}
	return raw_expression_tree_walker(node, trust_raw_walker, (void *) relids);
}

/*
 * Parse analysis of one statement as the clients' role under their
 * search_path, in a subtransaction that is always rolled back (its locks,
 * the role and the setting go with it).  Returns false when the statement
 * does not analyse here (a table the script creates itself, a variable that
 * stands for more than a value): what it names is then not known.
 */
static bool
trust_collect_statement(const TrustClients *clients, const char *sql, TrustCollect *c)
{
	MemoryContext outer = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	Oid			save_user;
	int			save_sec;
	ErrorData  *volatile edata = NULL;
	List	   *volatile raw_relids = NIL;
	ListCell   *rc;

	GetUserIdAndSecContext(&save_user, &save_sec);
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(outer);
	PG_TRY();
	{
		List	   *raws;
		List	   *found = NIL;
		ListCell   *lc;

		SetUserIdAndSecContext(clients->roleid,
							   save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
		/* as a function's SET clause does (PGC_S_SESSION outranks the rest) */
		(void) NewGUCNestLevel();
		/* pg_temp last: this session's temporary tables are not the clients' */
		(void) set_config_option("search_path",
								 clients->search_path[0] ?
								 psprintf("%s, pg_temp", clients->search_path) : "pg_temp",
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
		/*
		 * Parse analysis locks what it names.  A table locked by another
		 * session (LOCK TABLE, a long ALTER) must not hold the caller or the
		 * coordinator here, where a cancel of the run is not seen: past
		 * this, the statement counts as one that does not analyse.
		 */
		(void) set_config_option("lock_timeout", TRUST_LOCK_TIMEOUT,
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
		c->path = fetch_search_path(true);
		raws = raw_parser(sql, RAW_PARSE_DEFAULT);
		/* what the statements name, in case their analysis fails below */
		foreach(lc, raws)
		{
			Node	   *stmt = lfirst_node(RawStmt, lc)->stmt;

			/* the statements raw_expression_tree_walker knows */
			if (IsA(stmt, SelectStmt) || IsA(stmt, InsertStmt) ||
				IsA(stmt, UpdateStmt) || IsA(stmt, DeleteStmt))
				(void) trust_raw_walker(stmt, &found);
		}
		raw_relids = found;
		foreach(lc, raws)
		{
			Oid		   *ptypes = NULL;
			int			nparams = 0;
			Query	   *q = parse_analyze_varparams(lfirst_node(RawStmt, lc), sql,
													&ptypes, &nparams, NULL);

			(void) trust_collect_walker((Node *) q, c);
		}
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(outer);
		edata = CopyErrorData();
		FlushErrorState();
	}
	PG_END_TRY();
	/* the subtransaction's abort puts back the role and search_path */
	RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(outer);
	CurrentResourceOwner = owner;
	SetUserIdAndSecContext(save_user, save_sec);
	if (edata)
	{
		/* a cancel, a termination: not a statement we could not read */
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
			edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN ||
			edata->sqlerrcode == ERRCODE_OUT_OF_MEMORY)
			ReThrowError(edata);
		elog(DEBUG1, "pgbenchx: statement not analysed for the trust check (search_path %s, role %u): %s",
			 clients->search_path, clients->roleid, edata->message);
		FreeErrorData(edata);
		/* at least the relations it names that exist now */
		c->unanalysed = true;
		foreach(rc, raw_relids)
			c->relids = list_append_unique_oid(c->relids, lfirst_oid(rc));
		return false;
	}
	return true;
}

/* where oid is in list, -1 if not */
static int
trust_index_oid(const List *list, Oid oid)
{
	for (int i = 0; i < list_length(list); i++)
		if (list_nth_oid(list, i) == oid)
			return i;
	return -1;
}

/* a schema's owner or grantee, with pg_database_owner read as this database's owner */
static Oid
trust_schema_role(Oid role)
{
	if (role == ROLE_PG_DATABASE_OWNER)
	{
		HeapTuple	tup = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));

		if (HeapTupleIsValid(tup))
		{
			role = ((Form_pg_database) GETSTRUCT(tup))->datdba;
			ReleaseSysCache(tup);
		}
	}
	return role;
}

static void
trust_refuse_schema(const TrustWalk *w, Oid nspid, Oid creator)
{
	char	   *nspname = get_namespace_name(nspid);
	char	   *creator_name = creator == ACL_ID_PUBLIC ? "PUBLIC" : GetUserNameFromId(creator, true);

	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("refusing to resolve names through schema %s, in which role \"%s\" may create objects",
					quote_identifier(nspname), creator_name ? creator_name : "?"),
			 errdetail("%s finds its objects through the clients' search_path, where schema %s comes first; a table, function or operator role \"%s\" creates there would be found instead and run with the rights of role \"%s\".",
					   w->source, quote_identifier(nspname), creator_name ? creator_name : "?",
					   GetUserNameFromId(w->roleid, true)),
			 errhint("Put schema %s after the schema of the pgbench tables in the clients' search_path, or take the CREATE privilege on it from role \"%s\".",
					 quote_identifier(nspname), creator_name ? creator_name : "?")));
}

static void
trust_refuse_missing(const TrustWalk *w, const char *nspname, Oid creator)
{
	char	   *creator_name = creator == ACL_ID_PUBLIC ? "PUBLIC" : GetUserNameFromId(creator, true);

	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("refusing to resolve names through schema %s, which does not exist and role \"%s\" may create",
					quote_identifier(nspname), creator_name ? creator_name : "?"),
			 errdetail("%s finds its objects through the clients' search_path, where schema %s comes first; an object role \"%s\" created in it would be found instead and run with the rights of role \"%s\".",
					   w->source, quote_identifier(nspname), creator_name ? creator_name : "?",
					   GetUserNameFromId(w->roleid, true)),
			 errhint("Create schema %s as a role that role \"%s\" trusts, or take it out of the clients' search_path.",
					 quote_identifier(nspname), GetUserNameFromId(w->roleid, true))));
}

/*
 * A schema the clients' search_path names that does not exist (say
 * "$user"), before the one where a statement found an object: whoever may
 * create schemas in this database could create it and be found first, so
 * that must be roles C trusts (the database's owner, the holders of CREATE
 * on it; never PUBLIC).
 */
static void
trust_missing_schemas(const TrustWalk *w, const TrustCollect *c, int last)
{
	char	   *rawname;
	List	   *names;
	ListCell   *lc;
	char	   *missing = NULL;
	HeapTuple	tup;
	bool		isnull;
	Datum		d;

	if (last < 0 || w->search_path == NULL)
		return;
	rawname = pstrdup(w->search_path);
	if (!SplitIdentifierString(rawname, ',', &names))
		return;
	foreach(lc, names)
	{
		char	   *name = (char *) lfirst(lc);
		Oid			nspid;

		if (strcmp(name, "$user") == 0)
			name = GetUserNameFromId(w->roleid, true);
		nspid = name ? get_namespace_oid(name, true) : InvalidOid;
		if (!OidIsValid(nspid))
		{
			if (missing == NULL && name && strcmp(name, "pg_temp") != 0)
				missing = name;
			continue;
		}
		if (trust_index_oid(c->path, nspid) >= last)
			break;
	}
	/* the schema of the last object found is not reached: nothing missing is before it */
	if (missing == NULL || lc == NULL)
		return;
	tup = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
	if (!HeapTupleIsValid(tup))
		return;
	if (!has_privs_of_role(((Form_pg_database) GETSTRUCT(tup))->datdba, w->roleid))
		trust_refuse_missing(w, missing, ((Form_pg_database) GETSTRUCT(tup))->datdba);
	d = SysCacheGetAttr(DATABASEOID, tup, Anum_pg_database_datacl, &isnull);
	if (!isnull)
	{
		Acl		   *acl = DatumGetAclP(d);
		AclItem    *items = ACL_DAT(acl);

		for (int k = 0; k < ACL_NUM(acl); k++)
			if ((ACLITEM_GET_PRIVS(items[k]) & ACL_CREATE) != 0 &&
				(items[k].ai_grantee == ACL_ID_PUBLIC ||
				 !has_privs_of_role(items[k].ai_grantee, w->roleid)))
				trust_refuse_missing(w, missing, items[k].ai_grantee);
	}
	ReleaseSysCache(tup);
}

/*
 * The schemas searched before the one where a statement found an object:
 * an object created there later would be found instead (during a step
 * too), so only roles C trusts may create in them: their owner, and the
 * holders of CREATE (PUBLIC never).
 */
static void
trust_schemas_before(const TrustWalk *w, const TrustCollect *c)
{
	int			last = -1;
	ListCell   *lc;

	foreach(lc, c->relids)
		last = Max(last, trust_index_oid(c->path, get_rel_namespace(lfirst_oid(lc))));
	foreach(lc, c->funcs)
		last = Max(last, trust_index_oid(c->path, get_func_namespace(lfirst_oid(lc))));
	foreach(lc, c->ops)
	{
		HeapTuple	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(lfirst_oid(lc)));

		if (HeapTupleIsValid(tup))
		{
			last = Max(last, trust_index_oid(c->path, ((Form_pg_operator) GETSTRUCT(tup))->oprnamespace));
			ReleaseSysCache(tup);
		}
	}
	/*
	 * A statement not analysed may call any function or operator of
	 * pg_catalog: the schemas searched before pg_catalog (where the path
	 * names it later) are held to the same rule.
	 */
	if (c->unanalysed)
		last = Max(last, trust_index_oid(c->path, PG_CATALOG_NAMESPACE));
	trust_missing_schemas(w, c, last);
	for (int i = 0; i < last; i++)
	{
		Oid			nspid = list_nth_oid(c->path, i);
		HeapTuple	tup;
		Oid			owner;
		bool		isnull;
		Datum		d;

		if (isAnyTempNamespace(nspid))
			continue;			/* a client's own */
		tup = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(nspid));
		if (!HeapTupleIsValid(tup))
			continue;
		owner = trust_schema_role(((Form_pg_namespace) GETSTRUCT(tup))->nspowner);
		if (!has_privs_of_role(owner, w->roleid))
			trust_refuse_schema(w, nspid, owner);
		d = SysCacheGetAttr(NAMESPACEOID, tup, Anum_pg_namespace_nspacl, &isnull);
		if (!isnull)
		{
			Acl		   *acl = DatumGetAclP(d);
			AclItem    *items = ACL_DAT(acl);

			for (int k = 0; k < ACL_NUM(acl); k++)
			{
				Oid			grantee = items[k].ai_grantee;

				if ((ACLITEM_GET_PRIVS(items[k]) & ACL_CREATE) == 0)
					continue;
				if (grantee == ACL_ID_PUBLIC ||
					!has_privs_of_role(trust_schema_role(grantee), w->roleid))
					trust_refuse_schema(w, nspid, grantee);
			}
		}
		ReleaseSysCache(tup);
	}
}

void
trust_check_statements(const TrustClients *clients, int n,
					   const char *const *sqls, const char *const *sources)
{
	TrustWalk	w;

	if (!clients->here)
		return;
	memset(&w, 0, sizeof(w));
	w.roleid = clients->roleid;
	w.search_path = clients->search_path;
	for (int i = 0; i < n; i++)
	{
		TrustCollect c;
		ListCell   *lc;

		CHECK_FOR_INTERRUPTS();
		memset(&c, 0, sizeof(c));
		(void) trust_collect_statement(clients, sqls[i], &c);
		w.source = sources[i];
		/* operators first: an operator's refusal names it, not its function */
		foreach(lc, c.ops)
			trust_operator(&w, lfirst_oid(lc), NULL);
		foreach(lc, c.funcs)
			trust_function(&w, lfirst_oid(lc), NULL);
		trust_relations(&w, c.relids);
		trust_schemas_before(&w, &c);
	}
}

/*
 * A run's statements: every SQL command of its scripts, the pre-run
 * maintenance (vacuum => true) and check_tpcb's sums, as the coordinator
 * sends them.
 */
void
trust_check_run(const RunSpec *spec, const TrustClients *clients, int nscripts,
				const char *const *names, const char *const *texts)
{
	static const char *const maintenance[] = RUN_SPEC_MAINTENANCE_SQL;
	List	   *sqls = NIL;
	List	   *sources = NIL;
	const char **sql_array;
	const char **source_array;
	int			n = 0;
	ListCell   *lc1,
			   *lc2;

	if (!clients->here)
		return;
	for (int i = 0; i < nscripts; i++)
	{
		ScriptError err;
		Script	   *script = script_parse(names[i], texts[i], &script_sql_parse_opts, &err);
		char	   *source;

		if (script == NULL)
			continue;			/* refused at launch */
		source = psprintf("Script \"%s\"", names[i]);
		for (int k = 0; k < script_command_count(script); k++)
			if (script_command_kind(script, k) == SCRIPT_CMD_SQL)
			{
				sqls = lappend(sqls, pstrdup(script_sql_param_text(script, k)));
				sources = lappend(sources, source);
			}
		script_free(script);
	}
	if (spec->vacuum)
		for (int i = 0; i < (int) lengthof(maintenance); i++)
		{
			sqls = lappend(sqls, (char *) maintenance[i]);
			sources = lappend(sources, "The pre-run maintenance");
		}
	if (spec->check_tpcb)
	{
		sqls = lappend(sqls, RUN_SPEC_TPCB_SUMS);
		sources = lappend(sources, "check_tpcb");
	}
	sql_array = palloc0(sizeof(char *) * (list_length(sqls) + 1));
	source_array = palloc0(sizeof(char *) * (list_length(sqls) + 1));
	forboth(lc1, sqls, lc2, sources)
	{
		sql_array[n] = lfirst(lc1);
		source_array[n++] = lfirst(lc2);
	}
	trust_check_statements(clients, n, sql_array, source_array);
}

/*
 * pgbenchx.trust_check(relations text[], used_by text): the relations named
 * (found as to_regclass finds them, missing ones skipped) and the code
 * they run must be trusted by current_user; ERROR 42501 otherwise.  For
 * the SQL that reads the user's tables in the caller's session
 * (pgbenchx.check_tpcb()).
 */
PG_FUNCTION_INFO_V1(pgbenchx_trust_check);

Datum
pgbenchx_trust_check(PG_FUNCTION_ARGS)
{
	ArrayType  *names = PG_GETARG_ARRAYTYPE_P(0);
	char	   *used_by = text_to_cstring(PG_GETARG_TEXT_PP(1));
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	List	   *relids = NIL;

	deconstruct_array(names, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	for (int i = 0; i < n; i++)
	{
		List	   *qualified;
		Oid			relid;

		if (nulls[i])
			continue;
		qualified = textToQualifiedNameList(DatumGetTextPP(elems[i]));
		relid = RangeVarGetRelid(makeRangeVarFromNameList(qualified), NoLock, true);
		if (OidIsValid(relid))
			relids = lappend_oid(relids, relid);
	}
	trust_check_relations(GetUserId(), relids, used_by);
	PG_RETURN_VOID();
}
