--
-- pax_am_groupagg: PaxScan's aggregate mode with GROUP BY and numeric
-- sums (scaled integers): every result must equal heap's as text (numeric
-- display scales included), whatever the keys, NULLs, special values,
-- overflow and empty groups.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
\i sql/include/pg_versions.sql

CREATE SCHEMA ga_pax;
CREATE SCHEMA ga_heap;
SET default_table_access_method = pax;
CREATE TABLE ga_pax.t (id int, g4 int, g8 bigint, gd date, gb bool, gc "char",
	gt text, gv varchar(10), gp char(4), i2 smallint, i4 int, i8 bigint,
	n2 numeric(15,2), n4 numeric(12,4), nu numeric, ts timestamp)
	WITH (autovacuum_enabled = off);
INSERT INTO ga_pax.t
SELECT i, i % 7, i % 5 - 2, date '2024-01-01' + i % 3, i % 2 = 0,
	chr(65 + i % 4)::"char", 'k' || (i % 6), 'v' || (i % 4), 'p' || (i % 3),
	(i % 100)::smallint, i * 3, i::bigint * 1000003,
	round((i * 7.31) % 1000, 2), round(i / 7.0, 4),
	CASE i % 5 WHEN 0 THEN 1.5 WHEN 1 THEN 2.25 WHEN 2 THEN 3 ELSE i / 8.0 END,
	timestamp '2024-01-01' + i * interval '1 hour'
FROM generate_series(1, 5000) i;
-- NULLs in keys and values, trailing blanks, special numerics
INSERT INTO ga_pax.t (id, g4, gt, gp, n2, nu) VALUES
	(5001, NULL, NULL, NULL, NULL, NULL),
	(5002, NULL, 'k1', 'p1  ', 1.25, 'NaN'),
	(5003, 3, 'k1 ', 'p1', -7.5, 'Infinity'),
	(5004, 4, 'k9', 'p9', 0, '-Infinity'),
	(5005, 4, 'k9', 'p9', 99999999999.99, 1e30);
RESET default_table_access_method;
CREATE TABLE ga_heap.t WITH (autovacuum_enabled = off) AS SELECT * FROM ga_pax.t;
CREATE TABLE ga_pax.empty (g int, n numeric(10,2)) USING pax;
CREATE TABLE ga_heap.empty (g int, n numeric(10,2)) USING heap;
ANALYZE ga_pax.t, ga_heap.t;
SET max_parallel_workers_per_gather = 0;

