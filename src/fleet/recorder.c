/*-------------------------------------------------------------------------
 *
 * recorder.c
 *	  One step of a run driven from several load generators (issue 14), in
 *	  the recorder's coordinator: the generators' parts launched, started
 *	  together, followed second by second, merged into this server's
 *	  samples rows and into the figures of its runs row, and one
 *	  pgbenchx.run_generators row each.
 *
 * A part is an ordinary pgbenchx run on a generator (pgbenchx.launch_part,
 * src/fleet/part.c): its clients are a share of the step's clients, numbered as
 * in one run of them all, and connect to the server under test.  Once
 * every part is 'ready' (its clients connected), the recorder picks a
 * moment T on its own clock and gives each part its go at T plus that
 * generator's clock offset (pgbenchx.part_go), so every part's second k
 * is the same wall-clock second.  The recorder reads the parts' samples
 * rows as they are written and stores its second k once every live part
 * has it: counts and tps summed, latency histograms merged
 * (pgbenchx.latency_merge), percentiles from the merged histogram.  At the
 * end each part's runs row goes into run_generators, and its figures are
 * merged into a RunResult (recorder_fold_part says how each is), from
 * which the coordinator writes the run's final row as it writes a local
 * run's (coordinator_record, results_finish_run).  recorder_run_step and
 * the abandon and statement hooks are the step kind of a run driven from
 * generators (kinds.c); this server's per-second system readings go
 * through the coordinator's lifecycle (coordinator_readings_*), as a local
 * step's do.
 *
 * Every remote statement has a deadline (pqconn.c); a generator that does
 * not answer within FLEET_ANSWER_TIMEOUT_MS, or whose connection breaks,
 * is lost: the run fails naming it, the other parts are cancelled and
 * merged up to where they stopped.  A generator is another server, whose
 * owner may answer anything: this file also owns what a generator may
 * send (issue 20).  Each answer is kept within a byte bound, each second of
 * a part is taken once, in order, within the run and the time since the
 * start, the seconds held for the merge are bounded over all parts (in a
 * context of the step), and every value is checked with import()'s rules
 * before it is kept; a generator that breaks a rule is lost, its part
 * cancelled.  A cancel of the recorder's run cancels
 * every part at once.  Must not: touch the drivers or the step segment
 * (coordinator.c's), or write the runs row but through results.c's
 * writers (results_bench_started; the final row is the coordinator's).
 * Its own rows (the merged samples, run_generators, the merged
 * statement_stats) are its own statements, each run by
 * results_exec_params in a short transaction as the extension's owner,
 * as sysrecord.c's are.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "cancel.h"
#include "conninfo.h"
#include "coordinator.h"
#include "fleet.h"
#include "histcodec.h"
#include "loopback.h"
#include "progress.h"
#include "recorder.h"
#include "results.h"
#include "run_options.h"

/* how long the parts may take to connect their clients */
#define RECORDER_READY_TIMEOUT_MS	(130 * 1000)
/* how often the parts' tables are read while measuring */
#define RECORDER_POLL_MS			250
/*
 * The most samples rows one read takes (a backlog is read over several),
 * and the longest value of one in text form (a latency histogram is at
 * most HISTCODEC_MAX_BYTES, twice that in hex): a generator that sends more
 * is lost, it cannot make the recorder's memory grow without bound.
 */
#define RECORDER_POLL_ROWS			600
#define RECORDER_MAX_VALUE_BYTES	65536
/* a part's whole runs row with its statement_stats (at most 100,000 rows) */
#define RECORDER_MAX_PART_ROW_BYTES	(64 * 1024 * 1024)
/*
 * What a generator may send in total (issue 20): each second of a part is
 * taken once and in order, none beyond the run's duration or the time
 * elapsed since the start plus this slack, and the seconds held until the
 * other parts have them (each value checked: a number at most
 * RECORDER_MAX_NUMBER_BYTES, a histogram one that decodes, so at most
 * twice HISTCODEC_MAX_BYTES in hex) at most RECORDER_MAX_HELD_BYTES over all
 * parts: the part holding most beyond it is lost.  One read is kept within
 * RECORDER_POLL_BYTES by pqconn_collect.
 */
#define RECORDER_SECOND_SLACK		2
#define RECORDER_MAX_NUMBER_BYTES	64
#define RECORDER_MAX_HIST_TEXT		(2 + 2 * HISTCODEC_MAX_BYTES)
#define RECORDER_MAX_TEXT_BYTES		8192
#define RECORDER_MAX_HELD_BYTES		((size_t) 64 * 1024 * 1024)
#define RECORDER_POLL_BYTES			((size_t) RECORDER_POLL_ROWS * \
									 (RECORDER_MAX_VALUE_BYTES + RECORDER_MAX_TEXT_BYTES + \
									  7 * RECORDER_MAX_NUMBER_BYTES + 9 * PQCONN_ROW_OVERHEAD))
/* a timed run's part still running this long after its end is lost */
#define RECORDER_END_SLACK_S		60
/* how long the cancel of a part whose answers were refused may take */
#define RECORDER_REFUSE_CANCEL_MS	2000
/* after a cancel or a loss: how long the other parts may take to end */
#define RECORDER_STOP_TIMEOUT_MS	10000
/* a part whose seconds lag the others' by more than this is lost */
#define RECORDER_MAX_LAG_S			60
/* the margin added to the round trips before the common start */
#define RECORDER_GO_MARGIN_MS		250

/*
 * One second of one part, as read from its samples (text values):
 * transactions, tps, latency_avg_ms, failed, covered_s, latency_hist,
 * skipped, retried, retries, lag_sum_ms.  The poll's answer has them after
 * the part's status, its error and the second.
 */
#define RECORDER_SAMPLE_COLS		10
#define RECORDER_POLL_COLS			(3 + RECORDER_SAMPLE_COLS)

typedef struct RecorderSecond
{
	int			second;
	char	   *v[RECORDER_SAMPLE_COLS];
} RecorderSecond;

/* one generator's part of a step */
typedef struct RecorderPart
{
	FleetGenerator g;
	int			clients;		/* 0: not used in this step */
	int			first_client;
	int64		part_id;		/* 0: not launched */
	bool		lost;			/* connection broken, or no answer in time */
	bool		finished;		/* its runs row is no longer running */
	bool		cancel_sent;
	char	   *error;			/* why it was lost or failed */
	List	   *pending;		/* RecorderSecond *, in order, not yet merged */
	size_t		held;			/* bytes of pending */
	int			last_second;	/* the last second read */
} RecorderPart;

/*
 * The merge of the parts' seconds into this run's samples rows: the next
 * second to write, the seconds that no part had (not stored:
 * runs.samples_lost) and the transactions in the rows written (the rest of
 * the run's are runs.samples_lost_transactions).
 */
typedef struct RecorderSeconds
{
	int			next;
	int			skipped;
	int64		transactions;
} RecorderSeconds;

/* "<system identifier>/<database>": this recorder, for each part's part_of */
static char *recorder_self;

/* the parts of the step in progress, for recorder_abandon */
static RecorderPart *recorder_parts;
static int	recorder_nparts;

/*
 * The step in progress: its memory (the seconds held, deleted with the
 * step), its duration (0: bounded by transactions) and the common start
 * (Unix microseconds; 0 before the go).
 */
static MemoryContext recorder_step_cxt;
static int	recorder_duration;
static int64 recorder_go_at;

static void
recorder_json_text(StringInfo buf, const char *key, const char *value)
{
	if (buf->len > 1)
		appendStringInfoChar(buf, ',');
	escape_json(buf, key);
	appendStringInfoChar(buf, ':');
	if (value)
		escape_json(buf, value);
	else
		appendStringInfoString(buf, "null");
}

/* a number or a JSON literal (true, an object), as is */
static void
recorder_json_raw(StringInfo buf, const char *key, const char *raw)
{
	if (buf->len > 1)
		appendStringInfoChar(buf, ',');
	escape_json(buf, key);
	appendStringInfo(buf, ":%s", raw);
}

/* the list's names, by id */
#define PGBX_OPTION(id, name, ...) [PGBX_OPT_##id] = name,
static const char *const recorder_option_names[PGBX_NOPTIONS] = {
#include "options_list.h"
};
#undef PGBX_OPTION

/*
 * Append option id to b, launch_part's object for part p of the step, if
 * the part gets it.  One case per option of options_list.h: those it
 * marks NOT_SENT are the generated cases at the top; a SENT one without a
 * case below fails the build (-Wswitch: no default), so no option of a run
 * fails to reach the generators unless the list says so.
 */
