/*-------------------------------------------------------------------------
 * searchpath.h
 *	  The search_path that pgbenchx's own SQL runs under (searchpath.c).
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_SEARCHPATH_H
#define PGBENCHX_SEARCHPATH_H

/* the search_path of every statement of pgbenchx's own that names no user table */
#define SEARCHPATH_SAFE "pg_catalog, pg_temp"

extern int	searchpath_pin(void);
extern void searchpath_restore(int nestlevel);
extern void searchpath_pin_worker(void);

#endif							/* PGBENCHX_SEARCHPATH_H */
