/*-------------------------------------------------------------------------
 *
 * options_list.h
 *	  The options of the launch_* calls, one line each: the one list from
 *	  which options.c's table, the ids of run_options.h and the options a
 *	  recorder sends each generator's part (recorder.c) are made.
 *
 * An X-macro list, as PostgreSQL's access/rmgrlist.h: no include guard, and
 * whoever includes it defines PGBX_OPTION first and undefines it after.
 *
 *	PGBX_OPTION(id, name, type, calls, required, default, nullable,
 *				null_hint, field, given, check, to_part)
 *
 * id		unique C name: PGBX_OPT_<id> (run_options.h); a name taken by
 *			two lines (clients, script) has one id per line
 * name		the key in the jsonb object, the wrapper's parameter
 * type		INT4, INT8, FLOAT8, BOOL, TEXT, JSONB, INT4_LIST (int[], no
 *			NULL), TEXT_LIST (text[], no NULL); the field must have its C type
 *			(options.c checks it at build time)
 * calls	the PGBX_* bits (run_options.h) of the calls that take it
 * required	no default: the object must have it
 * default	in SQL's text form, as the wrapper declares it; NULL: NULL
 * nullable	NULL means "not given"; else NULL is refused, with null_hint
 *			(NULL: the usual hint)
 * field	where the value goes in options.h's PgbxCall (o.x: LaunchOptions)
 * given	PGBX_AT(flag): a bool of PgbxCall set when a value (not NULL) was
 *			given; PGBX_NO_FLAG: none
 * check	an options.c function run on a value given, or NULL
 * to_part	how the option reaches a generator's part (issue 14) when a
 *			recorder drives the run:
 *			SENT	 recorder_part_options writes it into each part's
 *					 launch_part object (its case there, or the build fails;
 *					 launch_part must take it: PGBX_PART in calls)
 *			NOT_SENT never: the recorder's alone, or carried by another
 *					 line, or launch_part's own left to its default (the
 *					 comment says which)
 *
 * The order is the wrappers' (src/sql/10_entry_points.sql): options.c
 * reads and checks the options in this order, so the first error a call
 * meets is the same whichever order its object lists them in.  Adding an
 * option: src/README.md, "Starting a run: the options seam".
 *
 *-------------------------------------------------------------------------
 */

/* id, name, type, calls, required, default, nullable, null hint, field, given, check, to_part */
PGBX_OPTION(clients, "clients", INT4, PGBX_BENCH | PGBX_PART, true, NULL, false, NULL, clients, PGBX_NO_FLAG, NULL, SENT)
/* each step's clients: the parts get theirs as clients */
PGBX_OPTION(clients_list, "clients", INT4_LIST, PGBX_LIST, true, NULL, false, NULL, clients_list, PGBX_NO_FLAG, NULL, NOT_SENT)
/* the parts get the statements as replay_queries */
PGBX_OPTION(queries, "queries", TEXT, PGBX_REPLAY, true, NULL, false,
			"Pass the statements to replay, or a server file name with from_file => true.",
			queries, PGBX_NO_FLAG, NULL, NOT_SENT)
