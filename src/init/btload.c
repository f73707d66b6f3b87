/*-------------------------------------------------------------------------
 *
 * btload.c
 *	  Build a unique btree on one int4 or int8 column directly from a stream
 *	  of (key, heap TID) pairs in strictly increasing key order: no heap
 *	  scan, no sort.
 *
 * pgbench_init places every pgbench_accounts row itself, in aid order, so
 * it knows each key's TID the moment it writes the heap tuple; sorting the
 * keys back out of the heap afterwards (what ALTER TABLE ... ADD PRIMARY KEY
 * does) is work whose answer is known in advance.  This file produces the
 * pages nbtsort.c's _bt_load() would produce for that input: the same fill
 * rules (leaf fillfactor of the index, BTREE_NONLEAF_FILLFACTOR above), the
 * same high keys, suffix truncation, minus-infinity items, sibling links,
 * block allocation order and metapage (version 4, allequalimage as
 * _bt_allequalimage() says; never deduplicated, since the index is unique).
 * The index must already exist in the catalog (created on the empty table
 * by normal DDL); btload_begin() gives it a new, empty relfilenode as
 * REINDEX does, so the old one is unlinked at commit and no shared buffer
 * can hold a stale page of the new one.
 *
 * Pages are written through smgr in batches, WAL-logged as full-page images
 * first when the index needs WAL, under DELAY_CHKPT_START and with their
 * segments queued for the checkpointer's fsync: the discipline of
 * datagen.c's heap writer, see there.
 *
 * This file knows the btree page format; it must not know about pgbench.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "catalog/storage.h"
#include "catalog/storage_xlog.h"
#include "miscadmin.h"
#include "storage/bufpage.h"
#include "storage/proc.h"
#include "storage/smgr.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#include "btload.h"
#include "initrecord.h"
#include "pg_compat.h"

/* pages per write batch: one WAL record of full-page images */
#define BTLOAD_BATCH_PAGES	XLR_MAX_BLOCK_ID

/* The page being filled on one level of the tree, as nbtsort's BTPageState. */
typedef struct BtloadLevel
{
	Page		page;			/* palloc'd workspace */
	BlockNumber blkno;			/* where it will be written */
	IndexTuple	lowkey;			/* becomes the page's downlink in its parent */
	OffsetNumber lastoff;		/* last item added, P_HIKEY if none */
	uint32		level;			/* 0 = leaf */
	Size		full;			/* free space below which the page is full */
	struct BtloadLevel *parent; /* NULL until the level has a second page */
} BtloadLevel;

struct BtloadState
{
	Relation	index;
	bool		use_wal;
	bool		int8key;
	bool		allequalimage;
	BlockNumber alloced;		/* blocks handed out, metapage included */
	BlockNumber written;		/* blocks in the file */
	BtloadLevel *leaf;			/* NULL until the first tuple */
	int64		lastkey;
	int64		ntuples;
	IndexTuple	leaftup;		/* the leaf tuple being added */
	Size		leaftupsz;
	/* the write batch */
	int			nbatch;
	BlockNumber batch_blknos[BTLOAD_BATCH_PAGES];
	char	   *batch;			/* BTLOAD_BATCH_PAGES * BLCKSZ */
	char	   *zeropage;
};

/* A new, empty btree page of the given level, P_HIKEY's slot reserved. */
static Page
btload_newpage(uint32 level)
{
	Page		page = (Page) palloc(BLCKSZ);
	BTPageOpaque opaque;

	_bt_pageinit(page, BLCKSZ);
	opaque = BTPageGetOpaque(page);
	opaque->btpo_prev = opaque->btpo_next = P_NONE;
	opaque->btpo_level = level;
	opaque->btpo_flags = (level > 0) ? 0 : BTP_LEAF;
	opaque->btpo_cycleid = 0;
	/* the high key goes first; which pages get one is known later */
	((PageHeader) page)->pd_lower += sizeof(ItemIdData);
	return page;
}

static BtloadLevel *
btload_level_new(BtloadState *st, uint32 level)
{
	BtloadLevel *lv = palloc0(sizeof(BtloadLevel));

	lv->page = btload_newpage(level);
	lv->blkno = st->alloced++;
	lv->lowkey = NULL;
	lv->lastoff = P_HIKEY;
	lv->level = level;
	lv->full = level > 0 ?
		BLCKSZ * (100 - BTREE_NONLEAF_FILLFACTOR) / 100 :
		BTGetTargetPageFreeSpace(st->index);
	lv->parent = NULL;
	return lv;
}

