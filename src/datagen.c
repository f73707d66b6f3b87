/*-------------------------------------------------------------------------
 *
 * datagen.c
 *	  pgbench_init: drop, create, fill, index and analyze the pgbench tables
 *	  server-side, with exactly the DDL and rows of "pgbench -i".
 *
 * The DDL is pgbench's own text, run through SPI.  The rows are built as
 * heap tuples and written with table_multi_insert() into the tables that
 * this same transaction created, so they are inserted frozen and their
 * pages marked all-visible (what COPY FREEZE does, without the text
 * parsing), batched on page boundaries so that every page gets its
 * visibility-map bit.  Indexes are built after the load.  Everything runs in
 * the caller's transaction: an error or a cancel leaves nothing behind.
 *
 * This file owns the pgbench table layout; it must not know about runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "storage/bufpage.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "datagen.h"

/* pgbench's constants */
#define DATAGEN_NBRANCHES			1
#define DATAGEN_NTELLERS			10
#define DATAGEN_NACCOUNTS			100000
#define DATAGEN_SCALE_32BIT_THRESHOLD 20000

/* about this many rows per table_multi_insert() call, as COPY does */
#define DATAGEN_BATCH_ROWS			1000
/* with more partitions than this, each one buffers a single page */
#define DATAGEN_MANY_PARTITIONS		16
/* a progress NOTICE at most this often */
#define DATAGEN_PROGRESS_USECS		(5 * USECS_PER_SEC)

static const char *const datagen_table_names[] = {
	"pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"
};

/* One heap being filled: its slots and bulk-insert state. */
typedef struct DatagenTarget
{
	Relation	rel;
	BulkInsertState bistate;
	int			options;		/* TABLE_INSERT_* */
	int			batch_rows;		/* rows per flush; 0 until first row */
	int			max_batch_rows; /* upper bound on batch_rows */
	int			nbuffered;
	TupleTableSlot **slots;
	MemoryContext batchcxt;		/* the buffered tuples; reset per flush */
} DatagenTarget;

