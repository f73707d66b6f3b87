/*
 * Issue 12, samples that do not lie.
 *
 * pgbenchx.samples gains covered_s: the seconds of the measured interval a
 * row covers, 1 but for the last second of a run (less for a run bounded by
 * transactions or cancelled, about 1 for a timed run), whose tps is
 * now a rate over that time.  A row stored before 0.3 reads covered_s = 1:
 * the rows stay as they were stored (the last row of a run cancelled under
 * 0.2 holds its count in tps; that of a run bounded by transactions, its
 * rate), since the time they covered was not recorded.  Adding a column
 * with a constant default rewrites no row.
 *
 * chart_run draws a sample at the end of the time it covered, and single
 * points as markers; replays are drawn and reported in queries per minute
 * (chart_run, chart_sweeps, sweep_report, compare, sweep_points'
 * median_qpm); import reads covered_s, and a document of 0.2 without it as
 * 1.  sweep_report and compare gain a qpm column: their result type
 * changes, so they are dropped and created again, and whoever could
 * execute them still can.
 */

ALTER TABLE pgbenchx.samples
    ADD COLUMN covered_s float8 NOT NULL DEFAULT 1 CHECK (covered_s OPERATOR(pg_catalog.>) 0::pg_catalog.float8);

-- sweep_points gains median_qpm, at the end
-- One row per (sweep, client count) with completed runs: n runs, the
-- median, min and max tps, spread = (max - min) / median, the median p99
-- latency, the checkpoints and autovacuum runs that fell inside its runs,
-- and whether the point is unstable, with the reason: its spread exceeds
-- pgbenchx.unstable_spread (default 0.10 = 10%), or a checkpoint happened
-- during one of its runs; for a replay, the median of runs.qpm (queries
-- per minute; NULL for a benchmark sweep).  Readable by roles granted SELECT.
CREATE OR REPLACE VIEW pgbenchx.sweep_points AS
WITH pts AS (
    SELECT r.sweep_id, r.clients,
           pg_catalog.count(*)::int AS n,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.tps) AS median_tps,
           pg_catalog.min(r.tps) AS min_tps,
           pg_catalog.max(r.tps) AS max_tps,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.latency_p99_ms) AS median_p99_ms,
           pg_catalog.sum(r.checkpoints)::int AS checkpoints,
           pg_catalog.sum(r.autovacuums)::int AS autovacuums,
           pg_catalog.array_agg(r.run_id ORDER BY r.run_id) AS run_ids,
           pg_catalog.array_agg(r.run_id ORDER BY r.run_id) FILTER (WHERE r.checkpoints OPERATOR(pg_catalog.>) 0) AS checkpoint_run_ids,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.qpm) FILTER (WHERE r.replay) AS median_qpm
    FROM pgbenchx.runs r
    WHERE r.status OPERATOR(pg_catalog.=) 'completed' AND r.sweep_id IS NOT NULL
    GROUP BY r.sweep_id, r.clients
), thr AS (
    SELECT coalesce(nullif(pg_catalog.current_setting('pgbenchx.unstable_spread', true), ''::text)::float8,
                    0.10::float8) AS spread
), flagged AS (
    SELECT p.*,
           (p.max_tps OPERATOR(pg_catalog.-) p.min_tps) OPERATOR(pg_catalog./) nullif(p.median_tps, 0::float8) AS spread,
           t.spread AS threshold
    FROM pts p CROSS JOIN thr t
)
SELECT f.sweep_id, f.clients, f.n, f.median_tps, f.min_tps, f.max_tps, f.spread,
       f.median_p99_ms, f.checkpoints, f.autovacuums,
       coalesce(f.spread OPERATOR(pg_catalog.>) f.threshold, false) OR f.checkpoint_run_ids IS NOT NULL AS unstable,
       nullif(pg_catalog.concat_ws('; ',
           CASE WHEN f.spread OPERATOR(pg_catalog.>) f.threshold THEN
               pg_catalog.format('spread %s%% > %s%%', pg_catalog.round((f.spread OPERATOR(pg_catalog.*) 100::float8)::numeric, 1)::float8,
                      pg_catalog.round((f.threshold OPERATOR(pg_catalog.*) 100::float8)::numeric, 2)::float8) END,
           CASE WHEN f.checkpoint_run_ids IS NOT NULL THEN
               pg_catalog.format('checkpoint during run%s %s',
                      CASE WHEN pg_catalog.cardinality(f.checkpoint_run_ids) OPERATOR(pg_catalog.>) 1 THEN 's' ELSE '' END,
                      pg_catalog.array_to_string(f.checkpoint_run_ids, ', ')) END), ''::text) AS unstable_reason,
       f.run_ids,
       f.median_qpm
FROM flagged f;

/*
 * chart_sweeps: an SVG of tps against the number of clients, one line per
 * sweep in the order given, with a marker per client count, the sweep's
 * label in the legend ("sweep N" without one), axis titles with units and
 * round ticks.  Only completed runs are drawn; the legend counts the others
 * (cancelled, failed, aborted, running) as "not drawn".  With repeats, the
 * point is the median tps of the client count's completed runs and a
 * whisker spans their min and max.
 *
 * The clients axis is log2 when the largest client count is at least 4
 * times the smallest (the ladder 1, 2, 4, 8 ... 80 then gets equal room per
 * doubling: on a linear axis 1, 2, 4 and 8 clients would share the first
 * tenth of the width), with ticks at the powers of two and at the smallest
 * and largest counts; else it is linear with round integer ticks.
 * Replays (runs.replay) are drawn in queries per minute (runs.qpm); a
 * chart does not mix them with benchmark sweeps, whose rate is tps.
 * Returns the SVG document as text.  Caller: a role granted EXECUTE that
 * may read pgbenchx.sweeps and pgbenchx.runs.
 */