/*
 * Write the batch: full-page images into WAL first, then the blocks, in the
 * order they were queued.  Blocks may come out of order (a parent's block
 * is handed out before its children's later siblings): the gap is filled
 * with zeroes and the block overwritten when its page is done, as nbtsort
 * does.
 */
static void
btload_write_batch(BtloadState *st, Page *pagev)
{
	SMgrRelation reln = RelationGetSmgr(st->index);
	BlockNumber synced_seg = InvalidBlockNumber;

	for (int i = 0; i < st->nbatch; i++)
	{
		BlockNumber blkno = st->batch_blknos[i];
		BlockNumber seg = blkno / RELSEG_SIZE;

		/* zeroes are never left: each one is overwritten later */
		while (blkno > st->written)
		{
			if (st->zeropage == NULL)
				st->zeropage = palloc0(BLCKSZ);
			smgrextend(reln, MAIN_FORKNUM, st->written++, st->zeropage, true);
		}
		pgx_page_set_checksum_inplace(pagev[i], blkno);
		/* each segment the batch writes is queued for fsync at least once */
		if (blkno == st->written)
		{
			smgrextend(reln, MAIN_FORKNUM, blkno, (char *) pagev[i],
					   seg == synced_seg);
			st->written++;
		}
		else
			smgrwrite(reln, MAIN_FORKNUM, blkno, (char *) pagev[i],
					  seg == synced_seg);
		synced_seg = seg;
	}
}

/* WAL first, then the file, as one unit no checkpoint can split */
static void
btload_logged_write(BtloadState *st, Page *pagev)
{
	volatile bool delayed = false;

	PG_TRY();
	{
		if (st->use_wal)
		{
			Assert((MyProc->delayChkptFlags & DELAY_CHKPT_START) == 0);
			MyProc->delayChkptFlags |= DELAY_CHKPT_START;
			delayed = true;
			log_newpages(&PGX_RELATION_FILE(st->index), MAIN_FORKNUM, st->nbatch,
						 st->batch_blknos, pagev, true);
		}
		btload_write_batch(st, pagev);
	}
	PG_FINALLY();
	{
		if (delayed)
			MyProc->delayChkptFlags &= ~DELAY_CHKPT_START;
	}
	PG_END_TRY();
}

static void
btload_flush(BtloadState *st)
{
	Page		pagev[BTLOAD_BATCH_PAGES];

	if (st->nbatch == 0)
		return;
	for (int i = 0; i < st->nbatch; i++)
		pagev[i] = (Page) (st->batch + (Size) i * BLCKSZ);
	btload_logged_write(st, pagev);
	st->nbatch = 0;
	CHECK_FOR_INTERRUPTS();
}

/* Queue a finished page for writing, and free it. */
static void
btload_write(BtloadState *st, Page page, BlockNumber blkno)
{
	if (st->nbatch == BTLOAD_BATCH_PAGES)
		btload_flush(st);
	memcpy(st->batch + (Size) st->nbatch * BLCKSZ, page, BLCKSZ);
	st->batch_blknos[st->nbatch++] = blkno;
	pfree(page);
}

/*
 * Add itup at offset off.  The first data item of a page above the leaves
 * is stored as minus infinity: its downlink alone, no key.
 */
static void
btload_page_add(Page page, IndexTuple itup, Size itemsize, OffsetNumber off,
				bool minus_infinity)
{
	IndexTupleData trunc;

	if (minus_infinity)
	{
		trunc = *itup;
		trunc.t_info = sizeof(IndexTupleData);
		BTreeTupleSetNAtts(&trunc, 0, false);
		itup = &trunc;
		itemsize = sizeof(IndexTupleData);
	}
	if (PageAddItem(page, PGX_ITEM(itup), itemsize, off, false, false) == InvalidOffsetNumber)
		elog(ERROR, "failed to add item to the index page");
}

/*
 * Append itup to the level's current page; when the page is full, finish
 * it: its last item moves to a new page and becomes, truncated, its high
 * key, and its low key goes up to the parent level as a downlink.  The rules
 * are nbtsort.c's _bt_buildadd() for tuples without posting lists.
 */
