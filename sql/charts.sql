-- charts: chart_sweeps, chart_run and sweep_report on fixed rows written
-- straight into the result tables (no benchmark runs here).  The SVG must
-- parse as XML, carry labels escaped, and have the expected lines, points,
-- ticks and axis titles; errors have their SQLSTATE, DETAIL and HINT.
\i sql/include/common.sql
SET extra_float_digits = 0;

-- two sweeps of the 1..80 ladder (tps including connections, select-only, 300 s),
-- a label that needs escaping, and one without a label
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label)
VALUES (900001, 'completed', 'select-only', '{1,2,4,8,12,16,20,24,28,32,40,48,64,80}', 300,
        'DragonFly <2.13> & "hammer" ''23'''),
       (900002, 'completed', 'select-only', '{1,2,4,8,12,16,20,24,28,32,40,48,64,80}', 300, NULL),
       (900003, 'cancelled', 'tpcb-like', '{1,2,4}', 10, 'repeats');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms)
SELECT 900100 + ord, 900001, 'completed', 'select-only', c, 2, 300, t, round((c / t * 1000 * 2.5)::numeric, 3)
FROM unnest('{1,2,4,8,12,16,20,24,28,32,40,48,64,80}'::int[],
            '{2814.436256,5758.492990,12110.817227,23479.369294,35262.181923,45879.002498,53121.327116,56507.085984,57766.732481,58024.329481,55903.643062,55155.781111,54639.144366,50212.999512}'::float8[])
     WITH ORDINALITY u(c, t, ord);
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms)
SELECT 900200 + ord, 900002, 'completed', 'select-only', c, 2, 300, t, round((c / t * 1000 * 2.5)::numeric, 3)
FROM unnest('{1,2,4,8,12,16,20,24,28,32,40,48,64,80}'::int[],
            '{3461.652333,7011.837319,14068.277973,24343.375571,33735.166180,44396.261119,53253.263396,56646.069533,57052.945475,56741.652440,55964.533240,55211.878514,52007.536455,49995.428447}'::float8[])
     WITH ORDINALITY u(c, t, ord);
-- three repeats of 1, 2 and 4 clients; one failed at 4, and 4's others cancelled
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms, repeat, error)
VALUES (900301, 900003, 'completed', 'tpcb-like', 1, 1, 10, 410, 4.1, 1, NULL),
       (900302, 900003, 'completed', 'tpcb-like', 2, 1, 10, 700, 5.2, 1, NULL),
       (900303, 900003, 'failed',    'tpcb-like', 4, 1, 10, 20, 9.9, 1, 'connection lost'),
       (900304, 900003, 'completed', 'tpcb-like', 1, 1, 10, 400, 4.0, 2, NULL),
       (900305, 900003, 'completed', 'tpcb-like', 2, 1, 10, 780, 5.0, 2, NULL),
       (900306, 900003, 'cancelled', 'tpcb-like', 4, 1, 10, 1000, 6.0, 2, NULL),
       (900307, 900003, 'completed', 'tpcb-like', 1, 1, 10, 430, 4.3, 3, NULL),
       (900308, 900003, 'completed', 'tpcb-like', 2, 1, 10, 760, 5.6, 3, NULL);
-- a lone run of 10 seconds with its samples; second 7 had no transaction
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms, label)
VALUES (900401, NULL, 'completed', 'tpcb-like', 8, 2, 10, 1203.4, 22.5, 'ext4 <nobarrier> & co');
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, latency_p99_ms)
SELECT 900401, s, t, t, 6.5, CASE WHEN t > 0 THEN 12 + s END
FROM unnest('{1180,1250,1190,1300,1220,1270,0,1240,1210,1258}'::int[]) WITH ORDINALITY u(t, s);
-- a label with a control character XML 1.0 forbids, and two client counts
-- (a linear axis); a sweep with no completed run
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label)
VALUES (900004, 'completed', 'select-only', '{1,2}', 2, E'bell\x07 <b>'),
       (900005, 'failed', 'select-only', '{1,2}', 2, 'nothing completed');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms)
VALUES (900501, 900004, 'completed', 'select-only', 1, 1, 2, 9000, 0.2),
       (900502, 900004, 'completed', 'select-only', 2, 1, 2, 17000, 0.25),
       (900503, 900005, 'failed', 'select-only', 1, 1, 2, NULL, NULL),
       (900504, NULL, 'failed', 'select-only', 1, 1, 2, NULL, NULL);

