--
-- pax_am_joinfilter: runtime join filters.  A hash join's built table
-- drops rows of the PaxScan on its probe side before rows are formed;
-- every result must equal heap's, whatever the join type, key types,
-- NULLs, batches, rescans, parallel workers or errors.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
\i sql/include/pg_versions.sql
-- rows one at a time, so that the tables' pages, and the plans the expected
-- output shows on 15 and 18, do not change with how batches fill pages
SET pax.batch_bulk_inserts = off;

-- the same tables in two schemas, pax and heap
CREATE SCHEMA jf_pax;
CREATE SCHEMA jf_heap;
SET default_table_access_method = pax;
CREATE TABLE jf_pax.fact (id int, k4 int, k8 bigint, k2 smallint, kt text,
	kb char(4), kd date, kn numeric, v int) WITH (autovacuum_enabled = off);
CREATE TABLE jf_pax.dim (k4 int, k2 smallint, kt text, kb char(4), kd date,
	kn numeric, grp int, name text) WITH (autovacuum_enabled = off);
CREATE TABLE jf_pax.dim2 (k8 bigint, grp int) WITH (autovacuum_enabled = off);
CREATE TABLE jf_pax.fact2 (k4 int, w int) WITH (autovacuum_enabled = off);
INSERT INTO jf_pax.fact
SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE i % 1000 END,
	i % 1500, (i % 300)::smallint, 't' || (i % 700), 'b' || (i % 50),
	date '2020-01-01' + i % 400, (i % 800) / 4.0, i % 7
FROM generate_series(1, 20000) i;
INSERT INTO jf_pax.dim
SELECT i * 10, (i * 3)::smallint, 't' || (i * 7), 'b' || (i % 5),
	date '2020-01-01' + i * 9, i / 2.0, i % 4, 'n' || i
FROM generate_series(1, 60) i;
INSERT INTO jf_pax.dim VALUES (NULL, NULL, NULL, NULL, NULL, NULL, 0, 'null keys');
INSERT INTO jf_pax.dim2 SELECT i * 13, i % 3 FROM generate_series(1, 80) i;
INSERT INTO jf_pax.fact2 SELECT i * 7 % 1200, i FROM generate_series(1, 2000) i;
RESET default_table_access_method;
CREATE TABLE jf_heap.fact AS SELECT * FROM jf_pax.fact;
CREATE TABLE jf_heap.dim AS SELECT * FROM jf_pax.dim;
CREATE TABLE jf_heap.dim2 AS SELECT * FROM jf_pax.dim2;
CREATE TABLE jf_heap.fact2 AS SELECT * FROM jf_pax.fact2;
ANALYZE jf_pax.fact, jf_pax.dim, jf_pax.dim2, jf_pax.fact2, jf_heap.fact, jf_heap.dim,
	jf_heap.dim2, jf_heap.fact2;

-- hash joins, serial, unless a test says otherwise
SET enable_mergejoin = off;
SET enable_nestloop = off;
SET max_parallel_workers_per_gather = 0;