static void
recorder_part_option(StringInfo b, PgbxOptionId id, const RunSpec *spec, const RunMix *mix,
					 const RunGenerators *rg, const RecorderPart *p, int total_clients,
					 int64 run_id)
{
	const char *key = recorder_option_names[id];
	StringInfoData s;

	switch (id)
	{
#define PGBX_TO_PART_CASE_SENT(id)
#define PGBX_TO_PART_CASE_NOT_SENT(id)	case PGBX_OPT_##id:
#define PGBX_OPTION(id, name, type, calls, required, default_value, nullable, null_hint, field, given, check, to_part) \
			PGBX_TO_PART_CASE_##to_part(id)
#include "options_list.h"
#undef PGBX_OPTION
#undef PGBX_TO_PART_CASE_SENT
#undef PGBX_TO_PART_CASE_NOT_SENT
			break;
		case PGBX_OPT_clients:
			recorder_json_raw(b, key, psprintf("%d", p->clients));
			break;
		case PGBX_OPT_first_client:
			recorder_json_raw(b, key, psprintf("%d", p->first_client));
			break;
		case PGBX_OPT_total_clients:
			recorder_json_raw(b, key, psprintf("%d", total_clients));
			break;
		case PGBX_OPT_duration:
			if (spec->duration > 0)
				recorder_json_raw(b, key, psprintf("%d", spec->duration));
			break;
		case PGBX_OPT_transactions:
			if (spec->transactions > 0 && !spec->knobs.replay)
				recorder_json_raw(b, key, psprintf(INT64_FORMAT, spec->transactions));
			break;
		case PGBX_OPT_jobs:
			if (spec->jobs > 0)
				recorder_json_raw(b, key, psprintf("%d", Min(spec->jobs, p->clients)));
			break;
		case PGBX_OPT_protocol:
			recorder_json_text(b, key, spec->protocol == RUN_PROTOCOL_SIMPLE ? "simple" :
							   spec->protocol == RUN_PROTOCOL_EXTENDED ? "extended" : "prepared");
			break;
		case PGBX_OPT_conninfo:
			recorder_json_text(b, key, rg->target);
			break;
		case PGBX_OPT_random_seed:
			recorder_json_raw(b, key, psprintf(INT64_FORMAT, (int64) spec->random_seed));
			break;
		case PGBX_OPT_rate:
			if (spec->knobs.rate > 0)
				recorder_json_raw(b, key, psprintf("%.17g", spec->knobs.rate * p->clients / total_clients));
			break;
		case PGBX_OPT_latency_limit:
			if (spec->knobs.latency_limit_usec > 0)
				recorder_json_raw(b, key, psprintf("%.17g", spec->knobs.latency_limit_usec / 1000.0));
			break;
		case PGBX_OPT_max_tries:
			if (!spec->knobs.replay)
				recorder_json_raw(b, key, psprintf("%d", spec->knobs.max_tries));
			break;
		case PGBX_OPT_connect_per_transaction:
			if (!spec->knobs.replay)
				recorder_json_raw(b, key, spec->knobs.connect_per_transaction ? "true" : "false");
			break;
		case PGBX_OPT_label:
			if (spec->label[0])
				recorder_json_text(b, key, spec->label);
			break;
		case PGBX_OPT_tags:
			if (spec->tags[0])
				recorder_json_raw(b, key, spec->tags);
			break;
		case PGBX_OPT_record_system:
			recorder_json_raw(b, key, spec->record_system ? "true" : "false");
			break;
		case PGBX_OPT_variables:
			if (mix->ndefines > 0)
			{
				initStringInfo(&s);
				appendStringInfoChar(&s, '{');
				for (int i = 0; i < mix->ndefines; i++)
					recorder_json_text(&s, mix->defines[i].name, mix->defines[i].value);
				appendStringInfoChar(&s, '}');
				recorder_json_raw(b, key, s.data);
			}
			break;
		case PGBX_OPT_replay_queries:
			if (spec->knobs.replay)
				recorder_json_text(b, key, mix->texts[0]);
			break;
		case PGBX_OPT_shuffle:
			if (spec->knobs.replay)
				recorder_json_raw(b, key, spec->knobs.shuffle ? "true" : "false");
			break;
		case PGBX_OPT_scripts:
			if (!spec->knobs.replay)
			{
				initStringInfo(&s);
				appendStringInfoChar(&s, '[');
				for (int i = 0; i < mix->nscripts; i++)
				{
					StringInfoData o;

					initStringInfo(&o);
					appendStringInfoChar(&o, '{');
					recorder_json_text(&o, "name", mix->names[i]);
					recorder_json_text(&o, "body", mix->texts[i]);
					recorder_json_raw(&o, "weight", psprintf(INT64_FORMAT, mix->weights[i]));
					appendStringInfoChar(&o, '}');
					if (i > 0)
						appendStringInfoChar(&s, ',');
					appendStringInfoString(&s, o.data);
				}
				appendStringInfoChar(&s, ']');
				recorder_json_raw(b, key, s.data);
			}
			break;
		case PGBX_OPT_part_of:
			initStringInfo(&s);
			appendStringInfoChar(&s, '{');
			recorder_json_text(&s, "recorder", recorder_self);
			recorder_json_raw(&s, "run_id", psprintf(INT64_FORMAT, run_id));
			recorder_json_raw(&s, "generator", psprintf("%d", p->g.index));
			appendStringInfoChar(&s, '}');
			recorder_json_raw(b, key, s.data);
			break;
	}
}

/*
 * launch_part's options for part p of the step: every option of
 * options_list.h, in its order, that the part gets.
 */
static char *
recorder_part_options(const RunSpec *spec, const RunMix *mix, const RunGenerators *rg,
					  const RecorderPart *p, int total_clients, int64 run_id)
{
	StringInfoData b;

	initStringInfo(&b);
	appendStringInfoChar(&b, '{');
	for (int id = 0; id < PGBX_NOPTIONS; id++)
		recorder_part_option(&b, (PgbxOptionId) id, spec, mix, rg, p, total_clients, run_id);
	appendStringInfoChar(&b, '}');
	return b.data;
}

/* a generator is lost: say why once, close its connection */
static void
recorder_lose(RecorderPart *p, const char *what, const char *why)
{
	if (p->lost)
		return;
	p->lost = true;
	/* kept for the step: the measure loop's own context is reset each time */
	p->error = MemoryContextStrdup(TopMemoryContext,
								   psprintf("%s was lost %s: %s", fleet_name(&p->g), what, why));
	ereport(LOG, (errmsg("pgbenchx: %s", p->error)));
	pqconn_finish(p->g.conn);
	p->g.conn = NULL;
}

/*
 * A generator whose answers this recorder refuses (it sent more than a part
 * writes): its part is cancelled, best effort and briefly, so that it does
 * not run on, then the generator is lost.
 */
static void
recorder_refuse_answer(RecorderPart *p, const char *what, const char *why)
{
	const char *params[1];
	char	   *err;
	PGresult   *res;

	params[0] = psprintf(INT64_FORMAT, p->part_id);
	res = pqconn_exec(p->g.conn, "SELECT pgbenchx.cancel($1::pg_catalog.int8)", 1, params,
					  RECORDER_REFUSE_CANCEL_MS, &err, NULL);
	if (res)
		PQclear(res);
	recorder_lose(p, what, why);
}

static bool
recorder_live(const RecorderPart *p)
{
	return p->clients > 0 && !p->lost && p->g.conn != NULL;
}

static void recorder_pop(RecorderPart *p);

/*
 * pgbenchx.cancel on every live part not yet cancelled, all sent before
 * any answer is awaited.
 */
static void
recorder_cancel_parts(RecorderPart *parts, int n)
{
	char	   *err;

	for (int i = 0; i < n; i++)
	{
		RecorderPart *p = &parts[i];
		const char *params[1];

		p->cancel_sent = p->cancel_sent || !recorder_live(p) || p->part_id == 0 || p->finished;
		if (p->cancel_sent)
			continue;
		params[0] = psprintf(INT64_FORMAT, p->part_id);
		if (!pqconn_send(p->g.conn, "SELECT pgbenchx.cancel($1::pg_catalog.int8)", 1, params, &err))
			recorder_lose(p, "while cancelling its part", err);
		else
			p->cancel_sent = true;
	}
	for (int i = 0; i < n; i++)
	{
		RecorderPart *p = &parts[i];
		PGresult   *res;

		if (!recorder_live(p) || p->part_id == 0 || p->finished || !PQisBusy(p->g.conn))
			continue;
		res = pqconn_collect(p->g.conn, FLEET_ANSWER_TIMEOUT_MS, PQCONN_MAX_ANSWER_BYTES, NULL, &err, NULL);
		if (res == NULL)
		{
			/* a part already ended refuses the cancel: not a loss */
			if (PQstatus(p->g.conn) == CONNECTION_BAD)
				recorder_lose(p, "while cancelling its part", err);
		}
		else
			PQclear(res);
	}
}

/*
 * Send sql to every live part launched (with_second: its last second read
 * as $2); a part whose statement cannot be sent is lost (what: when).
 */
static void
recorder_send_all(RecorderPart *parts, int n, const char *sql, bool with_second,
				  const char *what)
{
	char	   *err;

	for (int i = 0; i < n; i++)
	{
		RecorderPart *p = &parts[i];
		const char *params[2];

		if (!recorder_live(p) || p->part_id == 0)
			continue;
		params[0] = psprintf(INT64_FORMAT, p->part_id);
		params[1] = psprintf("%d", p->last_second);
		if (!pqconn_send(p->g.conn, sql, with_second ? 2 : 1, params, &err))
			recorder_lose(p, what, err);
	}
}

/*
 * What a generator sends is checked with import()'s rules
 * (src/sql/60_exchange.sql: integers in their range, numbers finite and in
 * their range, statuses from the list, texts bounded, histograms that
 * decode), before anything of it is kept: a generator is another server,
 * and one that breaks a rule is lost, its part cancelled.  Each check
 * returns NULL, or why the value is refused (palloc'd).
 */
#define RECORDER_INT4_MAX	INT64CONST(2147483647)

