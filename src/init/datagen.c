/*-------------------------------------------------------------------------
 *
 * datagen.c
 *	  pgbench_init: drop, create, fill, index and analyze the pgbench tables
 *	  server-side, with exactly the DDL and rows of "pgbench -i".
 *
 * The DDL is pgbench's own text, run through SPI.  The rows are laid out
 * into heap pages in local memory, frozen and all-visible (what COPY FREEZE
 * leaves, without text parsing, per-row tuple forming or shared buffers),
 * and written through smgr in batches, WAL-logged as full-page images when
 * the table needs WAL; the visibility map is written the same way.  This is
 * legal only because the tables are created by this same transaction.
 * Indexes are built after the load.  Everything runs in the caller's
 * transaction: an error or a cancel leaves nothing behind.  With jobs > 1,
 * the pages of pgbench_accounts are written by background workers
 * (datagen_par.c); both write through heapwrite.c's page writer.
 *
 * This file owns the pgbench table layout; it must not know about runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#include "catalog/namespace.h"
#include "commands/tablespace.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/proc.h"
#include "storage/smgr.h"
#include "utils/inval.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/timestamp.h"

#include "btload.h"
#include "datagen.h"
#include "datagen_par.h"
#include "heapwrite.h"
#include "initrecord.h"
#include "owner.h"
#include "trust.h"
#include "pg_compat.h"

/*
 * Memory of an in-memory sort of one int4/int8 key (tuple, its allocation
 * header, and its SortTuple), and the most maintenance_work_mem the primary
 * keys step raises it to.
 */
#define DATAGEN_SORT_BYTES_PER_ROW	72
#define DATAGEN_MAX_SORT_MEM_KB		(512 * 1024)
/* a progress NOTICE at most this often */
#define DATAGEN_PROGRESS_USECS		(5 * USECS_PER_SEC)
/* the most partitions pgbench_init creates: each is a table with its locks */
#define DATAGEN_MAX_PARTITIONS		10000

static const char *const datagen_table_names[] = {
	"pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"
};

/* The state of one pgbench_init call. */
typedef struct DatagenState
{
	const DatagenOptions *opts;
	int			jobs;			/* workers for pgbench_accounts; 1: none */
	bool		bigcols;		/* aid is bigint (scale >= 20000) */
	const char *step;			/* for the error context */
	CommandId	cid;
	TimestampTz start;
	TimestampTz step_start;
	StringInfoData timings;
	/* progress of the accounts load */
	int64		rows_total;
	int64		rows_done;
	TimestampTz load_start;
	TimestampTz last_progress;
} DatagenState;

static double
datagen_seconds_since(TimestampTz since)
{
	return (double) (GetCurrentTimestamp() - since) / USECS_PER_SEC;
}

static void
datagen_error_context(void *arg)
{
	DatagenState *state = (DatagenState *) arg;

	if (state->step)
		errcontext("pgbench_init step \"%s\"", state->step);
}

static void
datagen_begin_step(DatagenState *state, const char *step)
{
	state->step = step;
	state->step_start = GetCurrentTimestamp();
}

static void
datagen_end_step(DatagenState *state)
{
	appendStringInfo(&state->timings, "%s%s %.2f s",
					 state->timings.len > 0 ? ", " : "",
					 state->step, datagen_seconds_since(state->step_start));
	state->step = NULL;
}

static void
datagen_exec(const char *sql)
{
	int			rc = SPI_execute(sql, false, 0);

	if (rc < 0)
		elog(ERROR, "SPI_execute failed with %s: %s",
			 SPI_result_code_string(rc), sql);
}

/*
 * Refuse clearly, before anything changes, when the caller could not create
 * the tables in the creation schema or could not drop the old ones.
 * Appends the qualified names of the existing tables to drop_list.
 */