-- jf_same(query) runs the query on both schemas: rows, pax, heap, same
CREATE FUNCTION jf_same(q text)
RETURNS TABLE (pax_rows bigint, heap_rows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	diff bigint;
BEGIN
	EXECUTE 'SET LOCAL search_path = jf_pax, public';
	EXECUTE 'CREATE TEMP TABLE jf_r_pax AS ' || q;
	EXECUTE 'SET LOCAL search_path = jf_heap, public';
	EXECUTE 'CREATE TEMP TABLE jf_r_heap AS ' || q;
	SELECT count(*) INTO pax_rows FROM jf_r_pax;
	SELECT count(*) INTO heap_rows FROM jf_r_heap;
	SELECT count(*) INTO diff FROM
		((TABLE jf_r_pax EXCEPT ALL TABLE jf_r_heap)
		 UNION ALL (TABLE jf_r_heap EXCEPT ALL TABLE jf_r_pax)) d;
	same := diff = 0;
	DROP TABLE jf_r_pax, jf_r_heap;
	RETURN NEXT;
END
$$;

-- the filter is attached to the probe side's PaxScan, and shown
SET search_path = jf_pax, public;
EXPLAIN (COSTS OFF)
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k4 = d.k4 WHERE f.v > 2;
SELECT * FROM explain_analyze($$
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k4 = d.k4$$);
SET pax.enable_joinfilter = off;
EXPLAIN (COSTS OFF)
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k4 = d.k4;
RESET pax.enable_joinfilter;
RESET search_path;

-- the planner costs the filter (serial plans): the PaxScan under the hash
-- join is estimated to return only the rows the filter lets through
CREATE FUNCTION jf_outer_rows(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	j json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
	RETURN (j->0->'Plan'->'Plans'->0->>'Plan Rows')::float8;
END
$$;
SELECT jf_outer_rows($$SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d
	ON f.k4 = d.k4 WHERE d.grp = 1$$) < 5000 AS filter_costed;
SET pax.enable_joinfilter = off;
SELECT jf_outer_rows($$SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d
	ON f.k4 = d.k4 WHERE d.grp = 1$$) AS unfiltered;
RESET pax.enable_joinfilter;
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.k4 = d.k4 WHERE d.grp = 1$$);

-- key types: int4, int8 against int4 (one hash family), int2, text,
-- bpchar, date and numeric (the hash function called per row)
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.k8 = d.k4$$);
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.k2 = d.k2$$);
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.kt = d.kt$$);
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.kb = d.kb$$);
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.kd = d.kd$$);
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.kn = d.kn$$);
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.k8 = d.k4 + 5000000000$$);

-- integer keys are held exactly where their values span few bits: keys
-- at and around the set's bounds, negative ones, cross-type equality, and
-- sets too sparse for a bitmap (the Bloom filter, with the same results)
CREATE TABLE jf_pax.ik (a2 int2, a4 int4, a8 int8, ad date) USING pax
	WITH (autovacuum_enabled = off);
INSERT INTO jf_pax.ik SELECT i % 32000, i - 5000, i::int8 * (CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END),
	date '2000-01-01' + i FROM generate_series(-5000, 5000) i;
INSERT INTO jf_pax.ik VALUES (NULL, NULL, NULL, NULL), (-32768, -2147483648, -9223372036854775808, '-infinity'),
	(32767, 2147483647, 9223372036854775807, 'infinity');
CREATE TABLE jf_heap.ik AS SELECT * FROM jf_pax.ik;
CREATE TABLE jf_pax.ikeys (k int8, k4 int4, k2 int2, d date) USING pax
	WITH (autovacuum_enabled = off);
INSERT INTO jf_pax.ikeys SELECT k, k, k, date '2000-01-01' + k::int4
	FROM unnest(ARRAY[-9995, -10, -5, 0, 7, 4999, 5000, NULL]) k;
CREATE TABLE jf_heap.ikeys AS SELECT * FROM jf_pax.ikeys;
ANALYZE jf_pax.ik, jf_heap.ik, jf_pax.ikeys, jf_heap.ikeys;
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.a2 = k.k$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.a4 = k.k$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.a8 = k.k$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.a8 = k.k4$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.a4 = k.k2$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.a2 = k.k2$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.a2 = k.k4$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.ad = k.d$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.ad = k.d + 1$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN (SELECT k * 1000000000000 AS k FROM ikeys) k ON i.a8 = k.k$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN (SELECT a8 AS k FROM ik WHERE a8 IN (-9223372036854775808, 9223372036854775807, 0, 17)) k ON i.a8 = k.k$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN (SELECT a4 AS k FROM ik WHERE a4 IN (-2147483648, 2147483647, 0, -17)) k ON i.a4 = k.k$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN (SELECT ad AS d FROM ik WHERE ad IN ('-infinity', '2000-01-01', '2000-01-17')) k ON i.ad = k.d$$);
SELECT * FROM jf_same($$SELECT i.* FROM ik i JOIN ikeys k ON i.a4 = k.k WHERE k.k > 10000$$);
SELECT * FROM jf_same($$SELECT i.a4, k.k FROM ik i RIGHT JOIN ikeys k ON i.a4 = k.k$$);
SELECT * FROM explain_analyze($$
SELECT i.* FROM jf_pax.ik i JOIN jf_pax.ikeys k ON i.a4 = k.k$$);
DROP TABLE jf_pax.ik, jf_heap.ik, jf_pax.ikeys, jf_heap.ikeys;

