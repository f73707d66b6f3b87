/*-------------------------------------------------------------------------
 *
 * driver.h
 *	  The driver background worker (pgbench's thread).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_DRIVER_H
#define PGBENCHX_DRIVER_H

extern PGDLLEXPORT void driver_main(Datum main_arg);

#endif							/* PGBENCHX_DRIVER_H */
