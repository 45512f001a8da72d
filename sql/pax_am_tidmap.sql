--
-- The TID map of row-form pages (pax_am/pax_tidmap.h): pruning gives a page
-- whose rows it turns into items a map, so that REDIRECTs and DEAD items
-- take no row slot.  Rows, TIDs and index answers stay heap's through HOT
-- and non-HOT updates, deletes, pruning, VACUUM, the reuse of freed TIDs,
-- index builds and verification.
--
SET pax.enable_customscan = on;

CREATE TABLE tm_pax (id int PRIMARY KEY, k int, n int, pad text)
  USING pax WITH (autovacuum_enabled = off);
CREATE TABLE tm_heap (id int PRIMARY KEY, k int, n int, pad text)
  WITH (autovacuum_enabled = off);
CREATE INDEX tm_pax_k ON tm_pax (k);
CREATE INDEX tm_heap_k ON tm_heap (k);
-- one row a statement: row-form pages
DO $$
BEGIN
  FOR g IN 1 .. 400 LOOP
    INSERT INTO tm_pax VALUES (g, g % 17, 0, repeat('p', 10 + g % 7));
    INSERT INTO tm_heap VALUES (g, g % 17, 0, repeat('p', 10 + g % 7));
  END LOOP;
END $$;
CREATE VIEW tm_differ AS
  SELECT count(*) AS differ FROM
    ((SELECT * FROM tm_pax EXCEPT SELECT * FROM tm_heap)
     UNION ALL
     (SELECT * FROM tm_heap EXCEPT SELECT * FROM tm_pax)) d;
CREATE VIEW tm_mapped AS
  SELECT count(*) AS mapped_pages FROM pax_page_stats('tm_pax') s
   WHERE EXISTS (SELECT FROM pax_page_regions('tm_pax', s.blkno)
                  WHERE region = 'TID map');
SELECT * FROM tm_mapped;

-- HOT updates, each read back by the index (pruning at the reader): the
-- roots become REDIRECTs in a map, not slots
SET enable_seqscan = off;
SET enable_bitmapscan = off;
DO $$
BEGIN
  FOR r IN 1 .. 4 LOOP
    FOR g IN 1 .. 60 LOOP
      UPDATE tm_pax SET n = n + 1 WHERE id = g;
      UPDATE tm_heap SET n = n + 1 WHERE id = g;
      COMMIT;
      PERFORM n FROM tm_pax WHERE id = g;
    END LOOP;
  END LOOP;
END $$;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT pg_stat_force_next_flush();
SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
 WHERE relname IN ('tm_pax', 'tm_heap') ORDER BY relname;
SELECT mapped_pages > 0 AS mapped FROM tm_mapped;
SELECT * FROM tm_differ;
SELECT * FROM pax_verify('tm_pax', true, true);

-- non-HOT updates (an indexed column), deletes: DEAD items in the map
UPDATE tm_pax SET k = k + 100 WHERE id % 9 = 0;
UPDATE tm_heap SET k = k + 100 WHERE id % 9 = 0;
DELETE FROM tm_pax WHERE id % 11 = 0;
DELETE FROM tm_heap WHERE id % 11 = 0;
SELECT count(*) FROM tm_pax WHERE id > 0;	-- prunes
SELECT * FROM tm_differ;

-- every access path sees the same rows: index, bitmap, sequential, TID
SET enable_seqscan = off;
SELECT sum(n), count(*) FROM tm_pax WHERE k BETWEEN 100 AND 120;
SELECT sum(n), count(*) FROM tm_heap WHERE k BETWEEN 100 AND 120;
SET enable_indexscan = off;
SELECT sum(n), count(*) FROM tm_pax WHERE k IN (3, 5, 105);
SELECT sum(n), count(*) FROM tm_heap WHERE k IN (3, 5, 105);
RESET enable_indexscan;
RESET enable_seqscan;
SELECT count(*) FROM tm_pax WHERE ctid = ANY (SELECT ctid FROM tm_pax);
SELECT count(*) AS refetched FROM tm_pax a
  JOIN tm_pax b ON b.ctid = a.ctid AND b.id = a.id;
SELECT * FROM pax_verify('tm_pax', true, true);

-- VACUUM frees the DEAD items; new rows and versions reuse TIDs and slots
VACUUM tm_pax;
VACUUM tm_heap;
SELECT * FROM pax_verify('tm_pax', true, true);
DO $$
BEGIN
  FOR g IN 401 .. 460 LOOP
    INSERT INTO tm_pax VALUES (g, g % 17, 0, 'again');
    INSERT INTO tm_heap VALUES (g, g % 17, 0, 'again');
  END LOOP;
  FOR g IN 1 .. 60 LOOP
    UPDATE tm_pax SET n = n + 10, pad = pad || 'x' WHERE id = g;
    UPDATE tm_heap SET n = n + 10, pad = pad || 'x' WHERE id = g;
  END LOOP;