-- two keys from the scan; a key that is an expression gets no filter
SELECT * FROM jf_same($$SELECT f.id, d.k4 FROM fact f JOIN (SELECT DISTINCT k4, k2 FROM fact WHERE id % 13 = 0) d ON f.k4 = d.k4 AND f.k2 = d.k2$$);
EXPLAIN (COSTS OFF)
SELECT f.id, d.k4 FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4 AND f.k2 = d.k2;
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.k4 + 0 = d.k4$$);
EXPLAIN (COSTS OFF)
SELECT f.id, d.name FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 + 0 = d.k4;

-- join types: semi, right (dim preserved), and those that get no filter
-- (left with the fact preserved, anti, full)
SELECT * FROM jf_same($$SELECT f.id FROM fact f WHERE EXISTS (SELECT FROM dim d WHERE d.k4 = f.k4)$$);
SELECT * FROM jf_same($$SELECT f.id FROM fact f WHERE f.kt IN (SELECT kt FROM dim)$$);
SELECT * FROM jf_same($$SELECT d.name, f.id FROM dim d LEFT JOIN fact f ON f.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f LEFT JOIN dim d ON f.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT f.id FROM fact f WHERE NOT EXISTS (SELECT FROM dim d WHERE d.k4 = f.k4)$$);
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f FULL JOIN dim d ON f.k4 = d.k4$$);
EXPLAIN (COSTS OFF)
SELECT d.name, f.id FROM jf_pax.dim d LEFT JOIN jf_pax.fact f ON f.k4 = d.k4;
EXPLAIN (COSTS OFF)
SELECT f.id FROM jf_pax.fact f WHERE NOT EXISTS (SELECT FROM jf_pax.dim d WHERE d.k4 = f.k4);

-- a chain: both joins filter the fact, the upper one through the lower
SELECT * FROM jf_same($$SELECT f.id, d.name, g.grp FROM fact f JOIN dim d ON f.k4 = d.k4 JOIN dim2 g ON f.k8 = g.k8$$);
EXPLAIN (COSTS OFF)
SELECT f.id, d.name, g.grp FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4
	JOIN jf_pax.dim2 g ON f.k8 = g.k8;
-- through a left join that preserves the fact
SELECT * FROM jf_same($$SELECT f.id, d.name, g.grp FROM fact f LEFT JOIN dim d ON f.k4 = d.k4 JOIN dim2 g ON f.k8 = g.k8$$);