CREATE OR REPLACE FUNCTION pgbenchx.chart_sweeps(sweep_ids bigint[]) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
DECLARE
    palette constant text[] := ARRAY['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e',
        '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
    w constant float8 := 900;          -- width
    px0 constant float8 := 90;         -- plot area: left, right, top, bottom
    px1 constant float8 := 870;
    py0 constant float8 := 70;
    py1 constant float8 := 410;
    pad constant float8 := 16;         -- inset of the first and last client count
    ids bigint[];
    missing bigint;
    missing_kind text;
    is_replay boolean;
    mixed boolean;
    unit text;
    rate_name text;
    h float8;
    cmin int; cmax int;
    ymax float8; ystep float8; ytop float8;
    logx boolean;
    xa float8; xb float8;              -- x = xa + xb * f(clients)
    tick float8;
    last_x float8;
    xstep int;
    xp float8;
    yp float8;
    npts int;
    peak float8;
    peak_clients int;
    pts_all jsonb;
    durations text;
    svg text;
    legend text := '';
    plot text := '';
    subtitle text;
    any_repeats boolean;
    s record;
    p record;
    i int := 0;
    color text;
    pts text;
    ly float8;
BEGIN
    IF sweep_ids IS NULL OR array_position(sweep_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION '%', CASE WHEN sweep_ids IS NULL THEN 'argument "sweep_ids" must not be null'
                                  ELSE 'argument "sweep_ids" must not contain NULL' END
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'chart_sweeps draws one line per sweep id given.',
                  HINT = 'Pass the ids of sweeps, for example ARRAY[1, 17]; SELECT sweep_id, label FROM pgbenchx.sweeps lists them.';
    END IF;
    IF cardinality(sweep_ids) = 0 THEN
        RAISE EXCEPTION 'argument "sweep_ids" must not be empty'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'chart_sweeps draws one line per sweep id given, and none was given.',
                  HINT = 'Pass the ids of sweeps, for example ARRAY[1, 17]; SELECT sweep_id, label FROM pgbenchx.sweeps lists them.';
    END IF;

    -- the ids in the order given, each once
    SELECT array_agg(id ORDER BY ord) INTO ids
    FROM (SELECT id, min(ord) AS ord FROM unnest(sweep_ids) WITH ORDINALITY u(id, ord)
          GROUP BY id) d;

    SELECT u.id INTO missing FROM unnest(ids) WITH ORDINALITY u(id, ord)
    WHERE NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps sw WHERE sw.sweep_id = u.id)
    ORDER BY u.ord LIMIT 1;
    IF missing IS NOT NULL THEN
        missing_kind := CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = missing)
                             THEN format('Id %s is a run, not a sweep: pgbenchx.chart_run(%s) draws it.', missing, missing)
                             ELSE format('pgbenchx.sweeps has no row with sweep_id %s.', missing) END;
        RAISE EXCEPTION 'no sweep has id %', missing
            USING ERRCODE = 'undefined_object',
                  DETAIL = missing_kind,
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;

    -- a replay's rate is queries per minute: one unit per chart
    SELECT bool_or(r.replay), bool_or(NOT r.replay) AND bool_or(r.replay)
    INTO is_replay, mixed
    FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids);
    IF mixed THEN
        RAISE EXCEPTION 'cannot draw replays and benchmark sweeps in one chart'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = (SELECT format(CASE WHEN count(DISTINCT r.sweep_id) = 1 THEN 'Sweep %s is a replay'
                                               ELSE 'Sweeps %s are replays' END
                                          || ', measured in queries per minute; the others in transactions per second.',
                                          string_agg(DISTINCT r.sweep_id::text, ', '))
                            FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids) AND r.replay),
                  HINT = 'Chart the replays and the benchmark sweeps separately.';
    END IF;
    is_replay := coalesce(is_replay, false);
    unit := CASE WHEN is_replay THEN 'qpm' ELSE 'tps' END;
    rate_name := CASE WHEN is_replay THEN 'queries per minute' ELSE 'transactions per second' END;

    -- the points: per sweep (ord) and client count, over completed runs
    SELECT coalesce(jsonb_agg(jsonb_build_object('ord', ord, 'clients', clients,
               'med', med, 'lo', lo, 'hi', hi, 'n', n)), '[]')
    INTO pts_all
    FROM (SELECT u.ord, r.clients,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY v.rate) AS med,
                 min(v.rate) AS lo, max(v.rate) AS hi, count(*) AS n
          FROM unnest(ids) WITH ORDINALITY u(id, ord)
          JOIN pgbenchx.runs r ON r.sweep_id = u.id
          CROSS JOIN LATERAL (SELECT CASE WHEN is_replay THEN r.qpm ELSE r.tps END AS rate) v
          WHERE r.status = 'completed' AND v.rate IS NOT NULL
          GROUP BY u.ord, r.clients) q;

    SELECT min(clients), max(clients), max(hi), bool_or(n > 1)
    INTO cmin, cmax, ymax, any_repeats
    FROM jsonb_to_recordset(pts_all) AS q(clients int, hi float8, n int);
    IF cmin IS NULL THEN
        -- nothing completed: the x axis of the client counts planned
        SELECT min(c), max(c) INTO cmin, cmax
        FROM pgbenchx.sweeps sw, unnest(sw.clients) c WHERE sw.sweep_id = ANY (ids);
        cmin := coalesce(cmin, 1);
        cmax := coalesce(cmax, 1);
    END IF;

    -- y: 0 to a round top, about 6 intervals
    ystep := pgbenchx.chart_step(greatest(coalesce(ymax, 0), 1), 6);
    ytop := ystep * greatest(ceil(greatest(coalesce(ymax, 0), 1) / ystep), 1);

    -- x: log2 over a range of 4 times or more, else linear
    logx := cmax >= 4 * cmin;
    IF cmax = cmin THEN
        xb := 0;
        xa := (px0 + px1) / 2;
    ELSIF logx THEN
        xb := (px1 - px0 - 2 * pad) / (ln(cmax) - ln(cmin));
        xa := px0 + pad - xb * ln(cmin);
    ELSE
        xb := (px1 - px0 - 2 * pad) / (cmax - cmin);
        xa := px0 + pad - xb * cmin;
    END IF;

    h := py1 + 78 + 22 * cardinality(ids);

    SELECT string_agg(DISTINCT pgbenchx.xml_escape(sw.script), ', '),
           CASE WHEN count(DISTINCT sw.duration) = 1 AND min(sw.duration) IS NOT NULL
                THEN min(sw.duration) || ' s per run' END
    INTO subtitle, durations
    FROM pgbenchx.sweeps sw WHERE sw.sweep_id = ANY (ids);
    subtitle := 'script ' || subtitle || coalesce(', ' || durations, '')
        || CASE WHEN any_repeats THEN '; median of repeats, whiskers from min to max' ELSE '' END;

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format(E'\n<title>%s by number of clients</title>', rate_name)
        || format(E'\n<rect width="%s" height="%s" fill="#ffffff"/>', w, h)
        || format(E'\n<text class="title" x="%s" y="28" text-anchor="middle" font-size="17" font-weight="bold">%s by number of clients</text>',
                  w / 2, upper(left(rate_name, 1)) || substr(rate_name, 2))
        || format(E'\n<text class="subtitle" x="%s" y="48" text-anchor="middle" fill="#555555">%s</text>', w / 2, subtitle);

    -- horizontal grid and tps ticks
    tick := 0;
    WHILE tick <= ytop * (1 + 1e-9) LOOP
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-y" x="%s" y="%s" text-anchor="end" fill="#333333">%s</text>',
                   px0, round((py1 - tick / ytop * (py1 - py0))::numeric, 1),
                   px1, round((py1 - tick / ytop * (py1 - py0))::numeric, 1),
                   px0 - 6, round((py1 - tick / ytop * (py1 - py0) + 4)::numeric, 1),
                   pgbenchx.chart_number(tick, ytop));
        tick := tick + ystep;
    END LOOP;

    -- client ticks: the smallest and largest counts, and between them the
    -- powers of two (log2) or round integers (linear) that leave room
    xstep := greatest(ceil(pgbenchx.chart_step(cmax - cmin, 8)), 1)::int;
    FOR tick IN
        SELECT t FROM (
            SELECT cmin::float8 AS t, 0 AS pri
            UNION SELECT cmax, 0
            UNION SELECT 2 ^ e, 1 FROM generate_series(0, 30) e
                WHERE logx AND 2 ^ e > cmin AND 2 ^ e < cmax
            UNION SELECT v * xstep, 1 FROM generate_series(1, 100) v
                WHERE NOT logx AND v * xstep > cmin AND v * xstep < cmax) q
        WHERE pri = 0
           OR (abs(xb * CASE WHEN logx THEN ln(t) - ln(cmin) ELSE t - cmin END) >= 24
               AND abs(xb * CASE WHEN logx THEN ln(cmax) - ln(t) ELSE cmax - t END) >= 24)
        ORDER BY t
    LOOP
        xp := xa + xb * CASE WHEN logx THEN ln(tick) ELSE tick END;
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                   round(xp::numeric, 1), py0, round(xp::numeric, 1), py1,
                   round(xp::numeric, 1), py1 + 18, tick::bigint);
    END LOOP;

    -- axes and their titles
    svg := svg || format(E'\n<path class="axis" d="M%s %sV%sH%s" fill="none" stroke="#333333"/>',
                         px0, py0, py1, px1)
        || format(E'\n<text class="axis-title" x="%s" y="%s" text-anchor="middle">%s</text>',
                  (px0 + px1) / 2, py1 + 40,
                  CASE WHEN logx THEN 'clients (log2 scale)' ELSE 'clients' END)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(-90)" text-anchor="middle">%s</text>',
                  24, (py0 + py1) / 2, rate_name);

    -- one line, its markers and whiskers, and a legend entry per sweep
    FOR s IN
        SELECT u.ord, sw.sweep_id, sw.label,
               (SELECT count(*) FROM pgbenchx.runs r
                WHERE r.sweep_id = sw.sweep_id
                  AND (r.status <> 'completed' OR (CASE WHEN is_replay THEN r.qpm ELSE r.tps END) IS NULL)) AS not_drawn
        FROM unnest(ids) WITH ORDINALITY u(id, ord)
        JOIN pgbenchx.sweeps sw ON sw.sweep_id = u.id
        ORDER BY u.ord
    LOOP
        color := palette[1 + (s.ord - 1) % cardinality(palette)];
        pts := '';
        npts := 0;
        peak := NULL;
        FOR p IN
            SELECT * FROM jsonb_to_recordset(pts_all)
                AS q(ord int, clients int, med float8, lo float8, hi float8, n int)
            WHERE q.ord = s.ord ORDER BY q.clients
        LOOP
            xp := xa + xb * CASE WHEN logx THEN ln(p.clients) ELSE p.clients END;
            yp := py1 - p.med / ytop * (py1 - py0);
            pts := pts || CASE WHEN npts > 0 THEN ' ' ELSE '' END
                || round(xp::numeric, 1) || ',' || round(yp::numeric, 1);
            npts := npts + 1;
            IF peak IS NULL OR p.med > peak THEN
                peak := p.med;
                peak_clients := p.clients;
            END IF;
            IF p.n > 1 AND p.hi > p.lo THEN
                plot := plot || format(E'\n<path class="whisker" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" fill="none"/>',
                    round(xp::numeric, 1), round((py1 - p.lo / ytop * (py1 - py0))::numeric, 1),
                    round((py1 - p.hi / ytop * (py1 - py0))::numeric, 1),
                    round((xp - 4)::numeric, 1), round((py1 - p.lo / ytop * (py1 - py0))::numeric, 1),
                    round((xp + 4)::numeric, 1),
                    round((xp - 4)::numeric, 1), round((py1 - p.hi / ytop * (py1 - py0))::numeric, 1),
                    round((xp + 4)::numeric, 1), color);
            END IF;
            plot := plot || format(E'\n<circle class="point" cx="%s" cy="%s" r="3.5" fill="%s"><title>%s: %s %s, %s %s%s</title></circle>',
                round(xp::numeric, 1), round(yp::numeric, 1), color,
                pgbenchx.xml_escape(coalesce(s.label, 'sweep ' || s.sweep_id)), p.clients,
                CASE WHEN p.clients = 1 THEN 'client' ELSE 'clients' END,
                round(p.med::numeric, 1), unit,
                CASE WHEN p.n > 1 THEN format(' (median of %s runs, %s to %s)', p.n,
                                              round(p.lo::numeric, 1), round(p.hi::numeric, 1))
                     ELSE '' END);
        END LOOP;
        IF npts > 0 THEN
            plot := format(E'\n<polyline class="sweep" data-sweep-id="%s" points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"/>',
                           s.sweep_id, pts, color) || plot;
        END IF;
        svg := svg || plot;
        plot := '';

        ly := py1 + 70 + 22 * (s.ord - 1);
        legend := legend
            || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/><circle cx="%s" cy="%s" r="3.5" fill="%s"/>',
                      px0, ly - 4, px0 + 28, ly - 4, color, px0 + 14, ly - 4, color)
            || format('<text class="legend" x="%s" y="%s">%s<tspan fill="#555555"> (sweep %s: %s%s)</tspan></text>',
                      px0 + 36, ly,
                      pgbenchx.xml_escape(left(coalesce(s.label, 'sweep ' || s.sweep_id), 100)),
                      s.sweep_id,
                      CASE WHEN npts = 0 THEN 'no completed runs'
                           ELSE format('peak %s %s at %s %s', round(peak::numeric), unit, peak_clients,
                                       CASE WHEN peak_clients = 1 THEN 'client' ELSE 'clients' END) END,
                      CASE WHEN s.not_drawn > 0
                           THEN format('; %s %s not completed, not drawn', s.not_drawn,
                                       CASE WHEN s.not_drawn = 1 THEN 'run' ELSE 'runs' END)
                           ELSE '' END);
    END LOOP;

    RETURN svg || legend || E'\n</svg>\n';
END $$;

/*
 * chart_run: an SVG of one run over time, as seed 001 draws it: tps in each
 * second (pgbenchx.samples, left axis) and the p99 latency of each second
 * in ms (right axis, dashed), with the run's overall tps as a dotted line.
 * A sample is drawn at the end of the time it covered (second - 1 +
 * covered_s: the last second of a run may be partial) with its rate over
 * that time.  A replay is drawn in queries per minute, (transactions +
 * failed) * 60 / covered_s, with the run's qpm as the dotted line.  Short
 * series, and a series of one point (a line needs two), get a marker per
 * point, for tps and p99 alike.  Works on a run in progress too (the
 * seconds so far).  Returns the SVG document as text.  Caller: a role
 * granted EXECUTE that may read pgbenchx.runs and pgbenchx.samples.
 */
CREATE OR REPLACE FUNCTION pgbenchx.chart_run(run_id bigint) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
DECLARE
    tps_color constant text := '#1f77b4';
    p99_color constant text := '#d62728';
    w constant float8 := 900;
    px0 constant float8 := 90;
    px1 constant float8 := 810;
    py0 constant float8 := 70;
    py1 constant float8 := 410;
    base_h constant float8 := 520;     -- the tps chart and its legend
    ph constant float8 := 100;         -- a panel's plot height
    panel_h constant float8 := 176;    -- a panel: title, plot, ticks, legend
    h float8;
    r record;
    smax float8;
    sys_rows jsonb;                       -- system_samples, one object per second
    panels jsonb := '[]';              -- the panels drawn, in order
    notes jsonb := '[]';               -- the panels left out: {panels, why}
    no_system text;                    -- why a run has no system figures
    pj jsonb;
    pn record;
    sr record;
    pt float8; pb float8;              -- a panel's plot: top and bottom
    pmax float8; pstep float8; pdiv float8; punit text;
    lx float8;
    unit text;
    rate_name text;
    run_rate float8;
    pts jsonb;
    ymax float8; ystep float8; ytop float8; intervals int;
    lmax float8; lstep float8; ltop float8;
    xstep float8;
    tick float8;
    xp float8;
    i int;
    tps_pts text;
    p99_pts text;
    n_tps int;
    n_p99 int;
    markers text := '';
    svg text;