/* The state of one pgbench_init call. */
typedef struct DatagenState
{
	const DatagenOptions *opts;
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

	nspid = RangeVarGetCreationNamespace(makeRangeVar(NULL, "pgbench_accounts", -1));
#if PG_VERSION_NUM >= 160000
	aclresult = object_aclcheck(NamespaceRelationId, nspid, GetUserId(), ACL_CREATE);
#else
	aclresult = pg_namespace_aclcheck(nspid, GetUserId(), ACL_CREATE);
#endif
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
#if PG_VERSION_NUM >= 160000
		owner = object_ownercheck(RelationRelationId, relid, GetUserId());
#else
		owner = pg_class_ownercheck(relid, GetUserId());
#endif
		if (!owner)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("must be owner of table %s to replace it", name),
					 errdetail("pgbench_init drops the existing pgbench tables and creates them anew."),
					 errhint("Run pgbench_init as the owner of the existing pgbench tables, or have their owner drop them.")));
		appendStringInfo(drop_list, "%s%s",
						 drop_list->len > 0 ? ", " : "",
						 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
													name));
	}
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
	const char *unlogged = opts->unlogged ? " unlogged" : "";
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
		datagen_exec(sql.data);
	}

	for (int p = 1; p <= opts->partitions; p++)
	{
		resetStringInfo(&sql);
		appendStringInfo(&sql,
						 "create%s table pgbench_accounts_%d\n"
						 "  partition of pgbench_accounts\n", unlogged, p);
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
 * How many tuples of length tuplen heap_multi_insert() puts on one page of
 * rel: the first always fits, each further one while the page keeps the
 * fillfactor's reserve free.  Flushing whole pages means every batch starts
 * on an empty page, which heap_multi_insert() then marks all-frozen.
 */
static int
datagen_rows_per_page(Relation rel, Size tuplen)
{
	Size		need = MAXALIGN(tuplen) + sizeof(ItemIdData);
	Size		reserve = RelationGetTargetPageFreeSpace(rel, HEAP_DEFAULT_FILLFACTOR);
	Size		room = BLCKSZ - SizeOfPageHeaderData - sizeof(ItemIdData);
	Size		rows = 1;

	if (room >= MAXALIGN(tuplen) + reserve)
		rows += (room - MAXALIGN(tuplen) - reserve) / need;
	return (int) Min(rows, MaxHeapTuplesPerPage);
}

static void
datagen_target_open(DatagenTarget *target, Oid relid, int max_batch_rows)
{
	SubTransactionId mysubid = GetCurrentSubTransactionId();

	memset(target, 0, sizeof(*target));
	target->rel = table_open(relid, RowExclusiveLock);
	target->bistate = GetBulkInsertState();
	target->options = TABLE_INSERT_SKIP_FSM;
	/* as COPY FREEZE: only into a relfilenode of this subtransaction */
	if (target->rel->rd_createSubid == mysubid ||
		target->rel->rd_newRelfilenodeSubid == mysubid)
		target->options |= TABLE_INSERT_FROZEN;
	target->max_batch_rows = max_batch_rows;
	target->batchcxt = AllocSetContextCreate(CurrentMemoryContext,
											 "pgbenchx datagen batch",
											 ALLOCSET_DEFAULT_SIZES);
}

static void
datagen_target_flush(DatagenState *state, DatagenTarget *target)
{
	if (target->nbuffered == 0)
		return;
	table_multi_insert(target->rel, target->slots, target->nbuffered,
					   state->cid, target->options, target->bistate);
	for (int i = 0; i < target->nbuffered; i++)
		ExecClearTuple(target->slots[i]);
	target->nbuffered = 0;
	MemoryContextReset(target->batchcxt);
	CHECK_FOR_INTERRUPTS();
}

static void
datagen_target_close(DatagenState *state, DatagenTarget *target)
{
	if (target->rel == NULL)
		return;
	datagen_target_flush(state, target);
	for (int i = 0; i < target->batch_rows; i++)
		ExecDropSingleTupleTableSlot(target->slots[i]);
	if (target->slots)
		pfree(target->slots);
	FreeBulkInsertState(target->bistate);
	MemoryContextDelete(target->batchcxt);
	table_finish_bulk_insert(target->rel, target->options);
	table_close(target->rel, NoLock);
	target->rel = NULL;
}

/* Buffer one row for target, flushing a full batch. */
static void
datagen_target_add(DatagenState *state, DatagenTarget *target,
				   Datum *values, bool *nulls)
{
	MemoryContext oldcxt;
	HeapTuple	tuple;

	oldcxt = MemoryContextSwitchTo(target->batchcxt);
	tuple = heap_form_tuple(RelationGetDescr(target->rel), values, nulls);
	MemoryContextSwitchTo(oldcxt);

	if (target->batch_rows == 0)
	{
		int			per_page = datagen_rows_per_page(target->rel, tuple->t_len);

		target->batch_rows = per_page * Max(1, target->max_batch_rows / per_page);
		target->slots = palloc(sizeof(TupleTableSlot *) * target->batch_rows);
		for (int i = 0; i < target->batch_rows; i++)
			target->slots[i] = MakeSingleTupleTableSlot(RelationGetDescr(target->rel),
														&TTSOpsHeapTuple);
	}
	/* the slot owns the tuple: no copy when heap_multi_insert fetches it */
	ExecStoreHeapTuple(tuple, target->slots[target->nbuffered++], true);
	if (target->nbuffered == target->batch_rows)
		datagen_target_flush(state, target);
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
	DatagenTarget target;
	int			nbranches = DATAGEN_NBRANCHES * state->opts->scale;
	int			ntellers = DATAGEN_NTELLERS * state->opts->scale;

	datagen_target_open(&target, datagen_table_oid("pgbench_branches"),
						DATAGEN_BATCH_ROWS);
	for (int bid = 1; bid <= nbranches; bid++)
	{
		values[0] = Int32GetDatum(bid);
		values[1] = Int32GetDatum(0);
		values[2] = (Datum) 0;
		nulls[2] = true;
		datagen_target_add(state, &target, values, nulls);
	}
	datagen_target_close(state, &target);

	nulls[2] = false;
	datagen_target_open(&target, datagen_table_oid("pgbench_tellers"),
						DATAGEN_BATCH_ROWS);
	for (int tid = 1; tid <= ntellers; tid++)
	{
		values[0] = Int32GetDatum(tid);
		values[1] = Int32GetDatum((tid - 1) / DATAGEN_NTELLERS + 1);
		values[2] = Int32GetDatum(0);
		datagen_target_add(state, &target, values, nulls);
	}
	datagen_target_close(state, &target);
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
 * accounts (aid, (aid-1)/100000+1, 0, '') in aid order, routed to the
 * partition the executor would choose.
 */
static void
datagen_load_accounts(DatagenState *state)
{
	const DatagenOptions *opts = state->opts;
	Oid			accounts = datagen_table_oid("pgbench_accounts");
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	int			ntargets = Max(opts->partitions, 1);
	DatagenTarget *targets;
	PartitionKey key = NULL;
	PartitionBoundInfo bounds = NULL;
	int64		part_size = 0;
	Relation	parent = NULL;
	Oid		   *part_oids = NULL;
	int			current = -1;	/* range: the open partition */

	targets = palloc0(sizeof(DatagenTarget) * ntargets);
	state->rows_total = (int64) DATAGEN_NACCOUNTS * opts->scale;
	state->rows_done = 0;
	state->load_start = state->last_progress = GetCurrentTimestamp();

	/* filler = '' as char(84): 84 blanks */
	values[3] = DirectFunctionCall3(bpcharin, CStringGetDatum(""),
									ObjectIdGetDatum(InvalidOid),
									Int32GetDatum(84 + VARHDRSZ));
	values[2] = Int32GetDatum(0);

	if (opts->partitions == 0)
		datagen_target_open(&targets[0], accounts, DATAGEN_BATCH_ROWS);
	else
	{
		PartitionDesc desc;

		/* held open until the end: key and bounds live in its relcache entry */
		parent = table_open(accounts, NoLock);

#if PG_VERSION_NUM >= 140000
		desc = RelationGetPartitionDesc(parent, false);
#else
		desc = RelationGetPartitionDesc(parent);
#endif
		if (desc->nparts != opts->partitions)
			elog(ERROR, "pgbench_accounts has %d partitions, expected %d",
				 desc->nparts, opts->partitions);
		key = RelationGetPartitionKey(parent);
		bounds = desc->boundinfo;
		part_size = (state->rows_total + opts->partitions - 1) / opts->partitions;
		part_oids = palloc(sizeof(Oid) * desc->nparts);
		memcpy(part_oids, desc->oids, sizeof(Oid) * desc->nparts);
		/* hash spreads rows over all partitions: keep all of them open */
		for (int i = 0; opts->method == DATAGEN_PART_HASH && i < desc->nparts; i++)
			datagen_target_open(&targets[i], part_oids[i],
								opts->partitions > DATAGEN_MANY_PARTITIONS ?
								1 : DATAGEN_BATCH_ROWS);
	}

	for (int64 aid = 1; aid <= state->rows_total; aid++)
	{
		int			t = 0;

		values[0] = state->bigcols ? Int64GetDatum(aid) : Int32GetDatum((int32) aid);
		values[1] = Int32GetDatum((int32) ((aid - 1) / DATAGEN_NACCOUNTS + 1));

		if (opts->partitions > 0 && opts->method == DATAGEN_PART_RANGE)
		{
			t = (int) ((aid - 1) / part_size);
			if (t != current)
			{
				/* range partitions are filled one after the other */
				if (current >= 0)
					datagen_target_close(state, &targets[current]);
				datagen_target_open(&targets[t], part_oids[t], DATAGEN_BATCH_ROWS);
				current = t;
			}
		}
		else if (opts->partitions > 0)
		{
			bool		isnull = false;
			uint64		hash;

			hash = compute_partition_hash_value(key->partnatts, key->partsupfunc,
												key->partcollation,
												&values[0], &isnull);
			t = bounds->indexes[hash % bounds->nindexes];
		}

		datagen_target_add(state, &targets[t], values, nulls);
		state->rows_done = aid;
		if ((aid & 0x3FFF) == 0)
		{
			CHECK_FOR_INTERRUPTS();
			datagen_report_progress(state, false);
		}
	}

	for (int i = 0; i < ntargets; i++)
		datagen_target_close(state, &targets[i]);
	if (parent)
		table_close(parent, NoLock);
	if (state->last_progress != state->load_start)
		datagen_report_progress(state, true);
	pfree(targets);
}

static void
datagen_primary_keys(void)
{
	datagen_exec("alter table pgbench_branches add primary key (bid)");
	datagen_exec("alter table pgbench_tellers add primary key (tid)");
	datagen_exec("alter table pgbench_accounts add primary key (aid)");
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

	datagen_begin_step(&state, "drop tables");
	if (drop_list.len > 0)
		datagen_exec(psprintf("drop table %s", drop_list.data));
	datagen_end_step(&state);

	datagen_begin_step(&state, "create tables");
	datagen_create_tables(&state);
	datagen_end_step(&state);

	datagen_begin_step(&state, "generate");
	state.cid = GetCurrentCommandId(true);
	datagen_load_small(&state);
	datagen_load_accounts(&state);
	CommandCounterIncrement();
	datagen_end_step(&state);

	datagen_begin_step(&state, "primary keys");
	datagen_primary_keys();
	datagen_end_step(&state);

	if (opts->foreign_keys)
	{
		datagen_begin_step(&state, "foreign keys");
		datagen_foreign_keys();
		datagen_end_step(&state);
	}

	datagen_begin_step(&state, "analyze");
	datagen_exec("analyze pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history");
	datagen_end_step(&state);

	SPI_finish();
	error_context_stack = errcallback.previous;

	initStringInfo(&result);
	appendStringInfo(&result, "done in %.2f s (%s).",
					 datagen_seconds_since(state.start), state.timings.data);
	return result.data;
}
