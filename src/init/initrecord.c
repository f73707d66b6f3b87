/*-------------------------------------------------------------------------
 * initrecord.c
 *	  pgbench_init's crash record, and the cleanup that reads it.
 *
 * PostgreSQL removes the files of a relation created by a transaction that
 * aborts, but not of one created by a transaction that a crash (or an
 * immediate stop) ended: nothing in WAL says they should go, and they stay
 * in the database directory for good.  pgbench_init creates large ones.  So
 * while a call runs, every relation with storage that its transaction
 * creates (tables, partitions, indexes, toast tables and their indexes) is
 * noted, as it is created, in a crash record of its own (so is the new file
 * btload.c gives the primary key of pgbench_accounts):
 *
 *	  $PGDATA/pgbenchx/init-<database oid>-<full top transaction id>
 *
 *	  pgbenchx init record 2
 *	  database <database oid>
 *	  xid <full top transaction id>
 *	  rel <reltablespace> <relfilenode> <full id of the creating (sub)xact>
 *	  ...
 *
 * A line is written with one write() as the relation is created (before it
 * gets any data), so it survives a crash of the server; the file is fsynced
 * when it is created and at pgbench_init's step boundaries, so it survives
 * a crash of the machine too, except for the relations of the step under
 * way.  The backend also keeps the entries in memory, each with the
 * subtransaction that created it (or, once that one committed, its parent).
 *
 * The record says exactly the files that exist because of the call:
 *	- a subtransaction's abort (the subxact callback, which runs before
 *	  AtSubAbort_smgr hands the files to smgr's pending deletes) takes its
 *	  entries out: its WAL abort record is flushed, then the record is rewritten
 *	  and fsynced, or removed if that fails;
 *	- the top transaction's commit or abort removes the record (the xact
 *	  callback runs before smgrDoPendingDeletes; an abort flushes its WAL
 *	  abort record first, so that a crash right after still removes the files in
 *	  recovery);
 *	- PREPARE TRANSACTION of a transaction that ran pgbench_init is refused
 *	  (XACT_EVENT_PRE_PREPARE), so no record belongs to a prepared one.
 *
 * The cleanup (initrecord_cleanup) runs for the connected database in the
 * start-up reaper (startup.c) and at the start of every pgbench_init (and
 * removes the records of dropped databases; not on a standby), one at a
 * time per database (an advisory-tag lock; a busy one is skipped).  A
 * record whose transaction is in progress or prepared (in the proc array)
 * is left alone.  One that committed, rolled back (the commit log says
 * aborted), or is older than the commit log reaches is removed without
 * touching any file.  Only a record whose transaction a crash ended
 * (neither committed nor aborted in the commit log, and not running) is
 * acted on, and of it only the entries whose own (sub)transaction a crash
 * ended too (one rolled back to a savepoint is aborted in the commit log).
 * Of those, the files of each relfilenode whose main fork still exists and
 * that no relation uses (the relation map and a committed pg_class row),
 * nor is being given (a pg_class row of a transaction in progress or
 * prepared, seen by a dirty snapshot), are removed with smgr's own unlink
 * (buffers dropped, pending fsyncs forgotten, the first segment of the main
 * fork kept, emptied, until the next checkpoint so that its number is not
 * reused before); then the record is removed and fsynced away, and only
 * then a checkpoint is requested and awaited.  Where in doubt (a file in
 * use, an entry whose owner did not end in a crash, a record of pgbenchx
 * 0.4 or earlier, whose lines name no owner) the file is kept and that is
 * logged.
 *
 * Why no file of another is ever removed.  GetNewRelFileNode never hands
 * out a relfilenode whose main fork exists (and mdcreate opens it O_EXCL),
 * so while the file an entry names exists, that number is ours alone; the
 * danger is only an entry that outlives its file.  So:
 *	- an entry is written after its file exists (the object access hook's
 *	  OAT_POST_CREATE and btload's RelationSetNewRelfilenode come after
 *	  smgrcreate), and after the WAL of that creation is flushed (so that
 *	  even a crash of the machine cannot keep the line but lose the file or
 *	  the transaction id): a crash in between leaks the file, never the
 *	  reverse;
 *	- PostgreSQL removes a file of ours only (a) at an abort of the
 *	  subtransaction or transaction that created it (or that it committed
 *	  into), (b) at commit, of a relation the same transaction dropped or
 *	  rewrote, (c) in recovery, replaying the WAL record of (a) or (b), or (d)
 *	  with the whole database (DROP DATABASE: its records go untouched,
 *	  also when its OID was given to a new database before a cleanup ran:
 *	  such a record's transaction is older than the new pg_database row).
 *	  In (a) the callbacks take the entry out, durably, before the file
 *	  goes; and even if they could not, the commit log says aborted before
 *	  the number is free: the file goes at the checkpoint after the abort,
 *	  which has flushed the WAL abort record and the commit log page, and
 *	  recovery replaying it marks the transaction aborted; the cleanup
 *	  skips every entry of an aborted owner.  In (b) and (c) the commit
 *	  makes the whole record one of a committed transaction, and the cleanup
 *	  touches nothing of it.  Our own cleanup removes the record (fsynced)
 *	  before its checkpoint frees the numbers, under the lock.
 *	- A transaction id that no WAL record carries is handed out again
 *	  after a crash.  That can only make the cleanup keep an entry (its
 *	  number's new owner committed, aborted or runs), never remove a file
 *	  that is not ours: a stale entry needs PostgreSQL to have removed the
 *	  file, which needs the owner's abort or commit durable in WAL, and an
 *	  id in durable WAL is never handed out again.
 *	- So an entry whose owner a crash ended, and whose main fork exists,
 *	  names a file that has existed since the entry was written: ours.  The
 *	  pg_class and relation map checks are a second line, not the argument.
 *	- An abort that fails half-way (after the commit log says aborted,
 *	  before smgr's pending deletes) leaves its files: PostgreSQL leaks
 *	  them, and so does the cleanup, which believes the commit log.
 * The window left is empty in the deleting direction; a crash leaks files
 * only between a file's creation and its line's write(), or between the
 * cleanup's record removal and its checkpoint (empty first segments).
 *
 * The record is only ever written by the server, but it is read as
 * untrusted: the name and every line must have the exact form above, the
 * database must be the connected one, a tablespace the database's default
 * or an existing one other than pg_global, a relfilenode at least
 * FirstNormalObjectId, an owner the record's transaction or a later one,
 * and the first segment of its main fork a regular file (never a symbolic
 * link).  Anything else refuses the whole record, which is logged and
 * removed, and no file is touched.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "catalog/indexing.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_class.h"
#include "catalog/pg_tablespace_d.h"
#include "commands/dbcommands.h"
#include "common/file_perm.h"
#include "common/relpath.h"
#include "miscadmin.h"
#include "postmaster/bgwriter.h"
#include "storage/fd.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/lwlock.h"
#include "storage/procarray.h"
#include "storage/smgr.h"
#include "tcop/utility.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "initrecord.h"
#include "pg_compat.h"

#define INITRECORD_DIR		"pgbenchx"
#define INITRECORD_HEADER	"pgbenchx init record 2\n"
/* what pgbenchx 0.4 and earlier wrote: no owner on the lines */
#define INITRECORD_HEADER_V1	"pgbenchx init record 1\n"
/* the largest record read: 10,000 partitions need about 1.3 MB */
#define INITRECORD_MAX_BYTES	(16 * 1024 * 1024)
/* the cleanup's lock: an advisory tag no SQL function makes ("pgbx" "init") */
#define INITRECORD_LOCK_KEY1	0x70676278
#define INITRECORD_LOCK_KEY2	0x696e6974
#define INITRECORD_LOCK_FIELD4	3

