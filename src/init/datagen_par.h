/*-------------------------------------------------------------------------
 *
 * datagen_par.h
 *	  pgbench_init's parallel load of pgbench_accounts (datagen_par.c): what
 *	  datagen.c hands it, and its generator background worker.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_DATAGEN_PAR_H
#define PGBENCHX_DATAGEN_PAR_H

#include "access/htup.h"

#include "datagen.h"

/*
 * The parallel load of pgbench_accounts (datagen_par.c): what the serial
 * path of datagen.c has prepared, and how it reports progress.
 */
typedef struct DatagenParInput
{
	const DatagenOptions *opts;
	int			jobs;			/* workers, 2 or more */
	bool		bigcols;		/* aid is bigint */
	CommandId	cid;
	Oid			accounts;		/* pgbench_accounts */
	HeapTuple	template;		/* the row, aid and bid to patch */
	Size		aid_off;		/* offsets of aid and bid in its data */
	Size		bid_off;
	int64		rows_total;
	void		(*progress) (void *arg, int64 rows_done, bool last);
	void	   *progress_arg;
} DatagenParInput;

/* the number of workers the accounts load can use at most with jobs */
extern int	datagen_par_jobs_used(const DatagenOptions *opts, int jobs);
extern void datagen_par_load_accounts(const DatagenParInput *in);

extern PGDLLEXPORT void datagen_par_worker_main(Datum main_arg);

#endif							/* PGBENCHX_DATAGEN_PAR_H */
