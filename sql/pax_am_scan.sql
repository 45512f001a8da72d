--
-- pax_am_scan: sequential, backward, parallel, TID, TID range and sample
-- scans, ANALYZE, and planner estimates of pax tables.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;
-- the table access method's own scans (PaxScan has pax_am_pushdown)
SET pax.enable_customscan = off;

CREATE TABLE s (id int, grp int, v text) USING pax WITH (autovacuum_enabled = off);
INSERT INTO s SELECT i, i % 10, 'v' || i FROM generate_series(1, 50000) i;

-- plans are sane before ANALYZE (relation_estimate_size)
SELECT relpages, reltuples FROM pg_class WHERE relname = 's';
EXPLAIN (COSTS OFF) SELECT * FROM s WHERE id = 1;

-- ANALYZE samples rows: statistics look like the data
ANALYZE s;
SELECT relpages > 0 AS has_pages, reltuples FROM pg_class WHERE relname = 's';
SELECT attname, null_frac, n_distinct FROM pg_stats WHERE tablename = 's' ORDER BY attname;
SELECT most_common_vals::text::int[] @> '{0,1,2,3,4,5,6,7,8,9}' AS grp_mcv FROM pg_stats
 WHERE tablename = 's' AND attname = 'grp';

-- TID scans and TID range scans
SELECT ctid, id FROM s WHERE ctid = '(0,1)';
SELECT ctid, id FROM s WHERE ctid IN ('(1,1)', '(1,2)', '(9999,1)', '(0,0)', '(0,9999)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM s WHERE ctid >= '(2,0)' AND ctid < '(4,0)';
SELECT count(*) = (SELECT sum(nrows) FROM pax_page_stats('s') WHERE blkno IN (2, 3))
  FROM s WHERE ctid >= '(2,0)' AND ctid < '(4,0)';
SELECT count(*) FROM s WHERE ctid > '(3,5)' AND ctid <= '(3,9)';
SELECT count(*) FROM s WHERE ctid > '(100000,0)';
-- ctid of every row is unique and rows come out in ctid order
SELECT count(DISTINCT ctid) = count(*) AS unique_ctids FROM s;
SELECT bool_and(c > p) AS ordered FROM (SELECT ctid AS c, lag(ctid) OVER () AS p FROM s) x WHERE p IS NOT NULL;

-- backward scans through a scrollable cursor
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT id FROM s;
FETCH LAST FROM c;
FETCH BACKWARD 3 FROM c;
FETCH ABSOLUTE 2 FROM c;
FETCH RELATIVE 1000 FROM c;
MOVE BACKWARD ALL IN c;
FETCH NEXT FROM c;
COMMIT;

-- parallel sequential scans split the work among workers
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT count(*), sum(id) FROM s;
SELECT count(*), sum(id), count(DISTINCT v) FROM s;
SELECT grp, count(*) FROM s GROUP BY grp ORDER BY grp LIMIT 3;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- rescans: the inner side of a nested loop
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
CREATE TABLE small (k int) USING pax WITH (autovacuum_enabled = off);
INSERT INTO small VALUES (1), (2), (3);
EXPLAIN (COSTS OFF) SELECT count(*) FROM small, s WHERE s.grp = small.k;
SELECT count(*) FROM small, s WHERE s.grp = small.k;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;

-- TABLESAMPLE: repeatable, and near the requested fraction (SYSTEM samples
-- pages: some 22 of s's 222, of up to 226 rows each)
SELECT count(*) BETWEEN 3000 AND 7000 AS system_ok FROM s TABLESAMPLE SYSTEM (10) REPEATABLE (7);
SELECT count(*) BETWEEN 4000 AND 6000 AS bernoulli_ok FROM s TABLESAMPLE BERNOULLI (10) REPEATABLE (7);
SELECT (SELECT count(*) FROM s TABLESAMPLE BERNOULLI (10) REPEATABLE (3)) =
       (SELECT count(*) FROM s TABLESAMPLE BERNOULLI (10) REPEATABLE (3)) AS repeatable;
SELECT count(*) FROM s TABLESAMPLE SYSTEM (100);

-- the slot's materialised copies survive the page (sorts, CTEs, arrays)
SELECT v FROM s ORDER BY id DESC LIMIT 2;
WITH m AS MATERIALIZED (SELECT v FROM s WHERE id % 10000 = 0) SELECT array_agg(v ORDER BY v) FROM m;
SELECT (SELECT max(v) FROM s) AS maxv;

-- pg_prewarm reads every block
CREATE EXTENSION IF NOT EXISTS pg_prewarm;
SELECT pg_prewarm('s') = pg_relation_size('s') / current_setting('block_size')::int AS prewarmed;

DROP TABLE s, small;

-- a scan pins the buffers the previous scan of the table used when they
-- still hold its blocks (ReadRecentBuffer): results stay right across
-- TRUNCATE, VACUUM truncation, a new relfilenode, and in temp tables
CREATE TABLE rb (a int) USING pax;
INSERT INTO rb SELECT g FROM generate_series(1, 20000) g;
SELECT count(*), sum(a) FROM rb;
SELECT count(*), sum(a) FROM rb WHERE a > 10000;
TRUNCATE rb;
INSERT INTO rb SELECT g FROM generate_series(1, 100) g;
SELECT count(*), sum(a) FROM rb;
INSERT INTO rb SELECT g FROM generate_series(101, 20000) g;
SELECT count(*), sum(a) FROM rb;
DELETE FROM rb WHERE a > 50;
VACUUM rb;
SELECT count(*), sum(a) FROM rb;
INSERT INTO rb SELECT g FROM generate_series(51, 300) g;
SELECT count(*), sum(a) FROM rb;
VACUUM FULL rb;
SELECT count(*), sum(a) FROM rb;
SET pax.enable_customscan = off;
SELECT count(*), sum(a) FROM rb;
RESET pax.enable_customscan;
CREATE TEMP TABLE rbt (a int) USING pax;
INSERT INTO rbt SELECT g FROM generate_series(1, 5000) g;
SELECT count(*), sum(a) FROM rbt;
DELETE FROM rbt WHERE a % 2 = 0;
SELECT count(*), sum(a) FROM rbt;
SELECT count(*), sum(a) FROM rbt;
DROP TABLE rb, rbt;