/* one file this backend's record lists, and the subtransaction it is of */
typedef struct InitRecordEntry
{
	Oid			spc;			/* pg_class.reltablespace */
	Oid			node;			/* relfilenode */
	SubTransactionId subid;		/* creating subxact, or the one it was
								 * committed into */
	FullTransactionId fxid;		/* the creating (sub)transaction's id */
} InitRecordEntry;

/* this backend's open record, if any */
static int	record_fd = -1;
static char record_path[MAXPGPATH];
static FullTransactionId record_fxid;
static bool record_noting = false;
static bool record_unsynced = false;
static bool callback_registered = false;
/* this transaction ran pgbench_init: it may not be prepared */
static bool xact_ran_init = false;
static InitRecordEntry *entries = NULL;
static int	nentries = 0;
static int	maxentries = 0;
static object_access_hook_type prev_object_access_hook = NULL;

/* what the commit log says of a record's transaction */
typedef enum InitRecordFate
{
	FATE_RUNNING,				/* in progress, or prepared */
	FATE_COMMITTED,
	FATE_ABORTED,				/* rolled back: PostgreSQL removed its files */
	FATE_CRASHED,				/* neither: a crash ended it */
	FATE_TOO_OLD,
	FATE_INVALID
} InitRecordFate;

static void
initrecord_path(char *path, Oid dboid, FullTransactionId fxid)
{
	snprintf(path, MAXPGPATH, INITRECORD_DIR "/init-%u-" UINT64_FORMAT,
			 dboid, U64FromFullTransactionId(fxid));
}

static void
initrecord_header(char *buf, size_t size, Oid dboid, FullTransactionId fxid)
{
	snprintf(buf, size, INITRECORD_HEADER "database %u\nxid " UINT64_FORMAT "\n",
			 dboid, U64FromFullTransactionId(fxid));
}

static int
initrecord_line(char *buf, size_t size, const InitRecordEntry *e)
{
	return snprintf(buf, size, "rel %u %u " UINT64_FORMAT "\n",
					e->spc, e->node, U64FromFullTransactionId(e->fxid));
}