static char *
recorder_check_int(const char *what, const char *v, int64 lo, int64 hi, bool nullable, int64 *out)
{
	char	   *end;
	int64		x;

	if (v == NULL)
		return nullable ? NULL : psprintf("%s is null", what);
	if (strlen(v) > RECORDER_MAX_NUMBER_BYTES)
		return psprintf("%s is not an integer", what);
	errno = 0;
	x = strtoi64(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0')
		return psprintf("%s is not an integer: %s", what, v);
	if (x < lo)
		return psprintf("%s is " INT64_FORMAT ", below " INT64_FORMAT, what, x, lo);
	if (x > hi)
		return psprintf("%s is " INT64_FORMAT ", above " INT64_FORMAT, what, x, hi);
	if (out)
		*out = x;
	return NULL;
}

/* lo_strict: above lo, not equal to it */
static char *
recorder_check_num(const char *what, const char *v, double lo, double hi, bool lo_strict,
				   bool nullable, double *out)
{
	char	   *end;
	double		x;

	if (v == NULL)
		return nullable ? NULL : psprintf("%s is null", what);
	if (strlen(v) > RECORDER_MAX_NUMBER_BYTES)
		return psprintf("%s is not a number", what);
	errno = 0;
	x = strtod(v, &end);
	if (end == v || *end != '\0' || isnan(x) || isinf(x))
		return psprintf("%s is not a finite number: %s", what, v);
	if (x < lo || (lo_strict && x == lo))
		return psprintf("%s is %s, %s %g", what, v, lo_strict ? "not above" : "below", lo);
	if (x > hi)
		return psprintf("%s is %s, above %g", what, v, hi);
	if (out)
		*out = x;
	return NULL;
}

static int
recorder_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * A latency histogram in bytea's hex text: bytes that histcodec decodes,
 * into *t (NULL: only checked).
 */
static char *
recorder_decode_hist(const char *what, const char *v, stats_total *t)
{
	size_t		len;
	size_t		n;
	uint8_t    *bytes;
	stats_total *scratch = NULL;
	histcodec_error e;

	if (v == NULL)
		return NULL;
	len = strlen(v);
	if (len > RECORDER_MAX_HIST_TEXT || len < 2 || v[0] != '\\' || v[1] != 'x' || len % 2 != 0)
		return psprintf("%s is not a latency histogram", what);
	n = (len - 2) / 2;
	bytes = palloc(Max(n, 1));
	for (size_t i = 0; i < n; i++)
	{
		int			hi = recorder_hexval(v[2 + 2 * i]);
		int			lo = recorder_hexval(v[3 + 2 * i]);

		if (hi < 0 || lo < 0)
			return psprintf("%s is not a latency histogram", what);
		bytes[i] = (uint8_t) (hi * 16 + lo);
	}
	if (t == NULL)
		t = scratch = palloc(sizeof(stats_total));
	e = histcodec_decode(bytes, n, t);
	if (scratch)
		pfree(scratch);
	pfree(bytes);
	if (e != HISTCODEC_OK)
		return psprintf("%s is not a valid latency histogram: %s", what, histcodec_strerror(e));
	return NULL;
}

/* a run's status as a run records it (running: not yet ended) */
static bool
recorder_status_ok(const char *v, bool running_ok)
{
	return v != NULL &&
		((running_ok && strcmp(v, "running") == 0) ||
		 strcmp(v, "completed") == 0 || strcmp(v, "cancelled") == 0 ||
		 strcmp(v, "failed") == 0 || strcmp(v, "aborted") == 0);
}

/* a text of a generator, clipped and valid in this database's encoding */
static char *
recorder_remote_text(const char *v)
{
	char	   *t = pnstrdup(v, RECORDER_MAX_TEXT_BYTES);

	pqconn_sanitize_text(t);
	return t;
}

/* the latest second a part may have written by now */
static int
recorder_max_second(void)
{
	int64		elapsed_s;
	int64		max;

	if (recorder_go_at == 0)
		return 0;
	elapsed_s = (fleet_now_unix_usec() - recorder_go_at) / USECS_PER_SEC + 1;
	max = Max(elapsed_s, 0) + RECORDER_SECOND_SLACK;
	if (recorder_duration > 0)
		max = Min(max, (int64) recorder_duration + RECORDER_SECOND_SLACK);
	return (int) Min(max, RECORDER_INT4_MAX);
}

/*
 * The poll's answer: its columns, by number and type, as the statement
 * asks them (a server that answers something else is not a generator).
 */
static char *
recorder_check_columns(const PGresult *res, int n, const Oid *types)
{
	if (PQnfields(res) != n)
		return psprintf("its answer has %d columns, not %d", PQnfields(res), n);
	for (int c = 0; c < n; c++)
		if (PQftype(res, c) != types[c] || PQfformat(res, c) != 0)
			return psprintf("column %d of its answer is of type %u, not %u", c + 1,
							PQftype(res, c), types[c]);
	return NULL;
}

/*
 * One samples row of the poll (columns 2 on): with import()'s rules for
 * samples, the second after the part's last one and not beyond the run.
 */
static char *
recorder_check_second(const PGresult *res, int r, int last_second, int max_second, int64 *second)
{
	const char *v[RECORDER_POLL_COLS];
	char	   *why;

	for (int c = 2; c < RECORDER_POLL_COLS; c++)
	{
		v[c] = PQgetisnull(res, r, c) ? NULL : PQgetvalue(res, r, c);
		if (v[c] && PQgetlength(res, r, c) > RECORDER_MAX_VALUE_BYTES)
			return psprintf("it sent a samples value of %d bytes, more than the %d a part writes at most",
							PQgetlength(res, r, c), RECORDER_MAX_VALUE_BYTES);
	}
	if ((why = recorder_check_int("its second", v[2], 1, RECORDER_INT4_MAX, false, second)) != NULL)
		return why;
	if (*second <= last_second)
		return psprintf("it sent second " INT64_FORMAT " again, after second %d", *second, last_second);
	if (recorder_duration > 0 && *second > recorder_duration + RECORDER_SECOND_SLACK)
		return psprintf("it sent second " INT64_FORMAT " of a run of %d s", *second, recorder_duration);
	if (*second > max_second)
		return psprintf("it sent second " INT64_FORMAT " before that second had passed", *second);
	if ((why = recorder_check_int("transactions", v[3], 0, PG_INT64_MAX, false, NULL)) != NULL ||
		(why = recorder_check_num("tps", v[4], 0, 1e12, false, true, NULL)) != NULL ||
		(why = recorder_check_num("latency_avg_ms", v[5], 0, 1e12, false, true, NULL)) != NULL ||
		(why = recorder_check_int("failed", v[6], 0, PG_INT64_MAX, true, NULL)) != NULL ||
		(why = recorder_check_num("covered_s", v[7], 0, 86400, true, false, NULL)) != NULL ||
		(why = recorder_decode_hist("latency_hist", v[8], NULL)) != NULL ||
		(why = recorder_check_int("skipped", v[9], 0, PG_INT64_MAX, true, NULL)) != NULL ||
		(why = recorder_check_int("retried", v[10], 0, PG_INT64_MAX, true, NULL)) != NULL ||
		(why = recorder_check_int("retries", v[11], 0, PG_INT64_MAX, true, NULL)) != NULL ||
		(why = recorder_check_num("lag_sum_ms", v[12], 0, 1e15, false, true, NULL)) != NULL)
		return psprintf("second " INT64_FORMAT ": %s", *second, why);
	return NULL;
}

/*
 * Read every part's new seconds and its status (one statement each, all
 * sent first).  A part whose answer does not come, or breaks a rule, is
 * lost (recorder_refuse_answer), which ends the run.
 */
static void
recorder_poll(RecorderPart *parts, int n)
{
	char	   *err;

	recorder_send_all(parts, n,
					  "SELECT r.status, r.error, s.second, s.transactions, s.tps, s.latency_avg_ms, "
					  "s.failed, s.covered_s, s.latency_hist, s.skipped, s.retried, s.retries, s.lag_sum_ms "
					  "FROM pgbenchx.runs r LEFT JOIN pgbenchx.samples s "
					  "ON s.run_id OPERATOR(pg_catalog.=) r.run_id AND s.second OPERATOR(pg_catalog.>) $2::pg_catalog.int4 "
					  "WHERE r.run_id OPERATOR(pg_catalog.=) $1::pg_catalog.int8 ORDER BY s.second "
					  "LIMIT " CppAsString2(RECORDER_POLL_ROWS),
					  true, "while measuring");
	for (int i = 0; i < n; i++)
	{
		RecorderPart *p = &parts[i];
		PGresult   *res;
		const char *status;
		static const Oid types[RECORDER_POLL_COLS] = {TEXTOID, TEXTOID, INT4OID, INT8OID, FLOAT8OID,
			FLOAT8OID, INT8OID, FLOAT8OID, BYTEAOID, INT8OID, INT8OID, INT8OID, FLOAT8OID};
		int			max_second = recorder_max_second();
		char	   *why;

		if (!recorder_live(p) || p->part_id == 0)
			continue;
		res = pqconn_collect(p->g.conn, FLEET_ANSWER_TIMEOUT_MS, RECORDER_POLL_BYTES, NULL, &err, NULL);
		if (res == NULL)
		{
			recorder_refuse_answer(p, "while measuring", err);
			continue;
		}
		if (PQntuples(res) == 0)
		{
			PQclear(res);
			recorder_refuse_answer(p, "while measuring", "its part's runs row is gone");
			continue;
		}
		why = recorder_check_columns(res, RECORDER_POLL_COLS, types);
		if (why == NULL && PQntuples(res) > RECORDER_POLL_ROWS)
			why = psprintf("it sent %d samples rows, more than the %d asked", PQntuples(res), RECORDER_POLL_ROWS);
		if (why == NULL && (PQgetisnull(res, 0, 0) || PQgetlength(res, 0, 0) > RECORDER_MAX_NUMBER_BYTES ||
							!recorder_status_ok(PQgetvalue(res, 0, 0), true)))
			why = psprintf("its part's status is not a run's status: %s",
						   PQgetisnull(res, 0, 0) ? "null" : recorder_remote_text(PQgetvalue(res, 0, 0)));
		for (int r = 0; why == NULL && r < PQntuples(res); r++)
		{
			RecorderSecond *s;
			MemoryContext old;
			int64		second;
			size_t		bytes = sizeof(RecorderSecond);

			if (r > 0 && strcmp(PQgetvalue(res, r, 0), PQgetvalue(res, 0, 0)) != 0)
				why = pstrdup("its part's status differs from row to row of one answer");
			else if (PQgetisnull(res, r, 2))
			{
				/* the runs row without samples: only alone */
				if (PQntuples(res) > 1)
					why = pstrdup("it sent a samples row without a second");
				continue;
			}
			else
				why = recorder_check_second(res, r, p->last_second, max_second, &second);
			if (why != NULL)
				break;
			old = MemoryContextSwitchTo(recorder_step_cxt);
			s = palloc0(sizeof(RecorderSecond));
			s->second = (int) second;
			for (int c = 0; c < RECORDER_SAMPLE_COLS; c++)
			{
				s->v[c] = PQgetisnull(res, r, 3 + c) ? NULL : pstrdup(PQgetvalue(res, r, 3 + c));
				bytes += s->v[c] ? PQgetlength(res, r, 3 + c) + 1 : 0;
			}
			/* failed may be absent (import reads it as 0) */
			if (s->v[3] == NULL)
				s->v[3] = pstrdup("0");
			p->pending = lappend(p->pending, s);
			MemoryContextSwitchTo(old);
			p->held += bytes;
			p->last_second = s->second;
		}
		if (why != NULL)
		{
			PQclear(res);
			recorder_refuse_answer(p, "while measuring", why);
			continue;
		}
		/*
		 * The status read with the seconds: a finished part has written them
		 * all, unless there were more than one read takes (the next poll
		 * reads on).
		 */
		status = PQgetvalue(res, 0, 0);
		if (strcmp(status, "running") != 0 && PQntuples(res) < RECORDER_POLL_ROWS)
		{
			p->finished = true;
			/* cancelled by us is expected; by anyone else, or failed, it is the run's failure */
			if (strcmp(status, "completed") != 0 &&
				!(strcmp(status, "cancelled") == 0 && p->cancel_sent) && p->error == NULL)
				p->error = MemoryContextStrdup(TopMemoryContext,
											   psprintf("%s: its part ended %s%s%s", fleet_name(&p->g), status,
														PQgetisnull(res, 0, 1) ? "" : ": ",
														PQgetisnull(res, 0, 1) ? "" : recorder_remote_text(PQgetvalue(res, 0, 1))));
		}
		PQclear(res);
	}

	/*
	 * The seconds held, over all parts, are bounded: beyond the bound the
	 * part holding most (the others have not sent those seconds yet) is lost.
	 */
	for (;;)
	{
		size_t		total = 0;
		RecorderPart *most = NULL;

		for (int i = 0; i < n; i++)
		{
			total += parts[i].held;
			if (recorder_live(&parts[i]) && (most == NULL || parts[i].held > most->held))
				most = &parts[i];
		}
		if (total <= RECORDER_MAX_HELD_BYTES || most == NULL || most->held == 0)
			break;
		recorder_refuse_answer(most, "while measuring",
							   psprintf("it sent %d seconds (%zu bytes) that the other generators have not, more than the recorder holds (%zu bytes)",
										list_length(most->pending), most->held, RECORDER_MAX_HELD_BYTES));
		while (most->pending != NIL)
			recorder_pop(most);
	}
}

static Datum
recorder_text_array(char **v, bool *nulls, int n)
{
	Datum	   *d = palloc(sizeof(Datum) * Max(n, 1));
	int			dims[1] = {n};
	int			lbs[1] = {1};

	for (int i = 0; i < n; i++)
		d[i] = nulls[i] ? (Datum) 0 : CStringGetTextDatum(v[i]);
	return PointerGetDatum(construct_md_array(d, nulls, 1, dims, lbs, TEXTOID, -1, false, TYPALIGN_INT));
}

/* drop the first pending second of a part, freeing it */
static void
recorder_pop(RecorderPart *p)
{
	RecorderSecond *s = linitial(p->pending);

	for (int c = 0; c < RECORDER_SAMPLE_COLS; c++)
		if (s->v[c])
		{
			p->held -= Min(p->held, strlen(s->v[c]) + 1);
			pfree(s->v[c]);
		}
	p->held -= Min(p->held, sizeof(RecorderSecond));
	pfree(s);
	p->pending = list_delete_first(p->pending);
}

/*
 * Write every second that all parts have, or can no longer bring: a part
 * lost or finished brings nothing more, and one whose next second read is
 * later than k skipped k (its ring lost it).  A second that every part
 * skipped is not stored, and counted in secs->skipped.  final: every part
 * has stopped, write what is left.
 */
static void
recorder_merge(int64 run_id, RecorderPart *parts, int n, RecorderSeconds *secs, bool final)
{
	for (;;)
	{
		int			k = secs->next;
		bool		any = false;
		bool		blocked = false;
		bool		later = false;
		char	   *vals[RECORDER_SAMPLE_COLS][FLEET_MAX_GENERATORS];
		bool		nulls[RECORDER_SAMPLE_COLS][FLEET_MAX_GENERATORS];
		int			m = 0;
		double		covered = 0;
		bool		last = final;

		for (int i = 0; i < n; i++)
		{
			RecorderPart *p = &parts[i];
			RecorderSecond *s;

			if (p->clients == 0 || p->part_id == 0)
				continue;
			while (p->pending != NIL && ((RecorderSecond *) linitial(p->pending))->second < k)
				recorder_pop(p);
			s = p->pending != NIL ? linitial(p->pending) : NULL;
			if (s && s->second == k)
				any = true;
			else if (s)
				later = true;
			else if (!(p->finished || p->lost || final))
				blocked = true;
		}
		if (blocked)
			return;
		if (!any)
		{
			if (!later)
				return;
			secs->skipped++;
			secs->next++;
			continue;
		}
		for (int i = 0; i < n; i++)
		{
			RecorderPart *p = &parts[i];
			RecorderSecond *s;

			if (p->pending == NIL)
				continue;
			s = linitial(p->pending);
			if (s->second != k)
				continue;
			for (int c = 0; c < RECORDER_SAMPLE_COLS; c++)
			{
				vals[c][m] = s->v[c];
				nulls[c][m] = s->v[c] == NULL;
			}
			/* checked as an int8 by recorder_check_second */
			secs->transactions += strtoi64(s->v[0], NULL, 10);
			if (s->v[4])
				covered = Max(covered, strtod(s->v[4], NULL));
			m++;
		}
		{
			Oid			types[2 + RECORDER_SAMPLE_COLS];
			Datum		values[2 + RECORDER_SAMPLE_COLS];
			char		nn[2 + RECORDER_SAMPLE_COLS];

			types[0] = INT8OID;
			types[1] = INT4OID;
			values[0] = Int64GetDatum(run_id);
			values[1] = Int32GetDatum(k);
			for (int c = 0; c < RECORDER_SAMPLE_COLS; c++)
			{
				types[2 + c] = TEXTARRAYOID;
				values[2 + c] = recorder_text_array(vals[c], nulls[c], m);
			}
			memset(nn, ' ', sizeof(nn));
			/* the parts' counts summed, as one driver's add up in a local run */
			results_exec_params("INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, "
								"latency_p99_ms, failed, covered_s, latency_hist, skipped, retried, retries, lag_sum_ms) "
								"SELECT $1, $2, pg_catalog.sum(u.t), pg_catalog.sum(u.tps), "
								"pg_catalog.sum(u.avg OPERATOR(pg_catalog.*) u.t) OPERATOR(pg_catalog./) "
								"NULLIF(pg_catalog.sum(u.t), 0), "
								"pgbenchx.latency_percentile(pgbenchx.latency_merge(u.h), 99), "
								"pg_catalog.sum(u.f), pg_catalog.max(u.c), pgbenchx.latency_merge(u.h), "
								"pg_catalog.sum(u.sk), pg_catalog.sum(u.rd), pg_catalog.sum(u.rs), pg_catalog.sum(u.lag) "
								"FROM ROWS FROM (pg_catalog.unnest($3::pg_catalog.int8[]), pg_catalog.unnest($4::pg_catalog.float8[]), "
								"pg_catalog.unnest($5::pg_catalog.float8[]), pg_catalog.unnest($6::pg_catalog.int8[]), "
								"pg_catalog.unnest($7::pg_catalog.float8[]), pg_catalog.unnest($8::pg_catalog.bytea[]), "
								"pg_catalog.unnest($9::pg_catalog.int8[]), pg_catalog.unnest($10::pg_catalog.int8[]), "
								"pg_catalog.unnest($11::pg_catalog.int8[]), pg_catalog.unnest($12::pg_catalog.float8[])) "
								"AS u(t, tps, avg, f, c, h, sk, rd, rs, lag)",
								2 + RECORDER_SAMPLE_COLS, types, values, nn, true);
			for (int c = 0; c < RECORDER_SAMPLE_COLS; c++)
				pfree(DatumGetPointer(values[2 + c]));
		}
		for (int i = 0; i < n; i++)
			if (parts[i].pending != NIL &&
				((RecorderSecond *) linitial(parts[i].pending))->second == k)
				recorder_pop(&parts[i]);
		/* this server's figures of second k; the last one from the end reading */
		for (int i = 0; i < n; i++)
			if (parts[i].pending != NIL)
				last = false;
		coordinator_readings_second(k, covered > 0 ? covered : 1, last);
		secs->next++;
	}
}

/* the run_generators row of a part, once launched */
static void
recorder_insert_generator(int64 run_id, const RecorderPart *p)
{
	Oid			types[8] = {INT8OID, INT4OID, TEXTOID, INT8OID, INT4OID, INT4OID, FLOAT8OID, FLOAT8OID};
	Datum		values[8];
	char		nulls[8] = "        ";

	values[0] = Int64GetDatum(run_id);
	values[1] = Int32GetDatum(p->g.index);
	values[2] = CStringGetTextDatum(p->g.shown);
	values[3] = Int64GetDatum(p->part_id);
	values[4] = Int32GetDatum(p->clients);
	values[5] = Int32GetDatum(p->first_client);
	values[6] = Float8GetDatum(p->g.offset_ms);
	values[7] = Float8GetDatum(p->g.uncertainty_ms);
	results_exec_params("INSERT INTO pgbenchx.run_generators (run_id, generator, conninfo, part_run_id, "
						"clients, first_client, clock_offset_ms, clock_uncertainty_ms, status) "
						"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'running')",
						8, types, values, nulls, false);
}

/*
 * A jsonb value as text for the checks above (a number in numeric's text,
 * a string as is); NULL for null or absent.  *kind: its type.
 */
static const char *
recorder_jsonb_scalar(JsonbContainer *c, const char *key, enum jbvType *kind)
{
	JsonbValue *v = getKeyJsonValueFromContainer(c, key, strlen(key), NULL);

	*kind = v ? v->type : jbvNull;
	if (v == NULL || v->type == jbvNull)
		return NULL;
	if (v->type == jbvNumeric)
		return DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
	if (v->type == jbvString)
		return pnstrdup(v->val.string.val, v->val.string.len);
	return "";
}

/* a key of c: null, absent, or a number (integer: in numeric's integer form) within range */
static char *
recorder_check_jsonb_num(JsonbContainer *c, const char *what, const char *key, bool integer,
						 double lo, double hi)
{
	enum jbvType kind;
	const char *v = recorder_jsonb_scalar(c, key, &kind);
	char	   *name = psprintf("%s\"%s\"", what, key);

	if (v == NULL)
		return NULL;
	if (kind != jbvNumeric)
		return psprintf("%s is not a number", name);
	if (integer)
		return recorder_check_int(name, v, (int64) lo, hi >= 9e18 ? PG_INT64_MAX : (int64) hi, true, NULL);
	return recorder_check_num(name, v, lo, hi, false, true, NULL);
}

/*
 * The run's figures as the parts' rows are merged into them: the RunResult
 * that results_finish_run writes, and what it reads of connect_per_transaction's
 * average connection time, pooled here first.
 */
typedef struct RecorderTotals
{
	RunResult  *r;
	double		conn_weight;	/* the parts' transactions */
	double		conn_sum_ms;	/* their average connection times, weighted */
} RecorderTotals;

/* a checked integer of c; 0 when null or absent */
static int64
recorder_jsonb_int(JsonbContainer *c, const char *key)
{
	enum jbvType kind;
	const char *v = recorder_jsonb_scalar(c, key, &kind);

	return v ? strtoi64(v, NULL, 10) : 0;
}

/* a checked number of c; NAN when null or absent */
static double
recorder_jsonb_float(JsonbContainer *c, const char *key)
{
	enum jbvType kind;
	const char *v = recorder_jsonb_scalar(c, key, &kind);

	return v ? strtod(v, NULL) : NAN;
}

/* a count of a part into the run's, held at what an int8 column stores */
static void
recorder_add_count(uint64 *to, int64 v)
{
	*to = Min(*to + (uint64) Max(v, 0), (uint64) PG_INT64_MAX);
}

/*
 * A part's runs row, checked, into the run's figures (totals->r), which
 * results_finish_run writes as it writes any run's (the figures only this
 * server has, the checkpoints and autovacuums of the server under test,
 * are the coordinator's, read before and after the run as for a local
 * one).  How each is merged:
 *	- transactions, failed, aborted_clients, driver_cpu_s, jobs, and the
 *	  counts (serialization_failures, deadlock_failures, retried, retries,
 *	  skipped, late, notices): summed;
 *	- the latency histogram: merged, exactly (its moments are exact
 *	  integers), so the latency average, stddev, percentiles and maximum
 *	  are those of the union of every part's latencies;
 *	- bench_duration_s: the longest (the parts start at the same instant;
 *	  the run ends with its last client), and so tps over it, as pgbench's
 *	  over its threads;
 *	- conn_time_ms: the longest (the run's clients are all connected when
 *	  the last part's are); with connect_per_transaction, where it is the
 *	  average connection time, pooled over the parts weighted by their
 *	  transactions (each connects once per transaction; a part's row keeps
 *	  no count of its connections);
 *	- lag_avg_ms: pooled, weighted by each part's transactions and failed
 *	  ones (the transactions that started, which lag is counted over);
 *	  lag_max_ms: the largest;
 *	- notice_samples: the first RUN_NOTICE_SAMPLES, in generator order;
 *	- script_stats, script by script of the mix: counts summed, the latency
 *	  average and stddev pooled from each part's (its sum and sum of squares
 *	  rebuilt from its average, stddev and transactions).
 * samples_lost and samples_lost_transactions are this run's own samples'
 * (recorder_merge).  The new strings are allocated in keep.  Returns NULL,
 * or why the part's row cannot be merged (nothing of it is then).
 */
static char *
recorder_fold_part(JsonbContainer *c, RecorderTotals *totals, MemoryContext keep)
{
	RunResult  *r = totals->r;
	enum jbvType kind;
	const char *v = recorder_jsonb_scalar(c, "latency_hist", &kind);
	stats_total *h = palloc0(sizeof(stats_total));
	char	   *why;
	int64		t = recorder_jsonb_int(c, "transactions");
	int64		f = recorder_jsonb_int(c, "failed");
	/* the transactions that started: a weight, bounded (no run has 10^15) */
	double		started = Min((double) t + (double) f, 1e15);
	double		x;
	JsonbValue *a;

	if (v != NULL && (why = recorder_decode_hist("its runs row's latency_hist", v, h)) != NULL)
		return why;
	/* as latency_merge: a count or sum that would wrap is not merged */
	if (h->m.count > PG_UINT64_MAX - r->total->latency.m.count ||
		h->m.sum > PG_UINT64_MAX - r->total->latency.m.sum)
		return pstrdup("its runs row's latency_hist holds more latencies than the run's can");
	stats_total_merge(&r->total->latency, h);
	pfree(h);

	recorder_add_count(&r->total->transactions, t);
	recorder_add_count(&r->total->failed, f);
	r->aborted_clients += (int) recorder_jsonb_int(c, "aborted_clients");
	r->jobs += (int) recorder_jsonb_int(c, "jobs");
	if (!isnan(x = recorder_jsonb_float(c, "driver_cpu_s")))
		r->driver_cpu_s += x;
	recorder_add_count(&r->counts.serialization_failures, recorder_jsonb_int(c, "serialization_failures"));
	recorder_add_count(&r->counts.deadlock_failures, recorder_jsonb_int(c, "deadlock_failures"));
	recorder_add_count(&r->counts.retried, recorder_jsonb_int(c, "retried"));
	recorder_add_count(&r->counts.retries, recorder_jsonb_int(c, "retries"));
	recorder_add_count(&r->counts.skipped, recorder_jsonb_int(c, "skipped"));
	recorder_add_count(&r->counts.late, recorder_jsonb_int(c, "late"));
	recorder_add_count(&r->counts.notices, recorder_jsonb_int(c, "notices"));

	if (!isnan(x = recorder_jsonb_float(c, "bench_duration_s")))
		r->bench_end_usec = Max(r->bench_end_usec, (int64) llround(x * USECS_PER_SEC));
	if (!isnan(x = recorder_jsonb_float(c, "conn_time_ms")))
	{
		if (!r->connect_per_transaction)
			r->conn_time_ms = Max(r->conn_time_ms, x);
		else
		{
			totals->conn_weight += Max(started, 1);
			totals->conn_sum_ms += x * Max(started, 1);
		}
	}
	if (!isnan(x = recorder_jsonb_float(c, "lag_avg_ms")))
	{
		r->counts.lag_count += (uint64) Max(started, 1);
		r->counts.lag_sum_usec += x * 1000.0 * Max(started, 1);
	}
	if (!isnan(x = recorder_jsonb_float(c, "lag_max_ms")))
		r->counts.lag_max_usec = Max(r->counts.lag_max_usec, (int64) llround(x * 1000.0));

	a = getKeyJsonValueFromContainer(c, "notice_samples", strlen("notice_samples"), NULL);
	if (a != NULL && a->type == jbvBinary)
	{
		uint32		count = JsonContainerSize(a->val.binary.data);

		for (uint32 k = 0; k < count && r->nnotice_samples < RUN_NOTICE_SAMPLES; k++)
		{
			JsonbValue *e = getIthJsonbValueFromContainer(a->val.binary.data, k);
			char	   *text;

			/* as a driver's: cut to its buffer, valid in this database's encoding */
			text = MemoryContextStrdup(keep, pnstrdup(e->val.string.val,
													  Min(e->val.string.len, RUN_NOTICE_LEN - 1)));
			pqconn_sanitize_text(text);
			r->notice_samples[r->nnotice_samples++] = text;
		}
	}

	a = getKeyJsonValueFromContainer(c, "script_stats", strlen("script_stats"), NULL);
	if (a != NULL && a->type == jbvBinary)
	{
		uint32		count = JsonContainerSize(a->val.binary.data);

		for (uint32 k = 0; k < count && (int) k < r->nscripts; k++)
		{
			JsonbValue *e = getIthJsonbValueFromContainer(a->val.binary.data, k);
			JsonbContainer *ec = e->val.binary.data;
			ScriptCounts *to = &r->scripts[k];
			int64		st = recorder_jsonb_int(ec, "transactions");
			double		avg = recorder_jsonb_float(ec, "latency_avg_ms") * 1000.0;
			double		sd = recorder_jsonb_float(ec, "latency_stddev_ms") * 1000.0;

			recorder_add_count(&to->transactions, st);
			recorder_add_count(&to->failed, recorder_jsonb_int(ec, "failed"));
			recorder_add_count(&to->serialization_failures, recorder_jsonb_int(ec, "serialization_failures"));
			recorder_add_count(&to->deadlock_failures, recorder_jsonb_int(ec, "deadlock_failures"));
			recorder_add_count(&to->retried, recorder_jsonb_int(ec, "retried"));
			recorder_add_count(&to->retries, recorder_jsonb_int(ec, "retries"));
			recorder_add_count(&to->skipped, recorder_jsonb_int(ec, "skipped"));
			if (st > 0 && !isnan(avg))
			{
				to->latency_sum_usec += avg * st;
				to->latency_sum2_usec += st * ((isnan(sd) ? 0 : sd * sd) + avg * avg);
			}
		}
	}
	return NULL;
}

/*
 * A part's runs row as the generator sent it (to_jsonb of its runs row with
 * its statement_stats), checked with import()'s rules for a run generator's
 * row and for what run_generators and the merge read from it.  Any error
 * of the checks (a number beyond float8) reads as invalid.  A valid row is
 * merged into totals (recorder_fold_part).
 */
static char *
recorder_check_part_run(const char *row, const char *env, const char *sysid,
						RecorderTotals *totals)
{
	MemoryContext old = CurrentMemoryContext;
	/* the parsed row (up to 64 MB and more) is not kept */
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "pgbenchx part row check",
											  ALLOCSET_DEFAULT_SIZES);
	char	   *volatile why = NULL;
	char	   *result;

	if (sysid != NULL && (strlen(sysid) == 0 || strlen(sysid) > 20 || strspn(sysid, "0123456789") != strlen(sysid)))
	{
		MemoryContextDelete(cxt);
		return pstrdup("its system identifier is not digits");
	}
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		Jsonb	   *jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(row)));
		JsonbContainer *c = &jb->root;
		enum jbvType kind;
		const char *v;
		static const struct
		{
			const char *key;
			bool		integer;
			double		lo;
			double		hi;
		}			rules[] = {
			/* import()'s ranges of run_generators and runs (src/sql/60_exchange.sql) */
			{"jobs", true, 1, 100000},
			{"transactions", true, 0, 9.3e18},
			{"failed", true, 0, 9.3e18},
			{"aborted_clients", true, 0, 100000},
			{"tps", false, 0, 1e12},
			{"latency_avg_ms", false, 0, 1e12},
			{"latency_stddev_ms", false, 0, 1e12},
			{"latency_p50_ms", false, 0, 1e12},
			{"latency_p99_ms", false, 0, 1e12},
			{"latency_max_ms", false, 0, 1e12},
			{"conn_time_ms", false, 0, 1e15},
			{"bench_duration_s", false, 0, 1e9},
			{"driver_cpu_s", false, 0, 1e9},
			/* and what the run's final row reads of it (recorder_fold_part) */
			{"serialization_failures", true, 0, 9.3e18},
			{"deadlock_failures", true, 0, 9.3e18},
			{"retried", true, 0, 9.3e18},
			{"retries", true, 0, 9.3e18},
			{"skipped", true, 0, 9.3e18},
			{"late", true, 0, 9.3e18},
			{"notices", true, 0, 9.3e18},
			{"lag_avg_ms", false, 0, 1e12},
			{"lag_max_ms", false, 0, 1e12},
		};

		if (env != NULL)
		{
			Jsonb	   *e = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(env)));

			if (!JB_ROOT_IS_OBJECT(e))
				why = pstrdup("its environment is not an object");
		}
		if (why == NULL && !JB_ROOT_IS_OBJECT(jb))
			why = pstrdup("its runs row is not an object");
		if (why == NULL)
		{
			v = recorder_jsonb_scalar(c, "status", &kind);
			if (kind != jbvString || !recorder_status_ok(v, true))
				why = pstrdup("its runs row's status is not a run's status");
		}
		if (why == NULL)
		{
			v = recorder_jsonb_scalar(c, "error", &kind);
			if (kind != jbvNull && kind != jbvString)
				why = pstrdup("its runs row's error is not a text");
			else if (v && strlen(v) > RECORDER_MAX_TEXT_BYTES)
				why = psprintf("its runs row's error is longer than %d bytes", RECORDER_MAX_TEXT_BYTES);
		}
		for (int i = 0; why == NULL && i < (int) lengthof(rules); i++)
			why = recorder_check_jsonb_num(c, "its runs row's ", rules[i].key, rules[i].integer,
										   rules[i].lo, rules[i].hi);
		if (why == NULL)
		{
			double		d;

			/* the seconds measured: not more than the run's, nor than the time since the start */
			v = recorder_jsonb_scalar(c, "bench_duration_s", &kind);
			if (v && (d = strtod(v, NULL)) > 0 &&
				((recorder_duration > 0 && d > recorder_duration + RECORDER_SECOND_SLACK) ||
				 (recorder_go_at > 0 &&
				  d > (fleet_now_unix_usec() - recorder_go_at) / (double) USECS_PER_SEC + RECORDER_SECOND_SLACK)))
				why = psprintf("its runs row measured %s s, longer than the run", v);
		}
		if (why == NULL)
		{
			v = recorder_jsonb_scalar(c, "latency_hist", &kind);
			if (kind != jbvNull && kind != jbvString)
				why = pstrdup("its runs row's latency_hist is not a histogram");
			else if (v)
				why = recorder_decode_hist("its runs row's latency_hist", v, NULL);
		}
		/* the lists the merge reads: arrays of objects of numbers in range */
		for (int l = 0; why == NULL && l < 2; l++)
		{
			const char *list = l == 0 ? "statement_stats" : "script_stats";
			JsonbValue *a = getKeyJsonValueFromContainer(c, list, strlen(list), NULL);
			uint32		count;

			if (a == NULL || a->type == jbvNull)
				continue;
			if (a->type != jbvBinary || !JsonContainerIsArray(a->val.binary.data))
			{
				why = psprintf("its runs row's %s is not a list", list);
				break;
			}
			count = JsonContainerSize(a->val.binary.data);
			for (uint32 k = 0; why == NULL && k < count; k++)
			{
				JsonbValue *e = getIthJsonbValueFromContainer(a->val.binary.data, k);
				JsonbContainer *ec;
				char	   *what = psprintf("element %u of its %s: ", k + 1, list);

				if (e == NULL || e->type != jbvBinary || !JsonContainerIsObject(e->val.binary.data))
				{
					why = psprintf("%snot an object", what);
					break;
				}
				ec = e->val.binary.data;
				if (l == 0)
				{
					v = recorder_jsonb_scalar(ec, "script", &kind);
					if (kind != jbvString || strlen(v) > RECORDER_MAX_TEXT_BYTES)
						why = psprintf("%sits script is not a name", what);
					if (why == NULL)
					{
						v = recorder_jsonb_scalar(ec, "command_text", &kind);
						if (kind != jbvNull && kind != jbvString)
							why = psprintf("%sits command_text is not a text", what);
					}
					if (why == NULL && recorder_jsonb_scalar(ec, "command", &kind) == NULL)
						why = psprintf("%sits command is null", what);
					if (why == NULL)
						why = recorder_check_jsonb_num(ec, what, "command", true, 1, 2147483647);
					if (why == NULL && recorder_jsonb_scalar(ec, "executions", &kind) == NULL)
						why = psprintf("%sits executions are null", what);
					if (why == NULL)
						why = recorder_check_jsonb_num(ec, what, "executions", true, 0, 9.3e18);
					if (why == NULL)
						why = recorder_check_jsonb_num(ec, what, "failures", true, 0, 9.3e18);
					if (why == NULL)
						why = recorder_check_jsonb_num(ec, what, "retries", true, 0, 9.3e18);
					if (why == NULL)
						why = recorder_check_jsonb_num(ec, what, "latency_avg_ms", false, 0, 1e12);
				}
				else
				{
					static const char *const ints[] = {"transactions", "failed", "retried", "retries", "skipped"};

					for (int f = 0; why == NULL && f < (int) lengthof(ints); f++)
						why = recorder_check_jsonb_num(ec, what, ints[f], true, 0, 9.3e18);
					if (why == NULL)
						why = recorder_check_jsonb_num(ec, what, "latency_avg_ms", false, 0, 1e12);
					if (why == NULL)
						why = recorder_check_jsonb_num(ec, what, "latency_stddev_ms", false, 0, 1e12);
				}
			}
		}
		/* the first notices: a few texts, as a part keeps them */
		if (why == NULL)
		{
			JsonbValue *a = getKeyJsonValueFromContainer(c, "notice_samples", strlen("notice_samples"), NULL);

			if (a != NULL && a->type != jbvNull &&
				(a->type != jbvBinary || !JsonContainerIsArray(a->val.binary.data) ||
				 JsonContainerSize(a->val.binary.data) > RUN_NOTICE_SAMPLES))
				why = psprintf("its runs row's notice_samples is not a list of at most %d texts", RUN_NOTICE_SAMPLES);
			for (uint32 k = 0; why == NULL && a != NULL && a->type == jbvBinary &&
				 k < JsonContainerSize(a->val.binary.data); k++)
			{
				JsonbValue *e = getIthJsonbValueFromContainer(a->val.binary.data, k);

				if (e == NULL || e->type != jbvString || e->val.string.len > RECORDER_MAX_TEXT_BYTES)
					why = psprintf("element %u of its notice_samples is not a text of at most %d bytes",
								   k + 1, RECORDER_MAX_TEXT_BYTES);
			}
		}
		/* checked: into the run's figures */
		if (why == NULL && totals != NULL)
			why = recorder_fold_part(c, totals, old);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
		why = pstrdup("its runs row is not a valid JSON object of a run");
	}
	PG_END_TRY();
	MemoryContextSwitchTo(old);
	result = why ? pstrdup(why) : NULL;
	MemoryContextDelete(cxt);
	return result;
}

