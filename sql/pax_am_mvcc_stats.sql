--
-- pax_am_mvcc_stats: the statistics counters of pax tables: inserted, updated,
-- deleted, live and dead rows, as heap counts them.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
CREATE TABLE st_pax (id int, v text) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE st_heap (id int, v text) USING heap WITH (autovacuum_enabled = off);
INSERT INTO st_pax SELECT i, 's' || i FROM generate_series(1, 100) i;
INSERT INTO st_heap SELECT i, 's' || i FROM generate_series(1, 100) i;
UPDATE st_pax SET v = 'u' WHERE id <= 10;
UPDATE st_heap SET v = 'u' WHERE id <= 10;
DELETE FROM st_pax WHERE id > 95;
DELETE FROM st_heap WHERE id > 95;
BEGIN;
INSERT INTO st_pax VALUES (0, 'aborted');
INSERT INTO st_heap VALUES (0, 'aborted');
UPDATE st_pax SET v = 'aborted' WHERE id = 20;
UPDATE st_heap SET v = 'aborted' WHERE id = 20;
DELETE FROM st_pax WHERE id = 21;
DELETE FROM st_heap WHERE id = 21;
ROLLBACK;
SELECT pg_stat_force_next_flush();
SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup, n_dead_tup
  FROM pg_stat_user_tables WHERE relname IN ('st_pax', 'st_heap') ORDER BY relname DESC;
VACUUM st_pax;
VACUUM st_heap;
SELECT pg_stat_force_next_flush();
SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup, n_dead_tup, vacuum_count
  FROM pg_stat_user_tables WHERE relname IN ('st_pax', 'st_heap') ORDER BY relname DESC;

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE st_pax, st_heap;
DROP FUNCTION same, dml, q, block, verify_all;
