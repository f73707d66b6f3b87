/*
 * src/sql/48_over_time.sql: runs over time (issue 37 §3, seed 001's two
 * graphs): a run's per-second samples aggregated at any interval, as
 * pgbench's --aggregate-interval aggregates its log, and the chart of
 * several runs' rates on one time axis.
 *
 * Owns: pgbenchx.run_intervals and pgbenchx.chart_runs.  Reads
 * pgbenchx.runs and pgbenchx.samples with the caller's rights; writes
 * nothing.  Must not average percentiles: an interval's p99 comes from its
 * seconds' merged histogram (48_hist.sql), or is NULL.  The SVG helpers
 * (chart_step, chart_number, xml_escape) are 40_charts.sql's.
 */

-- A run's samples in intervals of interval_s seconds from the start of its
-- measurement (interval_start 0, interval_s, 2 * interval_s, ...): the
-- seconds they cover, their transactions, tps over those seconds, the
-- average latency weighted by transactions, the p99 of their merged
-- histograms, and their failed, skipped and retried transactions.  A
-- replay's transactions are its statements that succeeded.
CREATE OR REPLACE FUNCTION pgbenchx.run_intervals(run_id bigint, interval_s int DEFAULT 60,
    OUT interval_start int, OUT seconds float8, OUT transactions bigint, OUT tps float8,
    OUT latency_avg_ms float8, OUT latency_p99_ms float8, OUT failed bigint,
    OUT skipped bigint, OUT retried bigint)
RETURNS SETOF record
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE ROWS 100 AS $$
BEGIN
    IF run_intervals.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'run_intervals aggregates the per-second samples of one run.',
                  HINT = 'SELECT run_id, sweep_id, clients, status FROM pgbenchx.runs lists the runs.';
    END IF;
    IF run_intervals.interval_s IS NULL OR run_intervals.interval_s < 1 THEN
        RAISE EXCEPTION 'interval_s must be at least 1 second, not %', coalesce(run_intervals.interval_s::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'The samples are per second: an interval is a whole number of them, as pgbench --aggregate-interval.',
                  HINT = 'Pass interval_s => 60 for minutes, or leave it out.';
    END IF;
    IF NOT EXISTS (SELECT FROM pgbenchx.runs r WHERE r.run_id = run_intervals.run_id) THEN
        RAISE EXCEPTION 'no run has id %', run_intervals.run_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT FROM pgbenchx.sweeps s WHERE s.sweep_id = run_intervals.run_id)
                                THEN format('Id %s is a sweep, not a run: each of its runs has intervals.', run_intervals.run_id)
                                ELSE format('pgbenchx.runs has no row with run_id %s.', run_intervals.run_id) END,
                  HINT = 'SELECT run_id, sweep_id, clients, status FROM pgbenchx.runs lists the runs.';
    END IF;
    RETURN QUERY
    SELECT (k.b * run_intervals.interval_s)::int,
           sum(s.covered_s)::float8,
           sum(s.transactions)::bigint,
           (sum(s.transactions) / sum(s.covered_s))::float8,
           (sum(s.latency_avg_ms * s.transactions) FILTER (WHERE s.latency_avg_ms IS NOT NULL)
            / nullif(sum(s.transactions) FILTER (WHERE s.latency_avg_ms IS NOT NULL), 0))::float8,
           CASE WHEN count(*) = 1 THEN max(s.latency_p99_ms)
                WHEN count(s.latency_hist) = count(*)
                THEN pgbenchx.latency_percentile(pgbenchx.latency_merge(s.latency_hist), 99) END,
           sum(s.failed)::bigint,
           sum(s.skipped)::bigint,
           sum(s.retried)::bigint
    FROM pgbenchx.samples s
    CROSS JOIN LATERAL (SELECT (s.second - 1) / run_intervals.interval_s AS b) k
    WHERE s.run_id = run_intervals.run_id
    GROUP BY k.b
    ORDER BY k.b;
END
$$;