-- the nodes an XPath finds in an SVG, as text without tags, joined by |
CREATE FUNCTION pgbx_svg_xpath(svg text, path text) RETURNS text
LANGUAGE sql AS $$
SELECT string_agg(regexp_replace(v::text, '<[^>]*>', '', 'g'), ' | ')
FROM unnest(xpath(path, xmlparse(document svg),
                  ARRAY[ARRAY['s', 'http://www.w3.org/2000/svg']])) v
$$;

-- XML escaping of user text
SELECT pgbenchx.xml_escape($$a&b <c> "d" 'e'$$) AS escaped,
       pgbenchx.xml_escape(E'x\x01\x08\ty\nz\x1f') = E'x\ty\nz' AS control_dropped,
       pgbenchx.xml_escape(NULL) IS NULL AS null_is_null;

-- round steps and tick labels
SELECT v, pgbenchx.chart_step(v, 6) AS step6, pgbenchx.chart_number(v, v) AS label
FROM unnest('{1, 7, 58024.3, 1203.4, 0.3, 12500, 25000000}'::float8[]) v;

-- chart_sweeps: three sweeps, the first given twice (drawn once)
CREATE TABLE chart AS
SELECT pgbenchx.chart_sweeps(ARRAY[900001, 900002, 900003, 900001]) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       svg LIKE '<svg xmlns="http://www.w3.org/2000/svg" %' AS svg_root,
       svg NOT LIKE '%<script%' AND svg NOT LIKE '%href%' AND svg NOT LIKE '%@import%' AS self_contained,
       position('DragonFly &lt;2.13&gt; &amp; &quot;hammer&quot; &#39;23&#39;' IN svg) > 0 AS label_escaped,
       position('<2.13>' IN svg) = 0 AS label_not_raw
FROM chart;
-- one polyline per sweep, one point per client count with completed runs
SELECT (xpath('/*/@data-sweep-id', p))[1]::text AS sweep,
       (xpath('/*/@stroke', p))[1]::text AS color,
       cardinality(regexp_split_to_array((xpath('/*/@points', p))[1]::text, ' ')) AS points
FROM chart, unnest(xpath('//s:polyline', xmlparse(document svg),
                         ARRAY[ARRAY['s', 'http://www.w3.org/2000/svg']])) p;
SELECT pgbx_svg_xpath(svg, 'count(//s:circle[@class="point"])') AS markers,
       pgbx_svg_xpath(svg, 'count(//s:path[@class="whisker"])') AS whiskers,
       pgbx_svg_xpath(svg, '//s:text[@class="axis-title"]/text()') AS axis_titles,
       pgbx_svg_xpath(svg, '//s:text[@class="title"]/text()') AS title
FROM chart;
SELECT pgbx_svg_xpath(svg, '//s:text[@class="tick-x"]/text()') AS clients_ticks,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-y"]/text()') AS tps_ticks
FROM chart;
SELECT pgbx_svg_xpath(svg, '//s:text[@class="subtitle"]/text()') AS subtitle FROM chart;
SELECT pgbx_svg_xpath(svg, '//s:text[@class="legend"]') AS legend FROM chart;
-- repeats: the median and its whisker's ends in the tooltip
SELECT pgbx_svg_xpath(svg, '//s:circle[@fill="#2ca02c"]/s:title/text()') AS repeats FROM chart;
DROP TABLE chart;

-- two client counts: a linear axis; a forbidden character dropped; a sweep
-- with no completed run has a legend entry and no line
CREATE TABLE chart AS SELECT pgbenchx.chart_sweeps(ARRAY[900004, 900005]) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       pgbx_svg_xpath(svg, 'count(//s:polyline)') AS lines,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-x"]/text()') AS clients_ticks,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-y"]/text()') AS tps_ticks,
       pgbx_svg_xpath(svg, '//s:text[@class="axis-title"]/text()') AS axis_titles
FROM chart;
SELECT pgbx_svg_xpath(svg, '//s:text[@class="legend"]') AS legend FROM chart;
DROP TABLE chart;

-- chart_run: tps per second and p99 per second on a second axis
CREATE TABLE chart AS SELECT pgbenchx.chart_run(900401) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       position('ext4 &lt;nobarrier&gt; &amp; co' IN svg) > 0 AS label_escaped,
       pgbx_svg_xpath(svg, '//s:text[@class="title"]/text()') AS title,
       pgbx_svg_xpath(svg, '//s:text[@class="subtitle"]/text()') AS subtitle
FROM chart;
SELECT (xpath('/*/@class', p))[1]::text AS line,
       cardinality(regexp_split_to_array((xpath('/*/@points', p))[1]::text, ' ')) AS points
