/*
 * src/common/pg_compat.h: every difference between the PostgreSQL majors pgbenchx
 * builds against (15, 16, 17, 18, 19).  This header owns them all: the rest of
 * the tree calls the names defined here and carries no #if PG_VERSION_NUM of
 * its own wherever a wrapper can hide the difference.  Each section says the
 * major that changed the API and what the wrapper means on every major; on 15
 * every wrapper does exactly what the tree did before it existed.
 *
 * Naming: pgx_ functions and PGX_ macros; types PgxRelFile*.  Include it after
 * postgres.h and the headers of the APIs it wraps; it includes what it needs.
 */
#ifndef PGBENCHX_PG_COMPAT_H
#define PGBENCHX_PG_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 150000
#error "pgbenchx needs PostgreSQL 15 or later"
#endif

#include "access/transam.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "common/relpath.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgwriter.h"
#include "storage/bufpage.h"
#include "storage/smgr.h"
#include "utils/acl.h"
#include "utils/rel.h"
#include "utils/relcache.h"

/*
 * A relation's file: RelFileNode (spcNode, dbNode, relNode) until 15,
 * RelFileLocator (spcOid, dbOid, relNumber) from 16, which also renamed
 * Relation.rd_node to rd_locator and SMgrRelation.smgr_rnode to smgr_rlocator.
 */
#if PG_VERSION_NUM >= 160000
#include "storage/relfilelocator.h"
typedef RelFileLocator PgxRelFile;
typedef RelFileLocatorBackend PgxRelFileBackend;
#define PGX_RELFILE_SPC(f)			((f).spcOid)
#define PGX_RELFILE_DB(f)			((f).dbOid)
#define PGX_RELFILE_NUM(f)			((f).relNumber)
#define PGX_RELFILE_EQUAL(a, b)		RelFileLocatorEquals(a, b)
#define PGX_RELATION_FILE(rel)		((rel)->rd_locator)
#define PGX_SMGR_FILE_BACKEND(reln) ((reln)->smgr_rlocator)
#define PGX_SMGR_FILE(reln)			((reln)->smgr_rlocator.locator)
#else
#include "storage/relfilenode.h"
typedef RelFileNode PgxRelFile;
typedef RelFileNodeBackend PgxRelFileBackend;
#define PGX_RELFILE_SPC(f)			((f).spcNode)
#define PGX_RELFILE_DB(f)			((f).dbNode)
#define PGX_RELFILE_NUM(f)			((f).relNode)
#define PGX_RELFILE_EQUAL(a, b)		RelFileNodeEquals(a, b)
#define PGX_RELATION_FILE(rel)		((rel)->rd_node)
#define PGX_SMGR_FILE_BACKEND(reln) ((reln)->smgr_rnode)
#define PGX_SMGR_FILE(reln)			((reln)->smgr_rnode.node)
#endif

/*
 * A relation given a new file (relcache.h): RelationSetNewRelfilenode until
 * 15, RelationSetNewRelfilenumber from 16; the subtransaction that did it:
 * rd_newRelfilenodeSubid until 15, rd_newRelfilelocatorSubid from 16.
 */
#if PG_VERSION_NUM >= 160000
#define pgx_relation_set_new_relfile(rel, persistence) \
	RelationSetNewRelfilenumber((rel), (persistence))
#define PGX_REL_NEW_FILE_SUBID(rel)	((rel)->rd_newRelfilelocatorSubid)
#else
#define pgx_relation_set_new_relfile(rel, persistence) \
	RelationSetNewRelfilenode((rel), (persistence))
#define PGX_REL_NEW_FILE_SUBID(rel)	((rel)->rd_newRelfilenodeSubid)
#endif

/*
 * A relation's primary key index: from 18 RelationGetPrimaryKeyIndex says
 * whether a deferrable one counts; until 17 it never did (false).
 */
#if PG_VERSION_NUM >= 180000
#define pgx_primary_key_index(rel)	RelationGetPrimaryKeyIndex((rel), false)
#else
#define pgx_primary_key_index(rel)	RelationGetPrimaryKeyIndex(rel)
#endif

/*
 * A function that never returns: pg_attribute_noreturn(), written after the
 * declarator, until 17; pg_noreturn, written first, from 18.  pgx_noreturn
 * goes first on every major (GCC and Clang read the attribute there too).
 */
