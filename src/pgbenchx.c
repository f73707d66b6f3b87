/*-------------------------------------------------------------------------
 *
 * pgbenchx.c
 *	  Module entry: _PG_init, the pgbenchx.* GUC namespace, and the
 *	  SQL-callable entry points.
 *
 * This file validates arguments and hands off to the file that owns each
 * job (datagen.c for pgbench_init).  It must not grow the jobs themselves.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "datagen.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

PG_FUNCTION_INFO_V1(pgbench_init);

void
_PG_init(void)
{
#if PG_VERSION_NUM >= 150000
	MarkGUCPrefixReserved("pgbenchx");
#else
	EmitWarningsOnPlaceholders("pgbenchx");
#endif
}

/* Raise the standard error for a NULL argument that has no meaning. */
static void
pgbenchx_null_argument(const char *argname)
{
	ereport(ERROR,
			(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			 errmsg("argument \"%s\" must not be null", argname),
			 errhint("Omit the argument to use its default.")));
}

/*
 * pgbench_init(scale, fillfactor, partitions, partition_method, unlogged,
 *				foreign_keys) returns text
 */
Datum
pgbench_init(PG_FUNCTION_ARGS)
{
	static const char *const argnames[] = {
		"scale", "fillfactor", "partitions", "partition_method",
		"unlogged", "foreign_keys"
	};
	DatagenOptions opts;
	char	   *method;

	for (int i = 0; i < PG_NARGS(); i++)
		if (PG_ARGISNULL(i))
			pgbenchx_null_argument(argnames[i]);

	opts.scale = PG_GETARG_INT32(0);
	opts.fillfactor = PG_GETARG_INT32(1);
	opts.partitions = PG_GETARG_INT32(2);
	method = text_to_cstring(PG_GETARG_TEXT_PP(3));
	opts.unlogged = PG_GETARG_BOOL(4);
	opts.foreign_keys = PG_GETARG_BOOL(5);

	if (opts.scale < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("scale must be at least 1, not %d", opts.scale),
				 errdetail("The scale is the number of branches; each brings 10 tellers and 100000 accounts."),
				 errhint("Pass a scale of 1 or more, as with pgbench -i -s.")));
	if (opts.scale > DATAGEN_MAX_SCALE)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("scale %d is too large", opts.scale),
				 errdetail("pgbench_tellers.tid is an integer holding up to 10 * scale, so the scale can be at most %d.",
						   DATAGEN_MAX_SCALE),
				 errhint("Pass a scale of at most %d.", DATAGEN_MAX_SCALE)));
	if (opts.fillfactor < 10 || opts.fillfactor > 100)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fillfactor must be in range 10..100, not %d",
						opts.fillfactor),
				 errdetail("The fillfactor is the percentage of each table page that is filled, as with pgbench -i -F."),
				 errhint("Pass a fillfactor between 10 and 100.")));
	if (opts.partitions < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partitions must be 0 or more, not %d", opts.partitions),
				 errdetail("partitions is the number of partitions of pgbench_accounts; 0 means not partitioned."),
				 errhint("Pass 0 for a plain table, or a positive number of partitions.")));

	if (pg_strcasecmp(method, "range") == 0)
		opts.method = DATAGEN_PART_RANGE;
	else if (pg_strcasecmp(method, "hash") == 0)
		opts.method = DATAGEN_PART_HASH;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid partition method \"%s\"", method),
				 errdetail("pgbench partitions pgbench_accounts by range or by hash."),
				 errhint("Pass partition_method => 'range' or 'hash'.")));
	if (opts.method == DATAGEN_PART_HASH && opts.partitions == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition method \"hash\" requires partitions greater than zero"),
				 errdetail("pgbench_accounts is partitioned only when partitions is greater than zero."),
				 errhint("Pass partitions => N as well, with N of 1 or more.")));

	PG_RETURN_TEXT_P(cstring_to_text(datagen_run(&opts)));
}