/*
 * The part's final runs row (jsonb) into its run_generators row, and its
 * figures into the run's (totals).
 */
static void
recorder_finish_generator(int64 run_id, RecorderPart *p, RecorderTotals *totals)
{
	char	   *err = NULL;
	PGresult   *res = NULL;
	const char *params[1];
	Oid			types[7] = {INT8OID, INT4OID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID};
	Datum		values[7];
	char		nulls[7] = "       ";
	char	   *row = NULL;
	char	   *env = NULL;

	if (p->part_id == 0)
		return;
	if (recorder_live(p))
	{
		params[0] = psprintf(INT64_FORMAT, p->part_id);
		res = pqconn_exec(p->g.conn,
						  "SELECT pg_catalog.to_jsonb(r) OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('statement_stats', "
						  "(SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(t)) FROM pgbenchx.statement_stats t "
						  "WHERE t.run_id OPERATOR(pg_catalog.=) r.run_id)), "
						  "(SELECT pg_catalog.to_jsonb(e) FROM pgbenchx.environments e "
						  "WHERE e.environment_id OPERATOR(pg_catalog.=) r.environment_id), NULL, "
						  "(SELECT s.system_identifier FROM pgbenchx.generator_status() s) "
						  "FROM pgbenchx.runs r WHERE r.run_id OPERATOR(pg_catalog.=) $1::pg_catalog.int8",
						  1, params, FLEET_ANSWER_TIMEOUT_MS, &err, NULL);
		if (res == NULL)
			recorder_lose(p, "while its results were read", err);
		else if (PQntuples(res) == 1 &&
				 (PQgetlength(res, 0, 0) > RECORDER_MAX_PART_ROW_BYTES ||
				  PQgetlength(res, 0, 1) > RECORDER_MAX_VALUE_BYTES * 16 ||
				  PQgetlength(res, 0, 3) > 64))
		{
			recorder_lose(p, "while its results were read",
						  psprintf("its runs row is larger than a part writes (%d bytes)", PQgetlength(res, 0, 0)));
			PQclear(res);
			res = NULL;
		}
		else if (PQnfields(res) != 4 || PQntuples(res) > 1)
		{
			recorder_lose(p, "while its results were read",
						  psprintf("its answer has %d columns and %d rows, not 4 and 1", PQnfields(res), PQntuples(res)));
			PQclear(res);
			res = NULL;
		}
		else if (PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
		{
			char	   *why;

			row = pstrdup(PQgetvalue(res, 0, 0));
			env = PQgetisnull(res, 0, 1) ? NULL : pstrdup(PQgetvalue(res, 0, 1));
			/* stored as text of this database: valid in its encoding */
			pqconn_sanitize_text(row);
			if (env)
				pqconn_sanitize_text(env);
			why = recorder_check_part_run(row, env, PQgetisnull(res, 0, 3) ? NULL : PQgetvalue(res, 0, 3),
										  totals);
			if (why != NULL)
			{
				recorder_lose(p, "while its results were read", why);
				PQclear(res);
				res = NULL;
			}
		}
	}
	values[0] = Int64GetDatum(run_id);
	values[1] = Int32GetDatum(p->g.index);
	if (res && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
	{
		values[2] = CStringGetTextDatum(row);
		if (env == NULL)
			nulls[3] = 'n';
		else
			values[3] = CStringGetTextDatum(env);
		if (PQgetisnull(res, 0, 3))
			nulls[6] = 'n';
		else
			values[6] = CStringGetTextDatum(PQgetvalue(res, 0, 3));
	}
	else
	{
		nulls[2] = 'n';
		nulls[3] = 'n';
		nulls[6] = 'n';
	}
	if (p->lost)
		values[4] = CStringGetTextDatum("lost");
	else
		nulls[4] = 'n';
	if (p->error)
		values[5] = CStringGetTextDatum(p->error);
	else
		nulls[5] = 'n';
	if (res)
		PQclear(res);
	results_exec_params("UPDATE pgbenchx.run_generators g SET "
						"part_run = $3::pg_catalog.jsonb, "
						"environment = $4::pg_catalog.jsonb, "
						"system_identifier = coalesce($7, g.system_identifier), "
						"status = coalesce($5, ($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'status', 'lost'), "
						"error = coalesce($6, ($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'error'), "
						"jobs = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'jobs')::pg_catalog.int4, "
						"transactions = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'transactions')::pg_catalog.int8, "
						"failed_transactions = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'failed')::pg_catalog.int8, "
						"tps = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'tps')::pg_catalog.float8, "
						"latency_avg_ms = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'latency_avg_ms')::pg_catalog.float8, "
						"latency_stddev_ms = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'latency_stddev_ms')::pg_catalog.float8, "
						"latency_p50_ms = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'latency_p50_ms')::pg_catalog.float8, "
						"latency_p99_ms = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'latency_p99_ms')::pg_catalog.float8, "
						"latency_max_ms = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'latency_max_ms')::pg_catalog.float8, "
						"conn_time_ms = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'conn_time_ms')::pg_catalog.float8, "
						"bench_duration_s = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'bench_duration_s')::pg_catalog.float8, "
						"driver_cpu_s = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'driver_cpu_s')::pg_catalog.float8, "
						"aborted_clients = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'aborted_clients')::pg_catalog.int4, "
						"latency_hist = (($3::pg_catalog.jsonb) OPERATOR(pg_catalog.->>) 'latency_hist')::pg_catalog.bytea "
						"WHERE g.run_id OPERATOR(pg_catalog.=) $1 AND g.generator OPERATOR(pg_catalog.=) $2",
						7, types, values, nulls, false);
}

/*
 * pgbench -r of the run: the parts' statement_stats, summed per command
 * (the latency average pooled over the executions), from its
 * run_generators rows; the coordinator writes them before the final
 * status, as a local run's (coordinator_write_statements).
 */
void
recorder_write_statements(int64 run_id)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(run_id)};

	results_exec_params("INSERT INTO pgbenchx.statement_stats (run_id, script, command, command_text, executions, "
						"latency_avg_ms, failures, retries) "
						"SELECT $1, e.script, e.command, pg_catalog.min(e.command_text), "
						"pg_catalog.sum(e.executions)::pg_catalog.int8, "
						"pg_catalog.sum(e.latency_avg_ms OPERATOR(pg_catalog.*) e.executions) OPERATOR(pg_catalog./) "
						"NULLIF(pg_catalog.sum(e.executions) FILTER (WHERE e.latency_avg_ms IS NOT NULL), 0), "
						"pg_catalog.sum(e.failures)::pg_catalog.int8, pg_catalog.sum(e.retries)::pg_catalog.int8 "
						"FROM pgbenchx.run_generators g, "
						"pg_catalog.jsonb_to_recordset(CASE WHEN pg_catalog.jsonb_typeof(g.part_run OPERATOR(pg_catalog.->) 'statement_stats') "
						"OPERATOR(pg_catalog.=) 'array' THEN g.part_run OPERATOR(pg_catalog.->) 'statement_stats' ELSE '[]'::pg_catalog.jsonb END) "
						"AS e(script text, command int, command_text text, executions bigint, latency_avg_ms float8, "
						"failures bigint, retries bigint) "
						"WHERE g.run_id OPERATOR(pg_catalog.=) $1 "
						"GROUP BY e.script, e.command",
						1, types, values, " ", false);
}