-- through the unique-ified side of a semi join: an Agg without aggregates
-- or a Unique grouping by the key (hashed, sorted), and a Sort
SELECT * FROM jf_same($$SELECT u.k4, d.name FROM (SELECT DISTINCT k4 FROM fact) u JOIN dim d ON u.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT u.k4, u.k2, d.name FROM (SELECT k4, k2 FROM fact WHERE v > 2 GROUP BY k4, k2) u JOIN dim d ON u.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT d.name FROM dim d WHERE d.kt IN (SELECT kt FROM fact WHERE v < 3)$$);
EXPLAIN (COSTS OFF)
SELECT u.k4, d.name FROM (SELECT DISTINCT k4 FROM jf_pax.fact) u JOIN jf_pax.dim d ON u.k4 = d.k4;
SET enable_hashagg = off;
SELECT * FROM jf_same($$SELECT u.k4, d.name FROM (SELECT DISTINCT k4 FROM fact) u JOIN dim d ON u.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT u.k4, d.name FROM (SELECT k4 FROM fact GROUP BY k4) u JOIN dim d ON u.k4 = d.k4$$);
EXPLAIN (COSTS OFF)
SELECT u.k4, d.name FROM (SELECT DISTINCT k4 FROM jf_pax.fact) u JOIN jf_pax.dim d ON u.k4 = d.k4;
-- not through: a Unique that does not group by the key (DISTINCT ON keeps
-- the first row of each k2, whatever its k4), an Agg with aggregates, a key
-- that is an aggregate's result
SELECT * FROM jf_same($$SELECT u.k2, u.k4, d.name FROM (SELECT DISTINCT ON (k2) k2, k4 FROM fact ORDER BY k2, k4) u JOIN dim d ON u.k4 = d.k4$$);
EXPLAIN (COSTS OFF)
SELECT u.k2, u.k4, d.name FROM (SELECT DISTINCT ON (k2) k2, k4 FROM jf_pax.fact ORDER BY k2, k4) u JOIN jf_pax.dim d ON u.k4 = d.k4;
RESET enable_hashagg;
SET pax.enable_aggpushdown = off;
SELECT * FROM jf_same($$SELECT u.k4, u.n, d.name FROM (SELECT k4, count(*) n FROM fact GROUP BY k4) u JOIN dim d ON u.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT u.m, d.name FROM (SELECT max(k4) m FROM fact GROUP BY k2) u JOIN dim d ON u.m = d.k4$$);
EXPLAIN (COSTS OFF)
SELECT u.k4, u.n, d.name FROM (SELECT k4, count(*) n FROM jf_pax.fact GROUP BY k4) u JOIN jf_pax.dim d ON u.k4 = d.k4;
RESET pax.enable_aggpushdown;
-- not through a grouping coarser than the join's equality (a case-blind
-- collation against "C"): a group's value is its first row's, which a
-- filter could drop while keeping a row the join would match
CREATE COLLATION jf_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE jf_pax.ci (t text COLLATE jf_ci, n int) USING pax WITH (autovacuum_enabled = off);
INSERT INTO jf_pax.ci VALUES ('A', 1), ('a', 2), ('B', 3), ('b', 4), ('c', 5);
INSERT INTO jf_pax.ci SELECT 'x' || i, i FROM generate_series(1, 2000) i;
CREATE TABLE jf_heap.ci (t text COLLATE jf_ci, n int) USING heap;
INSERT INTO jf_heap.ci SELECT * FROM jf_pax.ci;
CREATE TABLE jf_pax.cik (t text) USING pax WITH (autovacuum_enabled = off);
INSERT INTO jf_pax.cik VALUES ('a'), ('b');
CREATE TABLE jf_heap.cik AS SELECT * FROM jf_pax.cik;
ANALYZE jf_pax.ci, jf_heap.ci, jf_pax.cik, jf_heap.cik;
SELECT * FROM jf_same($$SELECT u.t FROM (SELECT DISTINCT t FROM ci) u JOIN cik k ON u.t = k.t COLLATE "C"$$);
SELECT * FROM jf_same($$SELECT u.t FROM (SELECT DISTINCT t FROM ci) u JOIN cik k ON u.t = k.t$$);
EXPLAIN (COSTS OFF)
SELECT u.t FROM (SELECT DISTINCT t FROM jf_pax.ci) u JOIN jf_pax.cik k ON u.t = k.t COLLATE "C";
DROP TABLE jf_pax.ci, jf_heap.ci, jf_pax.cik, jf_heap.cik;
DROP COLLATION jf_ci;
-- rescans: the hashed Agg keeps its groups while the join's table changes
-- per outer row, so no filter goes through it
EXPLAIN (COSTS OFF)
SELECT x, (SELECT count(*) FROM (SELECT DISTINCT k4 FROM jf_pax.fact) u JOIN (SELECT k4 FROM jf_pax.dim WHERE k4 < x) d ON u.k4 = d.k4) FROM generate_series(0, 600, 100) x;
SELECT * FROM jf_same($$SELECT x, (SELECT count(*) FROM (SELECT DISTINCT k4 FROM fact) u JOIN (SELECT k4 FROM dim WHERE k4 < x) d ON u.k4 = d.k4) FROM generate_series(0, 600, 100) x$$);
SELECT * FROM jf_same($$SELECT g.grp, (SELECT count(*) FROM (SELECT DISTINCT k4 FROM fact) u JOIN dim d ON u.k4 = d.k4 WHERE d.grp = g.grp) FROM dim2 g$$);

