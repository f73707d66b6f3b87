/*-------------------------------------------------------------------------
 *
 * worker.c
 *	  What every pgbenchx background worker shares: how one is described to
 *	  the postmaster, how many drivers a step gets by default, and the open
 *	  file limit a driver raises for its clients' sockets.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/resource.h>

#include "miscadmin.h"
#include "postmaster/bgworker.h"

#include "pg_compat.h"
#include "worker.h"

void
worker_spec(BackgroundWorker *worker, const char *function,
			const char *type, Datum main_arg)
{
	memset(worker, 0, sizeof(*worker));
	/* the drivers connect to no database, but need it to show up as a type */
	worker->bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION |
		PGX_BGWORKER_INTERRUPTIBLE;
	worker->bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker->bgw_restart_time = BGW_NEVER_RESTART;
	/* $libdir: a bare name fails to load on non-default installs */
	strlcpy(worker->bgw_library_name, "$libdir/pgbenchx", BGW_MAXLEN);
	strlcpy(worker->bgw_function_name, function, BGW_MAXLEN);
	strlcpy(worker->bgw_type, type, BGW_MAXLEN);
	strlcpy(worker->bgw_name, type, BGW_MAXLEN);
	worker->bgw_main_arg = main_arg;
	worker->bgw_notify_pid = MyProcPid;
}

long
worker_raise_nofile(long want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -1;
	if (rl.rlim_cur == RLIM_INFINITY)
		return -1;
	if ((long) rl.rlim_cur < want && rl.rlim_cur < rl.rlim_max)
	{
		rlim_t		old = rl.rlim_cur;

		rl.rlim_cur = (rl.rlim_max == RLIM_INFINITY || (long) rl.rlim_max > want) ?
			(rlim_t) want : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			rl.rlim_cur = old;
	}
	return (long) rl.rlim_cur;
}

int
worker_default_jobs(int clients, int ncpus, int free_slots)
{
	int			jobs = Max(1, (ncpus + 1) / 2);

	jobs = Min(jobs, clients);
	jobs = Min(jobs, free_slots - 1);
	return Max(jobs, 1);
}