static void
datagen_check_privileges(StringInfo drop_list)
{
	Oid			nspid;
	AclResult	aclresult;
	List	   *existing = NIL;

	nspid = RangeVarGetCreationNamespace(makeRangeVar(NULL, "pgbench_accounts", -1));
	aclresult = pgx_namespace_aclcheck(nspid, GetUserId(), ACL_CREATE);
	if (aclresult != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to create the pgbench tables in schema \"%s\"",
						get_namespace_name(nspid)),
				 errdetail("pgbench_init creates its tables in the first schema of search_path."),
				 errhint("Grant CREATE on schema \"%s\" to role \"%s\", or set search_path to a schema the role may create tables in.",
						 get_namespace_name(nspid),
						 GetUserNameFromId(GetUserId(), false))));

	for (int i = 0; i < (int) lengthof(datagen_table_names); i++)
	{
		const char *name = datagen_table_names[i];
		Oid			relid;
		bool		owner;

		relid = RangeVarGetRelid(makeRangeVar(NULL, (char *) name, -1),
								 NoLock, true);
		if (!OidIsValid(relid))
			continue;
		owner = pgx_class_ownercheck(relid, GetUserId());
		if (!owner)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("must be owner of table %s to replace it", name),
					 errdetail("pgbench_init drops the existing pgbench tables and creates them anew."),
					 errhint("Run pgbench_init as the owner of the existing pgbench tables, or have their owner drop them.")));
		existing = lappend_oid(existing, relid);
		appendStringInfo(drop_list, "%s%s",
						 drop_list->len > 0 ? ", " : "",
						 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
													name));
	}

	/*
	 * A superuser owns every table in PostgreSQL's eyes; the tables it
	 * replaces must still be its own or a trusted role's, with nothing of an
	 * untrusted role hanging off them (trust.c).
	 */
	trust_check_relations(GetUserId(), existing, "pgbench_init");
}

/* pgbench's step "t": the four tables and the partitions, same text */
static void
datagen_create_tables(DatagenState *state)
{
	static const struct
	{
		const char *table;
		const char *smcols;
		const char *bigcols;
		bool		declare_fillfactor;
	}			ddls[] = {
		{"pgbench_history",
			"tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
			"tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)",
		false},
		{"pgbench_tellers",
			"tid int not null,bid int,tbalance int,filler char(84)",
			"tid int not null,bid int,tbalance int,filler char(84)",
		true},
		{"pgbench_accounts",
			"aid    int not null,bid int,abalance int,filler char(84)",
			"aid bigint not null,bid int,abalance int,filler char(84)",
		true},
		{"pgbench_branches",
			"bid int not null,bbalance int,filler char(88)",
			"bid int not null,bbalance int,filler char(88)",
		true},
	};
	const DatagenOptions *opts = state->opts;
	/*
	 * pgbench 18 creates none of the four tables unlogged when it
	 * partitions pgbench_accounts (18 refuses an unlogged partitioned
	 * table), only the partitions; 15 to 17 create them all unlogged
	 */
	const char *unlogged = opts->unlogged &&
		(opts->partitions == 0 || PGX_PGBENCH_MAJOR < 18) ? " unlogged" : "";
	const char *part_unlogged = opts->unlogged ? " unlogged" : "";
	StringInfoData sql;

	initStringInfo(&sql);
	for (int i = 0; i < (int) lengthof(ddls); i++)
	{
		resetStringInfo(&sql);
		appendStringInfo(&sql, "create%s table %s(%s)", unlogged, ddls[i].table,
						 state->bigcols ? ddls[i].bigcols : ddls[i].smcols);
		if (opts->partitions > 0 && strcmp(ddls[i].table, "pgbench_accounts") == 0)
			appendStringInfo(&sql, " partition by %s (aid)",
							 opts->method == DATAGEN_PART_RANGE ? "range" : "hash");
		else if (ddls[i].declare_fillfactor)
			appendStringInfo(&sql, " with (fillfactor=%d)", opts->fillfactor);
		/* pgbench's own: the partitioned parent too, the partitions none */
		if (opts->tablespace)
			appendStringInfo(&sql, " tablespace %s", quote_identifier(opts->tablespace));
		datagen_exec(sql.data);
	}

	for (int p = 1; p <= opts->partitions; p++)
	{
		resetStringInfo(&sql);
		appendStringInfo(&sql,
						 "create%s table pgbench_accounts_%d\n"
						 "  partition of pgbench_accounts\n", part_unlogged, p);
		if (opts->method == DATAGEN_PART_RANGE)
		{
			int64		part_size = ((int64) DATAGEN_NACCOUNTS * opts->scale +
									 opts->partitions - 1) / opts->partitions;

			appendStringInfoString(&sql, "  for values from (");
			if (p == 1)
				appendStringInfoString(&sql, "minvalue");
			else
				appendStringInfo(&sql, INT64_FORMAT, (p - 1) * part_size + 1);
			appendStringInfoString(&sql, ") to (");
			if (p < opts->partitions)
				appendStringInfo(&sql, INT64_FORMAT, p * part_size + 1);
			else
				appendStringInfoString(&sql, "maxvalue");
			appendStringInfoChar(&sql, ')');
		}
		else
			appendStringInfo(&sql, "  for values with (modulus %d, remainder %d)",
							 opts->partitions, p - 1);
		appendStringInfo(&sql, " with (fillfactor=%d)", opts->fillfactor);
		datagen_exec(sql.data);
	}
	pfree(sql.data);
}