-- the inner side filtered by the outer side's keys: a big pax table hashed
-- under a small, cheap outer PaxScan (semi, inner, left and anti joins;
-- not right or full joins, whose unmatched inner rows are kept).  Plans
-- are shown under "parallel workers" below: serial plans of 18 hash the
-- small side of a semi join (Hash Right Semi Join) instead.
SET enable_hashagg = off;
SET enable_sort = off;
SELECT * FROM jf_same($$SELECT d.name FROM dim d WHERE d.k4 IN (SELECT k4 FROM fact WHERE v > 1)$$);
SELECT * FROM jf_same($$SELECT d.name FROM dim d WHERE d.kt IN (SELECT kt FROM fact)$$);
SELECT * FROM jf_same($$SELECT d.name FROM dim d WHERE EXISTS (SELECT FROM fact f WHERE f.k8 = d.k4 AND f.k2 = d.k2)$$);
SELECT * FROM jf_same($$SELECT d.name FROM dim d WHERE NOT EXISTS (SELECT FROM fact f WHERE f.k4 = d.k4)$$);
SELECT * FROM jf_same($$SELECT d.name, f.id FROM dim d LEFT JOIN fact f ON f.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT d.name, f.id FROM dim d RIGHT JOIN fact f ON f.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT d.name, f.id FROM dim d FULL JOIN fact f ON f.k4 = d.k4$$);
SELECT * FROM jf_same($$SELECT d.name, f.id FROM dim d JOIN fact f ON f.kd = d.kd WHERE d.grp = 2$$);
-- not from an outer side whose rows may change between rescans (a
-- parameter, a volatile function) or whose quals may fail
SELECT * FROM jf_same($$SELECT g.grp, (SELECT count(*) FROM dim d WHERE d.grp = g.grp AND d.k4 IN (SELECT k4 FROM fact)) FROM dim2 g$$);
SELECT * FROM jf_same($$SELECT count(*) FROM dim d WHERE d.k4 IN (SELECT k4 FROM fact) AND random() >= 0$$);
SELECT * FROM jf_same($$SELECT d.name FROM dim d WHERE 10 / (d.grp + 1) > 0 AND d.k4 IN (SELECT k4 FROM fact)$$);
-- (heap's plan stops at the empty table after fact2's first row, before w = 5)
SELECT * FROM jf_same($$SELECT count(*) FROM fact2 f2 WHERE 10 / (f2.w - 5) < 0 AND f2.k4 IN (SELECT k4 FROM fact WHERE v > 100)$$);
RESET enable_hashagg;
RESET enable_sort;

-- empty build side, and a filter that removes nothing (dropped after its
-- trial; results unchanged)
SELECT * FROM jf_same($$SELECT f.id FROM fact f JOIN dim d ON f.k4 = d.k4 WHERE d.grp = 99$$);
SELECT * FROM jf_same($$SELECT f.id FROM fact f JOIN (SELECT DISTINCT k4 FROM fact) d ON f.k4 = d.k4$$);

-- a table of more tuples than a trial (32768) is looked up itself during
-- the trial, and summarised only if the trial removed enough: k, 9 rows in
-- 10 (the exact set takes over after the trial; the first page's rows go
-- up unfiltered, fetched before the table is built); m, none (bigdim's
-- 40,000 rows cover big's 40,000 values of m: the statistics say so, and
-- no filter is attached, PaxJfKeepsAll); t, text keys (the hash function
-- called per row), 1 in 7
CREATE TABLE jf_pax.big (k int, m int, t text) USING pax
	WITH (autovacuum_enabled = off);
CREATE TABLE jf_pax.bigdim (k int, tag text) USING pax
	WITH (autovacuum_enabled = off);