-- ga_same(query) runs the query on both schemas and compares the rows as
-- text, so that numeric display scales count
CREATE FUNCTION ga_same(q text)
RETURNS TABLE (pax_rows bigint, heap_rows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	diff bigint;
BEGIN
	EXECUTE 'SET LOCAL search_path = ga_pax, public';
	EXECUTE 'CREATE TEMP TABLE ga_r_pax AS SELECT r::text AS r FROM (' || q || ') r';
	EXECUTE 'SET LOCAL search_path = ga_heap, public';
	EXECUTE 'CREATE TEMP TABLE ga_r_heap AS SELECT r::text AS r FROM (' || q || ') r';
	SELECT count(*) INTO pax_rows FROM ga_r_pax;
	SELECT count(*) INTO heap_rows FROM ga_r_heap;
	SELECT count(*) INTO diff FROM
		((TABLE ga_r_pax EXCEPT ALL TABLE ga_r_heap)
		 UNION ALL (TABLE ga_r_heap EXCEPT ALL TABLE ga_r_pax)) d;
	same := diff = 0;
	DROP TABLE ga_r_pax, ga_r_heap;
	RETURN NEXT;
END
$$;

-- the plan: PaxScan computes the groups
EXPLAIN (COSTS OFF)
SELECT g4, count(*), sum(i4), avg(n2), sum(n2 * (1 - n4) * (1 + n4))
FROM ga_pax.t WHERE id > 10 GROUP BY g4;
EXPLAIN (COSTS OFF)
SELECT gt, gp, sum(n2) FROM ga_pax.t GROUP BY gt, gp ORDER BY gt, gp;
-- HAVING is the scan's qual, over aggregates it adds when the target
-- lacks them; a key that is an expression keeps the usual plan
EXPLAIN (COSTS OFF)
SELECT g4, count(*) FROM ga_pax.t GROUP BY g4 HAVING count(*) > 1 AND sum(n2) > 0;
EXPLAIN (COSTS OFF)
SELECT g4 + 1, count(*) FROM ga_pax.t GROUP BY g4 + 1;

-- keys of each supported type, NULL keys, bpchar trailing blanks
SELECT * FROM ga_same($$SELECT g4, count(*), count(n2), sum(i4), avg(i2), min(i8), max(ts) FROM t GROUP BY g4$$);
SELECT * FROM ga_same($$SELECT g8, gd, count(*), sum(i2), min(gd) FROM t GROUP BY g8, gd$$);
SELECT * FROM ga_same($$SELECT gb, gc, count(*), max(i4) FROM t GROUP BY gb, gc$$);
SELECT * FROM ga_same($$SELECT gt, count(*), sum(n2) FROM t GROUP BY gt$$);
SELECT * FROM ga_same($$SELECT gv, gp, count(*), avg(n4) FROM t GROUP BY gv, gp$$);
SELECT * FROM ga_same($$SELECT gp, count(*) FROM t GROUP BY gp$$);
SELECT * FROM ga_same($$SELECT ts, count(*) FROM t WHERE id < 100 GROUP BY ts$$);

-- numeric sums and averages: scales, expressions, NULLs, NaN and
-- infinities, a sum past 128 bits
SELECT * FROM ga_same($$SELECT g4, sum(n2), avg(n2), sum(n4), avg(n4), sum(nu), avg(nu) FROM t GROUP BY g4$$);
SELECT * FROM ga_same($$SELECT gt, sum(n2 * (1 - n4)), sum(n2 * (1 - n4) * (1 + n4)), sum(n2 - n4 + 2.5) FROM t GROUP BY gt$$);
SELECT * FROM ga_same($$SELECT g4, sum(nu * nu * nu * nu), avg(nu * 1e20 * 1e20) FROM t GROUP BY g4$$);
SELECT * FROM ga_same($$SELECT sum(n2), avg(n2 * n4), sum(nu), count(*) FROM t$$);
SELECT * FROM ga_same($$SELECT sum(n2), avg(nu), count(*) FROM t WHERE id > 5002$$);
SELECT g4, sum(nu), avg(nu) FROM ga_pax.t WHERE id > 5000 GROUP BY g4 ORDER BY g4;
SELECT g4, sum(nu), avg(nu) FROM ga_heap.t WHERE id > 5000 GROUP BY g4 ORDER BY g4;

-- HAVING
SELECT * FROM ga_same($$SELECT g4, count(*) FROM t GROUP BY g4 HAVING sum(n2) > 300000 OR g4 IS NULL$$);
SELECT * FROM ga_same($$SELECT gt FROM t GROUP BY gt HAVING avg(nu) > 100 AND count(*) > 5$$);
SELECT * FROM ga_same($$SELECT sum(i4) FROM t HAVING count(*) > 10$$);
SELECT * FROM ga_same($$SELECT sum(i4) FROM t HAVING count(*) > 100000$$);
SELECT * FROM ga_same($$SELECT g4, (SELECT count(*) FROM t u WHERE u.g4 = t.g4 GROUP BY u.g4 HAVING max(u.i4) > 14000) FROM t GROUP BY g4$$);
SELECT g4 FROM ga_pax.t GROUP BY g4 HAVING sum(i4) / (count(*) - count(*)) > 0;
SELECT g4 FROM ga_heap.t GROUP BY g4 HAVING sum(i4) / (count(*) - count(*)) > 0;

-- pushed clauses with groups; no rows: no groups, or the one row
SELECT * FROM ga_same($$SELECT g4, gt, count(*), sum(n2) FROM t WHERE i4 BETWEEN 300 AND 900 AND gt <> 'k2' GROUP BY g4, gt$$);
SELECT * FROM ga_same($$SELECT g4, count(*), sum(n2) FROM t WHERE id < 0 GROUP BY g4$$);
SELECT * FROM ga_same($$SELECT count(*), sum(n2), avg(n2) FROM t WHERE id < 0$$);
SELECT * FROM ga_same($$SELECT g, count(*), sum(n) FROM empty GROUP BY g$$);
SELECT * FROM ga_same($$SELECT count(*), sum(n) FROM empty$$);

-- many groups (the table grows), and a rescan under a nested loop
SELECT * FROM ga_same($$SELECT id, sum(n2), count(*) FROM t GROUP BY id$$);
SELECT * FROM ga_same($$SELECT x, (SELECT sum(n2) FROM t WHERE g4 = x GROUP BY g4) FROM generate_series(0, 8) x$$);
SELECT * FROM ga_same($$SELECT x, s.* FROM generate_series(1, 3) x, LATERAL (SELECT g4, sum(n4) FROM t WHERE g4 = x GROUP BY g4) s$$);

-- a column added after rows were stored: its default in old pages
ALTER TABLE ga_pax.t ADD COLUMN na numeric(8,3) DEFAULT 1.125;
ALTER TABLE ga_heap.t ADD COLUMN na numeric(8,3) DEFAULT 1.125;
ALTER TABLE ga_pax.t ADD COLUMN ga int DEFAULT 7;
ALTER TABLE ga_heap.t ADD COLUMN ga int DEFAULT 7;
INSERT INTO ga_pax.t (id, g4, na, ga) VALUES (6000, 1, 2.5, 8);
INSERT INTO ga_heap.t (id, g4, na, ga) VALUES (6000, 1, 2.5, 8);
SELECT * FROM ga_same($$SELECT ga, g4, sum(na), avg(na * n2), count(na) FROM t GROUP BY ga, g4$$);

-- group keys stored out of line (toasted) or compressed in line: grouped by
-- value, never by the stored bytes
CREATE TABLE ga_pax.big (id int, k text, kv varchar) USING pax;
INSERT INTO ga_pax.big
SELECT i, CASE WHEN i % 3 = 0 THEN NULL
		WHEN i % 3 = 1 THEN (SELECT string_agg(md5((j * (i % 4))::text), '') FROM generate_series(1, 120) j)
		ELSE repeat('z', 3000 + i % 2) END,
	CASE WHEN i % 2 = 0 THEN repeat('ab', 2000) ELSE 'short' END
FROM generate_series(1, 60) i;
CREATE TABLE ga_heap.big AS SELECT * FROM ga_pax.big;
SELECT * FROM ga_same($$SELECT k, count(*), sum(id), min(id), max(id) FROM big GROUP BY k$$);
SELECT * FROM ga_same($$SELECT kv, length(k), count(*) FROM big GROUP BY kv, k$$);
SELECT count(DISTINCT k) FROM ga_pax.big;

-- keys of up to seven significant bytes are hashed and compared packed in
-- one integer, longer ones as bytes: a key must find its group whichever
-- way it is stored (short header, 4-byte header under STORAGE PLAIN,
-- compressed), around the seven-byte edge, with trailing blanks, NULLs
CREATE TABLE ga_pax.edge (id int, t text, b char(9), i int) USING pax;
INSERT INTO ga_pax.edge
SELECT i, CASE WHEN i % 11 = 0 THEN NULL ELSE left('abcdefghij', 5 + i % 5) END,
	left('xyzxyzxyz', 6 + i % 3), i % 3
FROM generate_series(1, 300) i;
ALTER TABLE ga_pax.edge ALTER COLUMN t SET STORAGE PLAIN;
ALTER TABLE ga_pax.edge ALTER COLUMN b SET STORAGE PLAIN;
INSERT INTO ga_pax.edge
SELECT i, left('abcdefghij', 5 + i % 5), left('xyzxyzxyz', 6 + i % 3), i % 3
FROM generate_series(301, 600) i;
ALTER TABLE ga_pax.edge ALTER COLUMN t SET STORAGE MAIN;
INSERT INTO ga_pax.edge VALUES (601, repeat('abcdefg', 500), 'xyz', 1);
CREATE TABLE ga_heap.edge AS SELECT * FROM ga_pax.edge;
SELECT * FROM ga_same($$SELECT t, count(*), sum(id) FROM edge GROUP BY t$$);
SELECT * FROM ga_same($$SELECT b, i, t, count(*), sum(id) FROM edge GROUP BY b, i, t$$);
SELECT count(*) AS groups FROM (SELECT b, i, t FROM ga_pax.edge GROUP BY b, i, t) g;

-- parallel workers: each participant folds the pages it claims into the
-- aggregates' partial states (counts and int sums as int8, avg of integers
-- as {count, sum}, numeric sums and averages as numeric_avg_serialize's
-- bytea, NaN and infinities counted apart) and a Finalize Aggregate
-- combines them: heap's answers, display scales included
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
SELECT g4, count(*), sum(i4), avg(i2), avg(n2) FROM ga_pax.t WHERE id > 10
GROUP BY g4 HAVING count(*) > 1;
EXPLAIN (COSTS OFF) SELECT count(*), sum(n2) FROM ga_pax.t;
SELECT * FROM ga_same($$SELECT g4, count(*), count(n2), sum(i4), avg(i2), min(i8), max(ts) FROM t GROUP BY g4$$);
SELECT * FROM ga_same($$SELECT g4, sum(n2), avg(n2), sum(n4), avg(n4), sum(nu), avg(nu) FROM t GROUP BY g4$$);
SELECT * FROM ga_same($$SELECT gt, gp, sum(n2 * (1 - n4)), sum(n2 * (1 - n4) * (1 + n4)) FROM t GROUP BY gt, gp$$);
SELECT * FROM ga_same($$SELECT g4, sum(nu * nu * nu * nu), avg(nu * 1e20 * 1e20) FROM t GROUP BY g4$$);
SELECT * FROM ga_same($$SELECT sum(n2), avg(n2 * n4), sum(nu), avg(i4), min(gd), count(*) FROM t$$);
SELECT * FROM ga_same($$SELECT sum(n2), avg(nu), sum(nu), count(*) FROM t WHERE id > 5002$$);
SELECT * FROM ga_same($$SELECT sum(nu), avg(nu) FROM t WHERE id = 5003 OR id < 50$$);
SELECT * FROM ga_same($$SELECT count(*), sum(n2), avg(n2), sum(i2), avg(i2), max(i4) FROM t WHERE id < 0$$);
SELECT * FROM ga_same($$SELECT g4, count(*) FROM t GROUP BY g4 HAVING sum(n2) > 300000 OR g4 IS NULL$$);
SELECT * FROM ga_same($$SELECT count(*), sum(n) FROM empty$$);
SET parallel_leader_participation = off;
SELECT * FROM ga_same($$SELECT g4, sum(n2), avg(nu), avg(i2), count(*) FROM t GROUP BY g4$$);
SELECT * FROM ga_same($$SELECT sum(n2), avg(nu), avg(i2), count(*) FROM t$$);
RESET parallel_leader_participation;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- the groups HAVING is expected to pass, as heap's Agg node estimates them
-- (cost_agg): an estimate of every group made TPC-H Q18 join lineitem
-- with orders first and the 57 groups last (3.5 s against 0.9 s)
CREATE FUNCTION ga_est(q text, schema text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	node json;
BEGIN
	EXECUTE format('SET LOCAL search_path = %I, public', schema);
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO node;
	RETURN (node -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
EXPLAIN (COSTS OFF) SELECT id, sum(n2) FROM ga_pax.t GROUP BY id HAVING sum(n2) > 900;
-- (the share of the groups: the two tables' row estimates differ)
SELECT round((ga_est(q, 'ga_pax') / ga_est(g, 'ga_pax'))::numeric, 2) AS pax_share,
       round((ga_est(q, 'ga_heap') / ga_est(g, 'ga_heap'))::numeric, 2) AS heap_share
  FROM (VALUES ('SELECT id, sum(n2) FROM t GROUP BY id HAVING sum(n2) > 900',
                'SELECT id, sum(n2) FROM t GROUP BY id'),
               ('SELECT g4, count(*) FROM t GROUP BY g4 HAVING count(*) > 1 AND sum(n2) < 5',
                'SELECT g4, count(*) FROM t GROUP BY g4')) v(q, g);
DROP FUNCTION ga_est(text, text);

-- the aggregate mode off: same answers through the usual plan
SET pax.enable_aggpushdown = off;
SELECT * FROM ga_same($$SELECT gt, sum(n2 * (1 - n4)), avg(nu) FROM t GROUP BY gt$$);
RESET pax.enable_aggpushdown;

DROP SCHEMA ga_pax CASCADE;
DROP SCHEMA ga_heap CASCADE;
DROP FUNCTION ga_same(text);