/*
 * pgbench_init's jobs: the workers that generate pgbench_accounts.  1 is
 * the caller's backend alone, which needs no worker slot; more take one
 * slot each.  The default: one per core, within the free worker slots.
 */
static int
datagen_init_jobs(bool given, int jobs)
{
	int			clients;
	int			workers;
	int			free_slots;
	int			ncpus = (int) sysconf(_SC_NPROCESSORS_ONLN);

	owner_count_backends(&clients, &workers);
	free_slots = Max(max_worker_processes - workers, 0);
	if (!given)
		return Max(1, Min(ncpus, free_slots));
	if (jobs < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("jobs must be at least 1, not %d", jobs),
				 errdetail("jobs is the number of processes generating pgbench_accounts; 1 means this session alone."),
				 errhint("Pass jobs => 1 or more, or omit it to use one per core.")));
	if (jobs > 1 && jobs > free_slots)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("%d jobs need %d background worker slots, but only %d %s free",
						jobs, jobs, free_slots, free_slots == 1 ? "is" : "are"),
				 errdetail("pgbench_init with jobs greater than 1 takes one background worker per job; max_worker_processes is %d.",
						   max_worker_processes),
				 errhint("Pass fewer jobs, or raise max_worker_processes (this needs a restart).")));
	return jobs;
}

/*
 * pgbench_init's arguments, checked as pgbench -i checks them: method is
 * partition_method's text, jobs_given and jobs the jobs argument.  Sets
 * opts->method and opts->jobs.
 */
/*
 * pgbench -i --tablespace and --index-tablespace name a tablespace that
 * exists; refused here, before anything is dropped, rather than by the
 * CREATE TABLE after the drop (which the abort would undo, but later and
 * with less to say).  NULL: the database's default.
 */
static void
datagen_check_tablespace(const char *argname, const char *name)
{
	if (name == NULL)
		return;
	if (name[0] == '\0' || !OidIsValid(get_tablespace_oid(name, true)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("tablespace \"%s\" does not exist", name),
				 errdetail("pgbench_init's %s names the tablespace its %s are created in, as pgbench -i --%s does.",
						   argname,
						   strcmp(argname, "tablespace") == 0 ? "tables" : "primary keys",
						   strcmp(argname, "tablespace") == 0 ? "tablespace" : "index-tablespace"),
				 errhint("Create it first with CREATE TABLESPACE, pass the name of one listed in pg_tablespace, or pass NULL for the database's default.")));
}