INSERT INTO jf_pax.big
SELECT i, (i % 40000 + 1) * 10, 't' || (i * 7 % 48000) FROM generate_series(1, 60000) i;
INSERT INTO jf_pax.bigdim SELECT i * 10, 't' || i FROM generate_series(1, 40000) i;
CREATE TABLE jf_heap.big AS SELECT * FROM jf_pax.big;
CREATE TABLE jf_heap.bigdim AS SELECT * FROM jf_pax.bigdim;
ANALYZE jf_pax.big, jf_pax.bigdim, jf_heap.big, jf_heap.bigdim;
SELECT ln FROM explain_analyze($$
SELECT count(*) FROM jf_pax.big b JOIN jf_pax.bigdim d ON b.k = d.k$$) ln
WHERE ln ~ 'Join Filter|Hash Join';
SELECT ln FROM explain_analyze($$
SELECT count(*) FROM jf_pax.big b JOIN jf_pax.bigdim d ON b.m = d.k$$) ln
WHERE ln ~ 'Join Filter|Hash Join';
SELECT count(*) AS text_filter_removed_rows FROM explain_analyze($$
SELECT count(*) FROM jf_pax.big b JOIN jf_pax.bigdim d ON b.t = d.tag$$) ln
WHERE ln ~ 'Rows Removed by Pax Join Filter: [1-9]';
SELECT * FROM jf_same($$SELECT b.k, d.tag FROM big b JOIN bigdim d ON b.k = d.k$$);
SELECT * FROM jf_same($$SELECT b.k, d.tag FROM big b JOIN bigdim d ON b.m = d.k$$);
SELECT * FROM jf_same($$SELECT b.k, d.tag FROM big b JOIN bigdim d ON b.t = d.tag$$);
SELECT * FROM jf_same($$SELECT b.k FROM big b WHERE EXISTS (SELECT FROM bigdim d WHERE d.k = b.k)$$);

-- a hash table in batches holds only part of the rows: no filtering
SET work_mem = '64kB';
SELECT * FROM jf_same($$SELECT f.id AS fid, g.id AS gid FROM fact f JOIN fact g ON f.id = g.id WHERE g.v = 1$$);
SELECT CASE WHEN ln ~ 'Batches: ([2-9]|\d\d)' THEN '(in batches)' ELSE ln END
FROM explain_analyze($$
SELECT count(*) FROM jf_pax.fact f JOIN jf_pax.fact g ON f.id = g.id WHERE g.v = 1$$) ln;
RESET work_mem;

-- rescans: a correlated subquery whose hash table changes per outer row
SELECT * FROM jf_same($$SELECT g.grp, (SELECT count(*) FROM fact f JOIN dim d ON f.k4 = d.k4 WHERE d.grp = g.grp) FROM dim2 g$$);
SELECT * FROM jf_same($$SELECT x, (SELECT count(*) FROM fact f JOIN (SELECT k4 FROM dim WHERE k4 < x) d ON f.k4 = d.k4) FROM generate_series(0, 600, 100) x$$);

-- parallel workers, private and shared (Parallel Hash) tables
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF)
SELECT f.id, d.name FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4;
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.k4 = d.k4$$);
-- a table larger than a trial, shared (Parallel Hash) and private
SELECT * FROM jf_same($$SELECT b.k, d.tag FROM big b JOIN bigdim d ON b.k = d.k$$);
SELECT * FROM jf_same($$SELECT b.k, d.tag FROM big b JOIN bigdim d ON b.t = d.tag$$);
SET enable_parallel_hash = off;
SELECT * FROM jf_same($$SELECT b.k, d.tag FROM big b JOIN bigdim d ON b.k = d.k$$);
SELECT * FROM jf_same($$SELECT b.k, d.tag FROM big b JOIN bigdim d ON b.t = d.tag$$);
RESET enable_parallel_hash;
-- the big side of a semi join filtered by the small side's keys: 15 plans
-- a Parallel Hash of it filtered in each process; 18 prefers a Hash Right
-- Semi Join probing it in a serial, filtered scan
SET enable_hashagg = off;
SET enable_sort = off;
CREATE FUNCTION jf_scan_filtered(q text, rel text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	j jsonb;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
	RETURN EXISTS (SELECT FROM jsonb_path_query(j, 'strict $.**') n
				   WHERE jsonb_typeof(n) = 'object' AND n->>'Relation Name' = rel
					 AND n ? 'Pax Join Filter');
END
$$;
SELECT jf_scan_filtered($$SELECT count(*) FROM jf_pax.fact2 f2
	WHERE f2.w <= 300 AND f2.k4 IN (SELECT k4 FROM jf_pax.fact WHERE v > 1)$$, 'fact') AS big_side_filtered;
-- not when the statistics say the small side's keys cover the big side's:
-- fact2's 1,200 values of k4 hold all 1,000 of fact's (PaxJfKeepsAll)
SELECT jf_scan_filtered($$SELECT count(*) FROM jf_pax.fact2 f2
	WHERE f2.k4 IN (SELECT k4 FROM jf_pax.fact WHERE v > 1)$$, 'fact') AS covering_side_filtered;
DROP FUNCTION jf_scan_filtered;
SELECT * FROM jf_same($$SELECT count(*) FROM fact2 f2 WHERE f2.k4 IN (SELECT k4 FROM fact WHERE v > 1)$$);
SELECT * FROM jf_same($$SELECT count(*) FROM fact2 f2 WHERE f2.w <= 300 AND f2.k4 IN (SELECT k4 FROM fact WHERE v > 1)$$);
SELECT * FROM jf_same($$SELECT count(*) FROM fact2 f2 WHERE f2.k4 IN (SELECT k2 FROM fact)$$);
-- not from an outer side whose quals may fail
SELECT * FROM jf_same($$SELECT count(*) FROM fact2 f2 WHERE 10 / (f2.w + 1) > 0 AND f2.k4 IN (SELECT k4 FROM fact WHERE v > 1)$$);
RESET enable_hashagg;
RESET enable_sort;
SET enable_parallel_hash = off;
EXPLAIN (COSTS OFF)
SELECT f.id, d.name FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4;
SELECT * FROM jf_same($$SELECT f.id, d.name FROM fact f JOIN dim d ON f.k4 = d.k4$$);
-- the partial plans' filters are costed too, with a table per process and
-- a shared one: the parallel PaxScan's estimate (rows per process, 10000
-- unfiltered) counts only the rows that pass the filter
CREATE FUNCTION jf_fact_scan(q text) RETURNS TABLE (parallel_aware boolean,
	filtered boolean) LANGUAGE plpgsql AS $$
