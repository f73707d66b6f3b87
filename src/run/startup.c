/*-------------------------------------------------------------------------
 * startup.c
 *	  The optional start-up reaper: with pgbenchx in shared_preload_libraries,
 *	  one background worker runs each time the server has finished recovery
 *	  (a start, and each crash-restart cycle), and marks "aborted" every run
 *	  and sweep that an immediate shutdown or a crash left reading
 *	  "running", in every database where pgbenchx is installed, and, in
 *	  every database, removes the files of pgbench_init calls a crash
 *	  interrupted (initrecord_cleanup).  It starts nothing and restarts
 *	  nothing.
 *
 * Without the preload nothing runs at start-up, and those rows are marked
 * by the first pgbenchx.wait, pgbenchx.cancel or run start that sees them
 * (wait.c, coordinator.c), exactly as here: one statement pair,
 * results_mark_orphans_aborted, which leaves alone any row whose
 * coordinator is alive.
 *
 * The launcher connects to no database (it reads only the shared catalog
 * pg_database) and starts one short-lived worker per database, one after
 * the other, so that it never needs more than one free worker slot.
 *
 * The launcher exits with status 1, not 0: a worker that exits with 0 is
 * unregistered, and one that cannot be restarted is forgotten in a
 * crash-restart cycle; exiting with 1 and a restart interval keeps it
 * registered, so the postmaster starts it again right after a crash.  The
 * interval also makes it look again once a day, which only ever marks true
 * orphans (a row whose coordinator is alive is never touched).
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_database.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "initrecord.h"
#include "worker.h"
#include "results.h"
#include "searchpath.h"
#include "startup.h"

#define STARTUP_WORKER_TYPE "pgbenchx startup"

/* the launcher's restart interval, in seconds (see above) */
#define STARTUP_RESTART_SECONDS 86400

PGDLLEXPORT void pgbenchx_startup_main(Datum main_arg);

/* Called from _PG_init while shared_preload_libraries is processed. */
void
startup_register(void)
{
	BackgroundWorker worker;

	worker_spec(&worker, "pgbenchx_startup_main", STARTUP_WORKER_TYPE,
				ObjectIdGetDatum(InvalidOid));
	worker.bgw_restart_time = STARTUP_RESTART_SECONDS;
	worker.bgw_notify_pid = 0;	/* registered by the postmaster */
	RegisterBackgroundWorker(&worker);
}

/* The databases that accept connections (the launcher's only catalog read). */
static List *
startup_database_list(void)
{
	List	   *oids = NIL;
	MemoryContext outer = CurrentMemoryContext;
	Relation	rel;
	TableScanDesc scan;
	HeapTuple	tup;

	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	rel = table_open(DatabaseRelationId, AccessShareLock);
	scan = table_beginscan_catalog(rel, 0, NULL);
	while (HeapTupleIsValid(tup = heap_getnext(scan, ForwardScanDirection)))
	{
		Form_pg_database db = (Form_pg_database) GETSTRUCT(tup);
		MemoryContext oldcxt;

		/* datconnlimit -2 marks a database left half-dropped */
		if (!db->datallowconn || db->datconnlimit == -2)
			continue;
		oldcxt = MemoryContextSwitchTo(outer);
		oids = lappend_oid(oids, db->oid);
		MemoryContextSwitchTo(oldcxt);
	}
	table_endscan(scan);
	table_close(rel, AccessShareLock);
	PopActiveSnapshot();
	CommitTransactionCommand();
	return oids;
}

/* The launcher: one worker per database, each awaited before the next. */
static void
startup_launch_all(void)
{
	List	   *oids = startup_database_list();
	ListCell   *lc;

	foreach(lc, oids)
	{
		BackgroundWorker worker;
		BackgroundWorkerHandle *handle;
		BgwHandleStatus status;
		pid_t		pid;

		worker_spec(&worker, "pgbenchx_startup_main", STARTUP_WORKER_TYPE,
					ObjectIdGetDatum(lfirst_oid(lc)));
		snprintf(worker.bgw_name, BGW_MAXLEN, STARTUP_WORKER_TYPE " in database %u",
				 lfirst_oid(lc));
		if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		{
			ereport(LOG,
					(errmsg("pgbenchx could not start a worker to mark aborted runs in database %u",
							lfirst_oid(lc)),
					 errhint("Raise \"max_worker_processes\"; a pgbenchx.wait or pgbenchx.cancel marks them meanwhile.")));
			continue;
		}
		status = WaitForBackgroundWorkerStartup(handle, &pid);
		if (status == BGWH_STARTED)
			status = WaitForBackgroundWorkerShutdown(handle);
		if (status == BGWH_POSTMASTER_DIED)
			proc_exit(1);
		CHECK_FOR_INTERRUPTS();
	}
}

/* A per-database worker: mark the orphans if pgbenchx is installed here. */
static void
startup_reap_database(Oid dboid)
{
	bool		installed;
	char		dbname[NAMEDATALEN];
	uint64		marked;

	BackgroundWorkerInitializeConnectionByOid(dboid, InvalidOid, 0);
	/* a superuser: nothing on the database's search_path may run here */
	searchpath_pin_worker();
	pgstat_report_appname(STARTUP_WORKER_TYPE);

	StartTransactionCommand();
	installed = OidIsValid(get_extension_oid("pgbenchx", true));
	strlcpy(dbname, get_database_name(dboid), sizeof(dbname));
	CommitTransactionCommand();

	if (installed)
	{
		marked = results_mark_orphans_aborted();
		if (marked > 0)
			ereport(LOG,
					(errmsg_plural("pgbenchx marked " UINT64_FORMAT " run or sweep aborted in database \"%s\": its coordinator did not survive the restart",
								   "pgbenchx marked " UINT64_FORMAT " runs and sweeps aborted in database \"%s\": their coordinator did not survive the restart",
								   (unsigned long) marked, marked, dbname)));
	}

	/*
	 * The files of pgbench_init calls a crash ended (initrecord.c), whether
	 * or not the extension survived: one created in the same transaction
	 * did not.
	 */
	StartTransactionCommand();
	(void) initrecord_cleanup();
	CommitTransactionCommand();
}

void
pgbenchx_startup_main(Datum main_arg)
{
	Oid			dboid = DatumGetObjectId(main_arg);

	BackgroundWorkerUnblockSignals();
	if (OidIsValid(dboid))
	{
		startup_reap_database(dboid);
		proc_exit(0);
	}
	BackgroundWorkerInitializeConnectionByOid(InvalidOid, InvalidOid, 0);
	startup_launch_all();
	/* 1: stay registered for the next crash-restart cycle (see above) */
	proc_exit(1);
}