void
datagen_check_options(DatagenOptions *opts, const char *method, bool jobs_given,
					  int jobs)
{
	if (opts->scale < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("scale must be at least 1, not %d", opts->scale),
				 errdetail("The scale is the number of branches; each brings 10 tellers and 100000 accounts."),
				 errhint("Pass a scale of 1 or more, as with pgbench -i -s.")));
	if (opts->scale > DATAGEN_MAX_SCALE)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("scale %d is too large", opts->scale),
				 errdetail("pgbench_tellers.tid is an integer holding up to 10 * scale, so the scale can be at most %d.",
						   DATAGEN_MAX_SCALE),
				 errhint("Pass a scale of at most %d.", DATAGEN_MAX_SCALE)));
	if (opts->fillfactor < 10 || opts->fillfactor > 100)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fillfactor must be in range 10..100, not %d",
						opts->fillfactor),
				 errdetail("The fillfactor is the percentage of each table page that is filled, as with pgbench -i -F."),
				 errhint("Pass a fillfactor between 10 and 100.")));
	if (opts->partitions < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partitions must be 0 or more, not %d", opts->partitions),
				 errdetail("partitions is the number of partitions of pgbench_accounts; 0 means not partitioned."),
				 errhint("Pass 0 for a plain table, or a positive number of partitions.")));
	if (opts->partitions > DATAGEN_MAX_PARTITIONS ||
		(int64) opts->partitions > (int64) 100000 * opts->scale)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%d partitions are too many for scale %d", opts->partitions, opts->scale),
				 errdetail("pgbench_accounts has 100000 * scale rows, and each partition is a table with its own locks; pgbenchx takes at most %d partitions and at most one per row.",
						   DATAGEN_MAX_PARTITIONS),
				 errhint("Pass fewer partitions.")));

	if (pg_strcasecmp(method, "range") == 0)
		opts->method = DATAGEN_PART_RANGE;
	else if (pg_strcasecmp(method, "hash") == 0)
		opts->method = DATAGEN_PART_HASH;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid partition method \"%s\"", method),
				 errdetail("pgbench partitions pgbench_accounts by range or by hash."),
				 errhint("Pass partition_method => 'range' or 'hash'.")));
	if (opts->method == DATAGEN_PART_HASH && opts->partitions == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition method \"hash\" requires partitions greater than zero"),
				 errdetail("pgbench_accounts is partitioned only when partitions is greater than zero."),
				 errhint("Pass partitions => N as well, with N of 1 or more.")));

	datagen_check_tablespace("tablespace", opts->tablespace);
	datagen_check_tablespace("index_tablespace", opts->index_tablespace);

	opts->jobs = datagen_init_jobs(jobs_given, jobs);
}

static Oid
datagen_table_oid(const char *name)
{
	return RangeVarGetRelid(makeRangeVar(NULL, (char *) name, -1), NoLock, false);
}

/* branches (bid, 0, NULL) and tellers (tid, (tid-1)/10+1, 0, NULL) */
static void
datagen_load_small(DatagenState *state)
{
	Datum		values[4];
	bool		nulls[4] = {false, false, false, true};
	HeapwriteTarget target;
	int			nbranches = DATAGEN_NBRANCHES * state->opts->scale;
	int			ntellers = DATAGEN_NTELLERS * state->opts->scale;

	heapwrite_open(state->cid, &target, datagen_table_oid("pgbench_branches"),
				   HEAPWRITE_BATCH_PAGES);
	for (int bid = 1; bid <= nbranches; bid++)
	{
		values[0] = Int32GetDatum(bid);
		values[1] = Int32GetDatum(0);
		values[2] = (Datum) 0;
		nulls[2] = true;
		heapwrite_add_values(&target, values, nulls);
	}
	heapwrite_close(&target);

	nulls[2] = false;
	heapwrite_open(state->cid, &target, datagen_table_oid("pgbench_tellers"),
				   HEAPWRITE_BATCH_PAGES);
	for (int tid = 1; tid <= ntellers; tid++)
	{
		values[0] = Int32GetDatum(tid);
		values[1] = Int32GetDatum((tid - 1) / DATAGEN_NTELLERS + 1);
		values[2] = Int32GetDatum(0);
		heapwrite_add_values(&target, values, nulls);
	}
	heapwrite_close(&target);
}

