/*
 * src/sql/40_charts.sql: SVG charts of sweeps and runs, and the text report
 * of a sweep.  Stateless: every upgrade script re-creates them in full.
 */

/*
 * Pictures: SVG charts of sweeps and runs, and a text report for the
 * terminal.  Written in SQL and PL/pgSQL so that they read on their own;
 * they only read pgbenchx.sweeps, runs and samples.  Every piece of user
 * text (labels, script names) goes into the SVG through
 * pgbenchx.xml_escape, never spliced in as it is.  The SVG is
 * self-contained: no scripts, no external fonts or styles (font-family is
 * the generic sans-serif), so a browser, an image viewer or a document can
 * show it as a file.
 */

-- Text made safe for XML character data and attribute values: & < > " '
-- become entities, and the characters XML 1.0 forbids (control characters
-- other than tab, newline and carriage return; U+FFFE and U+FFFF) are
-- dropped.  Returns NULL for NULL.  Anyone granted EXECUTE may call it.
CREATE OR REPLACE FUNCTION pgbenchx.xml_escape(t text) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT replace(replace(replace(replace(replace(
           regexp_replace(
               CASE WHEN pg_catalog.getdatabaseencoding() = 'UTF8'
                    THEN translate(t, chr(65534) || chr(65535), '') ELSE t END,
               E'[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f]', '', 'g'),
           '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
$$;

-- A round step for an axis from 0 (or lo) to span in about `intervals`
-- steps: 1, 2, 2.5 or 5 times a power of ten.  Used by the charts.
CREATE OR REPLACE FUNCTION pgbenchx.chart_step(span float8, intervals int) RETURNS float8
SET search_path = pg_catalog, pg_temp
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT m * CASE WHEN r <= 1 THEN 1 WHEN r <= 2 THEN 2 WHEN r <= 2.5 THEN 2.5
                WHEN r <= 5 THEN 5 ELSE 10 END
FROM (SELECT raw / m AS r, m
      FROM (SELECT raw, 10 ^ floor(log(raw)) AS m
            FROM (SELECT greatest(span, 1e-9) / greatest(intervals, 1) AS raw) a) b) c
$$;

-- A tick label: v in thousands ("12.5k") when the axis goes to 10000 or
-- more, in millions ("2M") from 10 million, else as it is ("0.25", "800").
CREATE OR REPLACE FUNCTION pgbenchx.chart_number(v float8, axis_top float8) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT CASE WHEN v = 0 THEN '0'
            WHEN axis_top >= 1e7 THEN trim_scale(round((v / 1e6)::numeric, 3))::text || 'M'
            WHEN axis_top >= 1e4 THEN trim_scale(round((v / 1e3)::numeric, 3))::text || 'k'
            ELSE trim_scale(round(v::numeric, 3))::text END
$$;

-- The colour of a wait_event_type in the charts (chart_run's panel and
-- chart_waits), the same in both: PostgreSQL's types have their own, CPU
-- (an active backend waiting on nothing) is green; another type takes the
-- palette's ord-th colour.
CREATE OR REPLACE FUNCTION pgbenchx.chart_wait_color(wait_event_type text, ord int) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT CASE wait_event_type
           WHEN 'CPU' THEN '#59a14f' WHEN 'Lock' THEN '#e15759' WHEN 'LWLock' THEN '#b07aa1'
           WHEN 'IO' THEN '#f28e2b' WHEN 'IPC' THEN '#76b7b2' WHEN 'Client' THEN '#bab0ac'
           WHEN 'Activity' THEN '#9c755f' WHEN 'BufferPin' THEN '#ff9da7' WHEN 'Extension' THEN '#edc948'
           WHEN 'Timeout' THEN '#4e79a7'
           ELSE (ARRAY['#1f77b4', '#d62728', '#8c564b', '#17becf', '#7f7f7f', '#bcbd22'])
                    [1 OPERATOR(pg_catalog.+) (coalesce(ord, 1) OPERATOR(pg_catalog.+) 5) OPERATOR(pg_catalog.%) 6] END
$$;

/*
 * chart_sweeps: an SVG of tps against the number of clients, one line per
 * sweep in the order given, with a marker per client count, the sweep's
 * label in the legend ("sweep N" without one), axis titles with units and
 * round ticks.  Only completed runs are drawn; the legend counts the others
 * (cancelled, failed, aborted, running) as "not drawn".  With repeats, the
 * point is the median tps of the client count's completed runs and a
 * whisker spans the 95% confidence interval of their mean (issue 23:
 * pgbenchx.ci_repeats, as sweep_points.tps_ci_low/high; its low end drawn
 * at 0 at least), or their min and max where there is no interval; the
 * tooltip gives both.  An experiment (run_experiment, sweeps.configs) is
 * drawn as one line per configuration, its warm-ups left out, named by the
 * configuration.
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
    ser jsonb;                         -- the lines: a sweep, or an experiment's configuration
    nser int;
    durations text;
    svg text;
    legend text := '';
    plot text := '';
    subtitle text;
    any_repeats boolean;
    any_interval boolean;   -- some point has a 95% interval (issue 23)
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

    -- the lines (ord): each sweep in the order given, an experiment's
    -- configurations in theirs (config NULL: the whole sweep)
    SELECT jsonb_agg(jsonb_build_object('ord', q.ord, 'sweep_id', q.id, 'config', q.cfg, 'label', q.lbl)
                     ORDER BY q.ord), count(*)
    INTO ser, nser
    FROM (SELECT row_number() OVER (ORDER BY u.ord, c.cfg) AS ord, u.id, c.cfg,
                 CASE WHEN c.cfg IS NULL THEN sw.label
                      ELSE coalesce(sw.label || ': ', '') || (sw.configs -> (c.cfg - 1) ->> 'name') END AS lbl
          FROM unnest(ids) WITH ORDINALITY u(id, ord)
          JOIN pgbenchx.sweeps sw ON sw.sweep_id = u.id
          CROSS JOIN LATERAL (SELECT NULL::int AS cfg WHERE sw.configs IS NULL
                              UNION ALL
                              SELECT g FROM generate_series(1, jsonb_array_length(sw.configs)) g
                              WHERE sw.configs IS NOT NULL) c) q;

    -- the points: per line (ord) and client count, over completed runs (no warm-up)
    SELECT coalesce(jsonb_agg(jsonb_build_object('ord', ord, 'clients', clients,
               'med', med, 'lo', lo, 'hi', hi, 'n', n, 'cilo', (ci).low, 'cihi', (ci).high)), '[]')
    INTO pts_all
    FROM (SELECT se.ord, r.clients,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY v.rate) AS med,
                 min(v.rate) AS lo, max(v.rate) AS hi, count(*) AS n,
                 pgbenchx.ci_repeats(array_agg(v.rate ORDER BY r.run_id)) AS ci
          FROM jsonb_to_recordset(ser) AS se(ord int, sweep_id bigint, config int, label text)
          JOIN pgbenchx.runs r ON r.sweep_id = se.sweep_id AND r.config IS NOT DISTINCT FROM se.config
          CROSS JOIN LATERAL (SELECT CASE WHEN is_replay THEN r.qpm ELSE r.tps END AS rate) v
          WHERE r.status = 'completed' AND v.rate IS NOT NULL AND NOT r.warmup
          GROUP BY se.ord, r.clients) q;

    SELECT min(clients), max(clients), max(greatest(hi, cihi)), bool_or(n > 1), bool_or(cihi IS NOT NULL)
    INTO cmin, cmax, ymax, any_repeats, any_interval
    FROM jsonb_to_recordset(pts_all) AS q(clients int, hi float8, n int, cihi float8);
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

    h := py1 + 78 + 22 * nser;

    SELECT string_agg(DISTINCT pgbenchx.xml_escape(sw.script), ', '),
           CASE WHEN count(DISTINCT sw.duration) = 1 AND min(sw.duration) IS NOT NULL
                THEN min(sw.duration) || ' s per run' END
    INTO subtitle, durations
    FROM pgbenchx.sweeps sw WHERE sw.sweep_id = ANY (ids);
    subtitle := 'script ' || subtitle || coalesce(', ' || durations, '')
        || CASE WHEN any_interval THEN '; median of repeats, whiskers the 95% interval of the mean'
                WHEN any_repeats THEN '; median of repeats, whiskers from min to max' ELSE '' END;

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
        SELECT se.ord, se.sweep_id, se.label, se.config,
               (SELECT count(*) FROM pgbenchx.runs r
                WHERE r.sweep_id = se.sweep_id AND r.config IS NOT DISTINCT FROM se.config AND NOT r.warmup
                  AND (r.status <> 'completed' OR (CASE WHEN is_replay THEN r.qpm ELSE r.tps END) IS NULL)) AS not_drawn
        FROM jsonb_to_recordset(ser) AS se(ord int, sweep_id bigint, config int, label text)
        ORDER BY se.ord
    LOOP
        color := palette[1 + (s.ord - 1) % cardinality(palette)];
        pts := '';
        npts := 0;
        peak := NULL;
        FOR p IN
            SELECT q.*, greatest(coalesce(q.cilo, q.lo), 0) AS wlo, coalesce(q.cihi, q.hi) AS whi
            FROM jsonb_to_recordset(pts_all)
                AS q(ord int, clients int, med float8, lo float8, hi float8, n int, cilo float8, cihi float8)
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
            IF p.n > 1 AND p.whi > p.wlo THEN
                plot := plot || format(E'\n<path class="whisker" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" fill="none"/>',
                    round(xp::numeric, 1), round((py1 - p.wlo / ytop * (py1 - py0))::numeric, 1),
                    round((py1 - p.whi / ytop * (py1 - py0))::numeric, 1),
                    round((xp - 4)::numeric, 1), round((py1 - p.wlo / ytop * (py1 - py0))::numeric, 1),
                    round((xp + 4)::numeric, 1),
                    round((xp - 4)::numeric, 1), round((py1 - p.whi / ytop * (py1 - py0))::numeric, 1),
                    round((xp + 4)::numeric, 1), color);
            END IF;
            plot := plot || format(E'\n<circle class="point" cx="%s" cy="%s" r="3.5" fill="%s"><title>%s: %s %s, %s %s%s</title></circle>',
                round(xp::numeric, 1), round(yp::numeric, 1), color,
                pgbenchx.xml_escape(coalesce(s.label, 'sweep ' || s.sweep_id)), p.clients,
                CASE WHEN p.clients = 1 THEN 'client' ELSE 'clients' END,
                round(p.med::numeric, 1), unit,
                CASE WHEN p.n > 1 THEN format(' (median of %s runs, %s to %s%s)', p.n,
                                              round(p.lo::numeric, 1), round(p.hi::numeric, 1),
                                              CASE WHEN p.cihi IS NOT NULL
                                                   THEN format('; 95%% interval of the mean %s to %s',
                                                               round(p.cilo::numeric, 1), round(p.cihi::numeric, 1))
                                                   ELSE '' END)
                     ELSE '' END);
        END LOOP;
        IF npts > 0 THEN
            plot := format(E'\n<polyline class="sweep" data-sweep-id="%s"%s points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"/>',
                           s.sweep_id, coalesce(format(' data-config="%s"', s.config), ''), pts, color) || plot;
        END IF;
        svg := svg || plot;
        plot := '';

        ly := py1 + 70 + 22 * (s.ord - 1);
        legend := legend
            || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/><circle cx="%s" cy="%s" r="3.5" fill="%s"/>',
                      px0, ly - 4, px0 + 28, ly - 4, color, px0 + 14, ly - 4, color)
            || format('<text class="legend" x="%s" y="%s">%s<tspan fill="#555555"> (%s %s: %s%s)</tspan></text>',
                      px0 + 36, ly,
                      pgbenchx.xml_escape(left(coalesce(s.label, 'sweep ' || s.sweep_id), 100)),
                      CASE WHEN s.config IS NULL THEN 'sweep' ELSE 'experiment' END,
                      s.sweep_id || coalesce(', configuration ' || s.config, ''),
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
 * seconds so far).
 *
 * Under the tps line, panels on the same time axis (the same x scale, a
 * second drawn at the end of the time it covered, as the tps line draws
 * it), from pgbenchx.system_samples and wait_samples: the machine's CPU
 * stacked by kind (user, system, iowait, steal; idle the rest) as shares
 * of all cores; disk throughput of the data and WAL devices (read and
 * write, bytes/s); WAL bytes per second (pg_stat_wal); the wait events of
 * the client backends stacked by wait_event_type as shares of the sampled
 * time, CPU first.  Stacked panels draw a bar per second, from the start
 * to the end of the time it covered; line panels a point at its end.  A
 * panel without data for the run (record_system false, a run from before
 * 0.3, a figure the system could not give) is left out, and one line per
 * reason says so (runs.system_notes when it has them), so that an old run
 * is charted as before with a note.  The SVG grows by the panels' height.
 * Returns the SVG document as text.  Caller: a role granted EXECUTE that
 * may read pgbenchx.runs, samples, system_samples and wait_samples.
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

/*
 * chart_waits: an SVG of where a sweep's client backends spent their time,
 * to see where contention starts: for each client count of the sweep, a
 * stacked bar of the wait_event_types sampled (pgbenchx.wait_samples) as
 * shares of the sampled time, over all the completed runs of that count
 * (repeats together), CPU first and then the types most sampled over the
 * sweep, with a legend of the types.  A client count without wait samples
 * (no completed run, record_system => false, a run from before 0.3) has
 * no bar and says so.  Replays too.  Returns the SVG document as text.
 * Caller: a role granted EXECUTE that may read pgbenchx.sweeps, runs and
 * wait_samples.
 */
CREATE OR REPLACE FUNCTION pgbenchx.chart_waits(sweep_id bigint) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
DECLARE
    w constant float8 := 900;
    px0 constant float8 := 90;
    px1 constant float8 := 810;
    py0 constant float8 := 70;
    py1 constant float8 := 370;
    sw record;
    counts int[];
    n int;
    slot float8;
    bw float8;
    xc float8;
    h float8;
    svg text;
    bars text;
    legend text := '';
    agg jsonb;
    lx float8;
    ly float8;
    t record;
    c record;
    i int;
BEGIN
    IF chart_waits.sweep_id IS NULL THEN
        RAISE EXCEPTION 'argument "sweep_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'chart_waits draws the wait events of one sweep.',
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;
    SELECT * INTO sw FROM pgbenchx.sweeps x WHERE x.sweep_id = chart_waits.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep has id %', chart_waits.sweep_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = chart_waits.sweep_id)
                                THEN format('Id %s is a run, not a sweep: pgbenchx.chart_run(%s) draws its wait events over time.',
                                            chart_waits.sweep_id, chart_waits.sweep_id)
                                ELSE format('pgbenchx.sweeps has no row with sweep_id %s.', chart_waits.sweep_id) END,
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;

    -- the client counts planned and run, in order
    SELECT array_agg(DISTINCT q.c ORDER BY q.c) INTO counts
    FROM (SELECT unnest(sw.clients) AS c
          UNION SELECT r.clients FROM pgbenchx.runs r WHERE r.sweep_id = chart_waits.sweep_id) q
    WHERE q.c IS NOT NULL;
    counts := coalesce(counts, '{}');
    n := greatest(cardinality(counts), 1);
    slot := (px1 - px0) / n;
    bw := least(60, slot * 0.6);

    -- per client count and type: the samples of its completed runs; the
    -- types in order, CPU first and then the most sampled
    SELECT coalesce(jsonb_agg(jsonb_build_object('clients', q.clients, 'key', q.key, 'n', q.n, 'o', q.o)), '[]')
    INTO agg
    FROM (SELECT q0.*, dense_rank() OVER (ORDER BY q0.key <> 'CPU', q0.total DESC, q0.key) AS o
    FROM (SELECT r.clients, ws.wait_event_type AS key, sum(ws.samples)::float8 AS n,
                 sum(sum(ws.samples)) OVER (PARTITION BY ws.wait_event_type) AS total
          FROM pgbenchx.runs r
          JOIN pgbenchx.wait_samples ws ON ws.run_id = r.run_id
          WHERE r.sweep_id = chart_waits.sweep_id AND r.status = 'completed' AND ws.samples > 0
          GROUP BY r.clients, ws.wait_event_type) q0) q;

    -- the legend's rows, to size the picture
    lx := px0; ly := py1 + 70;
    FOR t IN SELECT DISTINCT q.key, q.o FROM jsonb_to_recordset(agg) AS q(key text, o int) ORDER BY q.o LOOP
        IF lx + 30 + 7 * length(left(t.key, 40)) > px1 + 60 THEN
            lx := px0; ly := ly + 22;
        END IF;
        legend := legend
            || format(E'\n<rect x="%s" y="%s" width="12" height="12" fill="%s"/><text class="legend" x="%s" y="%s">%s</text>',
                      lx, ly - 11, pgbenchx.chart_wait_color(t.key, t.o), lx + 18, ly, pgbenchx.xml_escape(left(t.key, 40)));
        lx := lx + 40 + 7 * length(left(t.key, 40));
    END LOOP;
    h := ly + 24;

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || E'\n<title>wait events of the client backends by number of clients</title>'
        || format(E'\n<rect width="%s" height="%s" fill="#ffffff"/>', w, h)
        || format(E'\n<text class="title" x="%s" y="28" text-anchor="middle" font-size="17" font-weight="bold">Wait events by number of clients: %s</text>',
                  w / 2, pgbenchx.xml_escape(coalesce(sw.label, 'sweep ' || sw.sweep_id)))
        || format(E'\n<text class="subtitle" x="%s" y="48" text-anchor="middle" fill="#555555">%s</text>',
                  w / 2, pgbenchx.xml_escape(concat_ws(', ', 'sweep ' || sw.sweep_id, 'script ' || sw.script,
                                                       sw.duration || ' s per run',
                                                       'share of the client backends'' sampled time, completed runs')));

    -- grid and ticks: 0 to 100 %
    FOR i IN 0 .. 4 LOOP
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-y" x="%s" y="%s" text-anchor="end" fill="#333333">%s%%</text>',
                   px0, py1 - i * (py1 - py0) / 4, px1, py1 - i * (py1 - py0) / 4,
                   px0 - 6, py1 - i * (py1 - py0) / 4 + 4, 25 * i);
    END LOOP;

    -- a bar per client count; each type from the running total of those
    -- below it, so that a bar's parts add up to the plot's height
    FOR i IN 1 .. cardinality(counts) LOOP
        xc := px0 + slot * (i - 0.5);
        svg := svg || format(E'\n<text class="tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                             round(xc::numeric, 1), py1 + 18, counts[i]);
        SELECT string_agg(format(E'\n<rect class="bar" data-clients="%s" data-key="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s %s: %s %s%% (%s samples)</title></rect>',
                                 counts[i], pgbenchx.xml_escape(b.key), round((xc - bw / 2)::numeric, 1), b.yhi, round(bw::numeric, 1),
                                 b.ylo - b.yhi, pgbenchx.chart_wait_color(b.key, b.o),
                                 counts[i], CASE WHEN counts[i] = 1 THEN 'client' ELSE 'clients' END,
                                 pgbenchx.xml_escape(b.key), round((100 * b.share)::numeric, 1), b.n::bigint),
                          '' ORDER BY b.o)
        INTO bars
        FROM (SELECT q.key, q.o, q.n, q.n / sum(q.n) OVER () AS share,
                     round((py1 - (sum(q.n) OVER wo - q.n) / sum(q.n) OVER () * (py1 - py0))::numeric, 1) AS ylo,
                     round((py1 - sum(q.n) OVER wo / sum(q.n) OVER () * (py1 - py0))::numeric, 1) AS yhi
              FROM jsonb_to_recordset(agg) AS q(clients int, key text, n float8, o int) WHERE q.clients = counts[i]
              WINDOW wo AS (ORDER BY q.o ROWS UNBOUNDED PRECEDING)) b
        WHERE b.ylo > b.yhi;
        svg := svg || coalesce(bars, format(E'\n<text class="no-data" x="%s" y="%s" text-anchor="middle" fill="#555555">no samples</text>',
                                            round(xc::numeric, 1), py1 - 8));
    END LOOP;

    svg := svg || format(E'\n<path class="axis" d="M%s %sV%sH%s" fill="none" stroke="#333333"/>', px0, py0, py1, px1)
        || format(E'\n<text class="axis-title" x="%s" y="%s" text-anchor="middle">clients</text>', (px0 + px1) / 2, py1 + 40)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(-90)" text-anchor="middle">share of sampled time</text>',
                  24, (py0 + py1) / 2);
    RETURN svg || legend || E'\n</svg>\n';
END $$;

/*
 * sweep_report: a sweep as a table for psql, one row per client count:
 * the completed runs counted, the tps (the median over repeats), the p99
 * latency in ms (the median over repeats) and a bar of up to 40 characters
 * proportional to tps / the sweep's highest tps (block characters in a
 * UTF8 database, '#' otherwise).  A client count with no completed run has
 * NULL figures and its runs' statuses in place of the bar.  A replay's
 * rate is queries per minute: its tps is NULL and qpm (the median of
 * runs.qpm) holds the rate, which the bar shows; qpm is NULL for a
 * benchmark sweep.  tps_ci_low and tps_ci_high: the 95% confidence
 * interval of the mean tps over the point's completed runs (1 decimal;
 * pgbenchx.ci_repeats, as sweep_points), NULL with one run and for a
 * replay.  Caller: a role granted EXECUTE that may read
 * pgbenchx.sweeps and pgbenchx.runs.
 */
CREATE OR REPLACE FUNCTION pgbenchx.sweep_report(sweep_id bigint)
RETURNS TABLE (clients int, runs int, tps numeric, p99_ms numeric, bar text, qpm numeric,
               tps_ci_low numeric, tps_ci_high numeric)
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
               string_agg(DISTINCT r.status, ', ') AS statuses,
               pgbenchx.ci_repeats(array_agg(v.rate ORDER BY r.run_id)
                   FILTER (WHERE r.status = 'completed' AND v.rate IS NOT NULL)) AS ci
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
           CASE WHEN kind.replay THEN round(per.rate::numeric, 1) END,
           CASE WHEN NOT kind.replay THEN round((per.ci).low::numeric, 1) END,
           CASE WHEN NOT kind.replay THEN round((per.ci).high::numeric, 1) END
    FROM per, top, kind
    ORDER BY per.clients;
END $$;
