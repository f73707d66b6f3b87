/*-------------------------------------------------------------------------
 *
 * datagen_par.h
 *	  The generator background worker of pgbench_init's parallel load
 *	  (datagen_par.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_DATAGEN_PAR_H
#define PGBENCHX_DATAGEN_PAR_H

extern PGDLLEXPORT void datagen_par_worker_main(Datum main_arg);

#endif							/* PGBENCHX_DATAGEN_PAR_H */