static void
btload_add_to_level(BtloadState *st, BtloadLevel *lv, IndexTuple itup)
{
	Page		page = lv->page;
	Size		pgspc = PageGetFreeSpace(page);
	Size		itupsz = MAXALIGN(IndexTupleSize(itup));
	bool		isleaf = (lv->level == 0);

	/* a leaf keeps room for a heap TID in its high key */
	if (pgspc < itupsz + (isleaf ? MAXALIGN(sizeof(ItemPointerData)) : 0) ||
		(pgspc < lv->full && lv->lastoff > P_FIRSTKEY))
	{
		Page		opage = page;
		BlockNumber oblkno = lv->blkno;
		BlockNumber nblkno;
		ItemId		ii;
		ItemId		hii;
		IndexTuple	oitup;
		BTPageOpaque oopaque;
		BTPageOpaque nopaque;

		page = btload_newpage(lv->level);
		nblkno = st->alloced++;

		/* the old page's last item opens the new page */
		ii = PageGetItemId(opage, lv->lastoff);
		oitup = (IndexTuple) PageGetItem(opage, ii);
		btload_page_add(page, oitup, ItemIdGetLength(ii), P_FIRSTKEY, !isleaf);

		/* and becomes the old page's high key, in place */
		hii = PageGetItemId(opage, P_HIKEY);
		*hii = *ii;
		ItemIdSetUnused(ii);
		((PageHeader) opage)->pd_lower -= sizeof(ItemIdData);
		oitup = (IndexTuple) PageGetItem(opage, hii);
		if (isleaf)
		{
			/*
			 * Suffix truncation (_bt_truncate): keys strictly increase, so
			 * the key alone separates the last item on the left from the
			 * first on the right.  The pivot keeps the one key attribute
			 * and no heap TID; its size does not change, and its TID field
			 * keeps the block of firstright's heap TID, as nbtsort leaves it.
			 */
			BTreeTupleSetNAtts(oitup, 1, false);
		}

		/* the old page's downlink goes into the parent level */
		if (lv->parent == NULL)
			lv->parent = btload_level_new(st, lv->level + 1);
		BTreeTupleSetDownLink(lv->lowkey, oblkno);
		btload_add_to_level(st, lv->parent, lv->lowkey);
		pfree(lv->lowkey);
		/* the old page's high key is the new page's low key */
		lv->lowkey = CopyIndexTuple(oitup);

		oopaque = BTPageGetOpaque(opage);
		nopaque = BTPageGetOpaque(page);
		oopaque->btpo_next = nblkno;
		nopaque->btpo_prev = oblkno;
		nopaque->btpo_next = P_NONE;

		btload_write(st, opage, oblkno);
		lv->page = page;
		lv->blkno = nblkno;
		lv->lastoff = P_FIRSTKEY;
	}

	/* the first item of a level: its page's low key is minus infinity */
	if (lv->lastoff == P_HIKEY)
	{
		lv->lowkey = palloc0(sizeof(IndexTupleData));
		lv->lowkey->t_info = sizeof(IndexTupleData);
		BTreeTupleSetNAtts(lv->lowkey, 0, false);
	}

	lv->lastoff = OffsetNumberNext(lv->lastoff);
	btload_page_add(page, itup, itupsz, lv->lastoff,
					!isleaf && lv->lastoff == P_FIRSTKEY);
}

/*
 * Start building index indexoid, a unique btree on one int4 or int8 column
 * without INCLUDE columns, expressions or predicate, created (with its
 * table) in this transaction.  The index gets a new, empty relfilenode.
 */