FROM chart, unnest(xpath('//s:polyline', xmlparse(document svg),
                         ARRAY[ARRAY['s', 'http://www.w3.org/2000/svg']])) p;
SELECT pgbx_svg_xpath(svg, '//s:text[@class="axis-title"]/text()') AS axis_titles,
       pgbx_svg_xpath(svg, 'count(//s:circle[@class="tps-point"])') AS markers,
       pgbx_svg_xpath(svg, 'count(//s:line[@class="run-tps"])') AS run_tps_line
FROM chart;
SELECT pgbx_svg_xpath(svg, '//s:text[@class="tick-x"]/text()') AS seconds_ticks,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-y"]/text()') AS tps_ticks,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-y2"]/text()') AS p99_ticks
FROM chart;
DROP TABLE chart;

-- sweep_report: deterministic on fixed data
SELECT * FROM pgbenchx.sweep_report(900001);
SELECT * FROM pgbenchx.sweep_report(900003);
SELECT * FROM pgbenchx.sweep_report(900005);

-- a run of one sample (a run bounded by transactions that ended within its
-- first second): a line of one point draws nothing, so both series have a
-- marker; the sample is drawn at the end of the 0.25 s it covered
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, transactions_per_client, tps, latency_p99_ms, bench_duration_s)
VALUES (900402, NULL, 'completed', 'select-only', 1, 1, 1000, 4000, 0.5, 0.25);
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, latency_p99_ms, covered_s)
VALUES (900402, 1, 1000, 4000, 0.25, 0.5, 0.25);
CREATE TABLE chart AS SELECT pgbenchx.chart_run(900402) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       pgbx_svg_xpath(svg, 'count(//s:circle[@class="tps-point"])') AS tps_markers,
       pgbx_svg_xpath(svg, 'count(//s:circle[@class="p99-point"])') AS p99_markers,
       pgbx_svg_xpath(svg, '//s:circle/s:title/text()') AS tooltips,
       pgbx_svg_xpath(svg, '//s:circle[@class="tps-point"]/@cx') AS tps_x,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-x"]/text()') AS seconds_ticks
FROM chart;
DROP TABLE chart;
-- a cancelled run whose last second covered 0.4 s: its rate, drawn at 2.4 s
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms, bench_duration_s)
VALUES (900403, NULL, 'cancelled', 'select-only', 1, 1, 10, 1000, 1.5, 2.4);
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_p99_ms, covered_s)
VALUES (900403, 1, 1000, 1000, 1.5, 1), (900403, 2, 1000, 1000, 1.5, 1), (900403, 3, 400, 1000, 1.4, 0.4);
CREATE TABLE chart AS SELECT pgbenchx.chart_run(900403) AS svg;
SELECT pgbx_svg_xpath(svg, '//s:polyline[@class="tps"]/@points') AS tps_points,
       pgbx_svg_xpath(svg, '//s:circle[@class="tps-point"]/s:title/text()') AS tooltips
FROM chart;
DROP TABLE chart;

-- a replay sweep (a rate in queries per minute), its one-run point and a
-- run's samples: charts and sweep_report say qpm, and a chart does not mix
-- replays with benchmark sweeps
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, label)
VALUES (900006, 'completed', 'replay', '{1,2}', 'top queries'),
       (900007, 'completed', 'select-only', '{4}', 'one run');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, transactions, failed, tps, latency_p99_ms, bench_duration_s, replay, qpm)
VALUES (900601, 900006, 'completed', 'replay', 1, 1, 190, 10, 95, 2.0, 2, true, 6000),
       (900602, 900006, 'completed', 'replay', 2, 1, 380, 20, 253.3, 2.5, 1.5, true, 16000),
       (900701, 900007, 'completed', 'select-only', 4, 1, 10000, 0, 5000, 1.0, 2, false, NULL);
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_p99_ms, failed, covered_s)
VALUES (900602, 1, 250, 250, 2.4, 14, 1), (900602, 2, 130, 260, 2.5, 6, 0.5);
SELECT * FROM pgbenchx.sweep_report(900006);
CREATE TABLE chart AS SELECT pgbenchx.chart_sweeps(ARRAY[900006]) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       pgbx_svg_xpath(svg, '//s:text[@class="title"]/text()') AS title,
       pgbx_svg_xpath(svg, '//s:text[@class="axis-title"]/text()') AS axis_titles,
       pgbx_svg_xpath(svg, '//s:circle[@class="point"]/s:title/text()') AS tooltips,
       pgbx_svg_xpath(svg, '//s:text[@class="legend"]') AS legend