/* Wait for the latch or timeout_ms; services interrupts. */
static void
recorder_sleep(long timeout_ms)
{
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 timeout_ms, PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

static bool
recorder_cancel_requested(void)
{
	return loopback_cancel_flag != NULL && *loopback_cancel_flag;
}

/* the first error of the parts, for runs.error; NULL if none */
static char *
recorder_first_error(RecorderPart *parts, int n)
{
	for (int i = 0; i < n; i++)
		if (parts[i].lost && parts[i].error)
			return parts[i].error;
	for (int i = 0; i < n; i++)
		if (parts[i].error)
			return parts[i].error;
	return NULL;
}

static bool
recorder_any_failed(RecorderPart *parts, int n)
{
	for (int i = 0; i < n; i++)
		if (parts[i].lost || parts[i].error)
			return true;
	return false;
}

/* a generator was lost: its clients may still be running */
static bool
recorder_any_lost(RecorderPart *parts, int n)
{
	for (int i = 0; i < n; i++)
		if (parts[i].lost)
			return true;
	return false;
}

/*
 * Launch, start and follow the parts, their seconds merged into secs; returns
 * when every part has ended (or was lost).  *why: the reason the run failed
 * before it measured.
 */
static void
recorder_drive(const RunSpec *spec, const RunMix *mix, const RunGenerators *rg,
			   RecorderPart *parts, int n, int64 run_id, int clients, char **why,
			   RecorderSeconds *secs)
{
	char	   *err;
	char	   *refused_at;
	TimestampTz deadline;
	TimestampTz start;
	int64		go_at;
	double		max_rtt = 0;
	MemoryContext loop_cxt;
	MemoryContext old;

	/* connect, measure the clocks */
	for (int i = 0; i < n; i++)
	{
		RecorderPart *p = &parts[i];

		if (p->clients == 0)
			continue;
		refused_at = NULL;
		/*
		 * Every step, every connection: a multi-host conninfo may have
		 * failed over to a server that let the runner in without the
		 * password (conninfo.c).
		 */
		p->g.conn = fleet_connect(p->g.conninfo, spec->knobs.require_password, &err, &refused_at);
		if (p->g.conn == NULL && refused_at != NULL)
		{
			*why = psprintf("%s let a non-superuser in without a password (at %s)",
							fleet_name(&p->g), refused_at);
			return;
		}
		if (p->g.conn == NULL)
		{
			*why = psprintf("%s cannot be reached: %s", fleet_name(&p->g), err);
			return;
		}
		if (!fleet_clock(&p->g, &err))
		{
			*why = psprintf("%s did not answer the clock measure: %s", fleet_name(&p->g), err);
			return;
		}
		if (fabs(p->g.offset_ms) > spec->max_clock_offset_ms)
		{
			*why = psprintf("%s has a clock offset of %.1f ms, above max_clock_offset_ms (%g)",
							fleet_name(&p->g), p->g.offset_ms, spec->max_clock_offset_ms);
			return;
		}
		max_rtt = Max(max_rtt, p->g.rtt_ms);
	}

	/* launch every part */
	for (int i = 0; i < n; i++)
	{
		RecorderPart *p = &parts[i];
		const char *params[1];
		PGresult   *res;

		if (p->clients == 0)
			continue;
		params[0] = recorder_part_options(spec, mix, rg, p, clients, run_id);
		res = pqconn_exec(p->g.conn, "SELECT pgbenchx.launch_part($1::pg_catalog.jsonb)", 1, params,
						  RECORDER_READY_TIMEOUT_MS, &err, NULL);
		if (res == NULL || PQntuples(res) != 1)
		{
			*why = psprintf("%s refused its part: %s", fleet_name(&p->g), err ? err : "no id");
			if (res)
				PQclear(res);
			return;
		}
		{
			char	   *bad = PQnfields(res) != 1 ? pstrdup("its answer is not one id") :
				recorder_check_int("its part's id", PQgetisnull(res, 0, 0) ? NULL : PQgetvalue(res, 0, 0),
								   1, PG_INT64_MAX, false, &p->part_id);

			PQclear(res);
			if (bad != NULL)
			{
				*why = psprintf("%s refused its part: %s", fleet_name(&p->g), bad);
				return;
			}
		}
		recorder_insert_generator(run_id, p);
		if (recorder_cancel_requested())
			return;
	}

	/* wait until every part's clients are connected */
	deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), RECORDER_READY_TIMEOUT_MS);
	for (;;)
	{
		bool		all_ready = true;

		if (recorder_cancel_requested())
			return;
		recorder_send_all(parts, n,
						  "SELECT r.status, p.phase, r.error FROM pgbenchx.runs r "
						  "LEFT JOIN pgbenchx.progress_state() p ON p.run_id OPERATOR(pg_catalog.=) r.run_id "
						  "WHERE r.run_id OPERATOR(pg_catalog.=) $1::pg_catalog.int8",
						  false, "while its part connected");
		for (int i = 0; i < n; i++)
		{
			RecorderPart *p = &parts[i];
			PGresult   *res;

			if (p->clients == 0)
				continue;
			if (p->lost)
			{
				*why = pstrdup(p->error);
				return;
			}
			res = pqconn_collect(p->g.conn, FLEET_ANSWER_TIMEOUT_MS, PQCONN_MAX_ANSWER_BYTES, NULL, &err, NULL);
			if (res == NULL)
			{
				recorder_lose(p, "while its part connected", err);
				*why = pstrdup(p->error);
				return;
			}
			if (PQnfields(res) != 3)
			{
				recorder_refuse_answer(p, "while its part connected",
									   psprintf("its answer has %d columns, not 3", PQnfields(res)));
				*why = pstrdup(p->error);
				PQclear(res);
				return;
			}
			if (PQntuples(res) != 1 || PQgetisnull(res, 0, 0) || strcmp(PQgetvalue(res, 0, 0), "running") != 0)
			{
				*why = psprintf("%s: its part ended before it started%s%s", fleet_name(&p->g),
								PQntuples(res) == 1 && !PQgetisnull(res, 0, 2) ? ": " : "",
								PQntuples(res) == 1 && !PQgetisnull(res, 0, 2) ? recorder_remote_text(PQgetvalue(res, 0, 2)) : "");
				p->finished = true;
				PQclear(res);
				return;
			}
			if (PQgetisnull(res, 0, 1) || strcmp(PQgetvalue(res, 0, 1), "ready") != 0)
				all_ready = false;
			PQclear(res);
		}
		if (all_ready)
			break;
		if (GetCurrentTimestamp() > deadline)
		{
			*why = psprintf("the parts' clients did not all connect within %d s",
							RECORDER_READY_TIMEOUT_MS / 1000);
			return;
		}
		recorder_sleep(100);
	}

	/* the common start: T on our clock, T + offset on each generator's */
	go_at = fleet_now_unix_usec() + (int64) (max_rtt * 2 * 1000) + RECORDER_GO_MARGIN_MS * 1000;
	recorder_go_at = go_at;
	for (int i = 0; i < n; i++)
	{
		RecorderPart *p = &parts[i];
		const char *params[2];

		if (p->clients == 0)
			continue;
		params[0] = psprintf(INT64_FORMAT, p->part_id);
		params[1] = psprintf(INT64_FORMAT, go_at + (int64) (p->g.offset_ms * 1000));
		if (!pqconn_send(p->g.conn,
						 "SELECT pgbenchx.part_go($1::pg_catalog.int8, pg_catalog.to_timestamp(0) OPERATOR(pg_catalog.+) "
						 "($2::pg_catalog.float8 OPERATOR(pg_catalog.*) interval '1 microsecond'))",
						 2, params, &err))
		{
			recorder_lose(p, "at the start", err);
			*why = pstrdup(p->error);
			return;
		}
	}
	for (int i = 0; i < n; i++)
	{
		RecorderPart *p = &parts[i];
		PGresult   *res;

		if (p->clients == 0)
			continue;
		res = pqconn_collect(p->g.conn, FLEET_ANSWER_TIMEOUT_MS, PQCONN_MAX_ANSWER_BYTES, NULL, &err, NULL);
		if (res == NULL)
		{
			*why = psprintf("%s refused the start: %s", fleet_name(&p->g), err);
			return;
		}
		PQclear(res);
	}
	/* the common start, on this server's clock: runs.started_at */
	start = (TimestampTz) (go_at - (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC);
	results_bench_started(run_id, start);
	/*
	 * This server's machine and server figures over the run, in the
	 * coordinator's readings as for a local step (coordinator.h): no
	 * drivers here, the baseline at the common start.  The readings' ring
	 * is the full RUN_SECOND_RING (pgbenchx.sample_ring_seconds sizes the
	 * drivers' rings, and there are none here).
	 */
	coordinator_readings_begin(spec, run_id, RUN_SECOND_RING, NULL, NULL, 0);
	while (GetCurrentTimestamp() < start)
		recorder_sleep(Max((start - GetCurrentTimestamp()) / 1000, 1));
	coordinator_readings_start(start);
	progress_phase(RUN_PHASE_MEASURING);

	/* follow the parts until every one has ended */
	loop_cxt = AllocSetContextCreate(CurrentMemoryContext, "pgbenchx recorder loop", ALLOCSET_DEFAULT_SIZES);
	deadline = 0;
	for (;;)
	{
		bool		all_done = true;

		old = MemoryContextSwitchTo(loop_cxt);
		if ((recorder_cancel_requested() || recorder_any_failed(parts, n)))
		{
			recorder_cancel_parts(parts, n);
			if (deadline == 0)
				deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), RECORDER_STOP_TIMEOUT_MS);
		}
		coordinator_readings_tick();
		recorder_poll(parts, n);
		/* a part that falls far behind would hold the others' seconds without bound */
		{
			int			ahead = 0;

			for (int i = 0; i < n; i++)
				if (parts[i].clients > 0)
					ahead = Max(ahead, parts[i].last_second);
			for (int i = 0; i < n; i++)
				if (recorder_live(&parts[i]) && parts[i].part_id != 0 && !parts[i].finished &&
					ahead - parts[i].last_second > RECORDER_MAX_LAG_S)
					recorder_lose(&parts[i], "while measuring",
								  psprintf("its seconds fell more than %d s behind the other generators'",
										   RECORDER_MAX_LAG_S));
		}
		recorder_merge(run_id, parts, n, secs, false);
		/* a timed part that runs on long after the run's end holds everything */
		if (spec->duration > 0 &&
			fleet_now_unix_usec() - go_at > ((int64) spec->duration + RECORDER_END_SLACK_S) * USECS_PER_SEC)
			for (int i = 0; i < n; i++)
				if (recorder_live(&parts[i]) && parts[i].part_id != 0 && !parts[i].finished)
					recorder_refuse_answer(&parts[i], "while measuring",
										   psprintf("its part was still running %d s after the end of a run of %d s",
													RECORDER_END_SLACK_S, spec->duration));
		for (int i = 0; i < n; i++)
			if (parts[i].clients > 0 && !parts[i].finished && !parts[i].lost)
				all_done = false;
		MemoryContextSwitchTo(old);
		MemoryContextReset(loop_cxt);
		if (all_done)
			break;
		if (deadline != 0 && GetCurrentTimestamp() > deadline)
		{
			for (int i = 0; i < n; i++)
				if (parts[i].clients > 0 && !parts[i].finished && !parts[i].lost)
					recorder_lose(&parts[i], "while stopping",
								  psprintf("its part did not end within %d s", RECORDER_STOP_TIMEOUT_MS / 1000));
			break;
		}
		recorder_sleep(RECORDER_POLL_MS);
	}
	MemoryContextDelete(loop_cxt);
	coordinator_readings_end();
	recorder_merge(run_id, parts, n, secs, true);
}