/* the ladder is the recorder's: each step's parts get their clients */
PGBX_OPTION(min_clients, "min_clients", INT4, PGBX_SWEEP | PGBX_REPLAY | PGBX_EXPERIMENT, true, NULL, false, NULL, min_clients, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(max_clients, "max_clients", INT4, PGBX_SWEEP | PGBX_REPLAY | PGBX_EXPERIMENT, true, NULL, false, NULL, max_clients, PGBX_NO_FLAG, NULL, NOT_SENT)
/* the recorder read the file: the parts get the statements */
PGBX_OPTION(from_file, "from_file", BOOL, PGBX_REPLAY, false, "false", false, NULL, from_file, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(shuffle, "shuffle", BOOL, PGBX_REPLAY | PGBX_PART, false, "false", false, NULL, o.shuffle, PGBX_NO_FLAG, NULL, SENT)
PGBX_OPTION(duration, "duration", INT4, PGBX_RUNS | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.duration, PGBX_AT(o.duration_given), pgbx_check_duration, SENT)
/* the mix goes to the parts inline, as scripts */
PGBX_OPTION(script, "script", TEXT, PGBX_RUNS | PGBX_EXPERIMENT, false, "tpcb-like", false, NULL, o.script, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(jobs, "jobs", INT4, PGBX_ALL | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.jobs, PGBX_AT(o.jobs_given), pgbx_check_jobs, SENT)
PGBX_OPTION(protocol, "protocol", TEXT, PGBX_ALL | PGBX_EXPERIMENT | PGBX_PART, false, "simple", false, NULL, o.protocol, PGBX_NO_FLAG, NULL, SENT)
PGBX_OPTION(transactions, "transactions", INT8, PGBX_RUNS | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.transactions, PGBX_AT(o.transactions_given), pgbx_check_transactions, SENT)
/* the maintenance is done once, by the recorder, on the server under test */
PGBX_OPTION(vacuum, "vacuum", BOOL, PGBX_RUNS | PGBX_EXPERIMENT, false, "true", false, NULL, o.vacuum, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(checkpoint, "checkpoint", BOOL, PGBX_ALL | PGBX_EXPERIMENT, false, "true", false, NULL, o.checkpoint, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(label, "label", TEXT, PGBX_ALL | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.label, PGBX_NO_FLAG, NULL, SENT)
PGBX_OPTION(conninfo, "conninfo", TEXT, PGBX_ALL | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.conninfo, PGBX_NO_FLAG, NULL, SENT)
PGBX_OPTION(random_seed, "random_seed", INT8, PGBX_ALL | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.random_seed, PGBX_AT(o.random_seed_given), NULL, SENT)
PGBX_OPTION(variables, "variables", JSONB, PGBX_RUNS | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.variables, PGBX_NO_FLAG, NULL, SENT)
PGBX_OPTION(rate, "rate", FLOAT8, PGBX_RUNS | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.rate, PGBX_AT(o.rate_given), pgbx_check_rate, SENT)
PGBX_OPTION(latency_limit, "latency_limit", FLOAT8, PGBX_RUNS | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.latency_limit, PGBX_AT(o.latency_limit_given), pgbx_check_latency_limit, SENT)
PGBX_OPTION(max_tries, "max_tries", INT4, PGBX_RUNS | PGBX_EXPERIMENT | PGBX_PART, false, "1", false, NULL, o.max_tries, PGBX_NO_FLAG, pgbx_check_max_tries, SENT)
PGBX_OPTION(connect_per_transaction, "connect_per_transaction", BOOL, PGBX_RUNS | PGBX_EXPERIMENT | PGBX_PART, false, "false", false, NULL, o.connect_per_transaction, PGBX_NO_FLAG, NULL, SENT)
PGBX_OPTION(tags, "tags", JSONB, PGBX_ALL | PGBX_EXPERIMENT | PGBX_PART, false, NULL, true, NULL, o.tags, PGBX_NO_FLAG, NULL, SENT)
/* run_bench's per-transaction log (issue 24, pgbenchx -l): refused with generators (their drivers are elsewhere) */
PGBX_OPTION(log_transactions, "log_transactions", BOOL, PGBX_BENCH, false, "false", false, NULL, o.log_transactions, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(sampling_rate, "sampling_rate", FLOAT8, PGBX_BENCH, false, "1", false, NULL, o.sampling_rate, PGBX_NO_FLAG, pgbx_check_sampling_rate, NOT_SENT)
/* the clients' messages of run_bench and each run of run_sweep (issue 36, what pgbench prints on stderr): refused with generators, as the log */
PGBX_OPTION(client_messages, "client_messages", BOOL, PGBX_RUNS, false, "false", false, NULL, o.client_messages, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(verbose_errors, "verbose_errors", BOOL, PGBX_RUNS, false, "false", false, NULL, o.verbose_errors, PGBX_NO_FLAG, NULL, NOT_SENT)
/* pgbench 17's --exit-on-abort (a sweep stops at its run that had an abort): refused with generators (kinds.c: a part's abort would not stop the others) */
PGBX_OPTION(exit_on_abort, "exit_on_abort", BOOL, PGBX_RUNS, false, "false", false, NULL, o.exit_on_abort, PGBX_NO_FLAG, NULL, NOT_SENT)
/* pgbench 19's --continue-on-error: refused with generators (kinds.c), as the options above */
PGBX_OPTION(continue_on_error, "continue_on_error", BOOL, PGBX_RUNS, false, "false", false, NULL, o.continue_on_error, PGBX_NO_FLAG, NULL, NOT_SENT)
/* the steps are the recorder's: each part is one run */
PGBX_OPTION(repeats, "repeats", INT4, PGBX_SWEEP | PGBX_LIST, false, "1", false, NULL, o.repeats, PGBX_NO_FLAG, pgbx_check_repeats, NOT_SENT)
/* refused with generators (launch.c): the parts of a run end apart */
PGBX_OPTION(check_tpcb, "check_tpcb", BOOL, PGBX_RUNS | PGBX_EXPERIMENT, false, "false", false, NULL, o.check_tpcb, PGBX_NO_FLAG, NULL, NOT_SENT)
/* the recorder's: a part drives no generators */
PGBX_OPTION(generators, "generators", TEXT_LIST, PGBX_ALL, false, NULL, true, NULL, generators, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(max_clock_offset_ms, "max_clock_offset_ms", FLOAT8, PGBX_ALL, false, "100", false, NULL, o.max_clock_offset_ms, PGBX_NO_FLAG, pgbx_check_max_clock_offset, NOT_SENT)
/* run_experiment's own (issue 23): the configurations, their repeats and warm-ups */
PGBX_OPTION(configs, "configs", JSONB, PGBX_EXPERIMENT, true, NULL, false, NULL, o.configs_given, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(experiment_repeats, "repeats", INT4, PGBX_EXPERIMENT, false, "3", false, NULL, o.experiment_repeats, PGBX_NO_FLAG, pgbx_check_repeats, NOT_SENT)
PGBX_OPTION(warmup, "warmup", INT4, PGBX_EXPERIMENT, false, "1", false, NULL, o.warmup, PGBX_NO_FLAG, pgbx_check_warmup, NOT_SENT)
PGBX_OPTION(record_system, "record_system", BOOL, PGBX_ALL | PGBX_EXPERIMENT | PGBX_PART, false, "true", false, NULL, o.record_system, PGBX_NO_FLAG, NULL, SENT)
/* run_experiment: blocks added until each ratio is within target_ci, within budget seconds */
PGBX_OPTION(target_ci, "target_ci", FLOAT8, PGBX_EXPERIMENT, false, NULL, true, NULL, o.target_ci, PGBX_AT(o.target_ci_given), pgbx_check_target_ci, NOT_SENT)
PGBX_OPTION(budget, "budget", INT4, PGBX_EXPERIMENT, false, NULL, true, NULL, o.budget, PGBX_AT(o.budget_given), pgbx_check_budget, NOT_SENT)

/* launch_part's own: exactly one of script, scripts and replay_queries (part.c checks) */
/* the recorder sends the mix as scripts */
PGBX_OPTION(part_script, "script", TEXT, PGBX_PART, false, NULL, true, NULL, o.script, PGBX_NO_FLAG, NULL, NOT_SENT)
PGBX_OPTION(scripts, "scripts", JSONB, PGBX_PART, false, NULL, true, NULL, o.scripts, PGBX_NO_FLAG, NULL, SENT)
PGBX_OPTION(replay_queries, "replay_queries", TEXT, PGBX_PART, false, NULL, true, NULL, queries, PGBX_NO_FLAG, NULL, SENT)
PGBX_OPTION(first_client, "first_client", INT4, PGBX_PART, false, "0", false, NULL, o.first_client, PGBX_NO_FLAG, NULL, SENT)
PGBX_OPTION(total_clients, "total_clients", INT4, PGBX_PART, false, NULL, true, NULL, o.total_clients, PGBX_AT(o.total_clients_given), NULL, SENT)
PGBX_OPTION(part_of, "part_of", JSONB, PGBX_PART, true, NULL, false, NULL, o.part_of, PGBX_NO_FLAG, NULL, SENT)
/* left to its default: the recorder gives every part the same wait */
PGBX_OPTION(go_timeout_s, "go_timeout_s", INT4, PGBX_PART, false, "60", false, NULL, o.go_timeout_s, PGBX_NO_FLAG, NULL, NOT_SENT)
