-- demo/demo.sql: what the bundle does, side by side with stock PostgreSQL.
-- Run by bin/demo in the database pax_demo; safe to run again.
\pset footer off
\set VERBOSITY terse
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 0;
SET jit = off;

\echo
\echo '=== The bundle: three extensions ==='
CREATE EXTENSION IF NOT EXISTS pax_am;
CREATE EXTENSION IF NOT EXISTS sjis_direct;
CREATE EXTENSION IF NOT EXISTS deform_cache;
CREATE EXTENSION IF NOT EXISTS pg_prewarm;
SELECT extname, extversion FROM pg_extension
 WHERE extname IN ('pax_am', 'sjis_direct', 'deform_cache') ORDER BY 1;

\echo
\echo '=== pax: a table access method beside heap ==='
SELECT amname, amhandler FROM pg_am WHERE amtype = 't' ORDER BY 1;

\echo
\echo '--- the 32-column table of the 2014 PAX experiment, 300,000 rows, once as heap and once as pax ---'
DROP TABLE IF EXISTS demo_heap, demo_pax;
SELECT format('CREATE TABLE demo_heap (id int, age int, %s) USING heap',
              string_agg(format('c%s %s', k, CASE WHEN k % 4 = 0 THEN 'text' ELSE 'int8' END), ', '))
  FROM generate_series(3, 32) k \gexec
SELECT format('INSERT INTO demo_heap SELECT i, (hashint4(i) & 1023) %% 100, %s FROM generate_series(1, 300000) i',
              string_agg(CASE WHEN k % 4 = 0 THEN format('''v%s_'' || (i %% 977)', k) ELSE format('i * %s', k) END, ', '))
  FROM generate_series(3, 32) k \gexec
CREATE TABLE demo_pax (LIKE demo_heap) USING pax;
INSERT INTO demo_pax SELECT * FROM demo_heap;
VACUUM (FREEZE, ANALYZE) demo_heap;
VACUUM (FREEZE, ANALYZE) demo_pax;
SELECT pg_prewarm('demo_heap') > 0 AS heap_prewarmed, pg_prewarm('demo_pax') > 0 AS pax_prewarmed;
SELECT c.relname, a.amname, pg_size_pretty(pg_relation_size(c.oid)) AS size
  FROM pg_class c JOIN pg_am a ON a.oid = c.relam
 WHERE c.relname IN ('demo_heap', 'demo_pax') ORDER BY 1;

\echo
\echo '--- a pax page: rows split into one minipage per column (first 6 columns of page 0) ---'
SELECT blkno, nrows, capacity, natts, free_bytes, meta_bytes, zonemaps FROM pax_page_stats('demo_pax') LIMIT 1;
SELECT attname, minipage_bytes, value_bytes, zone_min, zone_max FROM pax_page_columns('demo_pax', 0) LIMIT 6;

\echo
\echo '--- SELECT id FROM t WHERE age = 20: heap evaluates the qual on every formed row ---'
EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF) SELECT id FROM demo_heap WHERE age = 20;
\echo '--- pax: PaxScan evaluates age = 20 on the age minipage, forms only matching rows, only with id ---'
EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF) SELECT id FROM demo_pax WHERE age = 20;

\echo
\echo '--- zone maps: a range on a column correlated with row order skips whole pages ---'
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM demo_pax WHERE id BETWEEN 1000 AND 1999;

\echo
\echo '--- timings (ms, best of 3), heap then pax ---'
CREATE OR REPLACE FUNCTION pg_temp.best_ms(q text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; best numeric := NULL; ms numeric;
BEGIN
    FOR k IN 1..3 LOOP
        t0 := clock_timestamp();
        EXECUTE q;
        ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
        best := least(coalesce(best, ms), ms);
    END LOOP;
    RETURN round(best, 1);
END $$;
SELECT q AS query, pg_temp.best_ms(format(q, 'demo_heap')) AS heap_ms, pg_temp.best_ms(format(q, 'demo_pax')) AS pax_ms
  FROM (VALUES ('SELECT count(id) FROM %s WHERE age = 20'),
               ('SELECT sum(c31) FROM %s'),
               ('SELECT count(*) FROM %s WHERE age BETWEEN 20 AND 29 AND c5 > 0'),
               ('SELECT count(*) FROM %s')) AS v(q);

\echo
\echo '=== deform_cache: what reaching column 31 costs, per plan node ==='
LOAD 'deform_cache';
SET deform_cache.track = on;
SELECT count(x) FROM (SELECT c31 AS x FROM demo_heap OFFSET 0) s;
SELECT node_type, access_method, slot_type, tuples_deformed, attributes_deformed,
       round(attributes_deformed::numeric / greatest(tuples_deformed, 1), 1) AS per_tuple
  FROM deform_cache_last WHERE relid IS NOT NULL;
SELECT count(x) FROM (SELECT c31 AS x FROM demo_pax OFFSET 0) s;
SELECT node_type, access_method, slot_type, tuples_deformed, attributes_deformed,
       round(attributes_deformed::numeric / greatest(tuples_deformed, 1), 1) AS per_tuple
  FROM deform_cache_last WHERE relid IS NOT NULL;
RESET deform_cache.track;

\echo
\echo '=== sjis_direct: EUC_JP <-> SJIS, byte for byte the built-in conversion, faster ==='
SELECT encode((sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis', 'EUC_JP', 'SJIS',
                                       '\x414243c6fccbdcb8eca5c6a5ada5b9a5c8', false)).result, 'hex') AS builtin_sjis,
       encode((sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis', 'EUC_JP', 'SJIS',
                                       '\x414243c6fccbdcb8eca5c6a5ada5b9a5c8', false)).result, 'hex') AS direct_sjis;
\echo 'In an EUC_JP database: CREATE EXTENSION sjis_direct; SELECT sjis_direct.enable();'
\echo 'then sessions with client_encoding SJIS use it (check with SELECT * FROM sjis_direct.status()).'

\echo
\echo 'Connect with psql and try: CREATE TABLE t (a int) USING pax;'