FROM chart;
DROP TABLE chart;
CREATE TABLE chart AS SELECT pgbenchx.chart_run(900602) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       pgbx_svg_xpath(svg, '//s:text[@class="axis-title"]/text()') AS axis_titles,
       pgbx_svg_xpath(svg, '//s:circle[@class="tps-point"]/s:title/text()') AS tooltips,
       pgbx_svg_xpath(svg, '//s:text[@class="legend"]/text()') AS legend
FROM chart;
DROP TABLE chart;
-- a sweep of one run: its point has a marker, its line one point
CREATE TABLE chart AS SELECT pgbenchx.chart_sweeps(ARRAY[900007]) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       pgbx_svg_xpath(svg, 'count(//s:circle[@class="point"])') AS markers,
       pgbx_svg_xpath(svg, '//s:circle[@class="point"]/@cx') AS marker_x,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-x"]/text()') AS clients_ticks,
       pgbx_svg_xpath(svg, '//s:text[@class="legend"]') AS legend
FROM chart;
DROP TABLE chart;
SELECT pgbx_try('SELECT pgbenchx.chart_sweeps(ARRAY[900007, 900006])');

-- errors
SELECT pgbx_try('SELECT pgbenchx.chart_sweeps(NULL)');
SELECT pgbx_try('SELECT pgbenchx.chart_sweeps(ARRAY[]::bigint[])');
SELECT pgbx_try('SELECT pgbenchx.chart_sweeps(ARRAY[900001, NULL])');
SELECT pgbx_try('SELECT pgbenchx.chart_sweeps(ARRAY[900001, 899999])');
SELECT pgbx_try('SELECT pgbenchx.chart_sweeps(ARRAY[900401])');
SELECT pgbx_try('SELECT pgbenchx.chart_run(NULL)');
SELECT pgbx_try('SELECT pgbenchx.chart_run(899999)');
SELECT pgbx_try('SELECT pgbenchx.chart_run(900001)');
SELECT pgbx_try('SELECT pgbenchx.chart_run(900504)');
SELECT pgbx_try('SELECT * FROM pgbenchx.sweep_report(NULL)');
SELECT pgbx_try('SELECT * FROM pgbenchx.sweep_report(899999)');
SELECT pgbx_try('SELECT * FROM pgbenchx.sweep_report(900401)');

-- counts of one in the singular: a lone run of 1 client in 1 job, a sweep
-- that peaks at 1 client
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label)
VALUES (900008, 'completed', 'select-only', '{1,2}', 2, 'one');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms)
VALUES (900801, 900008, 'completed', 'select-only', 1, 1, 2, 9000, 0.2),
       (900802, 900008, 'completed', 'select-only', 2, 1, 2, 5000, 0.4),
       (900803, NULL, 'completed', 'select-only', 1, 1, 2, 9000, 0.2);
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, latency_p99_ms)
VALUES (900803, 1, 9000, 9000, 0.1, 0.2), (900803, 2, 9000, 9000, 0.1, 0.2);
SELECT pgbx_svg_xpath(pgbenchx.chart_sweeps(ARRAY[900008]), '//s:text[@class="legend"]') AS legend_one_client,
       pgbx_svg_xpath(pgbenchx.chart_run(900803), '//s:text[@class="subtitle"]/text()') AS subtitle_one_client;
DELETE FROM pgbenchx.runs WHERE run_id = 900803;

-- chart_run's panels (issue 13) on fixed rows: a run of 5 seconds, the
-- last one of 0.5 s, with system_samples and wait_samples
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms,
                           bench_duration_s, record_system, label)
VALUES (900901, NULL, 'completed', 'tpcb-like', 4, 1, 5, 1000, 9.5, 4.5, true, 'panels'),
       (900902, NULL, 'completed', 'tpcb-like', 4, 1, 3, 1000, 9.5, 3, false, 'not recorded'),
       (900904, NULL, 'completed', 'tpcb-like', 4, 1, 2, 1000, 9.5, 2, true, 'tmpfs');
UPDATE pgbenchx.runs SET system_notes = ARRAY['no block device holds <pg_wal> & data (tmpfs)']
WHERE run_id = 900904;
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, latency_p99_ms, covered_s)
VALUES (900901, 1, 1000, 1000, 4, 9, 1), (900901, 2, 1100, 1100, 4, 9, 1), (900901, 3, 900, 900, 4, 10, 1),
       (900901, 4, 1000, 1000, 4, 9, 1), (900901, 5, 500, 1000, 4, 9, 0.5),
       (900902, 1, 1000, 1000, 4, 9, 1), (900902, 2, 1000, 1000, 4, 9, 1), (900902, 3, 1000, 1000, 4, 9, 1),
       (900904, 1, 1000, 1000, 4, 9, 1), (900904, 2, 1000, 1000, 4, 9, 1);
