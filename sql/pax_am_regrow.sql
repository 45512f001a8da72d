--
-- Pruning lays a page out again (pax_am/pax_regrow.c): a compact page of a
-- bulk load goes back to the row form once its dead rows leave room for a
-- header each, and a row-form page whose row slots are all taken gets more
-- when its value area has room, so that heap-only versions find a slot as
-- heap's line pointers do.  Rows keep their TIDs; heap is the oracle.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;

CREATE VIEW rg_counts AS
  SELECT relname AS am, n_tup_upd AS upd, n_tup_hot_upd AS hot
    FROM pg_stat_user_tables WHERE relname IN ('rg_pax', 'rg_heap')
    ORDER BY relname DESC;

-- a bulk load (compact pages), wide values, NULLs, a TOASTed column
CREATE TABLE rg_pax (id int, k int, v int, s text, n numeric(10,2), d date,
                     b text) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE rg_heap (id int, k int, v int, s text, n numeric(10,2), d date,
                      b text) USING heap WITH (autovacuum_enabled = off);
ALTER TABLE rg_pax ALTER b SET STORAGE EXTERNAL;
ALTER TABLE rg_heap ALTER b SET STORAGE EXTERNAL;
INSERT INTO rg_pax SELECT g, g % 5, g, repeat(md5(g::text), 5), g / 4.0,
    date '2026-01-01' + g,
    CASE WHEN g % 50 = 0 THEN repeat(md5(g::text), 100) END
  FROM generate_series(1, 400) g;
INSERT INTO rg_heap SELECT * FROM rg_pax;
ALTER TABLE rg_pax ADD PRIMARY KEY (id);
ALTER TABLE rg_heap ADD PRIMARY KEY (id);
CREATE INDEX ON rg_pax (k);
CREATE INDEX ON rg_heap (k);
SELECT blkno, form, nrows = capacity AS full
  FROM pax_page_stats('rg_pax') WHERE blkno = 0;
CREATE VIEW rg_differ AS
  SELECT count(*) AS differ FROM
    ((SELECT * FROM rg_pax EXCEPT SELECT * FROM rg_heap)
     UNION ALL
     (SELECT * FROM rg_heap EXCEPT SELECT * FROM rg_pax)) d;

-- updates of a compact page's rows move them (no HOT on a compact page);
-- the next index fetch prunes the page back into the row form, its dead
-- rows DEAD items, and the next update of a row there is HOT
UPDATE rg_pax SET v = v + 1 WHERE id IN (1, 2, 3, 4, 5, 6);
UPDATE rg_heap SET v = v + 1 WHERE id IN (1, 2, 3, 4, 5, 6);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT v FROM rg_pax WHERE id = 7;
SELECT blkno, form FROM pax_page_stats('rg_pax') WHERE blkno = 0;
UPDATE rg_pax SET v = v + 1, s = s || 'x' WHERE id = 8;
UPDATE rg_heap SET v = v + 1, s = s || 'x' WHERE id = 8;
SELECT pg_stat_force_next_flush();
SELECT * FROM rg_counts;
SELECT (ctid::text::point)[0] AS block FROM rg_pax WHERE id = 8;
SELECT id, v, length(s), n, d, length(b) FROM rg_pax WHERE id <= 8 ORDER BY id;
SELECT id, v FROM rg_pax WHERE k = 3 AND id < 30 ORDER BY id;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT * FROM rg_differ;
SELECT * FROM pax_verify('rg_pax');
-- VACUUM removes the DEAD items' index entries; nothing is lost
VACUUM rg_pax;
VACUUM rg_heap;
SELECT * FROM rg_differ;
SELECT * FROM pax_verify('rg_pax');
DROP TABLE rg_pax, rg_heap CASCADE;

-- a row-form page filled by single-row inserts, then updates of each of
-- its rows, a transaction each: pruning gives the page more row slots, so
-- that every update stays on the page (HOT), as heap's do
CREATE TABLE rg_pax (id int PRIMARY KEY, k int, v int, s text, n numeric,
                     gone int) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE rg_heap (id int PRIMARY KEY, k int, v int, s text, n numeric,
                      gone int) USING heap WITH (autovacuum_enabled = off);
CREATE INDEX ON rg_pax (k);
CREATE INDEX ON rg_heap (k);
DO $$
BEGIN
  FOR g IN 1 .. 60 LOOP
    INSERT INTO rg_pax VALUES (g, g % 5, g, repeat(md5(g::text), 2),
                               CASE WHEN g % 7 <> 0 THEN g * 1.5 END, g);
    INSERT INTO rg_heap VALUES (g, g % 5, g, repeat(md5(g::text), 2),
                                CASE WHEN g % 7 <> 0 THEN g * 1.5 END, g);
  END LOOP;
END $$;
ALTER TABLE rg_pax DROP COLUMN gone;
ALTER TABLE rg_heap DROP COLUMN gone;
CREATE VIEW rg_differ AS
  SELECT count(*) AS differ FROM
    ((SELECT * FROM rg_pax EXCEPT SELECT * FROM rg_heap)
     UNION ALL
     (SELECT * FROM rg_heap EXCEPT SELECT * FROM rg_pax)) d;
CREATE TEMP TABLE rg_before AS
  SELECT blkno, capacity, form FROM pax_page_stats('rg_pax');
SELECT count(*) AS pages, bool_and(form = 'row') AS row_form FROM rg_before;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
DO $$
BEGIN
  FOR r IN 1 .. 3 LOOP
    FOR g IN 1 .. 60 LOOP
      UPDATE rg_pax SET v = v + 1 WHERE id = g;
      UPDATE rg_heap SET v = v + 1 WHERE id = g;
      COMMIT;
      PERFORM v FROM rg_pax WHERE id = g;
    END LOOP;
  END LOOP;
END $$;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT pg_stat_force_next_flush();
SELECT * FROM rg_counts;
-- pruning gave the page a TID map: its REDIRECTs and DEAD items take no
-- slot, so every update found one on the page (without a map, the page
-- grew slots and a few updates moved to a second page)
SELECT bool_or(p.capacity > b.capacity) AS grew
  FROM pax_page_stats('rg_pax') p JOIN rg_before b USING (blkno);
SELECT pg_relation_size('rg_pax') / 8192 AS pax_pages;
SELECT * FROM rg_differ;
SELECT id, v, n FROM rg_pax WHERE id IN (1, 7, 14, 60) ORDER BY id;
SELECT * FROM pax_verify('rg_pax');
VACUUM rg_pax;
SELECT * FROM pax_verify('rg_pax');
SELECT * FROM rg_differ;
DROP TABLE rg_pax, rg_heap CASCADE;
DROP VIEW rg_counts;
