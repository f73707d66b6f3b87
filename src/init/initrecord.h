/*-------------------------------------------------------------------------
 * initrecord.h
 *	  pgbench_init's crash record (initrecord.c): what a call created, kept
 *	  on disk until its transaction ends, so that the files of a transaction
 *	  a crash ended can be removed afterwards.
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_INITRECORD_H
#define PGBENCHX_INITRECORD_H

/* _PG_init: the object access hook that notes new relations */
extern void initrecord_install_hook(void);

/*
 * pgbench_init: open (or reopen) this transaction's record and note; from
 * then on the transaction may not be prepared, and a subtransaction's abort
 * takes its entries out of the record
 */
extern void initrecord_start(void);
/* note a new file given to a relation (RelationSetNewRelfilenode) */
extern void initrecord_note_file(Oid reltablespace, Oid relfilenode);
/* make what was noted durable (before the new relations get data) */
extern void initrecord_sync(void);
/* stop noting (the record stays until the transaction ends) */
extern void initrecord_stop(void);

/*
 * Remove the files left by pgbench_init calls of the current database whose
 * transaction (and the subtransaction that created the file) a crash ended,
 * unless a relation uses them or is being given them, then their records.
 * Needs a transaction; skipped while another session runs it.  Returns the
 * number of relations whose files were removed.
 */
extern int	initrecord_cleanup(void);

#endif							/* PGBENCHX_INITRECORD_H */
