/*-------------------------------------------------------------------------
 *
 * heapwrite.c
 *	  The heap page writer of pgbench_init: rows laid out into frozen,
 *	  all-visible heap pages in local memory and written through smgr,
 *	  for datagen.c's serial load and datagen_par.c's workers alike.
 *
 * Rows are laid out into heap pages in local memory, exactly as
 * heap_multi_insert() with TABLE_INSERT_FROZEN would lay them out (same fill
 * rule, frozen xmin, PD_ALL_VISIBLE), and whole pages are handed to smgr in
 * batches, bypassing shared buffers.  The visibility map fork is written the
 * same way when the table is closed, every page all-visible and all-frozen.
 *
 * This is what nbtsort.c does for index builds and is only legal into a
 * relfilenode created by this subtransaction: nobody else can see the pages
 * and an abort unlinks the file.  Durability: when the relation needs WAL,
 * each batch is logged as full-page images (log_newpages) before it is
 * written.  Since the pages never pass through shared buffers, a checkpoint
 * would not know to fsync them; so each batch is written and its segment
 * handed to the checkpointer's fsync queue (smgrextend without skipFsync)
 * while DELAY_CHKPT_START holds off any checkpoint whose redo pointer could
 * fall after our WAL records: a checkpoint either replays them or syncs them.
 * That replaces nbtsort's smgrimmedsync at the end, which would wait for the
 * whole table to reach disk inside the caller's transaction.
 *
 * It knows heap pages, WAL and smgr, and nothing of pgbench's tables.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/proc.h"
#include "storage/smgr.h"
#include "utils/inval.h"
#include "utils/rel.h"

#include "heapwrite.h"
#include "pg_compat.h"

/*
 * Open relid, created by this subtransaction and still empty, for writing
 * batches of up to max_batch_pages pages.
 */
void
heapwrite_open(CommandId cid, HeapwriteTarget *target, Oid relid,
			   int max_batch_pages)
{
	SubTransactionId mysubid = GetCurrentSubTransactionId();

	memset(target, 0, sizeof(*target));
	target->rel = table_open(relid, RowExclusiveLock);
	/* only into a relfilenode of this subtransaction, as COPY FREEZE */
	if (target->rel->rd_createSubid != mysubid &&
		PGX_REL_NEW_FILE_SUBID(target->rel) != mysubid)
		elog(ERROR, "relation \"%s\" was not created by this subtransaction",
			 RelationGetRelationName(target->rel));
	if (RelationGetNumberOfBlocks(target->rel) != 0)
		elog(ERROR, "relation \"%s\" is not empty",
			 RelationGetRelationName(target->rel));
	target->use_wal = RelationNeedsWAL(target->rel);
	target->save_free = RelationGetTargetPageFreeSpace(target->rel,
													   HEAP_DEFAULT_FILLFACTOR);
	target->max_pages = Max(1, Min(max_batch_pages, HEAPWRITE_BATCH_PAGES));
	target->pages = palloc((Size) target->max_pages * BLCKSZ);
	target->npages = 0;
	target->nblocks = 0;
	target->xid = GetCurrentTransactionId();
	target->cid = cid;
}

/* Write the buffered pages: WAL first, then the file, as one unit. */
void
heapwrite_pages(SMgrRelation reln, const PgxRelFile *node, ForkNumber fork,
				bool use_wal, bool page_std, bool presized,
				BlockNumber first, int npages, char *pages)
{
	Page		pagev[HEAPWRITE_BATCH_PAGES];
	BlockNumber blknos[HEAPWRITE_BATCH_PAGES];
	volatile bool delayed = false;

	Assert(npages <= HEAPWRITE_BATCH_PAGES);
	for (int i = 0; i < npages; i++)
	{
		pagev[i] = (Page) (pages + (Size) i * BLCKSZ);
		blknos[i] = first + i;
	}

	PG_TRY();
	{
		if (use_wal)
		{
			Assert((MyProc->delayChkptFlags & DELAY_CHKPT_START) == 0);
			MyProc->delayChkptFlags |= DELAY_CHKPT_START;
			delayed = true;
			log_newpages((PgxRelFile *) node, fork, npages, blknos, pagev, page_std);
		}
		for (int i = 0; i < npages; i++)
		{
			/* the first and last page register their segments for fsync */
			bool		skip_fsync = i != 0 && i != npages - 1;

			pgx_page_set_checksum_inplace(pagev[i], blknos[i]);
			/* a presized file (see datagen_par.c) is written, not extended */
			if (presized)
				smgrwrite(reln, fork, blknos[i], (char *) pagev[i], skip_fsync);
			else
				smgrextend(reln, fork, blknos[i], (char *) pagev[i], skip_fsync);
		}
	}
	PG_FINALLY();
	{
		if (delayed)
			MyProc->delayChkptFlags &= ~DELAY_CHKPT_START;
	}
	PG_END_TRY();
}