-- Several runs' rates on one time axis, each from the start of its own
-- measurement: transactions per second (a replay's: queries per minute) at
-- each interval of interval_s seconds (run_intervals), a line per run in the
-- order given, named by its label (else its id) in the legend.  At most 10
-- runs; an SVG document.
CREATE OR REPLACE FUNCTION pgbenchx.chart_runs(run_ids bigint[], interval_s int DEFAULT 1) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
DECLARE
    palette constant text[] := ARRAY['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
                                     '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
    max_runs constant int := 10;
    w constant float8 := 900;
    px0 constant float8 := 90;
    px1 constant float8 := 810;
    py0 constant float8 := 70;
    py1 constant float8 := 410;
    ids bigint[];
    replays int;
    n int;
    r record;
    pts jsonb := '[]';            -- per run, in order: {run_id, name, points: [[x, y], ...]}
    run_pts jsonb;
    xdiv float8;                  -- seconds per unit of the x axis
    xunit text;
    unit text;
    rate_name text;
    every text;
    line_pts text;
    height float8;
    xmax float8; ymax float8; ystep float8; ytop float8; xstep float8; intervals int;
    tick float8;
    svg text;
    i int;
BEGIN
    IF chart_runs.run_ids IS NULL OR cardinality(chart_runs.run_ids) = 0
       OR array_position(chart_runs.run_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'run_ids must be a non-empty array of run ids without NULLs'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'chart_runs draws the rates of the runs given, on one time axis.',
                  HINT = 'Pass ARRAY[run_id, ...]; SELECT run_id, label, clients FROM pgbenchx.runs lists them.';
    END IF;
    SELECT array_agg(u.id ORDER BY u.first) INTO ids
    FROM (SELECT x.id, min(x.ord) AS first FROM unnest(chart_runs.run_ids) WITH ORDINALITY AS x(id, ord) GROUP BY x.id) u;
    n := cardinality(ids);
    IF n > max_runs THEN
        RAISE EXCEPTION 'a chart of runs shows at most % runs, not %', max_runs, n
            USING ERRCODE = 'program_limit_exceeded',
                  DETAIL = 'More lines than that cannot be told apart.',
                  HINT = 'Chart fewer runs at a time, or their sweeps with pgbenchx.chart_sweeps.';
    END IF;
    -- every id a run (the first that is not is said), all of one kind
    FOR i IN 1 .. n LOOP
        IF NOT EXISTS (SELECT FROM pgbenchx.runs rr WHERE rr.run_id = ids[i]) THEN
            RAISE EXCEPTION 'no run has id %', ids[i]
                USING ERRCODE = 'undefined_object',
                      DETAIL = CASE WHEN EXISTS (SELECT FROM pgbenchx.sweeps s WHERE s.sweep_id = ids[i])
                                    THEN format('Id %s is a sweep, not a run: pgbenchx.chart_sweeps(ARRAY[%s]) draws it.', ids[i], ids[i])
                                    ELSE format('pgbenchx.runs has no row with run_id %s.', ids[i]) END,
                      HINT = 'SELECT run_id, sweep_id, clients, status FROM pgbenchx.runs lists the runs.';
        END IF;
    END LOOP;
    SELECT count(*) FILTER (WHERE rr.replay) INTO replays FROM pgbenchx.runs rr WHERE rr.run_id = ANY (ids);
    IF replays > 0 AND replays < n THEN
        RAISE EXCEPTION 'a chart of runs shows one rate, and % of its % runs are replays', replays, n
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A replay''s rate is queries per minute, a run''s transactions per second.',
                  HINT = 'Chart the replays and the other runs apart.';
    END IF;
    unit := CASE WHEN replays > 0 THEN 'qpm' ELSE 'tps' END;
    rate_name := CASE WHEN replays > 0 THEN 'queries per minute' ELSE 'transactions per second' END;
    IF chart_runs.interval_s % 60 = 0 THEN
        xdiv := 60; xunit := 'minutes';
    ELSE
        xdiv := 1; xunit := 'seconds';
    END IF;
    every := CASE WHEN chart_runs.interval_s = 1 THEN 'each second'
                  WHEN chart_runs.interval_s = 60 THEN 'each minute'
                  WHEN chart_runs.interval_s % 60 = 0 THEN format('every %s minutes', chart_runs.interval_s / 60)
                  ELSE format('every %s seconds', chart_runs.interval_s) END;

    -- the points: x at the end of the time each interval covered (from the
    -- run's start), its rate over that time (run_intervals refuses an
    -- interval_s below 1)
    FOR i IN 1 .. n LOOP
        SELECT * INTO r FROM pgbenchx.runs rr WHERE rr.run_id = ids[i];
        SELECT jsonb_agg(jsonb_build_array(
                   (v.interval_start + v.seconds) / xdiv,
                   CASE WHEN r.replay THEN (v.transactions + v.failed) * 60 / v.seconds ELSE v.tps END)
                   ORDER BY v.interval_start)
        INTO run_pts
        FROM pgbenchx.run_intervals(ids[i], chart_runs.interval_s) v;
        IF run_pts IS NULL THEN
            RAISE EXCEPTION 'run % has no per-second samples', ids[i]
                USING ERRCODE = 'no_data_found',
                      DETAIL = format('Its status is %s%s; samples are written from its first measured second on.',
                                      r.status, coalesce(': ' || r.error, '')),
                      HINT = 'Chart runs once they have run for a second; SELECT run_id, second FROM pgbenchx.samples shows which runs have samples.';
        END IF;
        pts := pts || jsonb_build_array(jsonb_build_object(
            'name', coalesce(r.label || format(' (run %s, %s clients)', r.run_id, r.clients),
                             format('run %s (%s clients)', r.run_id, r.clients)),
            'points', run_pts));
    END LOOP;
    SELECT max((p.value ->> 0)::float8), max((p.value ->> 1)::float8) INTO xmax, ymax
    FROM jsonb_array_elements(pts) AS l(run), jsonb_array_elements(l.run -> 'points') AS p(value);

    ymax := greatest(coalesce(ymax, 0), 1);
    ystep := pgbenchx.chart_step(ymax, 5);
    intervals := greatest(ceil(ymax / ystep), 1)::int;
    ytop := ystep * intervals;
    xmax := greatest(xmax, 1);
    xstep := pgbenchx.chart_step(xmax, 10);

    height := 490 + 18 * n;
    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, height, w, height)
        || format('<rect width="%s" height="%s" fill="white"/>', w, height)
        || format('<text x="%s" y="30" font-size="16" text-anchor="middle">%s, %s, over each run</text>',
                  w / 2, upper(left(rate_name, 1)) || substr(rate_name, 2), every);
    -- the grid and the y axis
    FOR i IN 0 .. intervals LOOP
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>',
                             px0, py1 - (py1 - py0) * i / intervals, px1, py1 - (py1 - py0) * i / intervals)
                   || format('<text x="%s" y="%s" text-anchor="end">%s</text>',
                             px0 - 6, py1 - (py1 - py0) * i / intervals + 4, pgbenchx.chart_number(ystep * i, ytop));
    END LOOP;
    svg := svg || format('<text x="20" y="%s" transform="rotate(-90 20 %s)" text-anchor="middle">%s (%s)</text>',
                         (py0 + py1) / 2, (py0 + py1) / 2, rate_name, unit);
    -- the x axis: time since the start of each run's measurement
    tick := 0;
    WHILE tick <= xmax + xstep * 1e-9 LOOP
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#888"/>',
                             px0 + (px1 - px0) * tick / xmax, py1, px0 + (px1 - px0) * tick / xmax, py1 + 5)
                   || format('<text x="%s" y="%s" text-anchor="middle">%s</text>',
                             px0 + (px1 - px0) * tick / xmax, py1 + 20, pgbenchx.chart_number(tick, xmax));
        tick := tick + xstep;
    END LOOP;
    svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', px0, py1, px1, py1)
               || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', px0, py0, px0, py1)
               || format('<text x="%s" y="%s" text-anchor="middle">%s since the start of each run''s measurement</text>',
                         (px0 + px1) / 2, py1 + 40, xunit);
    -- a line per run (a single point: a dot), and its legend
    FOR i IN 1 .. n LOOP
        SELECT string_agg(format('%s,%s', round((px0 + (px1 - px0) * (p.value ->> 0)::float8 / xmax)::numeric, 2),
                                 round((py1 - (py1 - py0) * (p.value ->> 1)::float8 / ytop)::numeric, 2)), ' '
                          ORDER BY p.ord)
        INTO line_pts
        FROM jsonb_array_elements(pts -> (i - 1) -> 'points') WITH ORDINALITY AS p(value, ord);
        IF jsonb_array_length(pts -> (i - 1) -> 'points') = 1 THEN
            svg := svg || format('<circle cx="%s" cy="%s" r="3" fill="%s"/>', split_part(line_pts, ',', 1),
                                 split_part(line_pts, ',', 2), palette[i]);
        ELSE
            svg := svg || format('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>', palette[i], line_pts);
        END IF;
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="3"/>',
                             px0, 480 + 18 * (i - 1), px0 + 24, 480 + 18 * (i - 1), palette[i])
                   || format('<text x="%s" y="%s">%s</text>', px0 + 32, 484 + 18 * (i - 1),
                             pgbenchx.xml_escape(pts -> (i - 1) ->> 'name'));
    END LOOP;
    RETURN svg || '</svg>';
END
$$;
