--
-- pax_am_aggregate: count, sum, avg, min, max, bool_and and bool_or of a
-- whole pax table, computed by PaxScan on the minipages, equal to heap's in
-- every case
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
\getenv abs_srcdir PG_ABS_SRCDIR
\set pg_versions :abs_srcdir '/sql/include/pg_versions.sql'
\i :pg_versions
SET max_parallel_workers_per_gather = 0;

CREATE TABLE ag_heap (id int, s int2, i int4, b int8, d date, ts timestamp,
                      tz timestamptz, t text, n int4) USING heap;
INSERT INTO ag_heap
SELECT g, (g % 300 - 150)::int2, CASE WHEN g % 7 = 0 THEN NULL ELSE g * 37 % 100000 - 50000 END,
       g::int8 * 1000003, date '2000-01-01' + g % 5000,
       timestamp '2000-01-01' + g * interval '17 minutes',
       timestamptz '2000-01-01 00:00+00' + g * interval '19 minutes',
       'row ' || g, NULL
  FROM generate_series(1, 20000) g;
CREATE TABLE ag_pax (LIKE ag_heap) USING pax WITH (autovacuum_enabled = off);
INSERT INTO ag_pax SELECT * FROM ag_heap;
-- rows of aborted, deleted and updated versions must not count
BEGIN;
INSERT INTO ag_pax SELECT * FROM ag_heap WHERE id <= 500;
ROLLBACK;
DELETE FROM ag_pax WHERE id % 11 = 0;
DELETE FROM ag_heap WHERE id % 11 = 0;
UPDATE ag_pax SET i = i + 1, s = -s WHERE id % 13 = 0;
UPDATE ag_heap SET i = i + 1, s = -s WHERE id % 13 = 0;
-- a column added later: old pages read its default
ALTER TABLE ag_pax ADD COLUMN k int DEFAULT 5;
ALTER TABLE ag_heap ADD COLUMN k int DEFAULT 5;
INSERT INTO ag_pax (id, i, k) VALUES (30001, 1, NULL), (30002, 2, 9);
INSERT INTO ag_heap (id, i, k) VALUES (30001, 1, NULL), (30002, 2, 9);
ANALYZE ag_heap, ag_pax;

-- the pushed-down plan
EXPLAIN (COSTS OFF)
SELECT count(*), sum(i), avg(s), min(d), max(ts) FROM ag_pax;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ag_pax WHERE i BETWEEN 100 AND 200 OR i IS NULL;

-- a query on both tables (%I); the results must be equal
CREATE FUNCTION ag_same(q text, pax_table text DEFAULT 'ag_pax',
                        heap_table text DEFAULT 'ag_heap')
RETURNS TABLE (pax text, same bool)
LANGUAGE plpgsql AS $$
DECLARE
    p text; h text;
BEGIN
    EXECUTE format(q, pax_table) INTO p;
    EXECUTE format(q, heap_table) INTO h;
    pax := p;
    same := p IS NOT DISTINCT FROM h;
    RETURN NEXT;
END $$;

SELECT * FROM ag_same('SELECT (count(*), count(i), sum(i), sum(s), avg(i), avg(s))::text FROM %I');
SELECT * FROM ag_same('SELECT (min(s), max(s), min(i), max(i), min(b), max(b))::text FROM %I');
SELECT * FROM ag_same('SELECT (min(d), max(d), min(ts), max(ts), min(tz), max(tz))::text FROM %I');
SELECT * FROM ag_same('SELECT (count(n), sum(n), avg(n), min(n), max(n))::text FROM %I');
SELECT * FROM ag_same('SELECT (count(k), sum(k), avg(k), min(k), max(k))::text FROM %I');
SELECT * FROM ag_same('SELECT (count(*), sum(i), max(d))::text FROM %I WHERE id BETWEEN 100 AND 5000');
SELECT * FROM ag_same('SELECT (count(*), sum(s))::text FROM %I WHERE i IS NULL');
SELECT * FROM ag_same('SELECT (count(*), min(id))::text FROM %I WHERE i IN (1, 2, 3, 4, 5) OR s = 7');
SELECT * FROM ag_same('SELECT (count(*), sum(i))::text FROM %I WHERE t >= ''row 5'' AND t < ''row 6''');
SELECT * FROM ag_same('SELECT (count(*), sum(i), avg(i), min(i))::text FROM %I WHERE id < 0');
SELECT * FROM ag_same('SELECT (sum(i) / count(*) + 1, count(*) * 2)::text FROM %I');
SELECT * FROM ag_same('SELECT (count(*), count(i))::text FROM %I WHERE d = date ''2005-06-01''');