DECLARE
	j jsonb;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
	j := jsonb_path_query_first(j, '$.**?(@."Relation Name" == "fact")');
	parallel_aware := (j->>'Parallel Aware')::boolean;
	filtered := (j->>'Plan Rows')::float8 < 2500;
	RETURN NEXT;
END
$$;
SELECT * FROM jf_fact_scan($$SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d
	ON f.k4 = d.k4 WHERE d.grp = 1$$);
RESET enable_parallel_hash;
SELECT * FROM jf_fact_scan($$SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d
	ON f.k4 = d.k4 WHERE d.grp = 1$$);
SELECT * FROM jf_fact_scan($$SELECT f.id FROM jf_pax.fact f WHERE EXISTS
	(SELECT FROM jf_pax.dim d WHERE d.k4 = f.k4 AND d.grp = 1)$$);
SET pax.enable_joinfilter = off;
SELECT * FROM jf_fact_scan($$SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d
	ON f.k4 = d.k4 WHERE d.grp = 1$$);
RESET pax.enable_joinfilter;
SELECT * FROM jf_same($$SELECT f.id FROM fact f JOIN dim d ON f.k4 = d.k4 WHERE d.grp = 1$$);
SELECT * FROM jf_same($$SELECT f.id FROM fact f WHERE EXISTS (SELECT FROM dim d WHERE d.k4 = f.k4 AND d.grp = 1)$$);
DROP FUNCTION jf_fact_scan(text);
RESET parallel_leader_participation;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- errors equal heap's: a qual that can fail on a row the join would drop
-- keeps the scan unfiltered (heap evaluates it on every row)
EXPLAIN (COSTS OFF)
SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4 WHERE 10 / f.v > 1;
SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4 WHERE 10 / f.v > 1;
SELECT f.id FROM jf_heap.fact f JOIN jf_heap.dim d ON f.k4 = d.k4 WHERE 10 / f.v > 1;
-- a leakproof one keeps the filter
EXPLAIN (COSTS OFF)
SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4 WHERE f.v < f.k2 OR f.v = 0;
SELECT * FROM jf_same($$SELECT f.id FROM fact f JOIN dim d ON f.k4 = d.k4 WHERE f.v < f.k2 OR f.v = 0$$);
-- (a comparison of two columns alone is pushed, and runs after the filter)
EXPLAIN (COSTS OFF)
SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4 WHERE f.v < f.k2;
SELECT * FROM jf_same($$SELECT f.id FROM fact f JOIN dim d ON f.k4 = d.k4 WHERE f.v < f.k2$$);