/* best effort: cancel one live part, errors swallowed */
static void
recorder_abandon_one(RecorderPart *p)
{
	const char *params[1];
	char	   *err;

	if (!recorder_live(p) || p->part_id == 0 || p->finished)
		return;
	params[0] = psprintf(INT64_FORMAT, p->part_id);
	PG_TRY();
	{
		PGresult   *res;

		/*
		 * A statement in flight: cancel it first (cancel.c, with its
		 * deadline), then cancel the part.
		 */
		if (PQisBusy(p->g.conn))
			(void) cancel_send(&p->g.conn, 1, CANCEL_DEADLINE_MS);

		while (PQisBusy(p->g.conn) && (res = pqconn_collect(p->g.conn, 2000, PQCONN_MAX_ANSWER_BYTES, NULL, &err, NULL)) != NULL)
			PQclear(res);
		res = pqconn_exec(p->g.conn, "SELECT pgbenchx.cancel($1::pg_catalog.int8)", 1, params,
						  2000, &err, NULL);
		if (res)
			PQclear(res);
	}
	PG_CATCH();
	{
		FlushErrorState();
	}
	PG_END_TRY();
}

/*
 * What an error or a termination of the recorder leaves: best effort, each
 * live part is cancelled (its generator ends it within about a second).
 */