BEGIN
    IF chart_run.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'chart_run draws the per-second samples of one run.',
                  HINT = 'SELECT run_id, sweep_id, clients, status FROM pgbenchx.runs lists the runs.';
    END IF;
    SELECT * INTO r FROM pgbenchx.runs rr WHERE rr.run_id = chart_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no run has id %', chart_run.run_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = chart_run.run_id)
                                THEN format('Id %s is a sweep, not a run: pgbenchx.chart_sweeps(ARRAY[%s]) draws it.',
                                            chart_run.run_id, chart_run.run_id)
                                ELSE format('pgbenchx.runs has no row with run_id %s.', chart_run.run_id) END,
                  HINT = 'SELECT run_id, sweep_id, clients, status FROM pgbenchx.runs lists the runs.';
    END IF;

    -- the points: x at the end of the time each sample covered, its rate
    -- over that time (a replay: queries per minute, failed ones included)
    unit := CASE WHEN r.replay THEN 'qpm' ELSE 'tps' END;
    rate_name := CASE WHEN r.replay THEN 'queries per minute' ELSE 'transactions per second' END;
    run_rate := CASE WHEN r.replay THEN r.qpm ELSE r.tps END;
    SELECT jsonb_agg(jsonb_build_object(
               'second', s.second, 'x', s.second - 1 + s.covered_s, 'covered_s', s.covered_s,
               'rate', CASE WHEN r.replay THEN (s.transactions + s.failed) * 60 / s.covered_s
                            ELSE coalesce(s.tps, s.transactions / s.covered_s) END,
               'p99', s.latency_p99_ms) ORDER BY s.second)
    INTO pts
    FROM pgbenchx.samples s WHERE s.run_id = chart_run.run_id;
    SELECT max(p.x), max(p.rate), max(p.p99)
    INTO smax, ymax, lmax
    FROM jsonb_to_recordset(pts) AS p(x float8, rate float8, p99 float8);
    IF smax IS NULL THEN
        RAISE EXCEPTION 'run % has no per-second samples', chart_run.run_id
            USING ERRCODE = 'no_data_found',
                  DETAIL = format('Its status is %s%s; samples are written from its first measured second on.',
                                  r.status, coalesce(': ' || r.error, '')),
                  HINT = 'Chart a run once it has run for a second; SELECT run_id, second FROM pgbenchx.samples shows which runs have samples.';
    END IF;

    -- left: tps from 0 to a round top in about 5 intervals; right: p99 ms
    -- with the same number of intervals, so that both share the grid lines
    ymax := greatest(coalesce(ymax, 0), run_rate, 1);
    ystep := pgbenchx.chart_step(ymax, 5);
    intervals := greatest(ceil(ymax / ystep), 1)::int;
    ytop := ystep * intervals;
    lmax := greatest(coalesce(lmax, 0), 0.001);
    lstep := pgbenchx.chart_step(lmax, intervals);
    WHILE lstep * intervals < lmax LOOP
        lstep := pgbenchx.chart_step(lstep * 1.01, 1);
    END LOOP;
    ltop := lstep * intervals;
    xstep := greatest(pgbenchx.chart_step(smax, 10), 1);

    -- the panels: per second of system_samples within the tps line's time
    -- (x0 = second - 1, x1 = the end of the time it covered, as samples say)
    SELECT jsonb_agg(jsonb_build_object(
               'second', ss.second, 'x0', ss.second - 1,
               'x1', least(ss.second - 1 + coalesce(sm.covered_s, ss.covered_s, 1), smax),
               'cov', coalesce(ss.covered_s, sm.covered_s, 1),
               'usr', ss.cpu_user, 'sys', ss.cpu_system, 'iowait', ss.cpu_iowait, 'steal', ss.cpu_steal,
               'dr', ss.data_read_bytes, 'dw', ss.data_write_bytes,
               'wr', ss.wal_read_bytes, 'ww', ss.wal_write_bytes, 'wal', ss.wal_bytes) ORDER BY ss.second)
    INTO sys_rows
    FROM pgbenchx.system_samples ss
    LEFT JOIN pgbenchx.samples sm ON sm.run_id = ss.run_id AND sm.second = ss.second
    WHERE ss.run_id = chart_run.run_id AND ss.second - 1 < smax;
    no_system := CASE WHEN r.record_system IS NULL THEN 'recorded before pgbenchx 0.3 (or imported from it)'
                      WHEN NOT r.record_system THEN 'not recorded (record_system => false)'
                      WHEN r.system_notes IS NOT NULL AND cardinality(r.system_notes) > 0
                          THEN array_to_string(r.system_notes, '; ')
                      ELSE 'no figures recorded for this run' END;

    -- CPU by kind, shares of the machine: idle is the rest
    SELECT jsonb_build_object('id', 'cpu', 'kind', 'stack',
               'title', 'CPU of the machine by kind (share of all cores)',
               'series', (SELECT jsonb_agg(jsonb_build_object('key', v.k, 'label', v.l, 'color', v.c) ORDER BY v.o)
                          FROM (VALUES (1, 'usr', 'user', '#4e79a7'), (2, 'sys', 'system', '#e15759'),
                                       (3, 'iowait', 'iowait', '#f28e2b'), (4, 'steal', 'steal', '#b07aa1'),
                                       (5, 'idle', 'idle', '#dddddd')) v(o, k, l, c)
                          WHERE v.k = 'idle'
                             OR EXISTS (SELECT 1 FROM jsonb_array_elements(sys_rows) e WHERE e.value ->> v.k IS NOT NULL)),
               'rows', jsonb_agg(jsonb_build_object('second', p.second, 'x0', p.x0, 'x1', p.x1,
                                                    'ord', k.ord, 'key', k.key, 'share', k.v / greatest(t.busy, 1))
                                 ORDER BY p.second, k.ord))
    INTO pj
    FROM jsonb_to_recordset(sys_rows) AS p(second int, x0 float8, x1 float8, usr float8, sys float8, iowait float8, steal float8)
    CROSS JOIN LATERAL (SELECT coalesce(p.usr, 0) + coalesce(p.sys, 0) + coalesce(p.iowait, 0) + coalesce(p.steal, 0) AS busy) t
    CROSS JOIN LATERAL (VALUES (1, 'usr', p.usr), (2, 'sys', p.sys), (3, 'iowait', p.iowait), (4, 'steal', p.steal),
                               (5, 'idle', greatest(1 - t.busy, 0))) k(ord, key, v)
    WHERE p.usr IS NOT NULL AND k.v IS NOT NULL AND p.x1 > p.x0;
    IF jsonb_typeof(pj -> 'rows') = 'array' THEN
        panels := panels || jsonb_build_array(pj);
    ELSE
        notes := notes || jsonb_build_array(jsonb_build_object('panel', 'CPU', 'why', no_system));
    END IF;

    -- disk throughput of the data and WAL devices, bytes/s
    SELECT jsonb_build_object('id', 'disk', 'kind', 'lines', 'title', 'Disk throughput of the data and WAL devices',
               'series', (SELECT jsonb_agg(jsonb_build_object('key', v.k, 'label', v.l, 'color', v.c, 'dash', v.d) ORDER BY v.o)
                          FROM (VALUES (1, 'dr', 'data read', '#4e79a7', ''), (2, 'dw', 'data write', '#e15759', ''),
                                       (3, 'wr', 'WAL read', '#59a14f', '5 3'), (4, 'ww', 'WAL write', '#f28e2b', '5 3')) v(o, k, l, c, d)
                          WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(sys_rows) e WHERE e.value ->> v.k IS NOT NULL)),
               'rows', jsonb_agg(jsonb_build_object('second', p.second, 'x1', p.x1, 'key', k.key, 'v', k.v / p.cov)
                                 ORDER BY p.second, k.key))
    INTO pj
    FROM jsonb_to_recordset(sys_rows) AS p(second int, x1 float8, cov float8, dr float8, dw float8, wr float8, ww float8)
    CROSS JOIN LATERAL (VALUES ('dr', p.dr), ('dw', p.dw), ('wr', p.wr), ('ww', p.ww)) k(key, v)
    WHERE k.v IS NOT NULL AND p.cov > 0;
    IF jsonb_typeof(pj -> 'rows') = 'array' THEN
        panels := panels || jsonb_build_array(pj);
    ELSE
        notes := notes || jsonb_build_array(jsonb_build_object('panel', 'disk throughput', 'why', no_system));
    END IF;

    -- WAL bytes per second (pg_stat_wal)
    SELECT jsonb_build_object('id', 'wal', 'kind', 'lines', 'title', 'WAL generated (pg_stat_wal)',
               'series', jsonb_build_array(jsonb_build_object('key', 'wal', 'label', 'WAL bytes', 'color', '#76b7b2', 'dash', '')),
               'rows', jsonb_agg(jsonb_build_object('second', p.second, 'x1', p.x1, 'key', 'wal', 'v', p.wal / p.cov)
                                 ORDER BY p.second))
    INTO pj
    FROM jsonb_to_recordset(sys_rows) AS p(second int, x1 float8, cov float8, wal float8)
    WHERE p.wal IS NOT NULL AND p.cov > 0;
    IF jsonb_typeof(pj -> 'rows') = 'array' THEN
        panels := panels || jsonb_build_array(pj);
    ELSE
        notes := notes || jsonb_build_array(jsonb_build_object('panel', 'WAL', 'why', no_system));
    END IF;

    -- wait events of the client backends by type, shares of the sampled
    -- time in each second, CPU first and then the most sampled
    WITH ws AS (
        SELECT x.second, x.wait_event_type AS key, sum(x.samples)::float8 AS n
        FROM pgbenchx.wait_samples x
        WHERE x.run_id = chart_run.run_id AND x.second - 1 < smax AND x.samples > 0
        GROUP BY x.second, x.wait_event_type),
    tot AS (SELECT ws.second, sum(ws.n) AS t FROM ws GROUP BY ws.second),
    ord AS (SELECT ws.key, row_number() OVER (ORDER BY ws.key <> 'CPU', sum(ws.n) DESC, ws.key) AS o
            FROM ws GROUP BY ws.key)
    SELECT jsonb_build_object('id', 'waits', 'kind', 'stack',
               'title', 'Wait events of the client backends by type (share of sampled time)',
               'series', (SELECT jsonb_agg(jsonb_build_object('key', ord.key, 'label', ord.key,
                                                              'color', pgbenchx.chart_wait_color(ord.key, ord.o::int))
                                           ORDER BY ord.o) FROM ord),
               'rows', jsonb_agg(jsonb_build_object('second', ws.second, 'x0', ws.second - 1,
                                                    'x1', least(ws.second - 1 + coalesce(sm.covered_s, ss.covered_s, 1), smax),
                                                    'ord', ord.o, 'key', ws.key, 'share', ws.n / tot.t)
                                 ORDER BY ws.second, ord.o))
    INTO pj
    FROM ws JOIN tot ON tot.second = ws.second JOIN ord ON ord.key = ws.key
    LEFT JOIN pgbenchx.samples sm ON sm.run_id = chart_run.run_id AND sm.second = ws.second
    LEFT JOIN pgbenchx.system_samples ss ON ss.run_id = chart_run.run_id AND ss.second = ws.second;
    IF jsonb_typeof(pj -> 'rows') = 'array' THEN
        panels := panels || jsonb_build_array(pj);
    ELSE
        notes := notes || jsonb_build_array(jsonb_build_object('panel', 'wait events',
            'why', CASE WHEN r.record_system IS NOT TRUE THEN no_system
                        ELSE 'no client backend was sampled' END));
    END IF;

    -- one note per reason, naming the panels it leaves out
    SELECT coalesce(jsonb_agg(q.line ORDER BY q.first), '[]') INTO notes
    FROM (SELECT min(n.ord) AS first,
                 'Panels left out (' || string_agg(n.e ->> 'panel', ', ' ORDER BY n.ord) || '): ' || (n.e ->> 'why') AS line
          FROM jsonb_array_elements(notes) WITH ORDINALITY n(e, ord)
          GROUP BY n.e ->> 'why') q;
    h := base_h + CASE WHEN jsonb_array_length(notes) > 0 THEN 8 + 18 * jsonb_array_length(notes) ELSE 0 END
         + panel_h * jsonb_array_length(panels);

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format(E'\n<title>%s and p99 latency over the run</title>', rate_name)
        || format(E'\n<rect width="%s" height="%s" fill="#ffffff"/>', w, h)
        || format(E'\n<text class="title" x="%s" y="28" text-anchor="middle" font-size="17" font-weight="bold">Run %s: %s</text>',
                  w / 2, r.run_id, pgbenchx.xml_escape(coalesce(r.label, r.script)))
        || format(E'\n<text class="subtitle" x="%s" y="48" text-anchor="middle" fill="#555555">%s</text>',
                  w / 2, pgbenchx.xml_escape(
                      concat_ws(', ', 'script ' || r.script,
                                r.clients || CASE WHEN r.clients = 1 THEN ' client' ELSE ' clients' END,
                                r.jobs || CASE WHEN r.jobs = 1 THEN ' job' ELSE ' jobs' END,
                                r.protocol || ' protocol',
                                CASE WHEN r.sweep_id IS NOT NULL THEN 'sweep ' || r.sweep_id END,
                                r.status)));

    -- grid: tps ticks on the left, p99 ticks on the right
    FOR i IN 0 .. intervals LOOP
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-y" x="%s" y="%s" text-anchor="end" fill="%s">%s</text>'
                             '<text class="tick-y2" x="%s" y="%s" text-anchor="start" fill="%s">%s</text>',
                   px0, round((py1 - i * (py1 - py0) / intervals)::numeric, 1),
                   px1, round((py1 - i * (py1 - py0) / intervals)::numeric, 1),
                   px0 - 6, round((py1 - i * (py1 - py0) / intervals + 4)::numeric, 1),
                   tps_color, pgbenchx.chart_number(i * ystep, ytop),
                   px1 + 6, round((py1 - i * (py1 - py0) / intervals + 4)::numeric, 1),
                   p99_color, pgbenchx.chart_number(i * lstep, ltop));
    END LOOP;
    tick := 0;
    WHILE tick <= smax LOOP
        xp := px0 + tick / smax * (px1 - px0);
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                   round(xp::numeric, 1), py0, round(xp::numeric, 1), py1,
                   round(xp::numeric, 1), py1 + 18, pgbenchx.chart_number(tick, 0));
        tick := tick + xstep;
    END LOOP;

    svg := svg || format(E'\n<path class="axis" d="M%s %sV%sH%sV%s" fill="none" stroke="#333333"/>',
                         px0, py0, py1, px1, py0)
        || format(E'\n<text class="axis-title" x="%s" y="%s" text-anchor="middle">time since all clients connected (s)</text>',
                  (px0 + px1) / 2, py1 + 40)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(-90)" text-anchor="middle" fill="%s">%s</text>',
                  24, (py0 + py1) / 2, tps_color, rate_name)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(90)" text-anchor="middle" fill="%s">p99 latency (ms)</text>',
                  w - 24, (py0 + py1) / 2, p99_color);

    -- a sample is drawn at x = the end of the time it covered
    SELECT string_agg(round((px0 + p.x / smax * (px1 - px0))::numeric, 1) || ','
                      || round((py1 - p.rate / ytop * (py1 - py0))::numeric, 1),
                      ' ' ORDER BY p.second),
           count(*),
           string_agg(round((px0 + p.x / smax * (px1 - px0))::numeric, 1) || ','
                      || round((py1 - p.p99 / ltop * (py1 - py0))::numeric, 1),
                      ' ' ORDER BY p.second) FILTER (WHERE p.p99 IS NOT NULL),
           count(p.p99)
    INTO tps_pts, n_tps, p99_pts, n_p99
    FROM jsonb_to_recordset(pts) AS p(second int, x float8, rate float8, p99 float8);

    IF run_rate IS NOT NULL THEN
        svg := svg || format(E'\n<line class="run-tps" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-dasharray="2 3" opacity="0.7"/>',
                             px0, round((py1 - run_rate / ytop * (py1 - py0))::numeric, 1),
                             px1, round((py1 - run_rate / ytop * (py1 - py0))::numeric, 1), tps_color);
    END IF;
    svg := svg || format(E'\n<polyline class="tps" points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"/>',
                         tps_pts, tps_color);
    IF n_p99 > 0 THEN
        svg := svg || format(E'\n<polyline class="p99" points="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3" stroke-linejoin="round"/>',
                             p99_pts, p99_color);
    END IF;
    -- short runs: a marker per second, so that even 1 or 2 seconds show (a
    -- polyline of one point draws nothing); p99 markers are hollow
    IF n_tps <= 60 THEN
        SELECT string_agg(format(E'\n<circle class="tps-point" cx="%s" cy="%s" r="3" fill="%s"><title>second %s%s: %s %s, p99 %s ms</title></circle>',
                                 round((px0 + p.x / smax * (px1 - px0))::numeric, 1),
                                 round((py1 - p.rate / ytop * (py1 - py0))::numeric, 1),
                                 tps_color, p.second,
                                 CASE WHEN p.covered_s <> 1 THEN format(' (%s s)', round(p.covered_s::numeric, 3)) ELSE '' END,
                                 round(p.rate::numeric, 1), unit,
                                 coalesce(round(p.p99::numeric, 3)::text, '-')),
                          '' ORDER BY p.second)
        INTO markers
        FROM jsonb_to_recordset(pts) AS p(second int, x float8, covered_s float8, rate float8, p99 float8);
        svg := svg || markers;
    END IF;
    IF n_p99 <= 60 AND n_p99 > 0 THEN
        SELECT string_agg(format(E'\n<circle class="p99-point" cx="%s" cy="%s" r="3" fill="#ffffff" stroke="%s" stroke-width="1.5"><title>second %s: p99 %s ms</title></circle>',
                                 round((px0 + p.x / smax * (px1 - px0))::numeric, 1),
                                 round((py1 - p.p99 / ltop * (py1 - py0))::numeric, 1),
                                 p99_color, p.second, round(p.p99::numeric, 3)),
                          '' ORDER BY p.second)
        INTO markers
        FROM jsonb_to_recordset(pts) AS p(second int, x float8, p99 float8)
        WHERE p.p99 IS NOT NULL;
        svg := svg || markers;
    END IF;

    -- legend
    svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/><text class="legend" x="%s" y="%s">%s</text>',
                         px0, base_h - 34, px0 + 28, base_h - 34, tps_color, px0 + 36, base_h - 30, rate_name)
        || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3"/><text class="legend" x="%s" y="%s">p99 latency of each second (ms)</text>',
                  px0 + 230, base_h - 34, px0 + 258, base_h - 34, p99_color, px0 + 266, base_h - 30)
        || CASE WHEN run_rate IS NOT NULL THEN
               format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-dasharray="2 3"/><text class="legend" x="%s" y="%s">whole run: %s %s, p99 %s ms</text>',
                      px0 + 480, base_h - 34, px0 + 508, base_h - 34, tps_color, px0 + 516, base_h - 30,
                      round(run_rate::numeric, 1), unit, coalesce(trim_scale(round(r.latency_p99_ms::numeric, 3))::text, '-'))
           ELSE '' END;

    -- the notes: why a panel is left out, one line per reason
    FOR i IN 0 .. jsonb_array_length(notes) - 1 LOOP
        svg := svg || format(E'\n<text class="panel-note" x="%s" y="%s" fill="#555555">%s</text>',
                             px0, base_h + 2 + 18 * i, pgbenchx.xml_escape(notes ->> i));
    END LOOP;

    -- the panels, on the tps line's x scale
    FOR pn IN
        SELECT e.ord - 1 AS k, e.p ->> 'id' AS id, e.p ->> 'kind' AS kind, e.p ->> 'title' AS title,
               e.p -> 'series' AS series, e.p -> 'rows' AS rows
        FROM jsonb_array_elements(panels) WITH ORDINALITY e(p, ord)
        ORDER BY e.ord
    LOOP
        pt := base_h + CASE WHEN jsonb_array_length(notes) > 0 THEN 8 + 18 * jsonb_array_length(notes) ELSE 0 END
              + panel_h * pn.k + 30;
        pb := pt + ph;
        IF pn.kind = 'stack' THEN
            pdiv := 1; punit := '%'; pmax := 1; pstep := 0.5;
        ELSE
            SELECT max(q.v) INTO pmax FROM jsonb_to_recordset(pn.rows) AS q(v float8);
            pmax := greatest(coalesce(pmax, 0), 1);
            pdiv := CASE WHEN pmax >= 1e9 THEN 1e9 WHEN pmax >= 1e6 THEN 1e6 WHEN pmax >= 1e3 THEN 1e3 ELSE 1 END;
            punit := CASE pdiv WHEN 1e9 THEN 'GB/s' WHEN 1e6 THEN 'MB/s' WHEN 1e3 THEN 'kB/s' ELSE 'B/s' END;
            pstep := pgbenchx.chart_step(pmax / pdiv, 2);
            pmax := pstep * greatest(ceil(pmax / pdiv / pstep), 1);
        END IF;
        svg := svg || format(E'\n<g class="panel" data-panel="%s" data-y0="%s" data-y1="%s">', pn.id, pt, pb)
            || format(E'\n<text class="panel-title" x="%s" y="%s" font-weight="bold">%s%s</text>',
                      px0, pt - 10, pn.title, CASE WHEN pn.kind = 'lines' THEN ', ' || punit ELSE '' END);
        -- grid: the tps chart's time ticks, and the panel's own y ticks
        tick := 0;
        WHILE tick <= smax LOOP
            xp := px0 + tick / smax * (px1 - px0);
            svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                                 '<text class="panel-tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                       round(xp::numeric, 1), pt, round(xp::numeric, 1), pb,
                       round(xp::numeric, 1), pb + 16, pgbenchx.chart_number(tick, 0));
            tick := tick + xstep;
        END LOOP;
        tick := 0;
        WHILE tick <= pmax * (1 + 1e-9) LOOP
            svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                                 '<text class="panel-tick-y" x="%s" y="%s" text-anchor="end" fill="#333333">%s</text>',
                       px0, round((pb - tick / pmax * ph)::numeric, 1), px1, round((pb - tick / pmax * ph)::numeric, 1),
                       px0 - 6, round((pb - tick / pmax * ph + 4)::numeric, 1),
                       CASE WHEN pn.kind = 'stack' THEN round(100 * tick) || '%' ELSE pgbenchx.chart_number(tick, pmax) END);
            tick := tick + pstep;
        END LOOP;

        IF pn.kind = 'stack' THEN
            -- a bar per second from the start to the end of the time it
            -- covered; each kind from the running total of the shares below
            -- it, so the bars of a second add up to the panel's height
            SELECT string_agg(format(E'\n<rect class="stack" data-second="%s" data-key="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>second %s: %s %s%%</title></rect>',
                                     b.second, pgbenchx.xml_escape(b.key), b.xl, b.yhi, b.xr - b.xl, b.ylo - b.yhi, b.color,
                                     b.second, pgbenchx.xml_escape(b.label), round((100 * b.share)::numeric, 1)),
                              '' ORDER BY b.second, b.ord)
            INTO markers
            FROM (SELECT q.second, q.ord, q.key, q.share, se.label, se.color,
                         round((px0 + q.x0 / smax * (px1 - px0))::numeric, 1) AS xl,
                         round((px0 + q.x1 / smax * (px1 - px0))::numeric, 1) AS xr,
                         round((pb - (sum(q.share) OVER w - q.share) * ph)::numeric, 1) AS ylo,
                         round((pb - sum(q.share) OVER w * ph)::numeric, 1) AS yhi
                  FROM jsonb_to_recordset(pn.rows) AS q(second int, x0 float8, x1 float8, ord int, key text, share float8)
                  JOIN jsonb_to_recordset(pn.series) AS se(key text, label text, color text) ON se.key = q.key
                  WINDOW w AS (PARTITION BY q.second ORDER BY q.ord ROWS UNBOUNDED PRECEDING)) b
            WHERE b.ylo > b.yhi AND b.xr > b.xl;
            svg := svg || coalesce(markers, '');
        ELSE
            -- a line per series, a point at the end of the time each second covered
            FOR sr IN
                SELECT se.key, se.label, se.color, se.dash, count(*) AS n,
                       string_agg(round((px0 + q.x1 / smax * (px1 - px0))::numeric, 1) || ','
                                  || round((pb - q.v / pdiv / pmax * ph)::numeric, 1), ' ' ORDER BY q.second) AS points,
                       string_agg(format(E'\n<circle class="series-point" data-key="%s" cx="%s" cy="%s" r="2.5" fill="%s"><title>second %s: %s %s %s</title></circle>',
                                         se.key, round((px0 + q.x1 / smax * (px1 - px0))::numeric, 1),
                                         round((pb - q.v / pdiv / pmax * ph)::numeric, 1), se.color,
                                         q.second, se.label, trim_scale(round((q.v / pdiv)::numeric, 3)), punit),
                                  '' ORDER BY q.second) AS dots
                FROM ROWS FROM (jsonb_to_recordset(pn.series) AS (key text, label text, color text, dash text))
                     WITH ORDINALITY AS se(key, label, color, dash, o)
                JOIN jsonb_to_recordset(pn.rows) AS q(second int, x1 float8, key text, v float8) ON q.key = se.key
                GROUP BY se.key, se.label, se.color, se.dash, se.o
                ORDER BY se.o
            LOOP
                svg := svg || format(E'\n<polyline class="series" data-key="%s" points="%s" fill="none" stroke="%s" stroke-width="1.5"%s stroke-linejoin="round"/>',
                                     sr.key, sr.points, sr.color,
                                     CASE WHEN sr.dash <> '' THEN format(' stroke-dasharray="%s"', sr.dash) ELSE '' END)
                    || CASE WHEN sr.n <= 60 THEN sr.dots ELSE '' END;
            END LOOP;
        END IF;
        svg := svg || format(E'\n<path class="panel-axis" d="M%s %sV%sH%s" fill="none" stroke="#333333"/>', px0, pt, pb, px1);

        -- the legend, in a row under the panel
        lx := px0;
        FOR sr IN
            SELECT se.label, se.color, se.dash
            FROM ROWS FROM (jsonb_to_recordset(pn.series) AS (label text, color text, dash text))
                 WITH ORDINALITY AS se(label, color, dash, o)
            ORDER BY se.o
        LOOP
            svg := svg || CASE WHEN pn.kind = 'stack'
                               THEN format(E'\n<rect x="%s" y="%s" width="12" height="12" fill="%s"/>', lx, pb + 26, sr.color)
                               ELSE format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"%s/>',
                                           lx - 6, pb + 32, lx + 14, pb + 32, sr.color,
                                           CASE WHEN sr.dash <> '' THEN format(' stroke-dasharray="%s"', sr.dash) ELSE '' END) END
                || format('<text class="panel-legend" x="%s" y="%s">%s</text>', lx + 18, pb + 36,
                          pgbenchx.xml_escape(left(sr.label, 40)));
            lx := lx + 40 + 7 * length(left(sr.label, 40));
        END LOOP;
        svg := svg || E'\n</g>';
    END LOOP;

    RETURN svg || E'\n</svg>\n';