INSERT INTO pgbenchx.system_samples (run_id, second, covered_s, cpu_user, cpu_system, cpu_iowait, cpu_steal, cpu_idle,
                                     data_read_bytes, data_write_bytes, wal_read_bytes, wal_write_bytes, wal_bytes)
VALUES (900901, 1, 1,   0.40, 0.20, 0.10, 0.00, 0.30, 0,       8000000,  0, 4000000, 2000000),
       (900901, 2, 1,   0.45, 0.25, 0.05, 0.05, 0.20, 1000000, 16000000, 0, 6000000, 3000000),
       (900901, 3, 1,   0.50, 0.30, 0.00, 0.00, 0.20, 0,       4000000,  0, 5000000, 2500000),
       (900901, 4, 1,   0.60, 0.30, 0.10, 0.00, 0.00, 2000000, 10000000, 0, 8000000, 4000000),
       (900901, 5, 0.5, 0.55, 0.35, 0.15, 0.00, 0.00, 0,       2000000,  0, 2000000, 1000000),
       (900904, 1, 1,   0.30, 0.20, NULL, NULL, 0.50, NULL, NULL, NULL, NULL, NULL),
       (900904, 2, 1,   0.35, 0.20, NULL, NULL, 0.45, NULL, NULL, NULL, NULL, NULL);
INSERT INTO pgbenchx.wait_samples (run_id, second, wait_event_type, wait_event, samples)
SELECT 900901, s, t, e, n
FROM (VALUES (1, 'CPU', 'on CPU', 60), (1, 'LWLock', 'WALWrite', 20), (1, 'Lock', 'transactionid', 10), (1, 'IO', 'WALSync', 10),
             (2, 'CPU', 'on CPU', 50), (2, 'LWLock', 'WALWrite', 25), (2, 'LWLock', 'WALInsert', 5), (2, 'Lock', 'transactionid', 20),
             (3, 'CPU', 'on CPU', 70), (3, 'IO', 'WALSync', 30),
             (4, 'CPU', 'on CPU', 100), (4, 'Odd<&>', 'x', 0),
             (5, 'CPU', 'on CPU', 25), (5, 'Odd<&>', '"y"', 25)) v(s, t, e, n);

-- the XML nodes of an XPath as xml values
CREATE FUNCTION pgbx_svg_nodes(svg text, path text) RETURNS SETOF xml
LANGUAGE sql AS $$
SELECT unnest(xpath(path, xmlparse(document svg), ARRAY[ARRAY['s', 'http://www.w3.org/2000/svg']]))
$$;
-- the x of each point of a polyline's points
CREATE FUNCTION pgbx_points_x(points text) RETURNS numeric[]
LANGUAGE sql AS $$
SELECT array_agg(split_part(p, ',', 1)::numeric ORDER BY o)
FROM unnest(string_to_array(points, ' ')) WITH ORDINALITY u(p, o)
$$;
-- the stacked bars of a panel: per second, its x range and heights
CREATE FUNCTION pgbx_stack(svg text, panel text)
RETURNS TABLE (second int, x0 numeric, x1 numeric, total numeric, parts text)
LANGUAGE sql AS $$
SELECT (xpath('/*/@data-second', r))[1]::text::int,
       min((xpath('/*/@x', r))[1]::text::numeric),
       max((xpath('/*/@x', r))[1]::text::numeric + (xpath('/*/@width', r))[1]::text::numeric),
       sum((xpath('/*/@height', r))[1]::text::numeric),
       string_agg((xpath('/*/@data-key', r))[1]::text || '=' || (xpath('/*/@height', r))[1]::text, ' '
                  ORDER BY (xpath('/*/@y', r))[1]::text::numeric DESC)
FROM pgbx_svg_nodes(svg, format('//s:g[@data-panel="%s"]/s:rect[@class="stack"]', panel)) r
GROUP BY 1 ORDER BY 1
$$;

CREATE TABLE chart AS SELECT pgbenchx.chart_run(900901) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       pgbx_svg_xpath(svg, '/s:svg/@height') AS height,
       pgbx_svg_xpath(svg, '//s:g[@class="panel"]/@data-panel') AS panels,
       pgbx_svg_xpath(svg, '//s:text[@class="panel-title"]/text()') AS titles,
       pgbx_svg_xpath(svg, 'count(//s:text[@class="panel-note"])') AS notes
