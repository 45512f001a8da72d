--
-- pax_am_mvcc_delete: DELETE on pax tables: rows deleted once each, gone for
-- TID scans, kept by an aborted transaction, invisible at once to the deleting
-- one.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
CREATE TABLE d_pax (id int, v text, n int) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE d_heap (id int, v text, n int) USING heap;
INSERT INTO d_pax SELECT i, 'v' || i, i % 10 FROM generate_series(1, 3000) i;
INSERT INTO d_heap SELECT i, 'v' || i, i % 10 FROM generate_series(1, 3000) i;
SELECT * FROM same('d');
SELECT * FROM dml('d', 'DELETE FROM {t} WHERE n = 3');
SELECT * FROM dml('d', 'DELETE FROM {t} WHERE id % 7 = 0 RETURNING *');
SELECT * FROM dml('d', 'DELETE FROM {t} WHERE id > 2990 RETURNING id, v || ''!'' AS x');
SELECT * FROM dml('d', 'DELETE FROM {t} WHERE n = 3');          -- nothing left to delete
SELECT * FROM dml('d', 'DELETE FROM {t} USING generate_series(100, 120) g WHERE id = g RETURNING {t}.*');
-- a statement deletes each row once, even when a join finds it twice
SELECT * FROM dml('d', 'DELETE FROM {t} USING (VALUES (200), (200), (201)) g(x) WHERE id = x RETURNING id');
-- a deleted row: gone for a TID scan too
SELECT ctid AS tid_pax FROM d_pax WHERE id = 500 \gset
SELECT ctid AS tid_heap FROM d_heap WHERE id = 500 \gset
DELETE FROM d_pax WHERE id = 500;
DELETE FROM d_heap WHERE id = 500;
EXPLAIN (COSTS OFF) SELECT * FROM d_pax WHERE ctid = '(0,1)';
SELECT (SELECT count(*) FROM d_pax WHERE ctid = :'tid_pax') AS pax,
       (SELECT count(*) FROM d_heap WHERE ctid = :'tid_heap') AS heap;
-- deleted in an aborted transaction: still there
BEGIN;
DELETE FROM d_pax WHERE n < 5;
DELETE FROM d_heap WHERE n < 5;
SELECT * FROM same('d');
ROLLBACK;
SELECT * FROM same('d');
-- own deletes are visible at once in the deleting transaction, later
-- commands, and deleting everything
BEGIN;
DELETE FROM d_pax WHERE n = 9;
DELETE FROM d_heap WHERE n = 9;
SELECT (SELECT count(*) FROM d_pax WHERE n = 9) AS pax, (SELECT count(*) FROM d_heap WHERE n = 9) AS heap;
SELECT * FROM dml('d', 'DELETE FROM {t}');
SELECT * FROM same('d');
ROLLBACK;
SELECT * FROM same('d');

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE d_pax, d_heap;
DROP FUNCTION same, dml, q, block, verify_all;