END $$;

-- import(doc): loads a document written by export() into this database.
-- Sweeps and runs get new ids from pgbenchx.id_seq; environments are
-- matched by env_hash (an existing one is reused); each sweep and run
-- records its origin in pgbenchx.imports.  A sweep whose origin is already
-- there is not loaded again.  Returns the local sweep_ids, in the
-- document's order (new or existing).  A malformed document is refused
-- before anything is loaded.  Callers: roles granted EXECUTE (grant_runner).
-- SECURITY DEFINER: it writes as the extension's owner (runners only read
-- the results); the sweeps and runs it loads belong to the caller
-- (pgbenchx.caller_role()), whatever owner the document names.
CREATE OR REPLACE FUNCTION pgbenchx.import(doc jsonb)
RETURNS bigint[]
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    prov jsonb;
    src_sysid bigint;
    src_db text;
    k text;
    want text;
    req text[];
    bad record;
    e jsonb;
    o jsonb;
    lo numeric;
    hi numeric;
    nullable boolean;
    strict_lo boolean;
    imports_by_sweep jsonb;
    imports_by_run jsonb;
    old_ids text[] := '{}';
    new_ids bigint[] := '{}';
    new_id bigint;
    existing bigint;
    env_cols text;
    env_map jsonb := '{}';
    sweep_map jsonb := '{}';
    run_map jsonb := '{}';
    result bigint[] := '{}';
    hint_export CONSTANT text := 'Pass the jsonb that pgbenchx.export() returned, unchanged.';