/*
 * The end of the WAL inserted so far, as XLogFlush takes it.  At a page
 * boundary GetXLogInsertRecPtr gives the position after the next page's
 * header, where a record would start, which is past the end of generated
 * WAL: flushing it fails ("xlog flush request ... is not satisfied"), an
 * ERROR that in an abort callback ends the backend before its files are
 * removed.  (XactLastRecEnd is already reset when the abort callback runs.)
 */
static XLogRecPtr
initrecord_wal_end(void)
{
	XLogRecPtr	p = GetXLogInsertRecPtr();

	if (XLogSegmentOffset(p, wal_segment_size) == SizeOfXLogLongPHD)
		p -= SizeOfXLogLongPHD;
	else if (p % XLOG_BLCKSZ == SizeOfXLogShortPHD)
		p -= SizeOfXLogShortPHD;
	return p;
}

/* write() all of it; false with errno set */
static bool
initrecord_write_all(const char *data, size_t len)
{
	while (len > 0)
	{
		ssize_t		n;

		errno = 0;
		n = write(record_fd, data, len);
		if (n <= 0)
		{
			if (errno == EINTR)
				continue;
			if (errno == 0)
				errno = ENOSPC;
			return false;
		}
		data += n;
		len -= n;
	}
	return true;
}

static void
initrecord_write(const char *data, size_t len)
{
	if (!initrecord_write_all(data, len))
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write pgbench_init's record \"%s\": %m", record_path),
				 errdetail("pgbench_init notes what it creates so that a crash leaves no files behind."),
				 errhint("Free space in the data directory's file system.")));
	record_unsynced = true;
}

void
initrecord_sync(void)
{
	if (record_fd < 0 || !record_unsynced)
		return;
	if (pg_fsync(record_fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not fsync pgbench_init's record \"%s\": %m", record_path)));
	record_unsynced = false;
}

/*
 * Remove this backend's record (at the end of its transaction, or when it
 * could not be rewritten).  Never raises an error: this runs in abort.
 * Removing a record can only leak files, never delete one.
 */
static void
initrecord_remove_own(void)
{
	record_noting = false;
	record_unsynced = false;
	if (record_fd >= 0)
		close(record_fd);
	record_fd = -1;
	if (unlink(record_path) != 0)
	{
		if (errno != ENOENT)
			ereport(WARNING,
					(errcode_for_file_access(),
					 errmsg("could not remove pgbench_init's record \"%s\": %m", record_path),
					 errdetail("The next pgbench_init in this database removes it.")));
	}
	else
		(void) fsync_fname_ext(INITRECORD_DIR, true, false, WARNING);
}

/*
 * A subtransaction aborted and its entries are out of the list: write the
 * record again, with only what is left, and make it durable.  This runs in
 * the subtransaction's abort, before AtSubAbort_smgr gives the files up, so
 * it raises no error and allocates nothing: if the record cannot be
 * rewritten it is removed instead.
 */
static void
initrecord_rewrite(void)
{
	char		buf[128];
	int			len;

	initrecord_header(buf, sizeof(buf), MyDatabaseId, record_fxid);
	if (ftruncate(record_fd, 0) != 0 || lseek(record_fd, 0, SEEK_SET) != 0 ||
		!initrecord_write_all(buf, strlen(buf)))
		goto failed;
	for (int i = 0; i < nentries; i++)
	{
		len = initrecord_line(buf, sizeof(buf), &entries[i]);
		if (!initrecord_write_all(buf, len))
			goto failed;
	}
	if (pg_fsync(record_fd) != 0)
		goto failed;
	record_unsynced = false;
	return;

failed:
	ereport(WARNING,
			(errcode_for_file_access(),
			 errmsg("could not rewrite pgbench_init's record \"%s\": %m", record_path),
			 errdetail("The record is removed: a crash of this transaction may leave the files of this pgbench_init call behind.")));
	initrecord_remove_own();
}

/* End of the transaction: close the record and remove it. */
static void
initrecord_xact_callback(XactEvent event, void *arg pg_attribute_unused())
{
	switch (event)
	{
		case XACT_EVENT_PRE_PREPARE:
			/* no record may ever belong to a prepared transaction */
			if (xact_ran_init)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("cannot PREPARE a transaction that has run pgbench_init"),
						 errdetail("pgbench_init's crash record of the files it creates belongs to a transaction that ends in this session."),
						 errhint("Commit the transaction, or roll it back, instead.")));
			return;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PREPARE:
			break;
		case XACT_EVENT_ABORT:
			/* the WAL abort record drops the files in recovery: make it durable */
			if (record_fd >= 0)
				XLogFlush(initrecord_wal_end());
			break;
		default:
			return;
	}
	xact_ran_init = false;
	nentries = 0;
	/* before smgrDoPendingDeletes gives the files up */
	if (record_fd >= 0)
		initrecord_remove_own();
}