-- row-level security: no filter under security quals
CREATE ROLE jf_reader;
GRANT USAGE ON SCHEMA jf_pax TO jf_reader;
GRANT SELECT ON jf_pax.fact, jf_pax.dim TO jf_reader;
ALTER TABLE jf_pax.fact ENABLE ROW LEVEL SECURITY;
CREATE POLICY jf_even ON jf_pax.fact TO jf_reader USING (id % 2 = 0);
SET ROLE jf_reader;
EXPLAIN (COSTS OFF)
SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4;
SELECT count(*), sum(f.id) FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4;
RESET ROLE;
SELECT count(*), sum(f.id) FROM jf_heap.fact f JOIN jf_heap.dim d ON f.k4 = d.k4 WHERE f.id % 2 = 0;
DROP POLICY jf_even ON jf_pax.fact;
ALTER TABLE jf_pax.fact DISABLE ROW LEVEL SECURITY;
REVOKE ALL ON SCHEMA jf_pax FROM jf_reader;
REVOKE ALL ON jf_pax.fact, jf_pax.dim FROM jf_reader;
DROP ROLE jf_reader;

-- a LIMIT stops the scan where heap's stops: seq_tup_read equal (counts
-- not yet reported by earlier statements are in both readings; one
-- transaction block, because a backend reports its pending counts when idle
-- outside one, which could happen between the readings)
SET stats_fetch_consistency = none;
CREATE FUNCTION jf_tup_read() RETURNS bigint[] LANGUAGE sql AS
$$SELECT ARRAY[pg_stat_get_xact_tuples_returned('jf_pax.fact'::regclass),
	pg_stat_get_xact_tuples_returned('jf_heap.fact'::regclass)]$$;
BEGIN;
CREATE TEMP TABLE jf_before AS SELECT jf_tup_read() r;
SELECT count(*) FROM (SELECT f.id FROM jf_pax.fact f JOIN jf_pax.dim d ON f.k4 = d.k4 LIMIT 5) s;
SELECT count(*) FROM (SELECT f.id FROM jf_heap.fact f JOIN jf_heap.dim d ON f.k4 = d.k4 LIMIT 5) s;
SELECT (jf_tup_read())[1] - r[1] AS pax_read, (jf_tup_read())[2] - r[2] AS heap_read
FROM jf_before;
COMMIT;
-- the outer side scanned for an inner-side filter counts once, as heap's
-- plan scans it once: seq_scan and seq_tup_read of dim equal heap's
CREATE FUNCTION jf_dim_reads() RETURNS bigint[] LANGUAGE sql AS
$$SELECT ARRAY[pg_stat_get_xact_numscans('jf_pax.dim'::regclass),
	pg_stat_get_xact_tuples_returned('jf_pax.dim'::regclass),
	pg_stat_get_xact_numscans('jf_heap.dim'::regclass),
	pg_stat_get_xact_tuples_returned('jf_heap.dim'::regclass)]$$;
SET enable_hashagg = off;
SET enable_sort = off;
BEGIN;
DROP TABLE jf_before;
CREATE TEMP TABLE jf_before AS SELECT jf_dim_reads() r;
SELECT count(*) FROM jf_pax.dim d WHERE d.k4 IN (SELECT k4 FROM jf_pax.fact WHERE v > 1);
SELECT count(*) FROM jf_heap.dim d WHERE d.k4 IN (SELECT k4 FROM jf_heap.fact WHERE v > 1);
SELECT (jf_dim_reads())[1] - r[1] AS pax_scans, (jf_dim_reads())[2] - r[2] AS pax_read,
	(jf_dim_reads())[3] - r[3] AS heap_scans, (jf_dim_reads())[4] - r[4] AS heap_read
FROM jf_before;
COMMIT;
RESET enable_hashagg;
RESET enable_sort;
DROP TABLE jf_before;

DROP SCHEMA jf_pax CASCADE;
DROP SCHEMA jf_heap CASCADE;
DROP FUNCTION jf_same(text);
DROP FUNCTION jf_outer_rows(text);
DROP FUNCTION jf_tup_read();
DROP FUNCTION jf_dim_reads();