BEGIN
    -- the document as a whole
    IF doc IS NULL THEN
        RAISE EXCEPTION 'argument "doc" must not be null'
            USING ERRCODE = 'null_value_not_allowed', HINT = hint_export;
    END IF;
    IF jsonb_typeof(doc) <> 'object' THEN
        RAISE EXCEPTION 'the import document must be a JSON object, not %', jsonb_typeof(doc)
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    IF doc->'format' IS DISTINCT FROM '"pgbenchx-export"' THEN
        RAISE EXCEPTION 'not a pgbenchx export document'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Its key "format" is %s, not "pgbenchx-export".', coalesce((doc->'format')::text, 'missing')),
                  HINT = hint_export;
    END IF;
    IF doc->'format_version' IS DISTINCT FROM '1' THEN
        RAISE EXCEPTION 'unsupported export format version %', coalesce((doc->'format_version')::text, '(missing)')
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'This pgbenchx reads format version 1.',
                  HINT = 'Export the sweeps again with this version of pgbenchx, or import them with the version that exported them.';
    END IF;
    FOREACH k IN ARRAY ARRAY['provenance', 'environments', 'sweeps', 'runs', 'samples', 'statement_stats'] LOOP
        IF NOT doc ? k THEN
            RAISE EXCEPTION 'the import document lacks the key "%"', k
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = 'A pgbenchx export holds provenance, environments, sweeps, runs, samples and statement_stats.',
                      HINT = hint_export;
        END IF;
        want := CASE k WHEN 'provenance' THEN 'object' ELSE 'array' END;
        IF jsonb_typeof(doc->k) <> want THEN
            RAISE EXCEPTION 'key "%" of the import document must be an %, not %', k, want, jsonb_typeof(doc->k)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
        END IF;
    END LOOP;
    FOREACH k IN ARRAY ARRAY['imports', 'system_samples', 'wait_samples'] LOOP
        IF doc ? k AND jsonb_typeof(doc->k) <> 'array' THEN
            RAISE EXCEPTION 'key "%" of the import document must be an array, not %', k, jsonb_typeof(doc->k)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
        END IF;
    END LOOP;
    prov := doc->'provenance';
    IF coalesce(prov->>'system_identifier', '') !~ '^[0-9]{1,20}$'
       OR jsonb_typeof(prov->'database') IS DISTINCT FROM 'string' THEN
        RAISE EXCEPTION 'the provenance of the import document is incomplete'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'provenance needs "system_identifier" (digits) and "database" (a string): where the results come from.',
                  HINT = hint_export;
    END IF;
    src_sysid := (prov->>'system_identifier')::numeric::bigint;
    src_db := prov->>'database';
    IF jsonb_array_length(doc->'sweeps') = 0 THEN
        RAISE EXCEPTION 'the import document holds no sweep'
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;

    -- every element: an object with the keys it needs
    FOR k, req IN VALUES
        ('environments', ARRAY['environment_id', 'env_hash']),
        ('sweeps', ARRAY['sweep_id', 'status', 'script', 'clients', 'started_at']),
        ('runs', ARRAY['run_id', 'sweep_id', 'status', 'script', 'clients', 'jobs', 'started_at']),
        ('samples', ARRAY['run_id', 'second', 'transactions']),
        ('statement_stats', ARRAY['run_id', 'script', 'command', 'command_text', 'executions']),
        ('system_samples', ARRAY['run_id', 'second']),
        ('wait_samples', ARRAY['run_id', 'second', 'wait_event_type', 'wait_event', 'samples'])
    LOOP
        SELECT x.i, x.e, key INTO bad
        FROM jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        LEFT JOIN LATERAL unnest(req) key
            ON jsonb_typeof(x.e) = 'object' AND coalesce(jsonb_typeof(x.e->key), 'null') = 'null'
        WHERE jsonb_typeof(x.e) <> 'object' OR key IS NOT NULL
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'element % of "%" in the import document %', bad.i, k,
                  CASE WHEN jsonb_typeof(bad.e) <> 'object' THEN 'is not an object'
                       WHEN bad.e ? bad.key THEN format('has a null "%s"', bad.key)
                       ELSE format('lacks the key "%s"', bad.key) END
                USING ERRCODE = CASE WHEN jsonb_typeof(bad.e) = 'object' AND bad.e ? bad.key
                                     THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                      DETAIL = format('Each element of "%s" needs %s.', k, array_to_string(req, ', ')),
                      HINT = hint_export;
        END IF;
    END LOOP;

    -- references inside the document, and nothing unfinished
    SELECT x->>'sweep_id' AS id INTO bad FROM jsonb_array_elements(doc->'sweeps') x
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'sweep % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    SELECT x->>'run_id' AS id INTO bad FROM jsonb_array_elements(doc->'runs') x
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'run % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    SELECT 'sweep' AS what, x->>'sweep_id' AS id INTO bad FROM jsonb_array_elements(doc->'sweeps') x
    WHERE x->>'status' = 'running'
    UNION ALL
    SELECT 'run', x->>'run_id' FROM jsonb_array_elements(doc->'runs') x
    WHERE x->>'status' = 'running'
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% % of the import document is still running', bad.what, bad.id
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Only finished sweeps and runs can be imported.',
                  HINT = 'Export the sweep again once it has finished.';
    END IF;
    SELECT format('run %s names sweep %s', x->>'run_id', x->>'sweep_id') AS what INTO bad
    FROM jsonb_array_elements(doc->'runs') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'sweeps') s WHERE s->'sweep_id' = x->'sweep_id')
    UNION ALL
    SELECT format('a sample names run %s', x->>'run_id') FROM jsonb_array_elements(doc->'samples') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a statement_stats row names run %s', x->>'run_id') FROM jsonb_array_elements(doc->'statement_stats') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a system_samples row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a wait_samples row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('%s names environment %s', coalesce('run ' || (x->>'run_id'), 'sweep ' || (x->>'sweep_id')), x->>'environment_id')
    FROM (SELECT s FROM jsonb_array_elements(doc->'sweeps') s
          UNION ALL SELECT r - 'sweep_id' FROM jsonb_array_elements(doc->'runs') r) y(x)
    WHERE coalesce(jsonb_typeof(x->'environment_id'), 'null') <> 'null'
      AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'environments') v WHERE v->'environment_id' = x->'environment_id')
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the import document is inconsistent: % that it does not hold', bad.what
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;

    -- every value one that a run could have produced (nullable: true, it may
    -- be null or absent; NULL, it may be absent), refused with the
    -- errcodes of the bad-input table before anything is loaded: integers
    -- in range (22004 null, 22023 not an integer or too small, 22003 too
    -- large), client lists, statuses, protocols, tags, timestamps.  Each
    -- check is one pass over its array: the time grows linearly.
    FOR k, want, lo, hi, nullable IN VALUES
        ('environments', 'environment_id', 1, 9223372036854775807, false),
        ('sweeps', 'sweep_id', 1, 9223372036854775807, false),
        ('sweeps', 'environment_id', 1, 9223372036854775807, true),
        ('sweeps', 'duration', 1, 2147483647, true),
        ('sweeps', 'transactions', 1, 9223372036854775807, true),
        ('sweeps', 'jobs', 1, 2147483647, true),
        ('sweeps', 'repeats', 1, 256, true),
        ('runs', 'run_id', 1, 9223372036854775807, false),
        ('runs', 'sweep_id', 1, 9223372036854775807, false),
        ('runs', 'environment_id', 1, 9223372036854775807, true),
        ('runs', 'clients', 1, 100000, false),
        ('runs', 'jobs', 1, 100000, false),
        ('runs', 'duration', 1, 2147483647, true),
        ('runs', 'transactions_per_client', 1, 9223372036854775807, true),
        ('runs', 'scale', 1, 2147483647, true),
        ('runs', 'repeat', 1, 256, true),
        ('runs', 'max_tries', 0, 2147483647, true),
        ('runs', 'transactions', 0, 9223372036854775807, true),
        ('runs', 'failed', 0, 9223372036854775807, true),
        ('runs', 'aborted_clients', 0, 100000, true),
        ('runs', 'serialization_failures', 0, 9223372036854775807, true),
        ('runs', 'deadlock_failures', 0, 9223372036854775807, true),
        ('runs', 'retried', 0, 9223372036854775807, true),
        ('runs', 'retries', 0, 9223372036854775807, true),
        ('runs', 'skipped', 0, 9223372036854775807, true),
        ('runs', 'late', 0, 9223372036854775807, true),
        ('runs', 'checkpoints', 0, 2147483647, true),
        ('runs', 'autovacuums', 0, 2147483647, true),
        ('runs', 'samples_lost', 0, 2147483647, true),
        ('runs', 'samples_lost_transactions', 0, 9223372036854775807, true),
        ('samples', 'run_id', 1, 9223372036854775807, false),
        ('samples', 'second', 1, 2147483647, false),
        ('samples', 'transactions', 0, 9223372036854775807, false),
        ('samples', 'failed', 0, 9223372036854775807, NULL),
        ('statement_stats', 'run_id', 1, 9223372036854775807, false),
        ('statement_stats', 'command', 1, 2147483647, false),
        ('statement_stats', 'executions', 0, 9223372036854775807, false),
        ('statement_stats', 'failures', 0, 9223372036854775807, NULL),
        ('statement_stats', 'retries', 0, 9223372036854775807, NULL),
        ('system_samples', 'run_id', 1, 9223372036854775807, false),
        ('system_samples', 'second', 1, 2147483647, false),
        ('system_samples', 'data_reads', 0, 9223372036854775807, true),
        ('system_samples', 'data_read_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'data_writes', 0, 9223372036854775807, true),
        ('system_samples', 'data_write_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_reads', 0, 9223372036854775807, true),
        ('system_samples', 'wal_read_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_writes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_write_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_records', 0, 9223372036854775807, true),
        ('system_samples', 'wal_fpi', 0, 9223372036854775807, true),
        ('system_samples', 'wal_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_write', 0, 9223372036854775807, true),
        ('system_samples', 'wal_sync', 0, 9223372036854775807, true),
        ('system_samples', 'blks_hit', 0, 9223372036854775807, true),
        ('system_samples', 'blks_read', 0, 9223372036854775807, true),
        ('system_samples', 'temp_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'deadlocks', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_checkpoint', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_clean', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_backend', 0, 9223372036854775807, true),
        ('system_samples', 'checkpoints_begun', 0, 2147483647, true),
        ('system_samples', 'checkpoints_done', 0, 2147483647, true),
        ('wait_samples', 'run_id', 1, 9223372036854775807, false),
        ('wait_samples', 'second', 1, 2147483647, false),
        ('wait_samples', 'samples', 0, 2147483647, false)
    LOOP
        SELECT x.i, x.e->want AS v INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        WHERE NOT ((coalesce(nullable, false) AND coalesce(pg_catalog.jsonb_typeof(x.e->want), 'null') = 'null')
                   OR (nullable IS NULL AND NOT x.e ? want)
                   OR (pg_catalog.jsonb_typeof(x.e->want) = 'number'
                       AND (x.e->>want) OPERATOR(pg_catalog.~) '^-?[0-9]+$'
                       AND (x.e->>want)::numeric OPERATOR(pg_catalog.>=) lo
                       AND (x.e->>want)::numeric OPERATOR(pg_catalog.<=) hi))
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '"%" of element % of "%" in the import document is %', want, bad.i, k,
                  CASE WHEN coalesce(pg_catalog.jsonb_typeof(bad.v), 'null') = 'null' THEN 'null'
                       WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' OR bad.v::text !~ '^-?[0-9]+$'
                           THEN 'not an integer: ' || pg_catalog.left(bad.v::text, 40)
                       WHEN bad.v::text::numeric < lo THEN pg_catalog.format('%s, below %s', bad.v, lo)
                       ELSE pg_catalog.format('%s, above %s', bad.v, hi) END
                USING ERRCODE = CASE WHEN coalesce(pg_catalog.jsonb_typeof(bad.v), 'null') = 'null' THEN '22004'
                                     WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text ~ '^-?[0-9]+$'
                                          AND bad.v::text::numeric > hi THEN '22003'
                                     ELSE '22023' END,
                      DETAIL = pg_catalog.format('"%s" of "%s" is an integer from %s to %s%s.', want, k, lo, hi,
                                                 CASE WHEN nullable THEN ', or null'
                                                      WHEN nullable IS NULL THEN ', or absent' ELSE '' END),
                      HINT = hint_export;
        END IF;
    END LOOP;
    -- a sweep's clients: a one-dimensional list of 1 to 256 client counts
    SELECT y.i, y.why, y.code INTO bad FROM (
        SELECT x.i,
               CASE WHEN pg_catalog.jsonb_typeof(x.e->'clients') <> 'array' THEN 'is not an array'
                    WHEN pg_catalog.jsonb_array_length(x.e->'clients') = 0 THEN 'is empty'
                    WHEN pg_catalog.jsonb_array_length(x.e->'clients') > 256 THEN 'has more than 256 client counts'
                    ELSE (SELECT CASE pg_catalog.jsonb_typeof(c) WHEN 'array' THEN 'is multidimensional'
                                      WHEN 'null' THEN 'holds a NULL'
                                      ELSE 'holds ' || pg_catalog.left(c::text, 40) || ', not a client count from 1 to 100000' END
                          FROM pg_catalog.jsonb_array_elements(x.e->'clients') c
                          WHERE pg_catalog.jsonb_typeof(c) IS DISTINCT FROM 'number' OR c::text !~ '^[0-9]+$'
                             OR c::text::numeric NOT BETWEEN 1 AND 100000
                          LIMIT 1) END AS why,
               CASE WHEN pg_catalog.jsonb_typeof(x.e->'clients') = 'array'
                         AND pg_catalog.jsonb_array_length(x.e->'clients') > 0 THEN
                   (SELECT CASE WHEN pg_catalog.jsonb_typeof(c) = 'array' THEN '2202E'
                                WHEN pg_catalog.jsonb_typeof(c) = 'null' THEN '22004'
                                WHEN pg_catalog.jsonb_typeof(c) = 'number' AND c::text ~ '^[0-9]+$' THEN '22003'
                                ELSE '22023' END
                    FROM pg_catalog.jsonb_array_elements(x.e->'clients') c
                    WHERE pg_catalog.jsonb_typeof(c) IS DISTINCT FROM 'number' OR c::text !~ '^[0-9]+$'
                       OR c::text::numeric NOT BETWEEN 1 AND 100000
                    LIMIT 1) END AS code
        FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY x(e, i)) y
    WHERE y.why IS NOT NULL ORDER BY y.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"clients" of element % of "sweeps" in the import document %', bad.i, bad.why
            USING ERRCODE = coalesce(bad.code, '22023'),
                  DETAIL = 'A sweep''s clients are a one-dimensional list of 1 to 256 client counts, each from 1 to 100000.',
                  HINT = hint_export;
    END IF;
    -- a sample's covered_s: the seconds it covered, above 0; absent in a
    -- document from pgbenchx 0.2, where every sample reads as a whole second
    SELECT x.i, x.e->'covered_s' AS v INTO bad
    FROM pg_catalog.jsonb_array_elements(doc->'samples') WITH ORDINALITY x(e, i)
    WHERE x.e ? 'covered_s'
      AND NOT (pg_catalog.jsonb_typeof(x.e->'covered_s') = 'number'
               AND (x.e->>'covered_s')::numeric OPERATOR(pg_catalog.>) 0
               AND (x.e->>'covered_s')::numeric OPERATOR(pg_catalog.<=) 86400)
    ORDER BY x.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"covered_s" of element % of "samples" in the import document is %', bad.i,
              CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'null' THEN 'null'
                   WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' THEN 'not a number: ' || pg_catalog.left(bad.v::text, 40)
                   WHEN bad.v::text::numeric <= 0 THEN pg_catalog.format('%s, not above 0', bad.v)
                   ELSE pg_catalog.format('%s, above 86400', bad.v) END
            USING ERRCODE = CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'null' THEN '22004'
                                 WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text::numeric > 86400 THEN '22003'
                                 ELSE '22023' END,
                  DETAIL = '"covered_s" of "samples" is a number of seconds above 0, at most 86400, or absent (read as 1).',
                  HINT = hint_export;
    END IF;
    -- the measured figures of issue 13: numbers in their range, or null
    -- (strict_lo: above lo, not equal to it), and the texts and lists of
    -- the wait samples and of the runs' new columns
    FOR k, want, lo, hi, strict_lo IN VALUES
        ('runs', 'wait_sample_hz', 0, 1e9, false),
        ('runs', 'wal_bytes_per_tx', 0, 1e15, false),
        ('runs', 'blocks_read_per_tx', 0, 1e15, false),
        ('runs', 'blocks_written_per_tx', 0, 1e15, false),
        ('runs', 'server_cpu_ms_per_tx', 0, 1e15, false),
        ('runs', 'driver_cpu_ms_per_tx', 0, 1e15, false),
        ('runs', 'iowait_avg', 0, 1, false),
        ('system_samples', 'covered_s', 0, 86400, true),
        ('system_samples', 'cpu_user', 0, 1, false),
        ('system_samples', 'cpu_system', 0, 1, false),
        ('system_samples', 'cpu_iowait', 0, 1, false),
        ('system_samples', 'cpu_steal', 0, 1, false),
        ('system_samples', 'cpu_idle', 0, 1, false),
        ('system_samples', 'driver_cpu_s', 0, 1e9, false),
        ('system_samples', 'backend_cpu_s', 0, 1e9, false),
        ('system_samples', 'data_await_ms', 0, 1e15, false),
        ('system_samples', 'data_queue', 0, 1e15, false),
        ('system_samples', 'wal_await_ms', 0, 1e15, false),
        ('system_samples', 'wal_queue', 0, 1e15, false)
    LOOP
        SELECT x.i, x.e->want AS v INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        WHERE coalesce(pg_catalog.jsonb_typeof(x.e->want), 'null') <> 'null'
          AND NOT (pg_catalog.jsonb_typeof(x.e->want) = 'number'
                   AND (x.e->>want)::numeric OPERATOR(pg_catalog.>=) lo
                   AND (x.e->>want)::numeric OPERATOR(pg_catalog.<=) hi
                   AND NOT (strict_lo AND (x.e->>want)::numeric OPERATOR(pg_catalog.=) lo))
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '"%" of element % of "%" in the import document is %', want, bad.i, k,
                  CASE WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' THEN 'not a number: ' || pg_catalog.left(bad.v::text, 40)
                       WHEN bad.v::text::numeric < lo THEN pg_catalog.format('%s, below %s', bad.v, lo)
                       WHEN bad.v::text::numeric = lo THEN pg_catalog.format('%s, not above %s', bad.v, lo)
                       ELSE pg_catalog.format('%s, above %s', bad.v, hi) END
                USING ERRCODE = CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text::numeric > hi
                                     THEN '22003' ELSE '22023' END,
                      DETAIL = pg_catalog.format('"%s" of "%s" is a number %s, or null.', want, k,
                                                 CASE WHEN strict_lo THEN pg_catalog.format('of seconds above %s, at most %s', lo, hi)
                                                      ELSE pg_catalog.format('from %s to %s', lo, hi) END),
                      HINT = hint_export;
        END IF;
    END LOOP;
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"%s" of element %s of "wait_samples"', f.key, x.i) AS what, x.e->f.key AS v,
               pg_catalog.jsonb_typeof(x.e->f.key) = 'string' AND pg_catalog.length(x.e->>f.key) BETWEEN 1 AND 64 AS ok
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) WITH ORDINALITY x(e, i),
             (VALUES ('wait_event_type'), ('wait_event')) f(key)
        UNION ALL
        SELECT pg_catalog.format('"%s" of element %s of "runs"', f.key, x.i), x.e->f.key,
               coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') = 'null'
               OR CASE f.key
                    WHEN 'record_system' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'boolean'
                    WHEN 'verdict' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'string'
                    WHEN 'system_notes' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'array'
                         AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(x.e->f.key) n
                                         WHERE pg_catalog.jsonb_typeof(n) <> 'string')
                    ELSE pg_catalog.jsonb_typeof(x.e->f.key) = 'array'
                         AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(x.e->f.key) n
                                         WHERE pg_catalog.jsonb_typeof(n) <> 'object'
                                            OR pg_catalog.jsonb_typeof(n->'share') IS DISTINCT FROM 'number'
                                            OR pg_catalog.jsonb_typeof(n->'wait_event_type') IS DISTINCT FROM 'string'
                                            OR pg_catalog.jsonb_typeof(n->'wait_event') IS DISTINCT FROM 'string') END
        FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY x(e, i),
             (VALUES ('record_system'), ('verdict'), ('system_notes'), ('top_waits')) f(key)) y
    WHERE NOT y.ok LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A wait sample''s wait_event_type and wait_event are texts of 1 to 64 characters; a run''s record_system a boolean, verdict a text, system_notes a list of texts and top_waits a list of {"wait_event_type", "wait_event", "share"}, each or null.',
                  HINT = hint_export;
    END IF;
    -- latency histograms (absent from a 0.2 document): base64 text or null,
    -- and bytes that pgbenchx.latency_percentile decodes (src/histcodec.h)
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"latency_hist" of element %s of "%s"', x.i, x.k) AS what, x.e->'latency_hist' AS v
        FROM (SELECT 'runs' AS k, r.i, r.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY r(e, i)
              UNION ALL
              SELECT 'samples', s.i, s.e FROM pg_catalog.jsonb_array_elements(doc->'samples') WITH ORDINALITY s(e, i)) x
        WHERE coalesce(pg_catalog.jsonb_typeof(x.e->'latency_hist'), 'null') NOT IN ('string', 'null')) y
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A latency histogram is the base64 text of its bytes, or null.',
                  HINT = hint_export;
    END IF;
    DECLARE
        why text;
    BEGIN
        PERFORM pgbenchx.latency_percentile(pg_catalog.decode(x->>'latency_hist', 'base64'), 100)
        FROM (SELECT r FROM pg_catalog.jsonb_array_elements(doc->'runs') r
              UNION ALL
              SELECT s FROM pg_catalog.jsonb_array_elements(doc->'samples') s) y(x)
        WHERE pg_catalog.jsonb_typeof(x->'latency_hist') = 'string';
    EXCEPTION WHEN invalid_parameter_value OR invalid_binary_representation THEN
        GET STACKED DIAGNOSTICS why = PG_EXCEPTION_DETAIL;
        RAISE EXCEPTION 'a latency histogram of the import document is not valid'
            USING ERRCODE = 'invalid_binary_representation',
                  DETAIL = coalesce(nullif(why, ''), SQLERRM || '.'),
                  HINT = hint_export;
    END;
    -- statuses, protocols and tags as a run records them
    SELECT y.k, y.i, y.key, y.v INTO bad FROM (
        SELECT 'sweeps' AS k, x.i, x.e FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY x(e, i)
        UNION ALL
        SELECT 'runs', x.i, x.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY x(e, i)) z,
        LATERAL (SELECT z.k, z.i, f.key, z.e->f.key AS v FROM (VALUES ('status'), ('protocol'), ('tags')) f(key)) y
    WHERE CASE y.key
            WHEN 'status' THEN coalesce(y.v->>0, '') NOT IN ('completed', 'cancelled', 'failed', 'aborted')
                               OR pg_catalog.jsonb_typeof(y.v) <> 'string'
            WHEN 'protocol' THEN coalesce(pg_catalog.jsonb_typeof(y.v), 'null') <> 'null'
                               AND (pg_catalog.jsonb_typeof(y.v) <> 'string'
                                    OR y.v->>0 NOT IN ('simple', 'extended', 'prepared'))
            ELSE coalesce(pg_catalog.jsonb_typeof(y.v), 'null') NOT IN ('null', 'object') END
    ORDER BY y.k DESC, y.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"%" of element % of "%" in the import document is not valid: %', bad.key, bad.i, bad.k,
              pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A status is completed, cancelled, failed or aborted; a protocol simple, extended or prepared; tags a JSON object.',
                  HINT = hint_export;
    END IF;
    -- timestamps: finite, and timestamps
    BEGIN
        SELECT y.what, y.t INTO bad FROM (
            SELECT pg_catalog.format('"%s" of element %s of "%s"', f.key, x.i, x.k) AS what, x.e->f.key AS t
            FROM (SELECT 'sweeps' AS k, s.i, s.e FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY s(e, i)
                  UNION ALL
                  SELECT 'runs', r.i, r.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY r(e, i)) x,
                 (VALUES ('started_at'), ('finished_at')) f(key)
            UNION ALL
            SELECT '"exported_at" of the provenance', prov->'exported_at') y
        WHERE coalesce(pg_catalog.jsonb_typeof(y.t), 'null') NOT IN ('string', 'null')
           OR (pg_catalog.jsonb_typeof(y.t) = 'string' AND NOT pg_catalog.isfinite((y.t->>0)::timestamptz))
        LIMIT 1;
    EXCEPTION WHEN data_exception THEN
        RAISE EXCEPTION 'a timestamp of the import document is not valid: %', SQLERRM
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'started_at, finished_at and exported_at are finite timestamps.',
                  HINT = hint_export;
    END;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not a finite timestamp: %', bad.what, pg_catalog.left(bad.t::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'started_at, finished_at and exported_at are finite timestamps.',
                  HINT = hint_export;
    END IF;
    -- one sample per second of a run, one row per command
    SELECT pg_catalog.format('second %s of run %s', x->>'second', x->>'run_id') AS what INTO bad
    FROM pg_catalog.jsonb_array_elements(doc->'samples') x
    GROUP BY x->'run_id', x->'second', x->>'second', x->>'run_id' HAVING count(*) > 1 LIMIT 1;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('command %s of script %s of run %s', x->>'command', x->>'script', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(doc->'statement_stats') x
        GROUP BY x->'run_id', x->'script', x->'command', x->>'command', x->>'script', x->>'run_id'
        HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('the system sample of second %s of run %s', x->>'second', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x
        GROUP BY x->'run_id', x->'second', x->>'second', x->>'run_id' HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('wait event %s:%s of second %s of run %s', x->>'wait_event_type', x->>'wait_event',
                                 x->>'second', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x
        GROUP BY x->'run_id', x->'second', x->'wait_event_type', x->'wait_event',
                 x->>'wait_event_type', x->>'wait_event', x->>'second', x->>'run_id'
        HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF FOUND THEN
        RAISE EXCEPTION '% appears twice in the import document', bad.what
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    -- the imports of the document, each origin found by key (hashed, once)
    SELECT pg_catalog.jsonb_object_agg(i->>'sweep_id', i) FILTER (WHERE i->>'sweep_id' IS NOT NULL),
           pg_catalog.jsonb_object_agg(i->>'run_id', i) FILTER (WHERE i->>'run_id' IS NOT NULL)
    INTO imports_by_sweep, imports_by_run
    FROM (SELECT DISTINCT ON (coalesce(i->>'sweep_id', ''), coalesce(i->>'run_id', '')) i
          FROM pg_catalog.jsonb_array_elements(coalesce(doc->'imports', '[]')) WITH ORDINALITY x(i, n)
          WHERE pg_catalog.jsonb_typeof(i) = 'object'
          ORDER BY coalesce(i->>'sweep_id', ''), coalesce(i->>'run_id', ''), n) d;

    -- one import at a time, so that two loading the same sweeps cannot both add them
    LOCK TABLE pgbenchx.imports IN SHARE ROW EXCLUSIVE MODE;

    -- environments: reuse the one with the same env_hash, else add it under a
    -- new id, with the columns the element has (the others take their defaults)
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'environments') x LOOP
        SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO env_cols
        FROM pg_catalog.pg_attribute a
        WHERE a.attrelid = 'pgbenchx.environments'::regclass AND a.attnum > 0
          AND NOT a.attisdropped AND a.attname <> 'environment_id' AND e ? a.attname;
        EXECUTE format('INSERT INTO pgbenchx.environments (%1$s) SELECT %1$s '
                       'FROM jsonb_populate_record(NULL::pgbenchx.environments, $1) '
                       'ON CONFLICT (env_hash) DO NOTHING', env_cols) USING e;
        SELECT v.environment_id INTO new_id FROM pgbenchx.environments v WHERE v.env_hash = e->>'env_hash';
        old_ids := pg_catalog.array_append(old_ids, e->>'environment_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
    END LOOP;
    -- the maps are built once (appending to a jsonb would copy it every time)
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO env_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    old_ids := '{}';
    new_ids := '{}';

    -- sweeps: an origin already imported maps to its existing sweep
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'sweeps') x LOOP
        o := coalesce(
            imports_by_sweep->(e->>'sweep_id'),
            jsonb_build_object('origin_system_identifier', src_sysid::text, 'origin_database', src_db,
                               'origin_id', e->'sweep_id'));
        SELECT i.sweep_id INTO existing FROM pgbenchx.imports i
        WHERE i.origin_system_identifier = (o->>'origin_system_identifier')::numeric::bigint
          AND i.origin_database = o->>'origin_database'
          AND i.origin_id = (o->>'origin_id')::bigint;
        IF FOUND THEN
            result := result || existing;
            CONTINUE;
        END IF;
        new_id := nextval('pgbenchx.id_seq');
        INSERT INTO pgbenchx.sweeps
        SELECT r.* FROM jsonb_populate_record(NULL::pgbenchx.sweeps,
            '{"repeats": 1}' || e || jsonb_build_object(
                'sweep_id', new_id, 'coordinator_pid', NULL, 'owner', pgbenchx.caller_role(),
                'environment_id', env_map->(e->>'environment_id'))) r;
        INSERT INTO pgbenchx.imports (origin_system_identifier, origin_database, origin_id, sweep_id,
                                      exported_from_system_identifier, exported_from_database,
                                      exported_at, exported_pgbenchx_version)
        VALUES ((o->>'origin_system_identifier')::numeric::bigint, o->>'origin_database',
                (o->>'origin_id')::bigint, new_id, src_sysid, src_db,
                (prov->>'exported_at')::timestamptz, prov->>'pgbenchx_version');
        old_ids := pg_catalog.array_append(old_ids, e->>'sweep_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
        result := result || new_id;
    END LOOP;
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO sweep_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    old_ids := '{}';
    new_ids := '{}';

    -- the runs of the sweeps added, their samples and per-statement latencies
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'runs') x
             WHERE sweep_map ? (x->>'sweep_id') ORDER BY (x->>'run_id')::bigint LOOP
        o := coalesce(
            imports_by_run->(e->>'run_id'),
            jsonb_build_object('origin_system_identifier', src_sysid::text, 'origin_database', src_db,
                               'origin_id', e->'run_id'));
        new_id := nextval('pgbenchx.id_seq');
        INSERT INTO pgbenchx.runs
        SELECT r.* FROM jsonb_populate_record(NULL::pgbenchx.runs,
            '{"protocol": "simple", "repeat": 1}' || e || jsonb_build_object(
                'latency_hist', '\x' || encode(decode(e->>'latency_hist', 'base64'), 'hex'),
                'run_id', new_id, 'sweep_id', sweep_map->(e->>'sweep_id'), 'coordinator_pid', NULL,
                'owner', pgbenchx.caller_role(),
                'environment_id', env_map->(e->>'environment_id'))) r;
        INSERT INTO pgbenchx.imports (origin_system_identifier, origin_database, origin_id, run_id,
                                      exported_from_system_identifier, exported_from_database,
                                      exported_at, exported_pgbenchx_version)
        VALUES ((o->>'origin_system_identifier')::numeric::bigint, o->>'origin_database',
                (o->>'origin_id')::bigint, new_id, src_sysid, src_db,
                (prov->>'exported_at')::timestamptz, prov->>'pgbenchx_version');
        old_ids := pg_catalog.array_append(old_ids, e->>'run_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
    END LOOP;
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO run_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    INSERT INTO pgbenchx.samples
    SELECT r.* FROM jsonb_array_elements(doc->'samples') x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.samples,
             '{"failed": 0, "covered_s": 1}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'),
                 'latency_hist', '\x' || encode(decode(x->>'latency_hist', 'base64'), 'hex'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.statement_stats
    SELECT r.* FROM jsonb_array_elements(doc->'statement_stats') x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.statement_stats,
             '{"failures": 0, "retries": 0}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    -- what the machine and the server did (absent from a 0.2 document: none)
    INSERT INTO pgbenchx.system_samples
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.system_samples,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.wait_samples
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.wait_samples,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');

    RETURN result;
END $$;

-- Who may execute sweep_report and compare (grant_runner's runners, or any
-- grant of the user's), kept for the new functions in a setting of this
-- transaction.
SELECT pg_catalog.set_config('pgbenchx_upgrade.grants', coalesce(pg_catalog.string_agg(
           pg_catalog.format('%s=%s', p.proname, a.grantee), ','), ''), true)
FROM pg_catalog.pg_proc p
CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
WHERE p.oid OPERATOR(pg_catalog.=) ANY (ARRAY['pgbenchx.sweep_report(bigint)'::pg_catalog.regprocedure,
                                              'pgbenchx.compare(bigint, bigint)'::pg_catalog.regprocedure]::pg_catalog.oid[])
  AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
  AND a.grantee OPERATOR(pg_catalog.<>) p.proowner;

DROP FUNCTION pgbenchx.sweep_report(bigint);
DROP FUNCTION pgbenchx.compare(bigint, bigint);

/*
 * sweep_report: a sweep as a table for psql, one row per client count:
 * the completed runs counted, the tps (the median over repeats), the p99
 * latency in ms (the median over repeats) and a bar of up to 40 characters
 * proportional to tps / the sweep's highest tps (block characters in a
 * UTF8 database, '#' otherwise).  A client count with no completed run has
 * NULL figures and its runs' statuses in place of the bar.  A replay's
 * rate is queries per minute: its tps is NULL and qpm (the median of
 * runs.qpm) holds the rate, which the bar shows; qpm is NULL for a
 * benchmark sweep.  Caller: a role granted EXECUTE that may read
 * pgbenchx.sweeps and pgbenchx.runs.
 */
CREATE FUNCTION pgbenchx.sweep_report(sweep_id bigint)
RETURNS TABLE (clients int, runs int, tps numeric, p99_ms numeric, bar text, qpm numeric)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
#variable_conflict use_column
DECLARE
    utf8 constant boolean := pg_catalog.getdatabaseencoding() = 'UTF8';
    width constant int := 40;
BEGIN
    IF sweep_report.sweep_id IS NULL THEN
        RAISE EXCEPTION 'argument "sweep_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'sweep_report shows one sweep.',
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps x WHERE x.sweep_id = sweep_report.sweep_id) THEN
        RAISE EXCEPTION 'no sweep has id %', sweep_report.sweep_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = sweep_report.sweep_id)
                                THEN format('Id %s is a run, not a sweep.', sweep_report.sweep_id)
                                ELSE format('pgbenchx.sweeps has no row with sweep_id %s.', sweep_report.sweep_id) END,
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;

    RETURN QUERY
    WITH kind AS (
        SELECT coalesce(bool_or(r.replay), false) AS replay
        FROM pgbenchx.runs r WHERE r.sweep_id = sweep_report.sweep_id),
    per AS (
        SELECT r.clients,
               count(*) FILTER (WHERE r.status = 'completed' AND v.rate IS NOT NULL)::int AS n,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY v.rate)
                   FILTER (WHERE r.status = 'completed' AND v.rate IS NOT NULL) AS rate,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_p99_ms)
                   FILTER (WHERE r.status = 'completed' AND v.rate IS NOT NULL) AS p99,
               string_agg(DISTINCT r.status, ', ') AS statuses
        FROM pgbenchx.runs r CROSS JOIN kind
        CROSS JOIN LATERAL (SELECT CASE WHEN kind.replay THEN r.qpm ELSE r.tps END AS rate) v
        WHERE r.sweep_id = sweep_report.sweep_id
        GROUP BY r.clients),
    top AS (SELECT max(per.rate) AS m FROM per)
    SELECT per.clients, per.n,
           CASE WHEN NOT kind.replay THEN round(per.rate::numeric, 1) END,
           round(per.p99::numeric, 3),
           CASE
               WHEN per.n = 0 THEN '(' || per.statuses || ')'
               WHEN top.m <= 0 THEN ''
               WHEN utf8 THEN
                   repeat(U&'\2588', floor(per.rate / top.m * width)::int)
                   || coalesce((ARRAY[U&'\258F', U&'\258E', U&'\258D', U&'\258C',
                                      U&'\258B', U&'\258A', U&'\2589'])
                                   [floor((per.rate / top.m * width - floor(per.rate / top.m * width)) * 8)::int], '')
               ELSE repeat('#', round(per.rate / top.m * width)::int)
           END,
           CASE WHEN kind.replay THEN round(per.rate::numeric, 1) END
    FROM per, top, kind
    ORDER BY per.clients;