BtloadState *
btload_begin(Oid indexoid)
{
	BtloadState *st = palloc0(sizeof(BtloadState));
	Relation	index;
	Oid			keytype;

	index = index_open(indexoid, AccessExclusiveLock);
	if (index->rd_rel->relam != BTREE_AM_OID ||
		!index->rd_index->indisunique ||
		IndexRelationGetNumberOfAttributes(index) != 1 ||
		index->rd_index->indkey.values[0] == 0 ||
		!heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL))
		elog(ERROR, "index \"%s\" is not a unique btree on one column",
			 RelationGetRelationName(index));
	keytype = TupleDescAttr(RelationGetDescr(index), 0)->atttypid;
	if (keytype != INT4OID && keytype != INT8OID)
		elog(ERROR, "index \"%s\" is not on an int4 or int8 column",
			 RelationGetRelationName(index));
	if (index->rd_createSubid != GetCurrentSubTransactionId())
		elog(ERROR, "index \"%s\" was not created by this subtransaction",
			 RelationGetRelationName(index));

	/* a new, empty file, as REINDEX: no page of it is in shared buffers */
	pgx_relation_set_new_relfile(index, index->rd_rel->relpersistence);
	/* pgbench_init's crash record lists it (initrecord.c) */
	initrecord_note_file(index->rd_rel->reltablespace, PGX_RELFILE_NUM(PGX_RELATION_FILE(index)));
	if (index->rd_rel->relpersistence == RELPERSISTENCE_UNLOGGED)
	{
		/* index_build()'s init fork: the empty index an unlogged one resets to */
		smgrcreate(RelationGetSmgr(index), INIT_FORKNUM, false);
		log_smgrcreate(&PGX_RELATION_FILE(index), INIT_FORKNUM);
		index->rd_indam->ambuildempty(index);
	}

	st->index = index;
	st->use_wal = RelationNeedsWAL(index);
	st->int8key = (keytype == INT8OID);
	st->allequalimage = _bt_allequalimage(index, false);
	st->alloced = BTREE_METAPAGE + 1;
	st->written = 0;
	st->leaf = NULL;
	st->lastkey = PG_INT64_MIN;
	st->batch = palloc((Size) BTLOAD_BATCH_PAGES * BLCKSZ);

	/* index_form_tuple()'s layout: header, then the key, MAXALIGN'd size */
	st->leaftupsz = MAXALIGN(IndexInfoFindDataOffset(0) +
							 (st->int8key ? sizeof(int64) : sizeof(int32)));
	st->leaftup = palloc0(st->leaftupsz);
	st->leaftup->t_info = st->leaftupsz;
	return st;
}

/* Add one key and the TID of its heap tuple; keys must strictly increase. */
void
btload_add(BtloadState *st, int64 key, ItemPointer tid)
{
	char	   *data = (char *) st->leaftup + IndexInfoFindDataOffset(0);

	if (key <= st->lastkey && st->ntuples > 0)
		elog(ERROR, "btload keys out of order: " INT64_FORMAT " after " INT64_FORMAT,
			 key, st->lastkey);
	st->lastkey = key;
	st->ntuples++;

	if (st->int8key)
		memcpy(data, &key, sizeof(int64));
	else
	{
		int32		key32 = (int32) key;

		if (key32 != key)
			elog(ERROR, "btload key " INT64_FORMAT " out of range for int4", key);
		memcpy(data, &key32, sizeof(int32));
	}
	ItemPointerCopy(tid, &st->leaftup->t_tid);

	if (st->leaf == NULL)
		st->leaf = btload_level_new(st, 0);
	btload_add_to_level(st, st->leaf, st->leaftup);
}

/*
 * Finish every level's last page (rightmost: no high key), link it into its
 * parent, mark the top one root, then write the metapage pointing at it:
 * nbtsort.c's _bt_uppershutdown().  Closes the index.
 */
void
btload_end(BtloadState *st)
{
	BlockNumber rootblkno = P_NONE;
	uint32		rootlevel = 0;
	Page		metapage;

	for (BtloadLevel *lv = st->leaf; lv != NULL; lv = lv->parent)
	{
		BTPageOpaque opaque = BTPageGetOpaque(lv->page);
		OffsetNumber maxoff;
		ItemId		previi;

		if (lv->parent == NULL)
		{
			opaque->btpo_flags |= BTP_ROOT;
			rootblkno = lv->blkno;
			rootlevel = lv->level;
		}
		else
		{
			BTreeTupleSetDownLink(lv->lowkey, lv->blkno);
			btload_add_to_level(st, lv->parent, lv->lowkey);
		}
		pfree(lv->lowkey);
		lv->lowkey = NULL;

		/* rightmost: slide the line pointers over the unused high key slot */
		maxoff = PageGetMaxOffsetNumber(lv->page);
		previi = PageGetItemId(lv->page, P_HIKEY);
		for (OffsetNumber off = P_FIRSTKEY; off <= maxoff; off = OffsetNumberNext(off))
		{
			ItemId		thisii = PageGetItemId(lv->page, off);

			*previi = *thisii;
			previi = thisii;
		}
		((PageHeader) lv->page)->pd_lower -= sizeof(ItemIdData);
		btload_write(st, lv->page, lv->blkno);
		lv->page = NULL;
	}

	metapage = (Page) palloc(BLCKSZ);
	_bt_initmetapage(metapage, rootblkno, rootlevel, st->allequalimage);
	btload_write(st, metapage, BTREE_METAPAGE);
	btload_flush(st);

	index_close(st->index, NoLock);
	st->index = NULL;
}

int64
btload_ntuples(const BtloadState *st)
{
	return st->ntuples;
}