static void
datagen_report_progress(DatagenState *state, bool last)
{
	TimestampTz now = GetCurrentTimestamp();
	double		elapsed;
	double		remaining;

	if (!last && now - state->last_progress < DATAGEN_PROGRESS_USECS)
		return;
	state->last_progress = now;
	elapsed = (double) (now - state->load_start) / USECS_PER_SEC;
	remaining = state->rows_done > 0 ?
		elapsed * (state->rows_total - state->rows_done) / state->rows_done : 0;
	ereport(NOTICE,
			(errmsg(INT64_FORMAT " of " INT64_FORMAT " tuples (%d%%) of pgbench_accounts done (elapsed %.2f s, remaining %.2f s)",
					state->rows_done, state->rows_total,
					(int) (100 * state->rows_done / state->rows_total),
					elapsed, remaining)));
}

/*
 * The template row: aid 0, bid 0, abalance 0, filler = '' as char(84),
 * that is 84 blanks.  The partitions have the parent's row type (they are
 * created by CREATE TABLE ... PARTITION OF), so one template fits all.  aid
 * and bid are the leading fixed-width, never-null columns: their offsets in
 * the data area follow from alignment alone.
 */
static HeapTuple
datagen_accounts_template(const DatagenState *state, TupleDesc desc,
						  Size *aid_off, Size *bid_off)
{
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};

	values[0] = state->bigcols ? Int64GetDatum(0) : Int32GetDatum(0);
	values[1] = Int32GetDatum(0);
	values[2] = Int32GetDatum(0);
	values[3] = DirectFunctionCall3(bpcharin, CStringGetDatum(""),
									ObjectIdGetDatum(InvalidOid),
									Int32GetDatum(84 + VARHDRSZ));
	*aid_off = att_align_nominal(0, TupleDescAttr(desc, 0)->attalign);
	*bid_off = att_align_nominal(*aid_off + TupleDescAttr(desc, 0)->attlen,
								 TupleDescAttr(desc, 1)->attalign);
	if (TupleDescAttr(desc, 0)->attlen != (state->bigcols ? 8 : 4) ||
		TupleDescAttr(desc, 1)->attlen != 4)
		elog(ERROR, "unexpected row type of pgbench_accounts");
	return heap_form_tuple(desc, values, nulls);
}

static void
datagen_par_progress(void *arg, int64 rows_done, bool last)
{
	DatagenState *state = (DatagenState *) arg;

	state->rows_done = rows_done;
	if (!last)
		datagen_report_progress(state, false);
	else if (state->last_progress != state->load_start)
		datagen_report_progress(state, true);
}

/*
 * pgbench_accounts by state->jobs workers (datagen_par.c), the same pages
 * as datagen_load_accounts() writes alone.
 */
static void
datagen_load_accounts_parallel(DatagenState *state)
{
	DatagenParInput in;
	Relation	rel;

	memset(&in, 0, sizeof(in));
	in.opts = state->opts;
	in.jobs = state->jobs;
	in.bigcols = state->bigcols;
	in.cid = state->cid;
	in.accounts = datagen_table_oid("pgbench_accounts");
	in.rows_total = (int64) DATAGEN_NACCOUNTS * state->opts->scale;
	state->rows_total = in.rows_total;
	state->rows_done = 0;
	state->load_start = state->last_progress = GetCurrentTimestamp();

	rel = table_open(in.accounts, NoLock);
	in.template = datagen_accounts_template(state, RelationGetDescr(rel),
											&in.aid_off, &in.bid_off);
	table_close(rel, NoLock);
	in.progress = datagen_par_progress;
	in.progress_arg = state;
	datagen_par_load_accounts(&in);
	heap_freetuple(in.template);
}

/*
 * accounts (aid, (aid-1)/100000+1, 0, '') in aid order, routed to the
 * partition the executor would choose.  Every row is the same template
 * tuple with aid and bid patched in place on the page: no tuple is formed
 * per row.
 */
