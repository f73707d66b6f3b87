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
 * noted, as it is created, in a record of its own (so is the new file
 * btload.c gives the primary key of pgbench_accounts):
 *
 *	  $PGDATA/pgbenchx/init-<database oid>-<full top transaction id>
 *
 *	  pgbenchx init record 1
 *	  database <database oid>
 *	  xid <full top transaction id>
 *	  rel <reltablespace> <relfilenode>
 *	  ...
 *
 * A line is written with one write() as the relation is created (before it
 * gets any data), so it survives a crash of the server; the file is fsynced
 * when it is created and at pgbench_init's step boundaries, so it survives
 * a crash of the machine too, except for the relations of the step under
 * way.  The record is removed when the transaction commits or aborts (on
 * abort PostgreSQL removes the files itself; the abort record is flushed
 * first, so that a crash right after still removes them in recovery).  A
 * PREPARE keeps it; the cleanup removes it once the prepared transaction
 * has ended.
 *
 * The cleanup (initrecord_cleanup) runs for the connected database in the
 * start-up reaper (startup.c) and at the start of every pgbench_init (and
 * removes the records of dropped databases; not on a standby).  For
 * each record whose transaction is over and did not commit, it removes the
 * files of every listed relfilenode that no relation maps to, with smgr's
 * own unlink (buffers dropped, pending fsyncs forgotten, the first segment
 * of the main fork kept, emptied, until the next checkpoint so that its
 * number is not reused before), then requests that checkpoint, waits for
 * it, and removes the record.  A record of a committed transaction, or one
 * whose transaction is older than the commit log reaches, is removed
 * without touching any file.
 *
 * The record is only ever written by the server, but it is read as
 * untrusted: the name and every line must have the exact form above, the
 * database must be the connected one, a tablespace the database's default
 * or an existing one other than pg_global, a relfilenode at least
 * FirstNormalObjectId and unused by every relation, and the first segment
 * of its main fork a regular file (never a symbolic link).  Anything else
 * refuses the whole record, which is logged and removed, and no file is
 * touched.
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
#include "storage/lwlock.h"
#include "storage/procarray.h"
#include "storage/smgr.h"
#include "tcop/utility.h"
#include "utils/fmgroids.h"
#include "utils/memutils.h"
#include "utils/relfilenodemap.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "initrecord.h"

#define INITRECORD_DIR		"pgbenchx"
#define INITRECORD_HEADER	"pgbenchx init record 1\n"
/* the largest record read: 10,000 partitions need about 1.3 MB */
#define INITRECORD_MAX_BYTES	(16 * 1024 * 1024)

/* this backend's open record, if any */
static int	record_fd = -1;
static char record_path[MAXPGPATH];
static bool record_noting = false;
static bool record_unsynced = false;
static bool callback_registered = false;
static object_access_hook_type prev_object_access_hook = NULL;

/* what the commit log says of a record's transaction */
typedef enum InitRecordFate
{
	FATE_RUNNING,
	FATE_COMMITTED,
	FATE_NOT_COMMITTED,
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
initrecord_write(const char *data, size_t len)
{
	ssize_t		n;

	errno = 0;
	n = write(record_fd, data, len);
	if (n != (ssize_t) len)
	{
		if (errno == 0)
			errno = ENOSPC;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write pgbench_init's record \"%s\": %m", record_path),
				 errdetail("pgbench_init notes what it creates so that a crash leaves no files behind."),
				 errhint("Free space in the data directory's file system.")));
	}
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

