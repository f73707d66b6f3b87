/*-------------------------------------------------------------------------
 *
 * datagen.h
 *	  pgbench_init: the pgbench tables, created and filled server-side.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_DATAGEN_H
#define PGBENCHX_DATAGEN_H

/* pgbench's constants */
#define DATAGEN_NBRANCHES			1
#define DATAGEN_NTELLERS			10
#define DATAGEN_NACCOUNTS			100000
#define DATAGEN_SCALE_32BIT_THRESHOLD 20000

/* with more partitions than this, each one buffers a single page */
#define DATAGEN_MANY_PARTITIONS		16

/* pgbench_tellers.tid is an int holding up to 10 * scale */
#define DATAGEN_MAX_SCALE	(PG_INT32_MAX / 10)

typedef enum DatagenPartitionMethod
{
	DATAGEN_PART_RANGE,
	DATAGEN_PART_HASH
} DatagenPartitionMethod;

/* pgbench -i options, checked by datagen_check_options */
typedef struct DatagenOptions
{
	int			scale;			/* -s */
	int			fillfactor;		/* -F */
	int			partitions;		/* --partitions, 0 = not partitioned */
	DatagenPartitionMethod method;	/* --partition-method */
	bool		unlogged;		/* --unlogged-tables */
	bool		foreign_keys;	/* --foreign-keys */
	int			jobs;			/* workers generating pgbench_accounts, 1: none */
	const char *tablespace;		/* --tablespace: the tables, NULL: default */
	const char *index_tablespace;	/* --index-tablespace: the primary keys */
} DatagenOptions;

/*
 * Check pgbench_init's arguments as pgbench -i does (ERROR with a hint for
 * a wrong one); sets opts->method from method ("range" or "hash") and
 * opts->jobs from jobs (the default when not jobs_given).  Refuses a
 * tablespace or index_tablespace (NULL: the database's default) that does
 * not exist, before anything is dropped; whether the caller may create in
 * it is PostgreSQL's own check when the DDL runs as the caller.
 */
extern void datagen_check_options(DatagenOptions *opts, const char *method,
								  bool jobs_given, int jobs);

/*
 * Drop, create, fill, index and analyze the pgbench tables in the caller's
 * transaction.  Returns pgbench's "done in ..." summary line, palloc'd,
 * with the number of jobs used at its end.
 */
extern char *datagen_run(const DatagenOptions *opts);

#endif							/* PGBENCHX_DATAGEN_H */