END $$;
SELECT * FROM tm_differ;
SELECT count(*) AS dup_tids FROM
  (SELECT ctid FROM tm_pax GROUP BY ctid HAVING count(*) > 1) d;

-- index builds index each version under its chain root's TID
CREATE INDEX tm_pax_n ON tm_pax (n);
CREATE INDEX tm_heap_n ON tm_heap (n);
REINDEX TABLE tm_pax;
CREATE INDEX CONCURRENTLY tm_pax_kn ON tm_pax (k, n);
SET enable_seqscan = off;
SELECT sum(k), count(*) FROM tm_pax WHERE n BETWEEN 1 AND 20;
SELECT sum(k), count(*) FROM tm_heap WHERE n BETWEEN 1 AND 20;
SELECT sum(n), count(*) FROM tm_pax WHERE k >= 100 AND n >= 0;
SELECT sum(n), count(*) FROM tm_heap WHERE k >= 100 AND n >= 0;
RESET enable_seqscan;
SELECT * FROM pax_verify('tm_pax', true, true);

-- VACUUM FULL writes pages without maps; the rows stay heap's
VACUUM FULL tm_pax;
SELECT * FROM tm_mapped;
SELECT * FROM tm_differ;
SELECT * FROM pax_verify('tm_pax', true, true);

-- VACUUM of pages whose slots are not in TID order (laid out again with a
-- map, then updated): the dead TIDs it collects must reach the index passes
-- sorted, or their entries stay while VACUUM frees the TIDs (found by
-- t/006_pax_mvcc_recovery.pl's sequence, without its crash)
CREATE TABLE tv (id int, k int, v text, pad text) USING pax WITH (autovacuum_enabled = off);
INSERT INTO tv SELECT i, i % 100, 'v' || i, NULL FROM generate_series(1, 20000) i;
UPDATE tv SET k = k + 1, v = v || 'u' WHERE id % 3 = 0;
DELETE FROM tv WHERE id % 5 = 0;
UPDATE tv SET pad = repeat(md5(id::text), 30) WHERE id % 7 = 0;
BEGIN; UPDATE tv SET k = k + 1 WHERE id BETWEEN 100 AND 200; UPDATE tv SET k = k + 1 WHERE id BETWEEN 150 AND 250;
SAVEPOINT s; DELETE FROM tv WHERE id < 1000; UPDATE tv SET v = 'rolled back'; ROLLBACK TO s; COMMIT;
BEGIN; UPDATE tv SET v = 'aborted' WHERE id % 2 = 0; ROLLBACK;
VACUUM tv;
INSERT INTO tv SELECT i, i % 100, 'after vacuum', NULL FROM generate_series(30001, 32000) i;
CREATE INDEX tv_id ON tv (id);
CREATE INDEX tv_k ON tv USING hash (k);
UPDATE tv SET k = -k WHERE id BETWEEN 5000 AND 6000;
DELETE FROM tv WHERE id BETWEEN 6000 AND 6500;
VACUUM tv;
UPDATE tv SET v = 'committed before' WHERE id % 11 = 0;
DELETE FROM tv WHERE id % 13 = 0;
BEGIN;
UPDATE tv SET v = 'uncommitted', k = 0 WHERE id % 2 = 1;
DELETE FROM tv WHERE id % 4 = 0;
UPDATE tv SET pad = repeat('u', 500) WHERE id % 6 = 0;
INSERT INTO tv SELECT i, 0, 'uncommitted insert', NULL FROM generate_series(40001, 41000) i;
ROLLBACK;
UPDATE tv SET v = 'committed after' WHERE id % 12 = 2;
DELETE FROM tv WHERE id % 12 = 10 AND id % 7 = 3;
INSERT INTO tv SELECT i, i % 100, 'committed after', NULL FROM generate_series(50001, 50500) i;
UPDATE tv SET k = k + 1000 WHERE id BETWEEN 10000 AND 10100 AND id % 12 = 10;
UPDATE tv SET v = 'after crash' WHERE id % 2 = 1 AND id < 3000;
DELETE FROM tv WHERE id % 4 = 0 AND id < 3000;
VACUUM tv;
SELECT count(*), sum(id) FROM tv WHERE id > 30000;
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SET enable_bitmapscan = off;
SELECT count(*), sum(id) FROM tv WHERE id > 30000;
RESET enable_seqscan;
RESET pax.enable_customscan;
RESET enable_bitmapscan;
SELECT * FROM pax_verify('tv', true, true);
DROP TABLE tv;

DROP VIEW tm_differ, tm_mapped;
DROP TABLE tm_pax, tm_heap;
