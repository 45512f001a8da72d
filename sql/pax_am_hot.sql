--
-- HOT updates of pax tables: heap-only versions, chains followed by index
-- and bitmap scans, pruning, VACUUM, index builds; heap is the oracle
-- (pax_am/README.update)
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
CREATE TABLE hot_pax (id int PRIMARY KEY, k int, v int, s text) USING pax
  WITH (autovacuum_enabled = off);
CREATE TABLE hot_heap (id int PRIMARY KEY, k int, v int, s text) USING heap
  WITH (autovacuum_enabled = off);
CREATE INDEX ON hot_pax (k);
CREATE INDEX ON hot_heap (k);
INSERT INTO hot_pax SELECT g, g % 7, g, 's' || g FROM generate_series(1, 20) g;
INSERT INTO hot_heap SELECT g, g % 7, g, 's' || g FROM generate_series(1, 20) g;

CREATE VIEW hot_counts AS
  SELECT relname AS am, n_tup_upd AS upd, n_tup_hot_upd AS hot
    FROM pg_stat_user_tables WHERE relname IN ('hot_pax', 'hot_heap')
    ORDER BY relname DESC;

-- a non-indexed column: HOT on both; an indexed one: not HOT on both
UPDATE hot_pax SET v = v + 1 WHERE id = 3;
UPDATE hot_heap SET v = v + 1 WHERE id = 3;
UPDATE hot_pax SET s = s || '!' WHERE id BETWEEN 4 AND 6;
UPDATE hot_heap SET s = s || '!' WHERE id BETWEEN 4 AND 6;
UPDATE hot_pax SET k = k + 100 WHERE id = 7;
UPDATE hot_heap SET k = k + 100 WHERE id = 7;
SELECT pg_stat_force_next_flush();
SELECT * FROM hot_counts;
-- the heap-only version stays on its row's page
SELECT (ctid::text::point)[0] AS block FROM hot_pax WHERE id = 3;

-- the same rows by every path
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS differ FROM
  ((SELECT * FROM hot_pax WHERE id > 0 EXCEPT SELECT * FROM hot_heap)
   UNION ALL
   (SELECT * FROM hot_heap EXCEPT SELECT * FROM hot_pax WHERE id > 0)) d;
SELECT id, k, v, s FROM hot_pax WHERE id IN (3, 4, 5, 6, 7) ORDER BY id;
SELECT id, k, v FROM hot_pax WHERE k = 3 ORDER BY id;
SET enable_indexscan = off;
SET enable_bitmapscan = on;
SELECT id, k, v, s FROM hot_pax WHERE id IN (3, 4, 5, 6, 7) ORDER BY id;
SELECT id, k, v FROM hot_pax WHERE k = 3 ORDER BY id;
RESET enable_seqscan;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- a long chain on one row, a transaction an update: pruning keeps the
-- table at one page, as heap's
DO $$
BEGIN
  FOR i IN 1 .. 400 LOOP
    UPDATE hot_pax SET v = v + 1 WHERE id = 10;
    UPDATE hot_heap SET v = v + 1 WHERE id = 10;
    COMMIT;
  END LOOP;
END $$;
SELECT pg_relation_size('hot_pax') / 8192 AS pax_pages,
       pg_relation_size('hot_heap') / 8192 AS heap_pages;
SELECT pg_stat_force_next_flush();
SELECT * FROM hot_counts;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT id, v FROM hot_pax WHERE id = 10;
SELECT count(*) FROM hot_pax WHERE id > 0;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) AS differ FROM (SELECT * FROM hot_pax EXCEPT SELECT * FROM hot_heap) d;
SELECT * FROM pax_verify('hot_pax', true);

-- an aborted HOT update leaves the old version; the next update goes on
BEGIN;
UPDATE hot_pax SET v = -1 WHERE id = 11;
ROLLBACK;
UPDATE hot_pax SET v = v * 2 WHERE id = 11;
UPDATE hot_heap SET v = v * 2 WHERE id = 11;
SET enable_seqscan = off;
SELECT id, v FROM hot_pax WHERE id = 11;
RESET enable_seqscan;

-- a deleted chain: gone by every path
UPDATE hot_pax SET v = v + 1 WHERE id = 12;
UPDATE hot_heap SET v = v + 1 WHERE id = 12;
DELETE FROM hot_pax WHERE id = 12;
DELETE FROM hot_heap WHERE id = 12;
SET enable_seqscan = off;
SELECT id FROM hot_pax WHERE id = 12;
RESET enable_seqscan;