/*
 * A subtransaction ended.  Committed, its entries are its parent's; aborted,
 * PostgreSQL removes their files (and, in recovery, the WAL abort record does):
 * out of the record first.
 */
static void
initrecord_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
							SubTransactionId parentSubid,
							void *arg pg_attribute_unused())
{
	int			kept = 0;

	if (nentries == 0)
		return;
	switch (event)
	{
		case SUBXACT_EVENT_COMMIT_SUB:
			for (int i = 0; i < nentries; i++)
				if (entries[i].subid == mySubid)
					entries[i].subid = parentSubid;
			break;
		case SUBXACT_EVENT_ABORT_SUB:
			for (int i = 0; i < nentries; i++)
				if (entries[i].subid != mySubid)
					entries[kept++] = entries[i];
			if (kept == nentries)
				break;
			nentries = kept;
			if (record_fd < 0)
				break;
			/* the WAL abort record, so that a crash now still removes the files */
			XLogFlush(initrecord_wal_end());
			initrecord_rewrite();
			break;
		default:
			break;
	}
}

/* Make sure $PGDATA/pgbenchx is a directory of ours (not a link). */
static void
initrecord_make_dir(void)
{
	struct stat st;

	if (MakePGDirectory(INITRECORD_DIR) == 0)
	{
		fsync_fname(INITRECORD_DIR, true);
		fsync_fname(".", true);
	}
	else if (errno != EEXIST)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create directory \"%s\": %m", INITRECORD_DIR)));
	if (lstat(INITRECORD_DIR, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat directory \"%s\": %m", INITRECORD_DIR)));
	if (!S_ISDIR(st.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("\"%s\" in the data directory is not a directory", INITRECORD_DIR),
				 errdetail("pgbench_init keeps its crash records there."),
				 errhint("Remove or rename it.")));
}

