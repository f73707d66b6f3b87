/*
 * src/sql/10_entry_points.sql: the calls that start, watch and stop work:
 * pgbench_init, run_bench, both run_sweep, run_replay (in the extension's
 * schema), and pgbenchx.sweep_ladder, wait, cancel, coordinator_alive,
 * check_tpcb, progress_state and the progress view; launch_part and
 * part_go, a generator's side of a run driven from several servers.
 */

/*
 * pgbench_init: drops and recreates pgbench_branches, pgbench_tellers,
 * pgbench_accounts and pgbench_history in the current schema (the first
 * schema of search_path), exactly as "pgbench -i -s scale" with the same
 * options would, and fills them server-side.  Everything happens in the
 * caller's transaction: an error or a cancel leaves the old tables as they
 * were.  jobs background workers generate pgbench_accounts (NULL: one per
 * core within the free worker slots; 1: this backend alone).  Returns
 * pgbench's "done in ..." line with the time of each step and the jobs
 * used.  tablespace and index_tablespace are pgbench -i's --tablespace
 * (the tables, the partitioned parent, whose partitions inherit it) and
 * --index-tablespace (the primary keys); NULL: the database's default.
 * Caller: a role granted EXECUTE that may drop the old tables (owner) and
 * create tables in the schema (and in the tablespaces: the DDL runs as
 * the caller).
 */