#if PG_VERSION_NUM >= 180000
#define pgx_noreturn				pg_noreturn
#else
#define pgx_noreturn				pg_attribute_noreturn()
#endif

/*
 * varlena's macros (VARDATA, SET_VARSIZE ...): in postgres.h until 15, in
 * varatt.h from 16 (which postgres.h includes until 18, not from 19).
 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * A page's checksum set in place before it is written: PageSetChecksumInplace
 * until 18, PageSetChecksum from 19.  An item added to a page: an Item
 * (char *) until 18, a const void * from 19 (which removed the Item type).
 */
#if PG_VERSION_NUM >= 190000
#define pgx_page_set_checksum_inplace(page, blkno)	PageSetChecksum((page), (blkno))
#define PGX_ITEM(p)					((const void *) (p))
#else
#define pgx_page_set_checksum_inplace(page, blkno)	PageSetChecksumInplace((page), (blkno))
#define PGX_ITEM(p)					((Item) (p))
#endif

/* RequestCheckpoint's "without delays": CHECKPOINT_IMMEDIATE until 18, CHECKPOINT_FAST from 19 */
#if PG_VERSION_NUM >= 190000
#define PGX_CHECKPOINT_FAST			CHECKPOINT_FAST
#else
#define PGX_CHECKPOINT_FAST			CHECKPOINT_IMMEDIATE
#endif

/*
 * The shared transaction-id counters (access/transam.h):
 * ShmemVariableCache until 16, TransamVariables from 17.
 */
#if PG_VERSION_NUM >= 170000
#define PGX_TRANSAM_VARS			TransamVariables
#else
#define PGX_TRANSAM_VARS			ShmemVariableCache
#endif

/*
 * The relation of a file number: utils/relfilenodemap.h's RelidByRelfilenode
 * until 15, utils/relfilenumbermap.h's RelidByRelfilenumber from 16.
 */
#if PG_VERSION_NUM >= 160000
#include "utils/relfilenumbermap.h"
#define pgx_relid_by_relfile(spc, num)	RelidByRelfilenumber((spc), (num))
#else
#include "utils/relfilenodemap.h"
#define pgx_relid_by_relfile(spc, num)	RelidByRelfilenode((spc), (num))
#endif

/*
 * smgropen of a permanent relation's file: the backend argument is a
 * BackendId (InvalidBackendId) until 16, a ProcNumber (INVALID_PROC_NUMBER)
 * from 17.  17 also closes unpinned SMgrRelations at the end of each
 * transaction; pgx_smgropen_perm's result is valid until then on every
 * major (callers that keep it longer must not).
 */
#if PG_VERSION_NUM >= 170000
#define pgx_smgropen_perm(f)		smgropen((f), INVALID_PROC_NUMBER)
#else
#define pgx_smgropen_perm(f)		smgropen((f), InvalidBackendId)
#endif

/*
 * The path of a permanent relation's fork, palloc'd: relpathperm returns a
 * palloc'd char * until 17, a RelPathStr by value from 18.
 */
static inline char *
pgx_relpathperm(PgxRelFile f, ForkNumber fork)
{
#if PG_VERSION_NUM >= 180000
	return pstrdup(relpathperm(f, fork).str);
#else
	return relpathperm(f, fork);
#endif
}

/*
 * The number of a PGPROC in ProcGlobal->allProcs: PGPROC.pgprocno until 16,
 * removed in 17 (GetNumberFromPGProc, MyProcNumber).
 */
#if PG_VERSION_NUM >= 170000
#define PGX_PROCNO(proc)			((int) GetNumberFromPGProc(proc))
#else
#define PGX_PROCNO(proc)			((proc)->pgprocno)
#endif

/*
 * The connection slots kept from roles that are not superusers:
 * superuser_reserved_connections (ReservedBackends) until 15; from 16 also
 * reserved_connections (SuperuserReservedConnections + ReservedConnections).
 */
#if PG_VERSION_NUM >= 160000
#define PGX_RESERVED_CONNECTIONS	(SuperuserReservedConnections + ReservedConnections)
#else
#define PGX_RESERVED_CONNECTIONS	ReservedBackends
#endif