/* End of the transaction: close the record, and remove it unless prepared. */
static void
initrecord_xact_callback(XactEvent event, void *arg pg_attribute_unused())
{
	bool		remove;

	if (record_fd < 0)
		return;
	switch (event)
	{
		case XACT_EVENT_COMMIT:
			remove = true;
			break;
		case XACT_EVENT_ABORT:
			/* the abort record drops the files in recovery: make it durable */
			XLogFlush(GetXLogInsertRecPtr());
			remove = true;
			break;
		case XACT_EVENT_PREPARE:
			/* the cleanup removes it once the prepared transaction ends */
			remove = false;
			break;
		default:
			return;
	}
	record_noting = false;
	record_unsynced = false;
	close(record_fd);
	record_fd = -1;
	if (remove && unlink(record_path) != 0 && errno != ENOENT)
		ereport(WARNING,
				(errcode_for_file_access(),
				 errmsg("could not remove pgbench_init's record \"%s\": %m", record_path),
				 errdetail("The next pgbench_init in this database removes it.")));
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
	FullTransactionId fxid;
	char		header[128];

	if (record_fd >= 0)
	{
		/* a second call in the same transaction: append */
		record_noting = true;
		return;
	}
	if (!callback_registered)
	{
		RegisterXactCallback(initrecord_xact_callback, NULL);
		callback_registered = true;
	}
	/* a standby creates nothing (and could not assign the xid) */
	PreventCommandDuringRecovery("pgbench_init()");
	initrecord_make_dir();
	/* the xid first: the record's transaction is in progress from the start */
	fxid = GetTopFullTransactionId();
	initrecord_path(record_path, MyDatabaseId, fxid);
	record_fd = BasicOpenFilePerm(record_path, O_WRONLY | O_CREAT | O_EXCL | PG_BINARY,
								  pg_file_create_mode);
	if (record_fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create pgbench_init's record \"%s\": %m", record_path)));
	snprintf(header, sizeof(header), INITRECORD_HEADER "database %u\nxid " UINT64_FORMAT "\n",
			 MyDatabaseId, U64FromFullTransactionId(fxid));
	initrecord_write(header, strlen(header));
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

/* Note one new file (its pg_class reltablespace and relfilenode). */
void
initrecord_note_file(Oid reltablespace, Oid relfilenode)
{
	char		line[64];

	if (!record_noting || record_fd < 0)
		return;
	snprintf(line, sizeof(line), "rel %u %u\n", reltablespace, relfilenode);
	initrecord_write(line, strlen(line));
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
 * The record's transaction: the same questions, under the same lock, as
 * pg_xact_status asks, so that the commit log is not truncated meanwhile.
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
	if (TransactionIdPrecedes(xid, ShmemVariableCache->oldestClogXid))
		fate = FATE_TOO_OLD;
	else if (TransactionIdIsInProgress(xid))
		fate = FATE_RUNNING;
	else if (TransactionIdDidCommit(xid))
		fate = FATE_COMMITTED;
	else
		fate = FATE_NOT_COMMITTED;
	LWLockRelease(XactTruncationLock);
	return fate;
}

/* One unsigned decimal, exactly as %u prints it; advances *p past it. */
static bool
initrecord_parse_u32(const char **p, uint32 *value)
{
	const char *s = *p;
	uint64		v = 0;

	if (*s < '0' || *s > '9' || (*s == '0' && s[1] >= '0' && s[1] <= '9'))
		return false;
	for (; *s >= '0' && *s <= '9'; s++)
	{
		v = v * 10 + (*s - '0');
		if (v > PG_UINT32_MAX)
			return false;
	}
	*value = (uint32) v;
	*p = s;
	return true;
}

/*
 * Read and check a record; returns its relfilenodes (pairs tablespace,
 * relfilenode) or NULL with *why set when the record is refused.
 */
static List *
initrecord_read(const char *path, Oid dboid, FullTransactionId fxid,
				const char **why)
{
	int			fd;
	struct stat st;
	char	   *buf;
	char		header[128];
	size_t		hlen;
	const char *p;
	const char *end;
	List	   *rels = NIL;

	fd = BasicOpenFile(path, O_RDONLY | O_NOFOLLOW | PG_BINARY);
	if (fd < 0)
	{
		*why = "it cannot be opened as a file";
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
		st.st_size > INITRECORD_MAX_BYTES)
	{
		close(fd);
		*why = "it is not a regular file of at most 16 MB";
		return NULL;
	}
	buf = palloc(st.st_size + 1);
	if (read(fd, buf, st.st_size) != st.st_size)
	{
		close(fd);
		*why = "it cannot be read";
		return NULL;
	}
	close(fd);
	buf[st.st_size] = '\0';

	snprintf(header, sizeof(header), INITRECORD_HEADER "database %u\nxid " UINT64_FORMAT "\n",
			 dboid, U64FromFullTransactionId(fxid));
	hlen = strlen(header);
	if ((size_t) st.st_size < hlen || memcmp(buf, header, hlen) != 0)
	{
		*why = "its header does not match its name";
		return NULL;
	}
	p = buf + hlen;
	end = buf + st.st_size;
	while (p < end)
	{
		const char *nl = memchr(p, '\n', end - p);
		uint32		spc;
		uint32		node;

		/* a line cut short by a crash: its relation's file was never written */
		if (nl == NULL)
			break;
		if (strncmp(p, "rel ", 4) != 0)
		{
			*why = "a line is not of the form \"rel <tablespace> <relfilenode>\"";
			return NULL;
		}
		p += 4;
		if (!initrecord_parse_u32(&p, &spc) || *p++ != ' ' ||
			!initrecord_parse_u32(&p, &node) || p != nl)
		{
			*why = "a line is not of the form \"rel <tablespace> <relfilenode>\"";
			return NULL;
		}
		if (spc == GLOBALTABLESPACE_OID ||
			(spc != InvalidOid && spc != MyDatabaseTableSpace &&
			 !SearchSysCacheExists1(TABLESPACEOID, ObjectIdGetDatum(spc))))
		{
			*why = "it names a tablespace that is neither the database's nor an existing one";
			return NULL;
		}
		if (node < FirstNormalObjectId)
		{
			*why = "it names a relfilenode below FirstNormalObjectId";
			return NULL;
		}
		rels = lappend_oid(rels, spc);
		rels = lappend_oid(rels, node);
		p = nl + 1;
	}
	pfree(buf);
	if (rels == NIL)
		rels = list_make1_oid(InvalidOid);	/* valid, and empty */
	return rels;
}

/* Whether the first segment of the main fork is a regular file. */
static bool
initrecord_main_fork_exists(RelFileNode rnode)
{
	char	   *path = relpathperm(rnode, MAIN_FORKNUM);
	struct stat st;
	bool		exists;

	exists = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
	pfree(path);
	return exists;
}

/*
 * One record of a transaction that did not commit: remove the files of its
 * relfilenodes that no relation uses.  Returns how many.
 */
static int
initrecord_remove_files(List *rels, FullTransactionId fxid, const char *dbname)
{
	SMgrRelation *srels = palloc(sizeof(SMgrRelation) * (list_length(rels) / 2 + 1));
	int			n = 0;

	for (int i = 0; i + 1 < list_length(rels); i += 2)
	{
		Oid			spc = list_nth_oid(rels, i);
		Oid			node = list_nth_oid(rels, i + 1);
		RelFileNode rnode;
		bool		dup = false;

		rnode.spcNode = OidIsValid(spc) ? spc : MyDatabaseTableSpace;
		rnode.dbNode = MyDatabaseId;
		rnode.relNode = node;
		/* gone already, or in use (its number was reused once it was gone) */
		if (!initrecord_main_fork_exists(rnode) ||
			OidIsValid(RelidByRelfilenode(spc, node)))
			continue;
		for (int j = 0; j < n && !dup; j++)
			dup = RelFileNodeEquals(srels[j]->smgr_rnode.node, rnode);
		if (dup)
			continue;
		srels[n++] = smgropen(rnode, InvalidBackendId);
		ereport(LOG,
				(errmsg("pgbenchx removed the files of relfilenode %u in tablespace %u of database \"%s\", created by pgbench_init in transaction " UINT64_FORMAT ", which did not commit",
						node, rnode.spcNode, dbname, U64FromFullTransactionId(fxid))));
	}
	if (n > 0)
		smgrdounlinkall(srels, n, false);
	for (int j = 0; j < n; j++)
		smgrclose(srels[j]);
	pfree(srels);
	return n;
}

int
initrecord_cleanup(void)
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

	/* a standby's copy of a record waits for its promotion */
	if (RecoveryInProgress())
		return 0;
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
		List	   *rels;
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
				drop = false;
				break;
			case FATE_COMMITTED:
				break;
			case FATE_TOO_OLD:
				ereport(LOG,
						(errmsg("pgbenchx removed pgbench_init's record \"%s\" without removing any file", path),
						 errdetail("Its transaction is older than the commit log reaches, so whether it committed is unknown.")));
				break;
			case FATE_INVALID:
				ereport(LOG,
						(errmsg("pgbenchx removed pgbench_init's record \"%s\" without removing any file", path),
						 errdetail("Its transaction id is not one this server has assigned.")));
				break;
			case FATE_NOT_COMMITTED:
				rels = initrecord_read(path, dboid, fxid, &why);
				if (rels == NULL)
					ereport(LOG,
							(errmsg("pgbenchx removed pgbench_init's record \"%s\" without removing any file", path),
							 errdetail("The record is refused: %s.", why)));
				else
					removed += initrecord_remove_files(rels, fxid, dbname);
				break;
		}
		MemoryContextSwitchTo(oldcxt);
		if (drop)
			done = lappend(done, pstrdup(path));
		MemoryContextReset(cxt);
	}
	FreeDir(dir);
	MemoryContextDelete(cxt);

	/* the emptied first segments go at the next checkpoint: have it now */
	if (removed > 0)
		RequestCheckpoint(CHECKPOINT_IMMEDIATE | CHECKPOINT_FORCE | CHECKPOINT_WAIT);
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
	return removed;
}