void
initrecord_start(void)
{
	char		buf[128];

	if (!callback_registered)
	{
		RegisterXactCallback(initrecord_xact_callback, NULL);
		RegisterSubXactCallback(initrecord_subxact_callback, NULL);
		callback_registered = true;
	}
	/* from now on this transaction may not be prepared */
	xact_ran_init = true;
	if (record_fd >= 0)
	{
		/* a second call in the same transaction: append */
		record_noting = true;
		return;
	}
	/* a standby creates nothing (and could not assign the xid) */
	PreventCommandDuringRecovery("pgbench_init()");
	initrecord_make_dir();
	/* the xid first: the record's transaction is in progress from the start */
	record_fxid = GetTopFullTransactionId();
	initrecord_path(record_path, MyDatabaseId, record_fxid);
	record_fd = BasicOpenFilePerm(record_path, O_WRONLY | O_CREAT | O_EXCL | PG_BINARY,
								  pg_file_create_mode);
	if (record_fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create pgbench_init's record \"%s\": %m", record_path)));
	initrecord_header(buf, sizeof(buf), MyDatabaseId, record_fxid);
	initrecord_write(buf, strlen(buf));
	/* what an earlier call of this transaction noted, if its record was lost */
	for (int i = 0; i < nentries; i++)
	{
		int			len = initrecord_line(buf, sizeof(buf), &entries[i]);

		initrecord_write(buf, len);
	}
	initrecord_sync();
	fsync_fname(INITRECORD_DIR, true);
	record_noting = true;
}

void
initrecord_stop(void)
{
	record_noting = false;
	if (record_fd >= 0)
		initrecord_sync();
}

/*
 * Note one new file (its pg_class reltablespace and relfilenode), which the
 * current subtransaction has just created: the file exists before its line
 * does (see "Why no file of another is ever removed" above).
 */
void
initrecord_note_file(Oid reltablespace, Oid relfilenode)
{
	char		line[128];
	InitRecordEntry *e;
	int			len;

	if (!record_noting || record_fd < 0)
		return;
	if (nentries >= maxentries)
	{
		int			newmax = Max(64, maxentries * 2);

		if (entries == NULL)
			entries = MemoryContextAlloc(TopMemoryContext,
										 sizeof(InitRecordEntry) * newmax);
		else
			entries = repalloc(entries, sizeof(InitRecordEntry) * newmax);
		maxentries = newmax;
	}
	e = &entries[nentries];
	e->spc = reltablespace;
	e->node = relfilenode;
	e->subid = GetCurrentSubTransactionId();
	/* creating the relation assigned it one; never InvalidTransactionId */
	e->fxid = GetCurrentFullTransactionId();
	nentries++;

	/*
	 * The file's creation (its smgr create WAL record, and this transaction's
	 * id) durable before the line can reach the disk, even by the kernel's
	 * own writeback: otherwise a crash of the machine could keep the line
	 * and lose the file and the id, and the number could go to another.
	 */
	XLogFlush(initrecord_wal_end());
	len = initrecord_line(line, sizeof(line), e);
	initrecord_write(line, len);
}

/* A relation was just created: note its file if it has one. */
static void
initrecord_note_relation(Oid relid)
{
	Relation	pg_class;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	Oid			spc = InvalidOid;
	Oid			node = InvalidOid;

	/* its pg_class row is not visible yet but to SnapshotSelf */
	pg_class = table_open(RelationRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_class_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(pg_class, ClassOidIndexId, true, SnapshotSelf, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		Form_pg_class form = (Form_pg_class) GETSTRUCT(tup);

		if (RELKIND_HAS_STORAGE(form->relkind) &&
			form->relpersistence != RELPERSISTENCE_TEMP &&
			OidIsValid(form->relfilenode))
		{
			spc = form->reltablespace;
			node = form->relfilenode;
		}
	}
	systable_endscan(scan);
	table_close(pg_class, AccessShareLock);
	if (OidIsValid(node))
		initrecord_note_file(spc, node);
}

static void
initrecord_object_access(ObjectAccessType access, Oid classId, Oid objectId,
						 int subId, void *arg)
{
	if (prev_object_access_hook)
		prev_object_access_hook(access, classId, objectId, subId, arg);
	if (record_noting && record_fd >= 0 && access == OAT_POST_CREATE &&
		classId == RelationRelationId && subId == 0)
		initrecord_note_relation(objectId);
}

void
initrecord_install_hook(void)
{
	prev_object_access_hook = object_access_hook;
	object_access_hook = initrecord_object_access;
}

/*
 * A record's transaction, or that of one of its lines: the same questions,
 * under the same lock, as pg_xact_status asks, so that the commit log is
 * not truncated meanwhile.  A transaction that is neither committed nor
 * aborted in the commit log, and not in progress (nor prepared: a prepared
 * transaction is in the proc array), is one that a crash ended: PostgreSQL
 * never marks those, and never removes their files.
 */
static InitRecordFate
initrecord_fate(FullTransactionId fxid)
{
	FullTransactionId next = ReadNextFullTransactionId();
	TransactionId xid = XidFromFullTransactionId(fxid);
	InitRecordFate fate;

	if (!TransactionIdIsNormal(xid) || !FullTransactionIdPrecedes(fxid, next))
		return FATE_INVALID;
	/* more than 2^31 back: the 32-bit xid names another transaction */
	if (U64FromFullTransactionId(next) - U64FromFullTransactionId(fxid) >= (UINT64CONST(1) << 31))
		return FATE_TOO_OLD;
	LWLockAcquire(XactTruncationLock, LW_SHARED);
	if (TransactionIdPrecedes(xid, PGX_TRANSAM_VARS->oldestClogXid))
		fate = FATE_TOO_OLD;
	else if (TransactionIdIsInProgress(xid))
		fate = FATE_RUNNING;
	else if (TransactionIdDidCommit(xid))
		fate = FATE_COMMITTED;
	else if (TransactionIdDidAbort(xid))
		fate = FATE_ABORTED;
	else
		fate = FATE_CRASHED;
	LWLockRelease(XactTruncationLock);
	return fate;
}

/* One unsigned decimal, exactly as %u or %llu prints it; advances *p. */
static bool
initrecord_parse_uint(const char **p, uint64 max, uint64 *value)
{
	const char *s = *p;
	uint64		v = 0;

	if (*s < '0' || *s > '9' || (*s == '0' && s[1] >= '0' && s[1] <= '9'))
		return false;
	for (; *s >= '0' && *s <= '9'; s++)
	{
		if (v > (max - (*s - '0')) / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	*value = v;
	*p = s;
	return true;
}

/*
 * Read and check a record into *out (palloc'd, *n entries).  *v1 says it is
 * of the first form (pgbenchx 0.4 and earlier: no owner on its lines; every
 * entry's fxid is then the record's).  Returns false with *why set when the
 * record is refused.
 */
static bool
initrecord_read(const char *path, Oid dboid, FullTransactionId fxid,
				InitRecordEntry **out, int *n, bool *v1, const char **why)
{
	int			fd;
	struct stat st;
	char	   *buf;
	char		header[128];
	size_t		hlen;
	const char *p;
	const char *end;
	FullTransactionId next = ReadNextFullTransactionId();
	int			max;

	*out = NULL;
	*n = 0;
	fd = BasicOpenFile(path, O_RDONLY | O_NOFOLLOW | PG_BINARY);
	if (fd < 0)
	{
		*why = "it cannot be opened as a file";
		return false;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
		st.st_size > INITRECORD_MAX_BYTES)
	{
		close(fd);
		*why = "it is not a regular file of at most 16 MB";
		return false;
	}
	buf = palloc(st.st_size + 1);
	if (read(fd, buf, st.st_size) != st.st_size)
	{
		close(fd);
		*why = "it cannot be read";
		return false;
	}
	close(fd);
	buf[st.st_size] = '\0';

	*v1 = false;
	initrecord_header(header, sizeof(header), dboid, fxid);
	hlen = strlen(header);
	if ((size_t) st.st_size >= hlen && memcmp(buf, header, hlen) != 0)
	{
		snprintf(header, sizeof(header), INITRECORD_HEADER_V1 "database %u\nxid " UINT64_FORMAT "\n",
				 dboid, U64FromFullTransactionId(fxid));
		*v1 = true;
	}
	if ((size_t) st.st_size < hlen || memcmp(buf, header, hlen) != 0)
	{
		*why = "its header does not match its name";
		return false;
	}
	/* a line is at least 10 bytes */
	max = st.st_size / 10 + 1;
	*out = palloc(sizeof(InitRecordEntry) * max);
	p = buf + hlen;
	end = buf + st.st_size;
	while (p < end)
	{
		const char *nl = memchr(p, '\n', end - p);
		uint64		spc;
		uint64		node;
		uint64		owner = U64FromFullTransactionId(fxid);
		InitRecordEntry *e;

		/* a line cut short by a crash: its relation's file was never written */
		if (nl == NULL)
			break;
		if (strncmp(p, "rel ", 4) != 0)
		{
			*why = "a line is not of the form \"rel <tablespace> <relfilenode> <transaction>\"";
			return false;
		}
		p += 4;
		if (!initrecord_parse_uint(&p, PG_UINT32_MAX, &spc) || *p++ != ' ' ||
			!initrecord_parse_uint(&p, PG_UINT32_MAX, &node) ||
			(!*v1 && (*p++ != ' ' || !initrecord_parse_uint(&p, PG_UINT64_MAX, &owner))) ||
			p != nl)
		{
			*why = "a line is not of the form \"rel <tablespace> <relfilenode> <transaction>\"";
			return false;
		}
		if (spc == GLOBALTABLESPACE_OID ||
			(spc != InvalidOid && spc != MyDatabaseTableSpace &&
			 !SearchSysCacheExists1(TABLESPACEOID, ObjectIdGetDatum((Oid) spc))))
		{
			*why = "it names a tablespace that is neither the database's nor an existing one";
			return false;
		}
		if (node < FirstNormalObjectId)
		{
			*why = "it names a relfilenode below FirstNormalObjectId";
			return false;
		}
		/* the record's transaction, or one of its subtransactions: later */
		if (owner < U64FromFullTransactionId(fxid) ||
			owner >= U64FromFullTransactionId(next))
		{
			*why = "a line names a transaction that is neither the record's nor a later one";
			return false;
		}
		e = &(*out)[(*n)++];
		e->spc = (Oid) spc;
		e->node = (Oid) node;
		e->subid = InvalidSubTransactionId;
		e->fxid = FullTransactionIdFromU64(owner);
		p = nl + 1;
	}
	pfree(buf);
	return true;
}

/* Whether the first segment of the main fork is a regular file. */
static bool
initrecord_main_fork_exists(PgxRelFile rnode)
{
	char	   *path = pgx_relpathperm(rnode, MAIN_FORKNUM);
	struct stat st;
	bool		exists;

	exists = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
	pfree(path);
	return exists;
}

/*
 * A relation of pg_class that has, or is being given, this relfilenode by a
 * transaction that committed, is in progress or is prepared (a dirty
 * snapshot: an uncommitted TRUNCATE or CREATE of another session is seen).
 */
static Oid
initrecord_dirty_user(Oid spc, Oid node)
{
	Relation	pg_class;
	ScanKeyData key[2];
	SysScanDesc scan;
	SnapshotData dirty;
	HeapTuple	tup;
	Oid			relid = InvalidOid;

	if (spc == MyDatabaseTableSpace)
		spc = InvalidOid;
	InitDirtySnapshot(dirty);
	pg_class = table_open(RelationRelationId, AccessShareLock);
	ScanKeyInit(&key[0], Anum_pg_class_reltablespace, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(spc));
	ScanKeyInit(&key[1], Anum_pg_class_relfilenode, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(node));
	scan = systable_beginscan(pg_class, ClassTblspcRelfilenodeIndexId, true, &dirty, 2, key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
		relid = ((Form_pg_class) GETSTRUCT(tup))->oid;
	systable_endscan(scan);
	table_close(pg_class, AccessShareLock);
	return relid;
}

static void
initrecord_log_kept(const InitRecordEntry *e, PgxRelFile rnode, const char *dbname,
					FullTransactionId fxid, const char *detail, Oid relid)
{
	ereport(LOG,
			(errmsg("pgbenchx kept the files of relfilenode %u in tablespace %u of database \"%s\", listed by pgbench_init's record of transaction " UINT64_FORMAT,
					e->node, PGX_RELFILE_SPC(rnode), dbname, U64FromFullTransactionId(fxid)),
			 OidIsValid(relid) ? errdetail(detail, relid) : errdetail("%s", detail)));
}

/*
 * One record of a transaction that a crash ended: remove the files of its
 * entries whose own (sub)transaction the crash ended too, that still exist
 * and that no relation uses or is being given.  Returns how many.
 */
static int
initrecord_remove_files(InitRecordEntry *rels, int nrels, FullTransactionId fxid,
						const char *dbname)
{
	SMgrRelation *srels = palloc(sizeof(SMgrRelation) * (nrels + 1));
	int			n = 0;

	for (int i = 0; i < nrels; i++)
	{
		InitRecordEntry *e = &rels[i];
		PgxRelFile rnode;
		bool		dup = false;
		Oid			relid;

		PGX_RELFILE_SPC(rnode) = OidIsValid(e->spc) ? e->spc : MyDatabaseTableSpace;
		PGX_RELFILE_DB(rnode) = MyDatabaseId;
		PGX_RELFILE_NUM(rnode) = e->node;
		/* gone already: whatever has that number now is not ours */
		if (!initrecord_main_fork_exists(rnode))
			continue;
		if (!FullTransactionIdEquals(e->fxid, fxid))
		{
			switch (initrecord_fate(e->fxid))
			{
				case FATE_CRASHED:
					break;
				case FATE_ABORTED:
					/* rolled back to a savepoint: PostgreSQL removed them */
					continue;
				default:
					initrecord_log_kept(e, rnode, dbname, fxid,
										"The subtransaction that created it did not end in a crash.",
										InvalidOid);
					continue;
			}
		}
		relid = pgx_relid_by_relfile(e->spc, e->node);
		if (!OidIsValid(relid))
			relid = initrecord_dirty_user(e->spc, e->node);
		if (OidIsValid(relid))
		{
			initrecord_log_kept(e, rnode, dbname, fxid,
								"Relation %u uses that relfilenode, or a transaction in progress gives it to it.",
								relid);
			continue;
		}
		for (int j = 0; j < n && !dup; j++)
			dup = PGX_RELFILE_EQUAL(PGX_SMGR_FILE(srels[j]), rnode);
		if (dup)
			continue;
		srels[n++] = pgx_smgropen_perm(rnode);
		ereport(LOG,
				(errmsg("pgbenchx removed the files of relfilenode %u in tablespace %u of database \"%s\", created by pgbench_init in transaction " UINT64_FORMAT ", which did not commit",
						e->node, PGX_RELFILE_SPC(rnode), dbname, U64FromFullTransactionId(fxid))));
	}
	if (n > 0)
		smgrdounlinkall(srels, n, false);
	for (int j = 0; j < n; j++)
		smgrclose(srels[j]);
	pfree(srels);
	return n;
}

/*
 * Whether the record's transaction is older than the connected database's
 * pg_database row: the record is then of a dropped database whose OID was
 * given again, whose files went with it.  A frozen row's age is unknown (a
 * row updated since, by a rename say, only makes records kept).  Both ids
 * are within 2^31 of the next one, so they compare.
 */
static bool
initrecord_predates_database(FullTransactionId fxid)
{
	HeapTuple	tup;
	bool		older = false;

	tup = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
	if (HeapTupleIsValid(tup))
	{
		TransactionId xmin = HeapTupleHeaderGetXmin(tup->t_data);

		if (!HeapTupleHeaderXminFrozen(tup->t_data) && TransactionIdIsNormal(xmin) &&
			TransactionIdPrecedes(XidFromFullTransactionId(fxid), xmin))
			older = true;
		ReleaseSysCache(tup);
	}
	return older;
}

static void
initrecord_log_dropped(const char *path, const char *detail)
{
	ereport(LOG,
			(errmsg("pgbenchx removed pgbench_init's record \"%s\" without removing any file", path),
			 errdetail("%s", detail)));
}

/* initrecord_cleanup, with the database's cleanup lock held */
static int
initrecord_cleanup_locked(void)
{
	DIR		   *dir;
	struct dirent *de;
	List	   *done = NIL;
	int			removed = 0;
	char	   *dbname = get_database_name(MyDatabaseId);
	MemoryContext cxt;
	MemoryContext oldcxt;
	ListCell   *lc;
	struct stat st;

	/* only a directory of ours: never one a symbolic link points to */
	if (lstat(INITRECORD_DIR, &st) != 0)
	{
		if (errno != ENOENT)
			ereport(LOG,
					(errcode_for_file_access(),
					 errmsg("could not stat directory \"%s\": %m", INITRECORD_DIR)));
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
	{
		ereport(LOG,
				(errmsg("pgbenchx did not read pgbench_init's records: \"%s\" in the data directory is not a directory",
						INITRECORD_DIR)));
		return 0;
	}
	dir = AllocateDir(INITRECORD_DIR);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "pgbenchx init records",
								ALLOCSET_DEFAULT_SIZES);
	while ((de = ReadDir(dir, INITRECORD_DIR)) != NULL)
	{
		unsigned int dboid;
		uint64		xid64;
		FullTransactionId fxid;
		char		path[MAXPGPATH];
		const char *why = NULL;
		InitRecordEntry *rels;
		int			nrels;
		bool		v1;
		bool		drop = true;

		CHECK_FOR_INTERRUPTS();
		if (sscanf(de->d_name, "init-%u-" UINT64_FORMAT, &dboid, &xid64) != 2)
			continue;
		fxid = FullTransactionIdFromU64(xid64);
		initrecord_path(path, dboid, fxid);
		/* exactly the name we write */
		if (strcmp(path + strlen(INITRECORD_DIR "/"), de->d_name) != 0)
			continue;
		if (dboid != MyDatabaseId)
		{
			/* another database's, unless it was dropped with its files */
			if (!SearchSysCacheExists1(DATABASEOID, ObjectIdGetDatum(dboid)))
			{
				ereport(LOG,
						(errmsg("pgbenchx removed pgbench_init's record \"%s\" without removing any file", path),
						 errdetail("Its database %u was dropped, with its files.", dboid)));
				done = lappend(done, pstrdup(path));
			}
			continue;
		}

		oldcxt = MemoryContextSwitchTo(cxt);
		switch (initrecord_fate(fxid))
		{
			case FATE_RUNNING:
				/* in progress, or prepared (by an earlier version) */
				drop = false;
				break;
			case FATE_COMMITTED:
				break;
			case FATE_ABORTED:
				initrecord_log_dropped(path, "Its transaction rolled back, so PostgreSQL removed the files itself.");
				break;
			case FATE_TOO_OLD:
				initrecord_log_dropped(path, "Its transaction is older than the commit log reaches, so whether it committed is unknown.");
				break;
			case FATE_INVALID:
				initrecord_log_dropped(path, "Its transaction id is not one this server has assigned.");
				break;
			case FATE_CRASHED:
				if (initrecord_predates_database(fxid))
					initrecord_log_dropped(path, "Its transaction is older than the database's pg_database row: it ran in a dropped database whose OID this one has.");
				else if (!initrecord_read(path, dboid, fxid, &rels, &nrels, &v1, &why))
					ereport(LOG,
							(errmsg("pgbenchx removed pgbench_init's record \"%s\" without removing any file", path),
							 errdetail("The record is refused: %s.", why)));
				else if (v1)
					ereport(LOG,
							(errmsg("pgbenchx removed pgbench_init's record \"%s\" without removing any file", path),
							 errdetail("The record is of pgbenchx 0.4 or earlier, which kept the files of a rollback to a savepoint listed: a relfilenode it lists may belong to another relation since."),
							 errhint("Remove by hand the files of the relfilenodes it listed that no relation uses.")));
				else
					removed += initrecord_remove_files(rels, nrels, fxid, dbname);
				break;
		}
		MemoryContextSwitchTo(oldcxt);
		if (drop)
			done = lappend(done, pstrdup(path));
		MemoryContextReset(cxt);
	}
	FreeDir(dir);
	MemoryContextDelete(cxt);

	/*
	 * The records go before the checkpoint that lets the emptied first
	 * segments go: until then those numbers are still taken, so no record
	 * ever lists a number that another relation can have.  A crash in
	 * between leaks the empty segments.
	 */
	foreach(lc, done)
	{
		if (unlink((char *) lfirst(lc)) != 0 && errno != ENOENT)
			ereport(WARNING,
					(errcode_for_file_access(),
					 errmsg("could not remove pgbench_init's record \"%s\": %m",
							(char *) lfirst(lc))));
	}
	if (done != NIL)
		fsync_fname(INITRECORD_DIR, true);
	list_free_deep(done);
	if (removed > 0)
		RequestCheckpoint(PGX_CHECKPOINT_FAST | CHECKPOINT_FORCE | CHECKPOINT_WAIT);
	return removed;
}

int
initrecord_cleanup(void)
{
	LOCKTAG		tag;
	volatile int removed = 0;

	/* a standby's copy of a record waits for its promotion */
	if (RecoveryInProgress())
		return 0;

	/*
	 * One cleanup at a time in a database: another one's check that a file
	 * is unused must not come after this one's checkpoint freed its number.
	 * Whoever holds the lock does the work; the others skip it.
	 */
	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, INITRECORD_LOCK_KEY1,
						 INITRECORD_LOCK_KEY2, INITRECORD_LOCK_FIELD4);
	if (LockAcquire(&tag, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL)
	{
		ereport(DEBUG1,
				(errmsg("pgbenchx did not read pgbench_init's records: another session is reading them")));
		return 0;
	}
	PG_TRY();
	{
		removed = initrecord_cleanup_locked();
	}
	PG_FINALLY();
	{
		LockRelease(&tag, ExclusiveLock, true);
	}
	PG_END_TRY();
	return removed;
}