/*
 * A WaitEventSet: allocated in a memory context until 16; from 17 always in
 * TopMemoryContext and released by a resource owner (NULL: by its caller
 * only).  long_lived: kept past the current resource owner (TopMemoryContext
 * until 16, no owner from 17); else CurrentMemoryContext until 16,
 * CurrentResourceOwner from 17.
 */
#if PG_VERSION_NUM >= 170000
#include "utils/resowner.h"
#define pgx_create_wait_event_set(nevents, long_lived) \
	CreateWaitEventSet((long_lived) ? NULL : CurrentResourceOwner, (nevents))
#else
#include "utils/memutils.h"
#define pgx_create_wait_event_set(nevents, long_lived) \
	CreateWaitEventSet((long_lived) ? TopMemoryContext : CurrentMemoryContext, (nevents))
#endif

/*
 * All GUCs: get_guc_variables(void) plus GetNumConfigOptions() until 15,
 * get_guc_variables(&num) from 16.
 */
#if PG_VERSION_NUM >= 160000
#define pgx_get_guc_variables(nvars)	get_guc_variables(nvars)
#else
#define pgx_get_guc_variables(nvars) \
	(*(nvars) = GetNumConfigOptions(), get_guc_variables())
#endif

/* float8in_internal: an escontext argument (NULL: throw) from 16 */
#if PG_VERSION_NUM >= 160000
#define pgx_float8in_internal(num, endptr, type_name, orig_string) \
	float8in_internal((num), (endptr), (type_name), (orig_string), NULL)
#else
#define pgx_float8in_internal(num, endptr, type_name, orig_string) \
	float8in_internal((num), (endptr), (type_name), (orig_string))
#endif

/*
 * ACL and ownership checks of an object: per-class functions until 15,
 * object_aclcheck/object_ownercheck from 16.
 */
#if PG_VERSION_NUM >= 160000
#define pgx_namespace_aclcheck(nspid, roleid, mode) \
	object_aclcheck(NamespaceRelationId, (nspid), (roleid), (mode))
#define pgx_class_ownercheck(relid, roleid) \
	object_ownercheck(RelationRelationId, (relid), (roleid))
#else
#define pgx_namespace_aclcheck(nspid, roleid, mode) \
	pg_namespace_aclcheck((nspid), (roleid), (mode))
#define pgx_class_ownercheck(relid, roleid) \
	pg_class_ownercheck((relid), (roleid))
#endif

/*
 * A backend's local status by index (1-based): pgstat_fetch_stat_local_beentry
 * until 15, pgstat_get_local_beentry_by_index from 16.
 */
#if PG_VERSION_NUM >= 160000
#define pgx_local_beentry(i)		pgstat_get_local_beentry_by_index(i)
#else
#define pgx_local_beentry(i)		pgstat_fetch_stat_local_beentry(i)
#endif

/*
 * PgStat_StatDBEntry's counters: n_blocks_fetched etc. until 15, the n_
 * prefix dropped in 16.
 */
#if PG_VERSION_NUM >= 160000
#define PGX_DBSTAT(db, field)		((db)->field)
#else
#define PGX_DBSTAT(db, field)		((db)->n_##field)
#endif

/*
 * The cluster's WAL counters: PgStat_WalStats members until 17, inside its
 * wal_counters from 18.
 */
#if PG_VERSION_NUM >= 180000
#define PGX_WALSTAT(w, field)		((w)->wal_counters.field)
#else
#define PGX_WALSTAT(w, field)		((w)->field)
#endif

/*
 * pg_stat_io (16 and later): pgstat_fetch_stat_io()'s counts, one cell per
 * backend type, object, context and operation, as its rows; a cell that
 * PostgreSQL does not track stays 0.  Read for the figures 17 and 18 moved
 * there.
 */
#if PG_VERSION_NUM >= 170000
#define PGX_IO_COUNT(io, bktype, object, context, op) \
	((int64) (io)->stats[(bktype)].counts[(object)][(context)][(op)])
#endif