CREATE OR REPLACE FUNCTION pgbench_init(
    scale            int DEFAULT 1,
    fillfactor       int DEFAULT 100,
    partitions       int DEFAULT 0,
    partition_method text DEFAULT 'range',
    unlogged         boolean DEFAULT false,
    foreign_keys     boolean DEFAULT false,
    jobs             int DEFAULT NULL,
    tablespace       text DEFAULT NULL,
    index_tablespace text DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'pgbench_init'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

/*
 * The benchmark engine.
 *
 * run_bench and run_sweep validate everything they can (arguments, the
 * pgbench tables, free connections and worker slots, a test login of the
 * clients), start a coordinator background worker, and return its id once
 * the run has really started.  They refuse to run inside a transaction
 * block.  The run continues after the calling session ends; wait for it
 * with CALL pgbenchx.wait(id), stop it with pgbenchx.cancel(id).
 * Callers: roles granted EXECUTE; clients log in as the calling role.
 *
 * The seam between SQL and C: run_bench, both run_sweep and run_replay are
 * thin SQL functions (a SQL-standard RETURN body, so that an error's
 * CONTEXT is one short line) that pass their arguments by name, as one
 * jsonb object, to pgbenchx.launch_bench, launch_sweep and launch_replay
 * (src/options.c reads it with its table of options: an option left out
 * takes its default, an unknown name is refused).  The function's
 * executor checks for interrupts once more after the launch returns, as
 * the caller's own statement's does after its row is sent: launch.c turns
 * the statement_timeout off and forgets one that expired once the run is
 * on, so a timeout never loses the id of a run that goes on; an explicit
 * cancel in that instant fails the statement as it would at the outer
 * executor, and the run is then found in pgbenchx.progress.  A jsonb argument that is
 * NULL is left out of the object, so that a JSON null stays a value.  Floats
 * go through their text form, exact with extra_float_digits > 0.  A new
 * option is a line in src/model/options_list.h and a parameter and a key
 * here (scripts/check_options.sh, run by make, checks that they agree);
 * the new parameter changes the wrapper's signature, so the next upgrade's
 * delta drops the old one (90_grants.sql gives runners the new one).  Runners
 * need EXECUTE on both (grant_runner gives it).
 */

-- The C side of the seam, one function per kind of call.  Callers: the
-- wrappers below, as the calling role.
CREATE OR REPLACE FUNCTION pgbenchx.launch_bench(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_bench'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

CREATE OR REPLACE FUNCTION pgbenchx.launch_sweep(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_sweep'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

CREATE OR REPLACE FUNCTION pgbenchx.launch_experiment(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_experiment'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

CREATE OR REPLACE FUNCTION pgbenchx.launch_replay(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_replay'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- One run of clients for duration seconds (or transactions per client).
-- Returns its run_id.
CREATE OR REPLACE FUNCTION run_bench(
    clients      int,
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true,
    generators   text[] DEFAULT NULL,
    max_clock_offset_ms float8 DEFAULT 100,
    log_transactions boolean DEFAULT false,
    sampling_rate float8 DEFAULT 1,
    client_messages boolean DEFAULT false,
    verbose_errors boolean DEFAULT false,
    exit_on_abort boolean DEFAULT false,
    continue_on_error boolean DEFAULT false)
RETURNS bigint
LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
RETURN pgbenchx.launch_bench(
         pg_catalog.jsonb_build_object(
             'clients', clients, 'duration', duration, 'script', script,
             'jobs', jobs, 'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'check_tpcb', check_tpcb, 'record_system', record_system,
             'generators', generators, 'max_clock_offset_ms', max_clock_offset_ms,
             'log_transactions', log_transactions, 'sampling_rate', sampling_rate,
             'client_messages', client_messages, 'verbose_errors', verbose_errors,
             'exit_on_abort', exit_on_abort, 'continue_on_error', continue_on_error)
         OPERATOR(pg_catalog.||) CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         OPERATOR(pg_catalog.||) CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);

-- One run per client count of pgbenchx.sweep_ladder(min_clients,
-- max_clients), one after the other.  Returns its sweep_id.
CREATE OR REPLACE FUNCTION run_sweep(
    min_clients  int,
    max_clients  int,
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    repeats      int DEFAULT 1,
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true,
    generators   text[] DEFAULT NULL,
    max_clock_offset_ms float8 DEFAULT 100,
    client_messages boolean DEFAULT false,
    verbose_errors boolean DEFAULT false,
    exit_on_abort boolean DEFAULT false,
    continue_on_error boolean DEFAULT false)
RETURNS bigint
LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
RETURN pgbenchx.launch_sweep(
         pg_catalog.jsonb_build_object(
             'min_clients', min_clients, 'max_clients', max_clients,
             'duration', duration, 'script', script, 'jobs', jobs,
             'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'repeats', repeats, 'check_tpcb', check_tpcb,
             'record_system', record_system,
             'generators', generators, 'max_clock_offset_ms', max_clock_offset_ms,
             'client_messages', client_messages, 'verbose_errors', verbose_errors,
             'exit_on_abort', exit_on_abort, 'continue_on_error', continue_on_error)
         OPERATOR(pg_catalog.||) CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         OPERATOR(pg_catalog.||) CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);

-- The same, for an explicit list of client counts, in the order given.
CREATE OR REPLACE FUNCTION run_sweep(
    clients      int[],
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    repeats      int DEFAULT 1,
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true,
    generators   text[] DEFAULT NULL,
    max_clock_offset_ms float8 DEFAULT 100,
    client_messages boolean DEFAULT false,
    verbose_errors boolean DEFAULT false,
    exit_on_abort boolean DEFAULT false,
    continue_on_error boolean DEFAULT false)
RETURNS bigint
LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
RETURN pgbenchx.launch_sweep(
         pg_catalog.jsonb_build_object(
             'clients', clients, 'duration', duration, 'script', script,
             'jobs', jobs, 'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'repeats', repeats, 'check_tpcb', check_tpcb,
             'record_system', record_system,
             'generators', generators, 'max_clock_offset_ms', max_clock_offset_ms,
             'client_messages', client_messages, 'verbose_errors', verbose_errors,
             'exit_on_abort', exit_on_abort, 'continue_on_error', continue_on_error)
         OPERATOR(pg_catalog.||) CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         OPERATOR(pg_catalog.||) CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);

-- Replays a list of SQL statements (the text, or with from_file => true the
-- name of a server-side file, which needs pg_read_server_files) over the
-- client ladder of run_sweep(min_clients, max_clients): every client runs the
-- whole list once, in order or (shuffle) in an order of its own.  Each
-- statement counts as one transaction: runs.transactions is the statements
-- executed, runs.failed those that failed (counted, and the replay goes on),
-- runs.qpm the queries per minute; the completion time is bench_duration_s.
-- Returns the sweep_id.
CREATE OR REPLACE FUNCTION run_replay(
    queries      text,
    min_clients  int,
    max_clients  int,
    from_file    boolean DEFAULT false,
    shuffle      boolean DEFAULT false,
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    tags         jsonb DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    record_system boolean DEFAULT true,
    generators   text[] DEFAULT NULL,
    max_clock_offset_ms float8 DEFAULT 100)
RETURNS bigint
LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
RETURN pgbenchx.launch_replay(
         pg_catalog.jsonb_build_object(
             'queries', queries, 'min_clients', min_clients,
             'max_clients', max_clients, 'from_file', from_file,
             'shuffle', shuffle, 'jobs', jobs, 'protocol', protocol,
             'checkpoint', checkpoint, 'label', label, 'conninfo', conninfo,
             'random_seed', random_seed, 'record_system', record_system,
             'generators', generators, 'max_clock_offset_ms', max_clock_offset_ms)
         OPERATOR(pg_catalog.||) CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);

/*
 * A part: this server's share of a run that a recorder drives from several
 * generator servers (run_bench(..., generators => ...)); the recorder's
 * coordinator calls these over libpq, as the calling role, on each
 * generator.  launch_part takes launch_bench's options (not vacuum,
 * checkpoint, check_tpcb: the recorder does the maintenance once) and
 * first_client, total_clients (the part's clients are those of one run of
 * total_clients), scripts (the mix inline: [{"name", "body", "weight"}]) or
 * script or replay_queries (with shuffle), part_of ({"recorder": "<system
 * identifier>/<database>", "run_id", "generator"}, stored in runs.tags) and
 * go_timeout_s (default 60).  It returns the part's run id once its
 * coordinator has started; the part connects its clients, shows the phase
 * 'ready' in progress_state(), and waits for part_go(run_id, start_at): it
 * then starts measuring at start_at on this server's clock.  A go more than
 * 200 ms late, or none within go_timeout_s, fails the part.  part_go is
 * allowed to whoever may cancel the part.  Callers: runners (grant_runner).
 */
CREATE OR REPLACE FUNCTION pgbenchx.launch_part(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_part'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

CREATE OR REPLACE FUNCTION pgbenchx.part_go(run_id bigint, start_at timestamptz) RETURNS void
AS 'MODULE_PATHNAME', 'pgbenchx_part_go'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- The client counts run_sweep(min, max, ...) runs: 1, 2, 4, 8, 12, 16, 20,
-- 24, 28, 32, 40, 48, 64, 80, then doubling, within [min, max], starting at
-- min and ending at max.
CREATE OR REPLACE FUNCTION pgbenchx.sweep_ladder(min_clients int, max_clients int)
RETURNS int[]
AS 'MODULE_PATHNAME', 'pgbenchx_sweep_ladder'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Waits for a run or a sweep to end, printing a NOTICE about every 5 s and
-- one per finished run.  A procedure, so that it holds no snapshot while it
-- sleeps: call it with CALL, outside a transaction block.  Cancelling it
-- stops only the wait.
CREATE OR REPLACE PROCEDURE pgbenchx.wait(id bigint)
AS 'MODULE_PATHNAME', 'pgbenchx_wait'
LANGUAGE C;

-- Stops a running run or sweep (a run of a sweep stops its sweep) within
-- about a second, keeping what was measured.  Returns true if a running
-- run or sweep was signalled.
CREATE OR REPLACE FUNCTION pgbenchx.cancel(id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'pgbenchx_cancel'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

-- The TPC-B invariant on the pgbench tables of the caller's search_path:
-- every tpcb-like transaction adds the same delta to one account, one teller
-- and one branch and logs it in pgbench_history, so sum(abalance) =
-- sum(tbalance) = sum(bbalance) = sum(delta) as long as history is only
-- appended to (run_bench's vacuum => true truncates it before every run, as
-- pgbench does: from then on the history part no longer holds; see
-- run_bench(..., check_tpcb => true), which checks per run).  Reads the four
-- tables in one snapshot; run it while no run is writing them.
-- Caller: a role granted EXECUTE that may read the pgbench tables.
-- Whether the relations named (found through search_path, as to_regclass
-- finds them; missing ones are skipped) and the code they run (triggers,
-- rules, policies, defaults, children, and the functions and operators
-- these call) are owned by roles that have current_user's privileges; an
-- ERROR 42501 naming the object and its owner if not.  used_by says who
-- would run that code, in the error's detail.  Callers: check_tpcb.
CREATE OR REPLACE FUNCTION pgbenchx.trust_check(relations text[], used_by text) RETURNS void
AS 'MODULE_PATHNAME', 'pgbenchx_trust_check'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

CREATE OR REPLACE FUNCTION pgbenchx.check_tpcb(
    OUT accounts_sum bigint, OUT branches_sum bigint,
    OUT tellers_sum bigint, OUT history_sum bigint, OUT consistent boolean)
RETURNS record
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED AS $$
-- Not pinned to a search_path: the pgbench tables are found through the
-- caller's, as pgbench finds them.  So every function, operator and type
-- here is qualified with pg_catalog, and nothing else can resolve to an
-- object of another schema.
DECLARE
    missing pg_catalog.text;
BEGIN
    SELECT pg_catalog.string_agg(u.t, ', ' ORDER BY u.ord) INTO missing
    FROM pg_catalog.unnest(ARRAY['pgbench_accounts', 'pgbench_branches', 'pgbench_tellers',
                                 'pgbench_history']::pg_catalog.text[]) WITH ORDINALITY u(t, ord)
    WHERE pg_catalog.to_regclass(u.t) IS NULL;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'the pgbench tables are missing'
            USING ERRCODE = 'undefined_table',
                  DETAIL = pg_catalog.format('Not found in search_path (%s): %s.',
                                             pg_catalog.current_setting('search_path'), missing),
                  HINT = 'Create them first, for example with SELECT pgbench_init(scale => 10), or set search_path to their schema.';
    END IF;
    -- the tables (and the code they run) must be trusted by the caller (trust.c)
    PERFORM pgbenchx.trust_check(ARRAY['pgbench_accounts', 'pgbench_branches', 'pgbench_tellers',
                                       'pgbench_history']::pg_catalog.text[], 'check_tpcb');
    SELECT (SELECT coalesce(pg_catalog.sum(a.abalance), 0) FROM pgbench_accounts a),
           (SELECT coalesce(pg_catalog.sum(b.bbalance), 0) FROM pgbench_branches b),
           (SELECT coalesce(pg_catalog.sum(t.tbalance), 0) FROM pgbench_tellers t),
           (SELECT coalesce(pg_catalog.sum(h.delta), 0) FROM pgbench_history h)
      INTO accounts_sum, branches_sum, tellers_sum, history_sum;
    consistent := accounts_sum OPERATOR(pg_catalog.=) branches_sum
                  AND branches_sum OPERATOR(pg_catalog.=) tellers_sum
                  AND tellers_sum OPERATOR(pg_catalog.=) history_sum;
END
$$;

-- Whether pid is a live pgbenchx coordinator, from the server's background
-- worker slots: the same answer for every role (pg_stat_activity hides
-- other roles' rows from a role without pg_read_all_stats).  NULL: false.
CREATE OR REPLACE FUNCTION pgbenchx.coordinator_alive(pid int) RETURNS boolean
AS 'MODULE_PATHNAME', 'pgbenchx_coordinator_alive'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;

-- The run in progress as its coordinator publishes it in shared memory:
-- its phase (maintenance, checkpoint, connecting, ready (a part waiting
-- for its go), measuring, finishing), its step (a lone run is step 1 of 1)
-- and the expected end of the whole run or sweep (NULL while unknown).  One
-- row, or none; two while a part runs beside its recorder's run on this
-- server.  Internal to the progress view; the same for every role.
CREATE OR REPLACE FUNCTION pgbenchx.progress_state(
    OUT run_id bigint, OUT sweep_id bigint, OUT phase text,
    OUT step int, OUT steps int, OUT eta timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_progress_state'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1;

-- The per-transaction records of a live run started with log_transactions
-- (pgbenchx -l, src/run/txlog.c): per driver, its records numbered
-- since[driver] and after (at most the 65536 its ring holds; older ones are
-- lost, seen as a gap in seq), then one row with client_id NULL whose seq is
-- the count the driver has written so far (the next call's since) and done
-- whether it has finished.  end_time_us is the end in microseconds since the
-- Unix epoch; retries the transaction's tries - 1; status ok,
-- serialization, deadlock, skipped or failed.  None
-- when the run has no live step logging transactions.  The session keeps the
-- step's shared memory until it has read every record, or asks for another
-- run.  Read by the run's role, its members and superusers.
CREATE OR REPLACE FUNCTION pgbenchx.transaction_log(
    run_id bigint, since bigint[] DEFAULT NULL,
    OUT driver int, OUT seq bigint, OUT client_id int, OUT transaction_no bigint,
    OUT script_no int, OUT latency_us bigint, OUT end_time_us bigint,
    OUT schedule_lag_us bigint, OUT retries int, OUT status text, OUT done boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_transaction_log'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- What the clients of a live run started with client_messages print, as
-- pgbench's clients print it on stderr (issue 36, src/run/txlog.c): per
-- driver, its messages numbered since[driver] and after (at most the 256
-- its ring holds; older ones are lost, seen as a gap in seq), then one row
-- with kind NULL whose seq is the count the driver has written so far (the
-- next call's since) and done whether it has finished.  kind is debug (a
-- debug() call), error (a client's abort, as pgbench's "error:" lines),
-- info (verbose_errors' lines) or notice (a server's NOTICE or WARNING to a
-- client).  Read as transaction_log is, by the same roles.
CREATE OR REPLACE FUNCTION pgbenchx.client_messages(
    run_id bigint, since bigint[] DEFAULT NULL,
    OUT driver int, OUT seq bigint, OUT client_id int, OUT kind text,
    OUT message text, OUT done boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_client_messages'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- The live state of the run in progress, from any session: phase, step
-- and steps, and eta (the expected end of the run or of the whole sweep,
-- counting only what is known; NULL while unknown) from pgbenchx.progress_state().
CREATE OR REPLACE VIEW pgbenchx.progress AS
SELECT r.run_id, r.sweep_id, r.script, r.clients, r.jobs, r.duration,
       pg_catalog.round(extract(epoch FROM pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) r.started_at)::numeric, 1) AS elapsed_s,
       coalesce(s.transactions, 0) AS transactions,
       s.tps AS current_tps,
       s.latency_p99_ms AS current_p99_ms,
       s.seconds AS seconds_sampled,
       p.phase, p.step, p.steps, p.eta
FROM pgbenchx.runs r
LEFT JOIN LATERAL (
    SELECT pg_catalog.sum(x.transactions)::bigint AS transactions,
           (pg_catalog.array_agg(x.tps ORDER BY x.second DESC))[1] AS tps,
           (pg_catalog.array_agg(x.latency_p99_ms ORDER BY x.second DESC))[1] AS latency_p99_ms,
           pg_catalog.max(x.second) AS seconds
    FROM pgbenchx.samples x WHERE x.run_id OPERATOR(pg_catalog.=) r.run_id) s ON true
LEFT JOIN pgbenchx.progress_state() p ON p.run_id OPERATOR(pg_catalog.=) r.run_id
WHERE r.status OPERATOR(pg_catalog.=) 'running'
  -- a run whose coordinator is gone (immediate shutdown, crash) is not in
  -- progress; pgbenchx.wait, pgbenchx.cancel or the next run mark it aborted
  AND pgbenchx.coordinator_alive(r.coordinator_pid);

-- the progress view's columns are described in 80_comments.sql

-- What a recorder asks a generator before a run driven from several servers
-- (run_bench(..., generators => ...)): the versions of pgbenchx's SQL and
-- library here, the run or sweep in progress on this server (any role's;
-- 0 while one is starting; NULL if none), the free background worker slots
-- and connections, the CPUs, the system identifier and this server's
-- clock.  One row, the same for every role.  Callers: runners, and the
-- recorder's calling role over libpq.
CREATE OR REPLACE FUNCTION pgbenchx.generator_status(
    OUT sql_version text, OUT library_version text, OUT running bigint,
    OUT free_worker_slots int, OUT free_connections int, OUT ncpus int,
    OUT system_identifier text, OUT now timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'pgbenchx_generator_status'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

-- An experiment (issue 23): configurations alternated at each client count
-- of the ladder, in balanced ABBA order, with warm-ups; an experiment is a
-- sweep whose runs name their configuration (runs.config, runs.warmup).
CREATE OR REPLACE FUNCTION run_experiment(
    configs      jsonb,
    min_clients  int,
    max_clients  int,
    duration     int DEFAULT NULL,
    repeats      int DEFAULT 3,
    warmup       int DEFAULT 1,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true,
    target_ci    float8 DEFAULT NULL,
    budget       int DEFAULT NULL)
RETURNS bigint
LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
RETURN pgbenchx.launch_experiment(
         pg_catalog.jsonb_build_object(
             'configs', configs,
             'min_clients', min_clients, 'max_clients', max_clients,
             'duration', duration, 'repeats', repeats, 'warmup', warmup,
             'script', script, 'jobs', jobs,
             'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'check_tpcb', check_tpcb,
             'record_system', record_system,
             'target_ci', target_ci, 'budget', budget)
         OPERATOR(pg_catalog.||) CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         OPERATOR(pg_catalog.||) CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