static void
datagen_load_accounts(DatagenState *state)
{
	const DatagenOptions *opts = state->opts;
	Oid			accounts = datagen_table_oid("pgbench_accounts");
	int			ntargets = Max(opts->partitions, 1);
	HeapwriteTarget *targets;
	PartitionKey key = NULL;
	PartitionBoundInfo bounds = NULL;
	int64		part_size = 0;
	Relation	parent = NULL;
	Oid		   *part_oids = NULL;
	int			current = -1;	/* range: the open partition */
	BtloadState *pkey = NULL;
	TupleDesc	desc;
	HeapTuple	template;
	Size		aid_off;
	Size		bid_off;

	if (state->jobs > 1)
	{
		datagen_load_accounts_parallel(state);
		return;
	}

	targets = palloc0(sizeof(HeapwriteTarget) * ntargets);
	state->rows_total = (int64) DATAGEN_NACCOUNTS * opts->scale;
	state->rows_done = 0;
	state->load_start = state->last_progress = GetCurrentTimestamp();

	if (opts->partitions == 0)
	{
		Oid			pkey_oid;

		heapwrite_open(state->cid, &targets[0], accounts, HEAPWRITE_BATCH_PAGES);
		/* its primary key, created on the empty table: built as we go */
		pkey_oid = pgx_primary_key_index(targets[0].rel);
		if (!OidIsValid(pkey_oid))
			elog(ERROR, "pgbench_accounts has no primary key");
		pkey = btload_begin(pkey_oid);
	}
	else
	{
		PartitionDesc pdesc;

		/* held open until the end: key and bounds live in its relcache entry */
		parent = table_open(accounts, NoLock);

		pdesc = RelationGetPartitionDesc(parent, false);
		if (pdesc->nparts != opts->partitions)
			elog(ERROR, "pgbench_accounts has %d partitions, expected %d",
				 pdesc->nparts, opts->partitions);
		key = RelationGetPartitionKey(parent);
		bounds = pdesc->boundinfo;
		part_size = (state->rows_total + opts->partitions - 1) / opts->partitions;
		part_oids = palloc(sizeof(Oid) * pdesc->nparts);
		memcpy(part_oids, pdesc->oids, sizeof(Oid) * pdesc->nparts);
		/* hash spreads rows over all partitions: keep all of them open */
		for (int i = 0; opts->method == DATAGEN_PART_HASH && i < pdesc->nparts; i++)
			heapwrite_open(state->cid, &targets[i], part_oids[i],
						   opts->partitions > DATAGEN_MANY_PARTITIONS ?
						   1 : HEAPWRITE_BATCH_PAGES);
	}

	desc = RelationGetDescr(parent ? parent : targets[0].rel);
	template = datagen_accounts_template(state, desc, &aid_off, &bid_off);

	for (int64 aid = 1; aid <= state->rows_total; aid++)
	{
		int			t = 0;
		int32		bid = (int32) ((aid - 1) / DATAGEN_NACCOUNTS + 1);
		HeapTupleHeader tup;
		char	   *data;

		if (opts->partitions > 0 && opts->method == DATAGEN_PART_RANGE)
		{
			t = (int) ((aid - 1) / part_size);
			if (t != current)
			{
				/* range partitions are filled one after the other */
				if (current >= 0)
					heapwrite_close(&targets[current]);
				heapwrite_open(state->cid, &targets[t], part_oids[t],
							   HEAPWRITE_BATCH_PAGES);
				current = t;
			}
		}
		else if (opts->partitions > 0)
		{
			bool		isnull = false;
			Datum		key_value;
			uint64		hash;

			key_value = state->bigcols ? Int64GetDatum(aid) : Int32GetDatum((int32) aid);
			hash = compute_partition_hash_value(key->partnatts, key->partsupfunc,
												key->partcollation,
												&key_value, &isnull);
			t = bounds->indexes[hash % bounds->nindexes];
		}

		tup = heapwrite_add(&targets[t], template->t_data, template->t_len);
		data = (char *) tup + tup->t_hoff;
		if (state->bigcols)
			memcpy(data + aid_off, &aid, sizeof(int64));
		else
		{
			int32		aid32 = (int32) aid;

			memcpy(data + aid_off, &aid32, sizeof(int32));
		}
		memcpy(data + bid_off, &bid, sizeof(int32));
		if (pkey)
			btload_add(pkey, aid, &tup->t_ctid);

		state->rows_done = aid;
		if ((aid & 0x3FFF) == 0)
		{
			CHECK_FOR_INTERRUPTS();
			datagen_report_progress(state, false);
		}
	}

	for (int i = 0; i < ntargets; i++)
		heapwrite_close(&targets[i]);
	if (pkey)
		btload_end(pkey);
	heap_freetuple(template);
	if (parent)
		table_close(parent, NoLock);
	if (state->last_progress != state->load_start)
		datagen_report_progress(state, true);
	pfree(targets);
}