/*
 * WAL writes and syncs, pg_stat_wal's wal_write and wal_sync until 17: one
 * per pg_pwrite() of XLogWrite, one per issue_xlog_fsync() (that is, per
 * fsync or fdatasync of a WAL file, none with an open_* wal_sync_method).
 * 18 dropped both from pg_stat_wal; its xlog.c counts the same calls in
 * pg_stat_io, object wal, context normal: writes at the same pg_pwrite and
 * fsyncs at the end of issue_xlog_fsync, where 17 counted wal_sync.  What
 * that context also counts, and the object's other context, are left out
 * so that both mean what they meant:
 *  - writes by the walreceiver (a standby writing the WAL it receives):
 *    17 did not count them in wal_write, 18 does in pg_stat_io;
 *  - context init: the writes and the fsync that fill a new segment with
 *    zeros (XLogFileInitInternal), which 17 counted in neither.
 * The one difference left: 17 counted a pg_pwrite interrupted by a signal
 * (EINTR, then retried) as a write, 18 counts only the call that wrote;
 * pg_pwrite to a local file system is not interrupted by signals.
 * wal_sync keeps the walreceiver's fsyncs, as 17 did (it reported them only
 * as it exited).
 */
static inline void
pgx_wal_write_sync(const PgStat_WalStats *w, int64 *write, int64 *sync)
{
#if PG_VERSION_NUM >= 180000
	PgStat_IO  *io = pgstat_fetch_stat_io();

	(void) w;
	*write = *sync = 0;
	for (int b = 0; b < BACKEND_NUM_TYPES; b++)
	{
		if (b != B_WAL_RECEIVER)
			*write += PGX_IO_COUNT(io, b, IOOBJECT_WAL, IOCONTEXT_NORMAL, IOOP_WRITE);
		*sync += PGX_IO_COUNT(io, b, IOOBJECT_WAL, IOCONTEXT_NORMAL, IOOP_FSYNC);
	}
#else
	*write = w->wal_write;
	*sync = w->wal_sync;
#endif
}

/*
 * The buffers written by the background writer (clean), the checkpointer
 * (checkpoint) and the other processes (backend).  Until 16
 * pg_stat_bgwriter has all three; 17 split pg_stat_checkpointer off
 * (buffers_written) and dropped buffers_backend.
 *
 * What 15 and 16 counted as buffers_backend: ForwardSyncRequest's
 * num_backend_writes, one per sync request that a process other than the
 * checkpointer and the background writer hands to the checkpointer
 * (register_dirty_segment), that is one per mdwrite() of a shared buffer
 * (FlushBuffer, with or without a buffer access strategy) and one per
 * mdextend()/mdzeroextend() of a permanent relation (15: one per block
 * added, as it writes the block of zeros; 16: one per call, which may add
 * several), besides the few requests of SLRU page writes, file creations
 * and truncations.  Measured with two pgbench clients: on 15, inserts
 * into a table that fits in shared buffers (no buffer written) count 8204
 * for its 8331 new blocks; on 16 (pg_stat_bgwriter beside pg_stat_io) the
 * counter is pg_stat_io's writes plus extends to within 1%: tpcb-like in
 * 1 MB of shared buffers 9388 against 9276 + 86, inserts 39642 against
 * 12165 + 27706 (the writes alone are a third of it).
 *
 * From 17 it is therefore the sum, in pg_stat_io, of the writes and the
 * extends of object relation (shared buffers of permanent relations; temp
 * relations never reached the checkpointer) by every backend type but the
 * checkpointer and the background writer, in every context: normal,
 * vacuum, bulkread and bulkwrite are only which buffers the process used
 * (a strategy ring or not), and 15's mdwrite and mdextend counted them
 * all alike.  The checkpointer and the background writer are left out
 * exactly as before (their writes are checkpoint and clean).  Left out
 * too, as pg_stat_io does not count them: the SLRU, creation and
 * truncation requests (a handful per second at most).  A multi-block
 * extension counts its blocks, as 15 did, where 16 counted it once.
 *
 * Returns whether the three were read.
 */
static inline bool
pgx_bgwriter_buffers(int64 *clean, int64 *checkpoint, int64 *backend)
{
	PgStat_BgWriterStats *bgw = pgstat_fetch_stat_bgwriter();
	PgStat_CheckpointerStats *cp = pgstat_fetch_stat_checkpointer();

	if (bgw == NULL || cp == NULL)
		return false;
	*clean = bgw->buf_written_clean;
#if PG_VERSION_NUM >= 170000
	{
		PgStat_IO  *io = pgstat_fetch_stat_io();

		*checkpoint = cp->buffers_written;
		*backend = 0;
		for (int b = 0; b < BACKEND_NUM_TYPES; b++)
		{
			if (b == B_CHECKPOINTER || b == B_BG_WRITER)
				continue;
			for (int c = 0; c < IOCONTEXT_NUM_TYPES; c++)
				*backend += PGX_IO_COUNT(io, b, IOOBJECT_RELATION, c, IOOP_WRITE) +
					PGX_IO_COUNT(io, b, IOOBJECT_RELATION, c, IOOP_EXTEND);
		}
	}
#else
	*checkpoint = cp->buf_written_checkpoints;
	*backend = cp->buf_written_backend;
#endif
	return true;
}