void
recorder_abandon(void)
{
	if (recorder_parts == NULL)
		return;
	for (int i = 0; i < recorder_nparts; i++)
		recorder_abandon_one(&recorder_parts[i]);
	for (int i = 0; i < recorder_nparts; i++)
	{
		pqconn_finish(recorder_parts[i].g.conn);
		recorder_parts[i].g.conn = NULL;
	}
	recorder_parts = NULL;
	recorder_nparts = 0;
}

void
recorder_abandon_rows(int64 run_id, const char *status)
{
	Oid			types[2] = {INT8OID, TEXTOID};
	Datum		values[2] = {Int64GetDatum(run_id), CStringGetTextDatum(status)};

	results_exec_params("UPDATE pgbenchx.run_generators SET status = $2, "
						"error = coalesce(error, 'the recorder''s run ended ' OPERATOR(pg_catalog.||) $2 OPERATOR(pg_catalog.||) ' before this part''s figures were read') "
						"WHERE run_id OPERATOR(pg_catalog.=) $1 AND status OPERATOR(pg_catalog.=) 'running'",
						2, types, values, "  ", false);
}

bool
recorder_run_step(const RunSpec *spec, const char *payload, const RunMix *mix,
				  int64 run_id, int clients, RunResult *result, bool *cancelled)
{
	RunGenerators rg;
	RecorderPart *parts;
	int			n;
	int			left = clients;
	int			first = 0;
	char	   *why = NULL;
	char	   *error;
	bool		lost;
	RecorderSeconds secs = {.next = 1};
	RecorderTotals totals = {0};

	run_spec_generators(spec, payload, &rg);
	if (recorder_self == NULL)
	{
		/* the catalogue is read in a transaction */
		StartTransactionCommand();
		recorder_self = MemoryContextStrdup(TopMemoryContext,
											psprintf(UINT64_FORMAT "/%s", GetSystemIdentifier(),
													 get_database_name(MyDatabaseId)));
		CommitTransactionCommand();
	}
	n = rg.n;
	/* what a step holds of its generators' answers goes with the step */
	if (recorder_step_cxt != NULL)
		MemoryContextDelete(recorder_step_cxt);
	recorder_step_cxt = AllocSetContextCreate(TopMemoryContext, "pgbenchx recorder step",
											  ALLOCSET_DEFAULT_SIZES);
	recorder_duration = spec->duration;
	recorder_go_at = 0;
	parts = MemoryContextAllocZero(TopMemoryContext, sizeof(RecorderPart) * n);
	for (int i = 0; i < n; i++)
	{
		int			share = run_spec_share(left, n, i);

		parts[i].g.index = i + 1;
		parts[i].g.conninfo = rg.conninfo[i];
		parts[i].g.shown = rg.shown[i];
		parts[i].clients = share;
		parts[i].first_client = first;
		first += share;
		left -= share;
	}
	recorder_parts = parts;
	recorder_nparts = n;
	if (spec->record_system)
		results_system_note(run_id, "driven from generators: system_samples are this server's machine and server figures; wait_samples, the client backends' CPU and the drivers' CPU per second are not recorded (the clients and drivers are the generators': runs.driver_cpu_s sums their parts'), each generator records its part's own in its tables (run_generators.part_run_id)");

	progress_phase(RUN_PHASE_CONNECTING);
	recorder_drive(spec, mix, &rg, parts, n, run_id, clients, &why, &secs);
	progress_phase(RUN_PHASE_FINISHING);
	if (why != NULL || recorder_cancel_requested())
	{
		/* nothing measured, or stopped early: the parts launched are cancelled */
		recorder_cancel_parts(parts, n);
		for (int i = 0; i < n; i++)
		{
			PGresult   *res;
			char	   *err;
			const char *params[1];

			/* give each cancelled part a moment to write its final row */
			if (!recorder_live(&parts[i]) || parts[i].part_id == 0)
				continue;
			params[0] = psprintf(INT64_FORMAT, parts[i].part_id);
			for (int t = 0; t < 40; t++)
			{
				res = pqconn_exec(parts[i].g.conn,
								  "SELECT status FROM pgbenchx.runs WHERE run_id OPERATOR(pg_catalog.=) $1::pg_catalog.int8",
								  1, params, FLEET_ANSWER_TIMEOUT_MS, &err, NULL);
				if (res == NULL)
					break;
				if (PQntuples(res) != 1 || strcmp(PQgetvalue(res, 0, 0), "running") != 0)
				{
					PQclear(res);
					break;
				}
				PQclear(res);
				recorder_sleep(250);
			}
		}
	}
	/* the parts' figures, merged into what the coordinator writes */
	totals.r = result;
	result->connect_per_transaction = spec->knobs.connect_per_transaction;
	result->nscripts = Min(mix->nscripts, SCRIPT_MAX_SCRIPTS);
	for (int i = 0; i < n; i++)
		recorder_finish_generator(run_id, &parts[i], &totals);
	if (totals.conn_weight > 0)
	{
		/* results_finish_run reads it as reconnect_usec / reconnects */
		result->counts.reconnects = 1;
		result->counts.reconnect_usec = (int64) llround(Min(totals.conn_sum_ms / totals.conn_weight, 1e12) * 1000.0);
	}
	/*
	 * A lost part's runs row is not read, so the seconds stored of it may
	 * hold more transactions than the run's total: samples_lost_transactions
	 * is then 0, never below (import()'s range).
	 */
	result->samples_lost = secs.skipped;
	result->samples_lost_transactions = result->total->transactions > (uint64) secs.transactions ?
		(int64) (result->total->transactions - secs.transactions) : 0;

	error = why ? why : recorder_first_error(parts, n);
	result->error = error ? pstrdup(error) : NULL;
	lost = recorder_any_lost(parts, n);
	if (recorder_cancel_requested())
	{
		*cancelled = true;
		result->status = "cancelled";
	}
	else if (why != NULL || recorder_any_failed(parts, n))
		result->status = "failed";
	else
		result->status = "completed";
	/* runs.system_notes: the coordinator finishes the readings once this returns */

	for (int i = 0; i < n; i++)
	{
		pqconn_finish(parts[i].g.conn);
		parts[i].g.conn = NULL;
	}
	recorder_parts = NULL;
	recorder_nparts = 0;
	for (int i = 0; i < n; i++)
	{
		if (parts[i].error)
			pfree(parts[i].error);
		while (parts[i].pending != NIL)
			recorder_pop(&parts[i]);
	}
	pfree(parts);
	MemoryContextDelete(recorder_step_cxt);
	recorder_step_cxt = NULL;
	recorder_go_at = 0;
	return lost;
}