-- an empty table, a table of no columns
CREATE TABLE ag_empty (a int) USING pax;
SELECT count(*), count(a), sum(a), avg(a), min(a), max(a) FROM ag_empty;
CREATE TABLE ag_nocols () USING pax;
INSERT INTO ag_nocols SELECT FROM generate_series(1, 10);
SELECT count(*) FROM ag_nocols;

-- in a transaction: its own inserts and deletes count, others' do not
BEGIN;
INSERT INTO ag_pax (id, i) SELECT g, 1 FROM generate_series(40001, 40100) g;
DELETE FROM ag_pax WHERE id <= 100;
SELECT count(*), sum(i) FILTER (WHERE true) IS NOT NULL AS has_sum FROM ag_pax;
SELECT count(*) FROM ag_pax;
ROLLBACK;
SELECT * FROM ag_same('SELECT count(*)::text FROM %I');

-- GROUP BY is computed too (pax_am_groupagg); what stays with the usual
-- plan: DISTINCT, FILTER, expressions of columns, parameters, other
-- aggregates, clauses not pushable
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag_pax GROUP BY s;
EXPLAIN (COSTS OFF) SELECT count(DISTINCT s) FROM ag_pax;
EXPLAIN (COSTS OFF) SELECT sum(i + 1) FROM ag_pax;
EXPLAIN (COSTS OFF) SELECT sum(b) FROM ag_pax;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag_pax WHERE i + 1 = 5;
PREPARE ag_p(int) AS SELECT count(*) FROM ag_pax WHERE i > $1;
EXECUTE ag_p(0);
SELECT count(*) FROM ag_heap WHERE i > 0;
EXPLAIN (COSTS OFF) EXECUTE ag_p(0);
DEALLOCATE ag_p;
SET pax.enable_aggpushdown = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag_pax;
SELECT * FROM ag_same('SELECT (count(*), sum(i), min(ts))::text FROM %I');
RESET pax.enable_aggpushdown;

-- inside subqueries, views and joins the relation is still the right one
CREATE VIEW ag_v AS SELECT count(*) AS c, sum(i) AS s FROM ag_pax;
SELECT v.c = (SELECT count(*) FROM ag_heap) AS same_count,
       v.s = (SELECT sum(i) FROM ag_heap) AS same_sum
  FROM (SELECT 1) x, ag_v v;
SELECT (SELECT count(*) FROM ag_pax WHERE id < 1000) AS pax,
       (SELECT count(*) FROM ag_heap WHERE id < 1000) AS heap;
WITH c AS (SELECT max(d) AS m FROM ag_pax)
SELECT c.m = (SELECT max(d) FROM ag_heap) AS same FROM c;

-- EXPLAIN ANALYZE shows the filter's work and the pages zone maps skip
CREATE TABLE ag_sorted (a int, b int) USING pax WITH (autovacuum_enabled = off);
INSERT INTO ag_sorted SELECT g, g % 10 FROM generate_series(1, 50000) g;
VACUUM ANALYZE ag_sorted;
SELECT explain_analyze($$SELECT count(*), sum(b) FROM ag_sorted WHERE a BETWEEN 1000 AND 1999$$);
SELECT count(*), sum(b) FROM ag_sorted WHERE a BETWEEN 1000 AND 1999;

