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
#include "pgstat.h"
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

/*
 * A partitioned table may be declared unlogged until 17 (its partitions
 * inherit nothing from it); 18 refuses it, and pgbench 18's -i
 * --unlogged-tables --partitions then creates every table logged but the
 * partitions.
 */
#define PGX_PARTITIONED_UNLOGGED_OK	(PG_VERSION_NUM < 180000)

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
 * wal_counters from 18.  wal_write and wal_sync: members until 17; 18 moved
 * them to pg_stat_io (object wal), where pgbenchx does not read them yet:
 * pgx_wal_write_sync returns false with the reason in *why.
 */
#if PG_VERSION_NUM >= 180000
#define PGX_WALSTAT(w, field)		((w)->wal_counters.field)
#else
#define PGX_WALSTAT(w, field)		((w)->field)
#endif

static inline bool
pgx_wal_write_sync(const PgStat_WalStats *w, int64 *write, int64 *sync,
				   const char **why)
{
#if PG_VERSION_NUM >= 180000
	(void) w;
	*write = *sync = 0;
	*why = "PostgreSQL 18 moved them from pg_stat_wal to pg_stat_io, which pgbenchx does not read";
	return false;
#else
	*write = w->wal_write;
	*sync = w->wal_sync;
	*why = NULL;
	return true;
#endif
}

/*
 * The buffers written by the background writer (clean), the checkpointer
 * (checkpoint) and the backends (backend).  Until 16 pg_stat_bgwriter has all
 * three.  17 split pg_stat_checkpointer off (buffers_written) and moved the
 * backends' writes to pg_stat_io, which pgbenchx does not read: *backend_ok
 * is false there.  Returns whether clean and checkpoint were read; *why, when
 * set, says what was not.
 */
static inline bool
pgx_bgwriter_buffers(int64 *clean, int64 *checkpoint, int64 *backend,
					 bool *backend_ok, const char **why)
{
	PgStat_BgWriterStats *bgw = pgstat_fetch_stat_bgwriter();
	PgStat_CheckpointerStats *cp = pgstat_fetch_stat_checkpointer();
	bool		ok = bgw != NULL && cp != NULL;

	*why = NULL;
	*backend_ok = false;
	if (!ok)
		return false;
	*clean = bgw->buf_written_clean;
#if PG_VERSION_NUM >= 170000
	*checkpoint = cp->buffers_written;
	*backend = 0;
	*why = "buffers_backend: PostgreSQL 17 moved the backends' writes from pg_stat_bgwriter to pg_stat_io, which pgbenchx does not read";
#else
	*checkpoint = cp->buf_written_checkpoints;
	*backend = cp->buf_written_backend;
	*backend_ok = true;
#endif
	return true;
}

#endif							/* PGBENCHX_PG_COMPAT_H */