END $$;

-- compare(sweep_a, sweep_b): one row per client count measured (completed
-- runs) in either sweep: the median tps of each (1 decimal), ratio =
-- tps_b / tps_a (4 decimals), pct_diff = 100 * (tps_b - tps_a) / tps_a
-- (2 decimals), and the median p99 latency of each (ms, 3 decimals); ratio
-- and pct_diff are computed before rounding.  sweep_points has the
-- unrounded medians.  A count measured in only one sweep has
-- NULLs for the other.  Two replays compare in queries per minute: tps_a
-- and tps_b are NULL, qpm_a and qpm_b hold the median qpm (1 decimal) and
-- ratio and pct_diff are over them; a replay is not compared with a
-- benchmark sweep.  An unknown id is an ERROR.  Callers: roles granted
-- EXECUTE and SELECT on the results.
CREATE FUNCTION pgbenchx.compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (clients int, tps_a float8, tps_b float8, ratio float8,
               pct_diff float8, p99_a float8, p99_b float8, qpm_a float8, qpm_b float8)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    arg text;
    id bigint;
    replay_a boolean;
    replay_b boolean;
BEGIN
    FOREACH arg IN ARRAY ARRAY['sweep_a', 'sweep_b'] LOOP
        id := CASE arg WHEN 'sweep_a' THEN compare.sweep_a ELSE compare.sweep_b END;
        IF id IS NULL THEN
            RAISE EXCEPTION 'argument "%" must not be null', arg
                USING ERRCODE = 'null_value_not_allowed',
                      HINT = 'Pass the sweep_id of a sweep.';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = id) THEN
            RAISE EXCEPTION 'no sweep has id %', id
                USING ERRCODE = 'undefined_object',
                      DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = id)
                                    THEN format('%s is the id of a run, not of a sweep (argument "%s").', id, arg)
                                    ELSE format('pgbenchx.sweeps has no row with sweep_id %s (argument "%s").', id, arg) END,
                      HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweep_summary lists the sweeps.';
        END IF;
    END LOOP;

    -- a replay's rate is queries per minute, a benchmark's tps: not comparable
    SELECT coalesce(bool_or(r.replay), false) INTO replay_a FROM pgbenchx.runs r WHERE r.sweep_id = compare.sweep_a;
    SELECT coalesce(bool_or(r.replay), false) INTO replay_b FROM pgbenchx.runs r WHERE r.sweep_id = compare.sweep_b;
    IF replay_a <> replay_b THEN
        RAISE EXCEPTION 'cannot compare a replay with a benchmark sweep'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Sweep %s is a replay, measured in queries per minute; sweep %s a benchmark, in transactions per second.',
                                  CASE WHEN replay_a THEN compare.sweep_a ELSE compare.sweep_b END,
                                  CASE WHEN replay_a THEN compare.sweep_b ELSE compare.sweep_a END),
                  HINT = 'Compare two replays or two benchmark sweeps.';
    END IF;

    RETURN QUERY
    SELECT coalesce(a.clients, b.clients),
           CASE WHEN NOT replay_a THEN round(a.median_tps::numeric, 1)::float8 END,
           CASE WHEN NOT replay_a THEN round(b.median_tps::numeric, 1)::float8 END,
           round((b.rate / nullif(a.rate, 0))::numeric, 4)::float8,
           round((100 * (b.rate - a.rate) / nullif(a.rate, 0))::numeric, 2)::float8,
           round(a.median_p99_ms::numeric, 3)::float8, round(b.median_p99_ms::numeric, 3)::float8,
           CASE WHEN replay_a THEN round(a.median_qpm::numeric, 1)::float8 END,
           CASE WHEN replay_a THEN round(b.median_qpm::numeric, 1)::float8 END
    FROM (SELECT p.*, CASE WHEN replay_a THEN p.median_qpm ELSE p.median_tps END AS rate
          FROM pgbenchx.sweep_points p WHERE p.sweep_id = compare.sweep_a) a
    FULL JOIN (SELECT p.*, CASE WHEN replay_a THEN p.median_qpm ELSE p.median_tps END AS rate
               FROM pgbenchx.sweep_points p WHERE p.sweep_id = compare.sweep_b) b
        ON a.clients = b.clients
    ORDER BY 1;