/*
 * A string GUC's own memory, for a check hook that replaces the value or
 * keeps an "extra": malloc/free until 15 (guc.c frees them with free()),
 * guc_malloc/guc_free from 16 (the GUC memory context).
 */
#include "utils/guc.h"
#if PG_VERSION_NUM >= 160000
#define pgx_guc_malloc(elevel, size)	guc_malloc((elevel), (size))
#define pgx_guc_free(ptr)				guc_free(ptr)
#else
static inline void *
pgx_guc_malloc(int elevel, size_t size)
{
	void	   *p = malloc(size ? size : 1);

	if (p == NULL)
		ereport(elevel,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	return p;
}
#define pgx_guc_free(ptr)				free(ptr)
#endif

/*
 * SCRAM pass-through (18): a backend whose client logged in with SCRAM keeps
 * the exchange's ClientKey and ServerKey (MyProcPort->scram_ClientKey,
 * scram_ServerKey, has_scram_keys), and libpq 18 logs in with them instead
 * of a password (scram_client_key, scram_server_key, base64), as
 * postgres_fdw's use_scram_passthrough does.  pgx_scram_keys copies the
 * session's keys, base64-encoded (palloc'd), into *client and *server, and
 * says whether there are any (never before 18).
 */
#if PG_VERSION_NUM >= 180000
#include "common/base64.h"
#include "libpq/libpq-be.h"
static inline char *
pgx_scram_key_b64(const uint8 *key, int len)
{
	int			enclen = pg_b64_enc_len(len);
	char	   *out = palloc0(enclen + 1);

	if (pg_b64_encode(key, len, out, enclen) < 0)
		elog(ERROR, "could not encode a SCRAM key");
	return out;
}

static inline bool
pgx_scram_keys(char **client, char **server)
{
	if (MyProcPort == NULL || !MyProcPort->has_scram_keys)
		return false;
	*client = pgx_scram_key_b64(MyProcPort->scram_ClientKey, sizeof(MyProcPort->scram_ClientKey));
	*server = pgx_scram_key_b64(MyProcPort->scram_ServerKey, sizeof(MyProcPort->scram_ServerKey));
	return true;
}
#else
static inline bool
pgx_scram_keys(char **client, char **server)
{
	(void) client;
	(void) server;
	return false;
}
#endif

/*
 * The pgbench whose script language and words pgbenchx speaks: the one of
 * this server's major (issue 21), so that a script runs here exactly when it
 * runs under the pgbench shipped with the server.  Passed to the language
 * core as a parse option (script_sql.h's script_sql_parse_opts); what
 * changes from major to major is listed in src/README.md, "pgbench per
 * major".
 */
#define PGX_PGBENCH_MAJOR			(PG_VERSION_NUM / 10000)

/*
 * PostgreSQL 19's BGWORKER_INTERRUPTIBLE: a worker connected to a database
 * is terminated (SIGTERM, as pg_terminate_backend) when that database is
 * dropped, renamed, moved or copied by CREATE, ALTER or DROP DATABASE, as the
 * sessions are with FORCE.  pgbenchx's workers set it (issue 36 item 9, the
 * reasons in docs/running.md, "A database that is dropped"): a benchmark
 * never holds a DBA's DROP DATABASE.  Only the coordinator is connected to a
 * database; the drivers and init workers are not, and are never matched.
 * Before 19 there is no such flag: DROP DATABASE of a database with a run in
 * progress is refused as for any session, until the run ends or is
 * cancelled.
 */
#if PG_VERSION_NUM >= 190000
#define PGX_BGWORKER_INTERRUPTIBLE	BGWORKER_INTERRUPTIBLE
#else
#define PGX_BGWORKER_INTERRUPTIBLE	0
#endif

#endif							/* PGBENCHX_PG_COMPAT_H */