/*
 * pgbench's primary keys.  An unpartitioned pgbench_accounts already has
 * its own: datagen_accounts_early_key() creates it on the empty table and
 * the load builds its pages (btload.c) from the TIDs it hands out, in aid
 * order, with no heap scan and no sort.  Partitioned accounts keep the
 * plain DDL (one sort per partition).
 */
static void
datagen_add_primary_key(const DatagenState *state, const char *table,
						const char *column)
{
	const char *ts = state->opts->index_tablespace;

	datagen_exec(psprintf("alter table %s add primary key (%s)%s%s", table, column,
						  ts ? " using index tablespace " : "",
						  ts ? quote_identifier(ts) : ""));
}

static void
datagen_primary_keys(DatagenState *state)
{
	datagen_add_primary_key(state, "pgbench_branches", "bid");
	datagen_add_primary_key(state, "pgbench_tellers", "tid");
	if (state->opts->partitions > 0)
		datagen_add_primary_key(state, "pgbench_accounts", "aid");
}

/*
 * The primary key of an unpartitioned pgbench_accounts, by pgbench's own
 * DDL, while the table is empty: this creates the constraint and an index
 * that is just a metapage, in no time; the load then replaces its contents.
 */
static void
datagen_accounts_early_key(DatagenState *state)
{
	if (state->opts->partitions == 0)
		datagen_add_primary_key(state, "pgbench_accounts", "aid");
}

static void
datagen_foreign_keys(void)
{
	datagen_exec("alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) references pgbench_branches");
	datagen_exec("alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey foreign key (bid) references pgbench_branches");
	datagen_exec("alter table pgbench_history add constraint pgbench_history_bid_fkey foreign key (bid) references pgbench_branches");
	datagen_exec("alter table pgbench_history add constraint pgbench_history_tid_fkey foreign key (tid) references pgbench_tellers");
	datagen_exec("alter table pgbench_history add constraint pgbench_history_aid_fkey foreign key (aid) references pgbench_accounts");
}

/*
 * Settings for one step, in a GUC nest level of our own, as a function's SET
 * clause would be: datagen_settings_end() (or the transaction's abort)
 * restores the caller's values.  Nothing outside this call sees them.
 */
static int
datagen_settings_begin(void)
{
	return NewGUCNestLevel();
}

static void
datagen_settings_end(int nestlevel)
{
	AtEOXact_GUC(true, nestlevel);
}

/*
 * For the generate step: compress the full-page images of the new pages in
 * WAL, unless the server already compresses them.  pgbench rows compress
 * about tenfold with lz4, and the WAL of the load is what the commit waits
 * for (and what triggers checkpoints at large scales).  The setting only
 * affects WAL written by this backend during the step, which is nothing but
 * the images of pages we generated, so it does not expose other data to
 * the compression side channel that makes wal_compression superuser-only.
 * lz4, else zstd; pglz is too slow to pay off, so without either nothing
 * changes.
 */