-- an index built over chains indexes each chain's live end under its root
CREATE INDEX hot_pax_v ON hot_pax (v);
CREATE INDEX hot_heap_v ON hot_heap (v);
CREATE INDEX CONCURRENTLY hot_pax_s ON hot_pax (s);
CREATE INDEX CONCURRENTLY hot_heap_s ON hot_heap (s);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT id, v FROM hot_pax WHERE v = (SELECT v FROM hot_heap WHERE id = 10);
SELECT id, s FROM hot_pax WHERE s = 's5!';
SELECT id, v FROM hot_pax WHERE v BETWEEN 1 AND 9 ORDER BY id;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT * FROM pax_verify('hot_pax', true);

-- VACUUM frees what pruning left; the chains still lead to their rows
VACUUM hot_pax;
VACUUM hot_heap;
SELECT count(*) AS differ FROM (SELECT * FROM hot_pax EXCEPT SELECT * FROM hot_heap) d;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT id, v FROM hot_pax WHERE id IN (3, 10, 11) ORDER BY id;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT * FROM pax_verify('hot_pax', true);
REINDEX TABLE hot_pax;
VACUUM FULL hot_pax;
SELECT count(*) AS differ FROM (SELECT * FROM hot_pax EXCEPT SELECT * FROM hot_heap) d;
SELECT * FROM pax_verify('hot_pax', true);

-- a full page: an update moves a row to another page, pruning leaves a
-- DEAD item in its slot, a HOT version takes the slot, the item's stale
-- index entry ends there (by index and bitmap scans) until VACUUM removes it
CREATE TABLE hot_full_pax (id int PRIMARY KEY, v int, pad text) USING pax
  WITH (autovacuum_enabled = off);
CREATE TABLE hot_full_heap (id int PRIMARY KEY, v int, pad text) USING heap
  WITH (autovacuum_enabled = off);
-- (row by row: a row-form page; a batch would fill compact pages)
SET pax.batch_bulk_inserts = off;
INSERT INTO hot_full_pax SELECT g, g, repeat('p', 20) FROM generate_series(1, 400) g;
RESET pax.batch_bulk_inserts;
INSERT INTO hot_full_heap SELECT g, g, repeat('p', 20) FROM generate_series(1, 400) g;
UPDATE hot_full_pax SET v = -1 WHERE id = 1;
UPDATE hot_full_heap SET v = -1 WHERE id = 1;
-- (a sequential scan prunes the page, leaving id 1's entry to its slot)
SELECT count(*) FROM hot_full_pax;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
UPDATE hot_full_pax SET v = -2 WHERE id = 2;
UPDATE hot_full_heap SET v = -2 WHERE id = 2;
SELECT (ctid::text::point)[0] AS block FROM hot_full_pax WHERE id = 2;
-- a page whose index entries are stale is never all-visible: index-only
-- scans would count them
VACUUM (INDEX_CLEANUP off) hot_full_pax;
VACUUM (INDEX_CLEANUP off) hot_full_heap;
EXPLAIN (COSTS OFF) SELECT count(*) FROM hot_full_pax WHERE id BETWEEN 1 AND 20;
SELECT (SELECT count(*) FROM hot_full_pax WHERE id BETWEEN 1 AND 20) AS pax,
       (SELECT count(*) FROM hot_full_heap WHERE id BETWEEN 1 AND 20) AS heap;
SELECT id, v FROM hot_full_pax WHERE id IN (1, 2, 3) ORDER BY id;
SET enable_indexscan = off;
SET enable_bitmapscan = on;
SELECT id, v FROM hot_full_pax WHERE id IN (1, 2, 3) ORDER BY id;
SELECT id, v FROM hot_full_pax WHERE id = 2;
RESET enable_indexscan;
SELECT * FROM pax_verify('hot_full_pax', true);
VACUUM hot_full_pax;
SELECT * FROM pax_verify('hot_full_pax', true);
SET enable_bitmapscan = off;
SELECT id, v FROM hot_full_pax WHERE id IN (1, 2, 3) ORDER BY id;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) AS differ FROM
  ((SELECT * FROM hot_full_pax EXCEPT SELECT * FROM hot_full_heap)
   UNION ALL
   (SELECT * FROM hot_full_heap EXCEPT SELECT * FROM hot_full_pax)) d;
DROP TABLE hot_full_pax, hot_full_heap;

-- a bulk-loaded (compact) page's rows are not updated in place
CREATE TABLE hot_compact (id int, v int) USING pax;
INSERT INTO hot_compact SELECT g, g FROM generate_series(1, 300) g;
ALTER TABLE hot_compact ADD PRIMARY KEY (id);
SELECT pg_stat_force_next_flush();
UPDATE hot_compact SET v = v + 1 WHERE id = 5;
SELECT pg_stat_force_next_flush();
SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'hot_compact';
SELECT v FROM hot_compact WHERE id = 5;

DROP VIEW hot_counts;
DROP TABLE hot_pax, hot_heap, hot_compact;