void
heapwrite_flush(HeapwriteTarget *target)
{
	if (target->npages == 0)
		return;
	if (target->rel)
		heapwrite_pages(RelationGetSmgr(target->rel), &PGX_RELATION_FILE(target->rel),
						MAIN_FORKNUM, target->use_wal, true, false,
						target->nblocks, target->npages, target->pages);
	else
		heapwrite_pages(target->smgr, &target->node, MAIN_FORKNUM,
						target->use_wal, true, target->presized,
						target->nblocks, target->npages, target->pages);
	if (target->rel)
		pgstat_count_heap_insert(target->rel, target->ntuples);
	target->nblocks += target->npages;
	target->npages = 0;
	target->ntuples = 0;
	CHECK_FOR_INTERRUPTS();
}

/* The visibility map: every heap page written is all-visible, all-frozen. */
static void
heapwrite_write_vm(HeapwriteTarget *target)
{
	const Size	mapsize = BLCKSZ - MAXALIGN(SizeOfPageHeaderData);
	const BlockNumber per_page = mapsize * 4;	/* 2 bits per heap block */
	BlockNumber nvm = (target->nblocks + per_page - 1) / per_page;
	SMgrRelation reln = RelationGetSmgr(target->rel);

	if (nvm == 0)
		return;
	if (!smgrexists(reln, VISIBILITYMAP_FORKNUM))
		smgrcreate(reln, VISIBILITYMAP_FORKNUM, false);
	for (BlockNumber vmblk = 0; vmblk < nvm;)
	{
		int			n = 0;

		for (; vmblk < nvm && n < target->max_pages; vmblk++, n++)
		{
			Page		page = (Page) (target->pages + (Size) n * BLCKSZ);
			uint8	   *map;
			BlockNumber heapblks = Min(per_page, target->nblocks - vmblk * per_page);

			PageInit(page, BLCKSZ, 0);
			map = (uint8 *) PageGetContents(page);
			memset(map, 0xFF, heapblks / 4);
			if (heapblks % 4 != 0)
				map[heapblks / 4] = (uint8) ((1 << (2 * (heapblks % 4))) - 1);
		}
		/* the bitmap lies in the "hole" of a standard page: not page_std */
		heapwrite_pages(RelationGetSmgr(target->rel), &PGX_RELATION_FILE(target->rel),
						VISIBILITYMAP_FORKNUM,
						target->use_wal, false, false, vmblk - n, n,
						target->pages);
	}
	/* tell other backends' smgr caches that the fork exists now */
	CacheInvalidateSmgr(PGX_SMGR_FILE_BACKEND(reln));
}

void
heapwrite_close(HeapwriteTarget *target)
{
	if (target->rel == NULL)
		return;
	heapwrite_flush(target);
	heapwrite_write_vm(target);
	pfree(target->pages);
	table_close(target->rel, NoLock);
	target->rel = NULL;
}

/*
 * Take over the pages parallel workers wrote into target's relation:
 * nblocks of them, ntuples rows.  heapwrite_close() then writes the
 * visibility map.
 */
void
heapwrite_adopt(HeapwriteTarget *target, BlockNumber nblocks, int64 ntuples)
{
	Assert(target->npages == 0);
	target->nblocks = nblocks;
	pgstat_count_heap_insert(target->rel, ntuples);
}