-- the aggregate scan reads the whole table, as a sequential scan does:
-- enable_seqscan = off discourages it, so an index plan wins even on a
-- small table, and under SERIALIZABLE the query then takes the index
-- plan's page and row SIREAD locks, not the whole relation's (as heap's)
CREATE TABLE ag_small (id int4, p int) USING pax WITH (autovacuum_enabled = off);
CREATE INDEX ag_small_p ON ag_small (p);
INSERT INTO ag_small SELECT g, g / 10 * 10 FROM generate_series(1, 40) g;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*), sum(p) FROM ag_small WHERE p = 20;
SELECT count(*), sum(p) FROM ag_small WHERE p = 20;
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT count(*), sum(p) FROM ag_small WHERE p = 20;
SELECT locktype, count(*) FROM pg_locks
  WHERE mode = 'SIReadLock' AND pid = pg_backend_pid()
    AND relation = 'ag_small'::regclass
  GROUP BY 1 ORDER BY 1;
COMMIT;
-- without a usable index a PaxScan still reads it (disabled, as a Seq Scan)
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag_small WHERE id = 3;
RESET enable_seqscan;
-- index paths are charged for pages in memory as PaxScan is
-- (pax_indexcost.c): on a table this small the index still wins
EXPLAIN (COSTS OFF) SELECT count(*), sum(p) FROM ag_small WHERE p = 20;

-- bool_and, every and bool_or of bool columns: a never NULL (false in
-- group 0 only), f mixed (false in some groups, NULL in others, and in
-- every row of group 4), t true or NULL, x false or NULL, n NULL in every
-- row, k added later (its default on old pages); NULL without a non-null
-- value, as heap's
CREATE TABLE ag_bheap (id int, g int, a bool, f bool, t bool, x bool, n bool) USING heap;
INSERT INTO ag_bheap
SELECT i, i % 5, i % 4000 <> 0,
       CASE WHEN i % 5 = 4 OR i % 7 = 0 THEN NULL ELSE i % 997 <> 0 END,
       CASE WHEN i % 3 = 0 THEN NULL ELSE true END,
       CASE WHEN i % 3 = 1 THEN NULL ELSE false END,
       NULL
  FROM generate_series(1, 20000) i;
CREATE TABLE ag_bpax (LIKE ag_bheap) USING pax WITH (autovacuum_enabled = off);
INSERT INTO ag_bpax SELECT * FROM ag_bheap;
BEGIN;
INSERT INTO ag_bpax SELECT id, g, false, false, false, true, true FROM ag_bheap WHERE id <= 500;
ROLLBACK;
DELETE FROM ag_bpax WHERE id % 997 = 0 AND g = 1;
DELETE FROM ag_bheap WHERE id % 997 = 0 AND g = 1;
UPDATE ag_bpax SET f = false WHERE id = 10003;
UPDATE ag_bheap SET f = false WHERE id = 10003;
ALTER TABLE ag_bpax ADD COLUMN k bool DEFAULT true;
ALTER TABLE ag_bheap ADD COLUMN k bool DEFAULT true;
INSERT INTO ag_bpax (id, g, k) VALUES (30001, 5, NULL), (30002, 6, false);
INSERT INTO ag_bheap (id, g, k) VALUES (30001, 5, NULL), (30002, 6, false);
ANALYZE ag_bheap, ag_bpax;