FROM chart;
-- the panels lie under the tps chart and one under the other
SELECT pgbx_svg_xpath(svg, '//s:g[@class="panel"]/@data-y0') AS tops,
       pgbx_svg_xpath(svg, '//s:g[@class="panel"]/@data-y1') AS bottoms
FROM chart;
-- the tps line's x: the end of the time each second covered (4.5 s at the right)
SELECT pgbx_points_x(pgbx_svg_xpath(svg, '//s:polyline[@class="tps"]/@points')) AS tps_x FROM chart;
-- every line of the panels has its points at the tps line's x
SELECT (xpath('/*/@data-key', l))[1]::text AS series,
       pgbx_points_x((xpath('/*/@points', l))[1]::text)
         = pgbx_points_x(pgbx_svg_xpath(svg, '//s:polyline[@class="tps"]/@points')) AS aligned_with_tps
FROM chart, pgbx_svg_nodes(svg, '//s:g[@class="panel"]/s:polyline[@class="series"]') l;
-- the stacked bars: each second's bar ends at the tps point's x, starts at
-- the previous one's, and its parts add up to the panel's height (100)
SELECT p.panel, count(*) AS seconds,
       array_agg(b.x1 ORDER BY b.second)
         = pgbx_points_x(pgbx_svg_xpath(c.svg, '//s:polyline[@class="tps"]/@points')) AS ends_aligned,
       bool_and(b.x0 = coalesce(lag_x1, 90)) AS starts_at_previous_end,
       array_agg(b.total ORDER BY b.second) AS totals
FROM chart c, unnest(ARRAY['cpu', 'waits']) p(panel),
     LATERAL (SELECT q.*, lag(q.x1) OVER (ORDER BY q.second) AS lag_x1 FROM pgbx_stack(c.svg, p.panel) q) b
GROUP BY p.panel, c.svg ORDER BY p.panel;
-- the parts, bottom up: CPU by kind (steal only in second 2; second 5's
-- 1.05 scaled to 1, no idle), wait types with CPU first
SELECT 'cpu' AS panel, second, parts FROM chart, pgbx_stack(svg, 'cpu')
UNION ALL
SELECT 'waits', second, parts FROM chart, pgbx_stack(svg, 'waits')
ORDER BY 1, 2;
SELECT pgbx_svg_xpath(svg, '//s:g[@data-panel="waits"]/s:rect[@data-second="5"]/s:title/text()') AS tooltips,
       pgbx_svg_xpath(svg, '//s:g[@data-panel="waits"]//s:text[@class="panel-legend"]/text()') AS legend,
       position('Odd&lt;&amp;&gt;' IN svg) > 0 AND position('Odd<' IN svg) = 0 AS type_escaped
FROM chart;
-- the lines: bytes per second over the time covered (second 5: 0.5 s)
SELECT pgbx_svg_xpath(svg, '//s:g[@data-panel="disk"]//s:text[@class="panel-legend"]/text()') AS disk_legend,
       pgbx_svg_xpath(svg, '//s:g[@data-panel="disk"]/s:text[@class="panel-tick-y"]/text()') AS disk_ticks,
       pgbx_svg_xpath(svg, '//s:g[@data-panel="wal"]/s:circle/s:title/text()') AS wal_tooltips
FROM chart;
SELECT pgbx_svg_xpath(svg, '//s:g[@data-panel="cpu"]/s:text[@class="panel-tick-y"]/text()') AS cpu_ticks,
       pgbx_svg_xpath(svg, '//s:g[@data-panel="cpu"]/s:text[@class="panel-tick-x"]/text()') AS cpu_seconds,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-x"]/text()') AS tps_seconds
FROM chart;
DROP TABLE chart;

-- no panels: not recorded, recorded before 0.3 (as before, with a note)
SELECT run_id, pgbx_svg_xpath(svg, '/s:svg/@height') AS height,
       pgbx_svg_xpath(svg, 'count(//s:g[@class="panel"])') AS panels,
       pgbx_svg_xpath(svg, '//s:text[@class="panel-note"]/text()') AS note
FROM (SELECT r, pgbenchx.chart_run(r) AS svg FROM unnest(ARRAY[900902, 900401]) r) c(run_id, svg);
-- some panels: the CPU only, its steal and iowait NULL; the run's notes say why
CREATE TABLE chart AS SELECT pgbenchx.chart_run(900904) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       pgbx_svg_xpath(svg, '/s:svg/@height') AS height,
       pgbx_svg_xpath(svg, '//s:g[@class="panel"]/@data-panel') AS panels,
       pgbx_svg_xpath(svg, '//s:g[@data-panel="cpu"]//s:text[@class="panel-legend"]/text()') AS cpu_legend,
       position('&lt;pg_wal&gt; &amp; data' IN svg) > 0 AS note_escaped