static void
datagen_set_wal_compression(void)
{
	static const char *const methods[] = {"lz4", "zstd"};

	if (wal_compression != WAL_COMPRESSION_NONE)
		return;
	for (int i = 0; i < (int) lengthof(methods); i++)
	{
		if (set_config_option("wal_compression", methods[i], PGC_SUSET,
							  PGC_S_SESSION, GUC_ACTION_SAVE, true,
							  DEBUG1, false) > 0)
			return;
	}
}

/*
 * For the primary keys step: enough maintenance_work_mem that the sort of
 * pgbench_accounts' keys stays in memory (and that a parallel build gets
 * its worker), estimated from the row count and capped so that memory stays
 * bounded at any scale; never lower than the caller's setting.
 */
static void
datagen_set_maintenance_work_mem(const DatagenState *state)
{
	int64		need_kb;
	char		value[32];

	need_kb = (int64) DATAGEN_NACCOUNTS * state->opts->scale *
		DATAGEN_SORT_BYTES_PER_ROW / 1024;
	need_kb = Min(need_kb, DATAGEN_MAX_SORT_MEM_KB);
	if (need_kb <= maintenance_work_mem)
		return;
	snprintf(value, sizeof(value), INT64_FORMAT "kB", need_kb);
	(void) set_config_option("maintenance_work_mem", value, PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
}

static void datagen_run_steps(DatagenState *state, StringInfo drop_list);

char *
datagen_run(const DatagenOptions *opts)
{
	DatagenState state;
	ErrorContextCallback errcallback;
	StringInfoData drop_list;
	StringInfoData result;

	memset(&state, 0, sizeof(state));
	state.opts = opts;
	state.bigcols = opts->scale >= DATAGEN_SCALE_32BIT_THRESHOLD;
	state.jobs = datagen_par_jobs_used(opts, opts->jobs);
	state.start = GetCurrentTimestamp();
	initStringInfo(&state.timings);

	initStringInfo(&drop_list);
	datagen_check_privileges(&drop_list);

	errcallback.callback = datagen_error_context;
	errcallback.arg = &state;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");

	/* the files an earlier call's crash left, then this call's own record */
	(void) initrecord_cleanup();
	initrecord_start();
	PG_TRY();
	{
		datagen_run_steps(&state, &drop_list);
	}
	PG_FINALLY();
	{
		initrecord_stop();
	}
	PG_END_TRY();

	SPI_finish();
	error_context_stack = errcallback.previous;

	initStringInfo(&result);
	appendStringInfo(&result, "done in %.2f s (%s), jobs %d.",
					 datagen_seconds_since(state.start), state.timings.data,
					 state.jobs);
	return result.data;
}

/* The steps, in the caller's transaction, noted in the crash record. */
static void
datagen_run_steps(DatagenState *state, StringInfo drop_list)
{
	const DatagenOptions *opts = state->opts;
	int			nestlevel;

	datagen_begin_step(state, "drop tables");
	if (drop_list->len > 0)
		datagen_exec(psprintf("drop table %s", drop_list->data));
	datagen_end_step(state);

	datagen_begin_step(state, "create tables");
	datagen_create_tables(state);
	datagen_accounts_early_key(state);
	datagen_end_step(state);
	/* the new relations are noted durably before they get data */
	initrecord_sync();

	datagen_begin_step(state, "generate");
	nestlevel = datagen_settings_begin();
	datagen_set_wal_compression();
	state->cid = GetCurrentCommandId(true);
	datagen_load_small(state);
	datagen_load_accounts(state);
	datagen_settings_end(nestlevel);
	CommandCounterIncrement();
	datagen_end_step(state);

	datagen_begin_step(state, "primary keys");
	nestlevel = datagen_settings_begin();
	datagen_set_maintenance_work_mem(state);
	datagen_primary_keys(state);
	datagen_settings_end(nestlevel);
	datagen_end_step(state);
	initrecord_sync();

	if (opts->foreign_keys)
	{
		datagen_begin_step(state, "foreign keys");
		datagen_foreign_keys();
		datagen_end_step(state);
	}

	datagen_begin_step(state, "analyze");
	datagen_exec("analyze pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history");
	datagen_end_step(state);
}
