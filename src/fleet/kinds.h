/*-------------------------------------------------------------------------
 *
 * kinds.h
 *	  fleet/'s launch kinds and step kinds (a part, a run driven from
 *	  generators), handed to run/ by the top layer.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_KINDS_H
#define PGBENCHX_KINDS_H

/* _PG_init: register fleet/'s kinds with launch and the coordinator */
extern void fleet_register_kinds(void);

#endif							/* PGBENCHX_KINDS_H */
