
-- 40_refuse (issue 12 §4): check_tpcb records whether the TPC-B invariant
-- already did not hold before the run (an earlier simple-update run breaks
-- it), so that a false runs.tpcb_consistent says why.
ALTER TABLE pgbenchx.runs ADD COLUMN tpcb_consistent_before boolean;

-- The same words for the same mistake: a NULL, NULL-holding or empty
-- argument reads 'argument "x" must not be null' (contain NULL, be empty)
-- everywhere; singular counts in the charts' texts.  CREATE OR REPLACE
-- keeps each routine's privileges, PUBLIC's already revoked: no REVOKE
-- here, which would record a runner's grants as the extension's initial
-- privileges (pg_init_privs).

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
    h constant float8 := 520;
    r record;
    smax float8;
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
                         px0, h - 34, px0 + 28, h - 34, tps_color, px0 + 36, h - 30, rate_name)
        || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3"/><text class="legend" x="%s" y="%s">p99 latency of each second (ms)</text>',
                  px0 + 230, h - 34, px0 + 258, h - 34, p99_color, px0 + 266, h - 30)
        || CASE WHEN run_rate IS NOT NULL THEN
               format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-dasharray="2 3"/><text class="legend" x="%s" y="%s">whole run: %s %s, p99 %s ms</text>',
                      px0 + 480, h - 34, px0 + 508, h - 34, tps_color, px0 + 516, h - 30,
                      round(run_rate::numeric, 1), unit, coalesce(trim_scale(round(r.latency_p99_ms::numeric, 3))::text, '-'))
           ELSE '' END;

    RETURN svg || E'\n</svg>\n';
END $$;


CREATE OR REPLACE FUNCTION pgbenchx.sweep_report(sweep_id bigint)
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


CREATE OR REPLACE FUNCTION pgbenchx.export(sweep_ids bigint[])
RETURNS jsonb
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
DECLARE
    ids bigint[];
    missing bigint[];
    running bigint;
BEGIN
    IF sweep_ids IS NULL OR cardinality(sweep_ids) = 0 THEN
        RAISE EXCEPTION '%', CASE WHEN sweep_ids IS NULL THEN 'argument "sweep_ids" must not be null'
                                  ELSE 'argument "sweep_ids" must not be empty' END
            USING ERRCODE = CASE WHEN sweep_ids IS NULL THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                  DETAIL = 'sweep_ids must name at least one sweep.',
                  HINT = 'Pass ARRAY[sweep_id, ...]; SELECT sweep_id, label FROM pgbenchx.sweep_summary lists them.';
    END IF;
    IF array_position(sweep_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "sweep_ids" must not contain NULL'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Pass only the sweep_id of existing sweeps.';
    END IF;
    SELECT array_agg(u.id ORDER BY u.first) INTO ids
    FROM (SELECT x.id, min(x.ord) AS first
          FROM unnest(sweep_ids) WITH ORDINALITY x(id, ord) GROUP BY x.id) u;
    SELECT array_agg(x ORDER BY x) INTO missing
    FROM unnest(ids) x WHERE NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = x);
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION '%', CASE WHEN cardinality(missing) = 1 THEN 'no sweep has id ' || missing[1]
                                   ELSE 'no sweeps have ids ' || array_to_string(missing, ', ') END
            USING ERRCODE = 'undefined_object',
                  DETAIL = 'Only sweeps can be exported, with all their runs.',
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweep_summary lists the sweeps.';
    END IF;
    SELECT s.sweep_id INTO running FROM pgbenchx.sweeps s
    WHERE s.sweep_id = ANY (ids) AND s.status = 'running' ORDER BY 1 LIMIT 1;
    IF running IS NOT NULL THEN
        RAISE EXCEPTION 'sweep % is still running', running
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'An export holds finished sweeps only: what it holds must not change after it is taken.',
                  HINT = format('CALL pgbenchx.wait(%s), then export it.', running);
    END IF;

    RETURN jsonb_build_object(
        'format', 'pgbenchx-export',
        'format_version', 1,
        'provenance', jsonb_build_object(
            'system_identifier', (SELECT c.system_identifier::text FROM pg_catalog.pg_control_system() c),
            'database', current_database(),
            'exported_at', now(),
            'pgbenchx_version', (SELECT x.extversion FROM pg_catalog.pg_extension x WHERE x.extname = 'pgbenchx'),
            'server_version', current_setting('server_version')),
        'environments', coalesce((
            SELECT jsonb_agg(to_jsonb(e) ORDER BY e.environment_id)
            FROM pgbenchx.environments e
            WHERE e.environment_id IN (
                SELECT s.environment_id FROM pgbenchx.sweeps s WHERE s.sweep_id = ANY (ids)
                UNION
                SELECT r.environment_id FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids))), '[]'),
        'sweeps', (
            SELECT jsonb_agg(to_jsonb(s) ORDER BY array_position(ids, s.sweep_id))
            FROM pgbenchx.sweeps s WHERE s.sweep_id = ANY (ids)),
        'runs', coalesce((
            SELECT jsonb_agg(to_jsonb(r) ORDER BY r.run_id)
            FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids)), '[]'),
        'samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.second)
            FROM pgbenchx.samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'statement_stats', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script, x.command)
            FROM pgbenchx.statement_stats x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'imports', coalesce((
            SELECT jsonb_agg(jsonb_build_object(
                       'sweep_id', i.sweep_id, 'run_id', i.run_id,
                       'origin_system_identifier', i.origin_system_identifier::text,
                       'origin_database', i.origin_database,
                       'origin_id', i.origin_id)
                   ORDER BY i.sweep_id, i.run_id)
            FROM pgbenchx.imports i
            WHERE i.sweep_id = ANY (ids)
               OR i.run_id IN (SELECT r.run_id FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids))), '[]'));
END $$;