END $$;

REVOKE ALL ON FUNCTION pgbenchx.sweep_report(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.compare(bigint, bigint) FROM PUBLIC;

/*
 * The grants kept above, again.  A GRANT in an extension script is recorded
 * in pg_init_privs as the extension's own initial privilege, which pg_dump
 * does not dump; the initial privileges are put back to what a fresh
 * CREATE EXTENSION records (the REVOKE above), so that pg_dump keeps these
 * grants as the user's.
 */
DO $$
DECLARE
    f    pg_catalog.regprocedure;
    g    record;
    init pg_catalog.aclitem[];
BEGIN
    FOREACH f IN ARRAY ARRAY['pgbenchx.sweep_report(bigint)'::pg_catalog.regprocedure,
                             'pgbenchx.compare(bigint, bigint)'::pg_catalog.regprocedure]
    LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOR g IN
            SELECT DISTINCT pg_catalog.split_part(x, '=', 2)::pg_catalog.oid AS grantee
            FROM pg_catalog.unnest(pg_catalog.string_to_array(
                     pg_catalog.current_setting('pgbenchx_upgrade.grants'), ',')) x
            WHERE pg_catalog.split_part(x, '=', 1) OPERATOR(pg_catalog.=)
                  (SELECT p.proname::pg_catalog.text FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) f::pg_catalog.oid)
            ORDER BY 1
        LOOP
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s', f,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                           ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
        END LOOP;
        UPDATE pg_catalog.pg_init_privs i SET initprivs = init
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
    END LOOP;
END $$;
