/*-------------------------------------------------------------------------
 *
 * btload.h
 *	  A unique int4/int8 btree built directly from (key, heap TID) pairs in
 *	  key order, page for page what CREATE INDEX would build.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_BTLOAD_H
#define PGBENCHX_BTLOAD_H

#include "storage/itemptr.h"

typedef struct BtloadState BtloadState;

/*
 * Start rebuilding index indexoid (created by this subtransaction) from
 * scratch: it gets a new, empty relfilenode.  Then btload_add() each key in
 * strictly increasing order with its heap tuple's TID, and btload_end().
 */
extern BtloadState *btload_begin(Oid indexoid);
extern void btload_add(BtloadState *st, int64 key, ItemPointer tid);
extern void btload_end(BtloadState *st);
extern int64 btload_ntuples(const BtloadState *st);

#endif							/* PGBENCHX_BTLOAD_H */