/*
 * A target a parallel worker fills: no relation, only its file (node, opened
 * through smgr), starting at first_block.  presized: other processes write
 * the same file, which the leader has sized (smgrwrite, never smgrextend).
 */
void
heapwrite_open_node(HeapwriteTarget *target, const PgxRelFile *node,
					const HeapwritePageSpec *spec, int max_batch_pages,
					BlockNumber first_block, bool presized)
{
	memset(target, 0, sizeof(*target));
	target->node = *node;
	target->smgr = pgx_smgropen_perm(*node);
	target->use_wal = spec->use_wal;
	target->save_free = spec->save_free;
	target->xid = spec->xid;
	target->cid = spec->cid;
	target->max_pages = Max(1, Min(max_batch_pages, HEAPWRITE_BATCH_PAGES));
	target->pages = palloc((Size) target->max_pages * BLCKSZ);
	target->nblocks = first_block;
	target->presized = presized;
}

/* Write what a worker's target still buffers, and free it. */
void
heapwrite_close_node(HeapwriteTarget *target)
{
	heapwrite_flush(target);
	pfree(target->pages);
	target->pages = NULL;
}

/*
 * Append one tuple to target: tup is a heap tuple header with its data,
 * len bytes; infomask and visibility fields are set here.  Returns the
 * tuple's header in the page, for callers that patch values in place.
 */
HeapTupleHeader
heapwrite_add(HeapwriteTarget *target, HeapTupleHeader tup, Size len)
{
	Page		page;
	PageHeader	phdr;
	Size		alen = MAXALIGN(len);
	OffsetNumber off;
	HeapTupleHeader dst;

	if (target->npages > 0)
	{
		page = (Page) (target->pages + (Size) (target->npages - 1) * BLCKSZ);
		/* heap_multi_insert's rule: the first tuple of a page always fits */
		if (PageGetHeapFreeSpace(page) < alen + target->save_free)
			page = NULL;
	}
	else
		page = NULL;

	if (page == NULL)
	{
		if (target->npages == target->max_pages)
			heapwrite_flush(target);
		page = (Page) (target->pages + (Size) target->npages * BLCKSZ);
		target->npages++;
		PageInit(page, BLCKSZ, 0);
		PageSetAllVisible(page);
		if (alen > PageGetHeapFreeSpace(page))
			elog(ERROR, "tuple of %zu bytes does not fit on a page", len);
	}

	/* PageAddItem's append case, without its checks for reused slots */
	phdr = (PageHeader) page;
	off = PageGetMaxOffsetNumber(page) + 1;
	phdr->pd_upper -= alen;
	ItemIdSetNormal(PageGetItemId(page, off), phdr->pd_upper, len);
	phdr->pd_lower += sizeof(ItemIdData);

	dst = (HeapTupleHeader) ((char *) page + phdr->pd_upper);
	memcpy(dst, tup, len);
	/* heap_prepare_insert with HEAP_INSERT_FROZEN, then the TID */
	dst->t_infomask &= ~HEAP_XACT_MASK;
	dst->t_infomask2 &= ~HEAP2_XACT_MASK;
	dst->t_infomask |= HEAP_XMAX_INVALID;
	HeapTupleHeaderSetXmin(dst, target->xid);
	HeapTupleHeaderSetXminFrozen(dst);
	HeapTupleHeaderSetCmin(dst, target->cid);
	HeapTupleHeaderSetXmax(dst, 0);
	ItemPointerSet(&dst->t_ctid, target->nblocks + target->npages - 1, off);
	target->ntuples++;
	return dst;
}

/* Form a tuple for target's descriptor and append it. */
void
heapwrite_add_values(HeapwriteTarget *target, Datum *values, bool *nulls)
{
	HeapTuple	tuple = heap_form_tuple(RelationGetDescr(target->rel),
										values, nulls);

	heapwrite_add(target, tuple->t_data, tuple->t_len);
	heap_freetuple(tuple);
}