EXPLAIN (COSTS OFF)
SELECT bool_and(f), bool_or(f), every(t), bool_or(x) FROM ag_bpax;
EXPLAIN (COSTS OFF)
SELECT g, bool_and(f), bool_or(f) FROM ag_bpax WHERE id > 100 GROUP BY g;
SELECT * FROM ag_same('SELECT (bool_and(f), bool_or(f), every(f), count(f))::text FROM %I', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT (bool_and(a), bool_or(a), every(a), count(a))::text FROM %I', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT (bool_and(a), bool_or(a))::text FROM %I WHERE id > 4000 AND id < 8000', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT (bool_and(t), bool_or(t), bool_and(x), bool_or(x))::text FROM %I', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT (bool_and(n), bool_or(n), every(n), count(n))::text FROM %I', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT (bool_and(k), bool_or(k), every(k), count(k))::text FROM %I', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT (bool_and(f), bool_or(f), count(*))::text FROM %I WHERE id < 0', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT (bool_and(f), bool_or(f), bool_and(t))::text FROM %I WHERE g = 4', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT (bool_and(f), bool_or(x))::text FROM %I WHERE id BETWEEN 990 AND 1000 AND f', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT string_agg(r::text, '';'' ORDER BY r::text) FROM (SELECT g, bool_and(a), bool_and(f), bool_or(f), every(t), bool_or(x), bool_and(n), bool_or(k), count(f) FROM %I GROUP BY g) r', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT string_agg(r::text, '';'' ORDER BY r::text) FROM (SELECT f, bool_and(t), bool_or(x), count(*) FROM %I GROUP BY f) r', 'ag_bpax', 'ag_bheap');
SELECT * FROM ag_same('SELECT string_agg(r::text, '';'' ORDER BY r::text) FROM (SELECT g, bool_or(f) FROM %I GROUP BY g HAVING bool_and(f) IS NOT TRUE) r', 'ag_bpax', 'ag_bheap');
SELECT g, bool_and(a), bool_and(f), bool_or(f), every(t), bool_or(x), bool_and(n), bool_or(k)
  FROM ag_bpax GROUP BY g ORDER BY g;
CREATE TABLE ag_bempty (g int, b bool) USING pax;
SELECT bool_and(b), bool_or(b), every(b), count(*) FROM ag_bempty;
SELECT g, bool_and(b), bool_or(b) FROM ag_bempty GROUP BY g;
-- parallel workers return each group's bool (NULL without a value), the
-- Finalize Aggregate combines them with booland_statefunc/boolor_statefunc
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
SELECT g, bool_and(a), bool_and(f), bool_or(f), every(t), bool_or(x), bool_and(n), bool_or(k) FROM ag_bpax GROUP BY g;
EXPLAIN (COSTS OFF)
SELECT bool_and(f), bool_or(f), every(t), bool_or(x), bool_and(n) FROM ag_bpax;
SELECT string_agg(r::text, ';' ORDER BY r::text) AS heap
  FROM (SELECT g, bool_and(a), bool_and(f), bool_or(f), every(t), bool_or(x), bool_and(n), bool_or(k) FROM ag_bheap GROUP BY g) r \gset groups_
SELECT string_agg(r::text, ';' ORDER BY r::text) = :'groups_heap' AS same
  FROM (SELECT g, bool_and(a), bool_and(f), bool_or(f), every(t), bool_or(x), bool_and(n), bool_or(k) FROM ag_bpax GROUP BY g) r;
SELECT (bool_and(a), bool_and(f), bool_or(f), every(t), bool_or(x), bool_and(n), bool_or(k))::text AS heap FROM ag_bheap \gset
SELECT (bool_and(a), bool_and(f), bool_or(f), every(t), bool_or(x), bool_and(n), bool_or(k))::text = :'heap' AS same FROM ag_bpax;
SELECT (bool_and(f), bool_or(f))::text AS heap FROM ag_bheap WHERE id < 0 \gset
SELECT (bool_and(f), bool_or(f))::text = :'heap' AS same FROM ag_bpax WHERE id < 0;
SET parallel_leader_participation = off;
SELECT string_agg(r::text, ';' ORDER BY r::text) = :'groups_heap' AS same
  FROM (SELECT g, bool_and(a), bool_and(f), bool_or(f), every(t), bool_or(x), bool_and(n), bool_or(k) FROM ag_bpax GROUP BY g) r;
RESET parallel_leader_participation;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

DROP VIEW ag_v;
DROP TABLE ag_heap, ag_pax, ag_empty, ag_nocols, ag_sorted, ag_small;
DROP TABLE ag_bheap, ag_bpax, ag_bempty;
DROP FUNCTION ag_same;
