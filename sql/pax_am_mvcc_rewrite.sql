--
-- pax_am_mvcc_rewrite: CREATE INDEX CONCURRENTLY and REINDEX CONCURRENTLY on
-- pax tables with dead and updated rows; REINDEX, CLUSTER and VACUUM FULL.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
CREATE TABLE cc_pax (id int, k int, v text) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE cc_heap (id int, k int, v text) USING heap;
INSERT INTO cc_pax SELECT i, i % 100, 'c' || i FROM generate_series(1, 5000) i;
INSERT INTO cc_heap SELECT i, i % 100, 'c' || i FROM generate_series(1, 5000) i;
SELECT * FROM dml('cc', 'UPDATE {t} SET k = k + 1000 WHERE id % 3 = 0');
SELECT * FROM dml('cc', 'DELETE FROM {t} WHERE id % 5 = 0');
CREATE INDEX CONCURRENTLY cc_pax_k ON cc_pax (k);
CREATE INDEX CONCURRENTLY cc_heap_k ON cc_heap (k);
CREATE UNIQUE INDEX CONCURRENTLY cc_pax_id ON cc_pax (id);
CREATE UNIQUE INDEX CONCURRENTLY cc_heap_id ON cc_heap (id);
CREATE INDEX CONCURRENTLY cc_pax_v ON cc_pax USING hash (v);
CREATE INDEX CONCURRENTLY cc_heap_v ON cc_heap USING hash (v);
-- a unique index over duplicates fails and is left invalid
INSERT INTO cc_pax VALUES (1, -1, 'dup k');
INSERT INTO cc_heap VALUES (1, -1, 'dup k');
DELETE FROM cc_pax WHERE v = 'dup k';
DELETE FROM cc_heap WHERE v = 'dup k';
INSERT INTO cc_pax VALUES (-1, 1, 'dup v'), (-2, 2, 'dup v');
INSERT INTO cc_heap VALUES (-1, 1, 'dup v'), (-2, 2, 'dup v');
CREATE UNIQUE INDEX CONCURRENTLY cc_pax_uv ON cc_pax (v);
CREATE UNIQUE INDEX CONCURRENTLY cc_heap_uv ON cc_heap (v);
SELECT c.relname, i.indisvalid, i.indisready FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
 WHERE i.indrelid IN ('cc_pax'::regclass, 'cc_heap'::regclass) ORDER BY 1;
DROP INDEX cc_pax_uv, cc_heap_uv;
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM cc_pax WHERE k = 1003;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k = 1003');
SELECT * FROM q('SELECT * FROM cc{t} WHERE k BETWEEN 10 AND 20');
SELECT * FROM q('SELECT * FROM cc{t} WHERE v = ''c4999''');
SELECT * FROM q('SELECT * FROM cc{t} WHERE id < 0');
SELECT * FROM dml('cc', 'UPDATE {t} SET k = -k WHERE id % 3 = 1');
REINDEX INDEX CONCURRENTLY cc_pax_k;
REINDEX INDEX CONCURRENTLY cc_heap_k;
REINDEX TABLE CONCURRENTLY cc_pax;
REINDEX TABLE CONCURRENTLY cc_heap;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k = -1');
SELECT * FROM q('SELECT * FROM cc{t} WHERE k BETWEEN 1000 AND 1010');
SELECT * FROM q('SELECT id FROM cc{t} WHERE id BETWEEN 100 AND 300');
SELECT * FROM q('SELECT * FROM cc{t} WHERE v = ''c4998''');
REINDEX TABLE cc_pax;
REINDEX TABLE cc_heap;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k BETWEEN -50 AND -40');
RESET pax.enable_customscan;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT c.relname, i.indisvalid, i.indisready FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
 WHERE i.indrelid IN ('cc_pax'::regclass, 'cc_heap'::regclass) ORDER BY 1;
-- CLUSTER: rows in index order afterwards, dead rows gone, indexes rebuilt
CLUSTER cc_pax USING cc_pax_k;
CLUSTER cc_heap USING cc_heap_k;
SELECT (SELECT count(*) FROM (SELECT k < lag(k) OVER (ORDER BY ctid) AS out_of_order FROM cc_pax) s WHERE out_of_order) AS pax_out_of_order,
       (SELECT count(*) FROM (SELECT k < lag(k) OVER (ORDER BY ctid) AS out_of_order FROM cc_heap) s WHERE out_of_order) AS heap_out_of_order;
SELECT relname, indisclustered FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
 WHERE c.relname IN ('cc_pax_k', 'cc_heap_k') ORDER BY 1;
SELECT * FROM same('cc');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k = 1003');
SELECT * FROM q('SELECT * FROM cc{t} WHERE id BETWEEN 4000 AND 4100');
RESET pax.enable_customscan;
RESET enable_seqscan;
SELECT * FROM dml('cc', 'UPDATE {t} SET v = v || ''x'' WHERE k = 7 RETURNING *');
CLUSTER cc_pax;
CLUSTER cc_heap;
SELECT * FROM same('cc');
-- VACUUM FULL after updates and deletes
SELECT * FROM dml('cc', 'DELETE FROM {t} WHERE k < 0');
VACUUM FULL cc_pax;
VACUUM FULL cc_heap;
SELECT * FROM same('cc');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k BETWEEN 0 AND 1100');
RESET pax.enable_customscan;
RESET enable_seqscan;

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE cc_pax, cc_heap;
DROP FUNCTION same, dml, q, block, verify_all;