FROM chart;
SELECT pgbx_svg_xpath(svg, '//s:text[@class="panel-note"]') AS notes FROM chart;
SELECT second, parts FROM chart, pgbx_stack(svg, 'cpu');
DROP TABLE chart;

-- chart_waits: a sweep of 1, 4, 16 and 32 clients; 4 twice (repeats
-- together), a failed run at 16 (not drawn), no run at 32
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label)
VALUES (900009, 'completed', 'tpcb-like', '{1,4,16,32}', 3, 'waits <sweep> & co');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms, repeat)
VALUES (900911, 900009, 'completed', 'tpcb-like', 1, 1, 3, 500, 3, 1),
       (900912, 900009, 'completed', 'tpcb-like', 4, 1, 3, 1500, 4, 1),
       (900914, 900009, 'completed', 'tpcb-like', 4, 1, 3, 1400, 4, 2),
       (900913, 900009, 'completed', 'tpcb-like', 16, 1, 3, 1200, 30, 1),
       (900915, 900009, 'failed', 'tpcb-like', 16, 1, 3, NULL, NULL, 2);
INSERT INTO pgbenchx.wait_samples (run_id, second, wait_event_type, wait_event, samples)
VALUES (900911, 1, 'CPU', 'on CPU', 95), (900911, 1, 'Client', 'ClientRead', 5),
       (900912, 1, 'CPU', 'on CPU', 60), (900912, 1, 'LWLock', 'WALWrite', 30), (900912, 2, 'IO', 'WALSync', 10),
       (900914, 1, 'CPU', 'on CPU', 40), (900914, 1, 'LWLock', 'WALWrite', 50), (900914, 1, 'IO', 'WALSync', 10),
       (900913, 1, 'CPU', 'on CPU', 30), (900913, 1, 'Lock', 'transactionid', 50), (900913, 3, 'LWLock', 'WALWrite', 20),
       (900915, 1, 'Lock', 'transactionid', 1000);
CREATE TABLE chart AS SELECT pgbenchx.chart_waits(900009) AS svg;
SELECT xmlparse(document svg) IS NOT NULL AS well_formed,
       svg NOT LIKE '%<script%' AND svg NOT LIKE '%href%' AS self_contained,
       pgbx_svg_xpath(svg, '//s:text[@class="title"]/text()') AS title,
       pgbx_svg_xpath(svg, '//s:text[@class="subtitle"]/text()') AS subtitle,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-x"]/text()') AS clients_ticks,
       pgbx_svg_xpath(svg, '//s:text[@class="tick-y"]/text()') AS share_ticks
FROM chart;
-- a bar per client count with samples, its parts bottom up adding up to
-- the plot's height (300); 32 clients: no samples
SELECT (xpath('/*/@data-clients', b))[1]::text::int AS clients,
       string_agg((xpath('/*/@data-key', b))[1]::text || '=' || (xpath('/*/@height', b))[1]::text, ' '
                  ORDER BY (xpath('/*/@y', b))[1]::text::numeric DESC) AS parts,
       sum((xpath('/*/@height', b))[1]::text::numeric) AS total
FROM chart, pgbx_svg_nodes(svg, '//s:rect[@class="bar"]') b
GROUP BY 1 ORDER BY 1;
SELECT pgbx_svg_xpath(svg, '//s:rect[@data-clients="4"]/s:title/text()') AS tooltips_4,
       pgbx_svg_xpath(svg, '//s:text[@class="no-data"]/text()') AS no_data,
       pgbx_svg_xpath(svg, '//s:text[@class="legend"]/text()') AS legend,
       pgbx_svg_xpath(svg, '//s:text[@class="axis-title"]/text()') AS axis_titles
FROM chart;
DROP TABLE chart;
-- a sweep without any wait samples: every count says so
SELECT pgbx_svg_xpath(pgbenchx.chart_waits(900004), '//s:text[@class="no-data"]/text()') AS no_data,
       pgbx_svg_xpath(pgbenchx.chart_waits(900004), 'count(//s:rect[@class="bar"])') AS bars;
SELECT pgbx_try('SELECT pgbenchx.chart_waits(NULL)');
SELECT pgbx_try('SELECT pgbenchx.chart_waits(899999)');
SELECT pgbx_try('SELECT pgbenchx.chart_waits(900901)');
DROP FUNCTION pgbx_stack(text, text);
DROP FUNCTION pgbx_points_x(text);
DROP FUNCTION pgbx_svg_nodes(text, text);
DELETE FROM pgbenchx.runs WHERE run_id IN (900901, 900902, 900904);

