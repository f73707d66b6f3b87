
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


-- pgbenchx.chart_run: re-created once, with this change in it, by 64_charts.sql


-- pgbenchx.sweep_report: re-created once, with this change in it, by 20_samples.sql (its DROP and CREATE)


-- pgbenchx.export: re-created once, with this change in it, by 65_hist.sql