-- runs over time (issue 37 §3): run_intervals aggregates a run's seconds
-- at any interval; chart_runs draws several runs on one time axis
SELECT * FROM pgbenchx.run_intervals(900401, 3);
SELECT interval_start, seconds, transactions, tps FROM pgbenchx.run_intervals(900401);
SELECT count(*) FROM pgbenchx.run_intervals(900401, 100000);
SELECT pgbx_try('SELECT * FROM pgbenchx.run_intervals(NULL)');
SELECT pgbx_try('SELECT * FROM pgbenchx.run_intervals(900401, 0)');
SELECT pgbx_try('SELECT * FROM pgbenchx.run_intervals(900001, 60)');
SELECT pgbx_try('SELECT * FROM pgbenchx.run_intervals(899999, 60)');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms, label, replay)
VALUES (901601, NULL, 'completed', 'tpcb-like', 16, 2, 4, 2000, 30, 'zfs <lz4> & "sync"', false),
       (901602, NULL, 'completed', 'tpcb-like', 16, 2, 2, 900, 40, NULL, false),
       (901603, NULL, 'completed', 'replay', 4, 1, 2, 50, 3, 'a replay', true);
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, latency_p99_ms)
VALUES (901601, 1, 1900, 1900, 8, 20), (901601, 2, 2100, 2100, 8, 21), (901601, 3, 2000, 2000, 8, 22),
       (901601, 4, 2000, 2000, 8, 23), (901602, 1, 900, 900, 17, 40), (901602, 2, 880, 880, 18, 41),
       (901603, 1, 50, 50, 3, 4), (901603, 2, 52, 52, 3, 4);
CREATE TABLE chart AS SELECT pgbenchx.chart_runs(ARRAY[901601, 901602, 900401]) AS svg;
SELECT pgbx_svg_xpath(svg, '/s:svg/s:text[1]/text()') AS title,
       pgbx_svg_xpath(svg, 'count(//s:polyline)') AS lines,
       pgbx_svg_xpath(svg, '//s:polyline/@stroke') AS colors,
       pgbx_svg_xpath(svg, '//s:text[contains(., "clients)")]/text()') AS legend,
       pgbx_svg_xpath(svg, '//s:text[contains(., "since")]/text()') AS x_title
FROM chart;
-- the points of the first run: x at the end of each second, y its tps
SELECT pgbx_svg_xpath(svg, '//s:polyline[1]/@points') AS points FROM chart;
DROP TABLE chart;
-- per 2 seconds: two points for 901601, one (a dot) for 901602
SELECT pgbx_svg_xpath(c, '/s:svg/s:text[1]/text()') AS title,
       pgbx_svg_xpath(c, 'count(//s:polyline)') AS lines, pgbx_svg_xpath(c, 'count(//s:circle)') AS dots
FROM pgbenchx.chart_runs(ARRAY[901601, 901602, 901601], 2) c;
SELECT pgbx_svg_xpath(pgbenchx.chart_runs(ARRAY[901603], 60), '/s:svg/s:text[1]/text()') AS replay_title;
SELECT pgbx_try('SELECT pgbenchx.chart_runs(NULL)');
SELECT pgbx_try('SELECT pgbenchx.chart_runs(ARRAY[901601, NULL])');
SELECT pgbx_try($$SELECT pgbenchx.chart_runs('{}')$$);
SELECT pgbx_try('SELECT pgbenchx.chart_runs(ARRAY[901601], 0)');
SELECT pgbx_try('SELECT pgbenchx.chart_runs(ARRAY[901601, 900001])');
SELECT pgbx_try('SELECT pgbenchx.chart_runs(ARRAY[901601, 901603])');
SELECT pgbx_try('SELECT pgbenchx.chart_runs(ARRAY[901601, 900504])');
SELECT pgbx_try('SELECT pgbenchx.chart_runs(ARRAY(SELECT generate_series(900101, 900111)::bigint))');
DELETE FROM pgbenchx.runs WHERE run_id IN (901601, 901602, 901603);

DROP FUNCTION pgbx_svg_xpath(text, text);
DELETE FROM pgbenchx.runs WHERE run_id IN (900401, 900402, 900403, 900504);
DELETE FROM pgbenchx.sweeps WHERE sweep_id BETWEEN 900001 AND 900009;
RESET extra_float_digits;
