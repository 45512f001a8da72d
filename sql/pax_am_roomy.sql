--
-- Dense pages under updates (pax_am/pax_regrow.c, PaxPageRegrowMapped with
-- encoded): a bulk load's compact page whose rows hold wide fixed-width
-- values (TPC-C's stock) has no room for a header a row plus a new version
-- in the plain layout, and its batch's encodings (constant counters,
-- packed quantities, scaled balances) take no updated value.  The first
-- update that leaves such a page marks it (PD_PAGE_FULL, as heap_update
-- does); the next reader lays it out again with a TID map and encodings
-- with room for updated values, so that later updates stay on the page
-- (HOT), as heap's do after its first.  Heap is the oracle.
--
SET pax.enable_customscan = on;

CREATE TABLE ry_pax (id int PRIMARY KEY, w int NOT NULL, q int NOT NULL,
  d1 char(24) NOT NULL, d2 char(24) NOT NULL, d3 char(24) NOT NULL,
  d4 char(24) NOT NULL, d5 char(24) NOT NULL, d6 char(24) NOT NULL,
  ytd int NOT NULL, cnt bigint NOT NULL, bal numeric(12,2) NOT NULL,
  data varchar(50)) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE ry_heap (LIKE ry_pax INCLUDING ALL) USING heap
  WITH (autovacuum_enabled = off);
INSERT INTO ry_pax
  SELECT g, 1, 10 + g % 91, left(md5(g::text), 24),
         left(md5((g + 1)::text), 24), left(md5((g + 2)::text), 24),
         left(md5((g + 3)::text), 24), left(md5((g + 4)::text), 24),
         left(md5((g + 5)::text), 24), 0, 0, -10.00,
         CASE WHEN g % 10 <> 0 THEN left(md5((g * 7)::text), 20 + g % 13) END
    FROM generate_series(1, 600) g;
INSERT INTO ry_heap SELECT * FROM ry_pax;
CREATE VIEW ry_differ AS
  SELECT count(*) AS differ FROM
    ((SELECT * FROM ry_pax EXCEPT SELECT * FROM ry_heap)
     UNION ALL
     (SELECT * FROM ry_heap EXCEPT SELECT * FROM ry_pax)) d;
CREATE VIEW ry_page0 AS
  SELECT s.form, s.capacity - s.nrows AS free_slots,
         EXISTS (SELECT FROM pax_page_regions('ry_pax', 0)
                  WHERE region = 'TID map') AS mapped
    FROM pax_page_stats('ry_pax') s WHERE s.blkno = 0;
-- the batch's page: compact, counters constant
SELECT * FROM ry_page0;
SELECT attname, encoding FROM pax_page_columns('ry_pax', 0)
 WHERE attname IN ('q', 'ytd', 'cnt', 'bal', 'd1') ORDER BY attnum;
SELECT max(id) AS rows_on_page_0 FROM ry_pax
 WHERE ctid < '(1,0)';

-- counters and balances of page 0's rows, a transaction each, each read
-- back by the index (pruning at the reader)
SET enable_seqscan = off;
SET enable_bitmapscan = off;
DO $$
BEGIN
  FOR r IN 1 .. 6 LOOP
    FOR g IN 1 .. 20 LOOP
      UPDATE ry_pax SET q = q - 5 + (g % 3) * 40, ytd = ytd + g, cnt = cnt + 1,
                        bal = bal - 12.25 * r WHERE id = g;
      UPDATE ry_heap SET q = q - 5 + (g % 3) * 40, ytd = ytd + g, cnt = cnt + 1,
                         bal = bal - 12.25 * r WHERE id = g;
      COMMIT;
      PERFORM q FROM ry_pax WHERE id = g;
    END LOOP;
  END LOOP;
END $$;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT pg_stat_force_next_flush();
-- page 0 went to the row form, mapped, with room in its counters, once
-- the rows its first updates moved left room for a header a row (43 rows
-- a compact page, 36 in the row form); the updates after that stayed on it
SELECT * FROM ry_page0;
SELECT attname, encoding, value_width FROM pax_page_columns('ry_pax', 0)
 WHERE attname IN ('q', 'ytd', 'cnt', 'bal', 'd1') ORDER BY attnum;
SELECT relname, n_tup_upd, n_tup_hot_upd >= 100 AS mostly_hot
  FROM pg_stat_user_tables
 WHERE relname IN ('ry_pax', 'ry_heap') ORDER BY relname;
SELECT count(*) <= 10 AS few_moved_off_page_0 FROM ry_pax
 WHERE id <= 20 AND ctid >= '(1,0)';
SELECT pg_relation_size('ry_pax') <= pg_relation_size('ry_heap') AS not_larger;
SELECT * FROM ry_differ;
SELECT * FROM pax_verify('ry_pax', true, true);

-- every access path sees heap's rows; VACUUM keeps them
SET enable_seqscan = off;
SELECT sum(ytd), sum(cnt), sum(bal) FROM ry_pax WHERE id BETWEEN 1 AND 30;
SELECT sum(ytd), sum(cnt), sum(bal) FROM ry_heap WHERE id BETWEEN 1 AND 30;
RESET enable_seqscan;
SELECT sum(ytd), sum(cnt), sum(bal), count(data) FROM ry_pax WHERE q > 50;
SELECT sum(ytd), sum(cnt), sum(bal), count(data) FROM ry_heap WHERE q > 50;
VACUUM ry_pax;
VACUUM ry_heap;
SELECT * FROM ry_differ;
SELECT * FROM pax_verify('ry_pax', true, true);

-- an updated value beyond its column's room goes to another page; nothing
-- is lost
UPDATE ry_pax SET ytd = 2000000000, bal = 9999999999.99 WHERE id = 3;
UPDATE ry_heap SET ytd = 2000000000, bal = 9999999999.99 WHERE id = 3;
SELECT id, ytd, bal FROM ry_pax WHERE id = 3;
SELECT * FROM ry_differ;
SELECT * FROM pax_verify('ry_pax', true, true);
DROP TABLE ry_pax, ry_heap CASCADE;


-- A page of narrow rows (pgbench_accounts' shape: its batch's balances
-- constant) keeps TIDs free for its rows' new versions (PaxCompactKeepTids):
-- 147 rows, not the 291 its bytes would hold, so that each row can keep a
-- chain's root and a version.  Its first update moves its
-- row (a compact page takes no version) and hints the page full; the next
-- reader's pruning lays it out again with room for updated balances and
-- free slots, so that the next updates keep their versions on the page,
-- HOT, as heap's do.  A balance beyond that room moves its row; the read
-- after it writes no page image.
CREATE TABLE na_pax (aid int PRIMARY KEY, bid int NOT NULL,
  abalance int NOT NULL, filler char(84)) USING pax
  WITH (autovacuum_enabled = off);
CREATE TABLE na_heap (LIKE na_pax INCLUDING ALL) USING heap
  WITH (autovacuum_enabled = off);
INSERT INTO na_pax SELECT g, 1, 0, '' FROM generate_series(1, 1000) g;
INSERT INTO na_heap SELECT * FROM na_pax;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
-- page 0's first updates move their rows; the readers' pruning takes it
-- to the row form, and VACUUM frees the moved rows' slots
DO $$
BEGIN
  FOR g IN 1 .. 4 LOOP
    UPDATE na_pax SET abalance = abalance + 7 * g WHERE aid = g;
    UPDATE na_heap SET abalance = abalance + 7 * g WHERE aid = g;
    COMMIT;
    PERFORM abalance FROM na_pax WHERE aid = g + 1;
  END LOOP;
END $$;
SELECT aid, ctid::text LIKE '(0,%' AS on_its_page FROM na_pax
 WHERE aid <= 4 ORDER BY aid;
SELECT aid, ctid::text LIKE '(0,%' AS on_its_page FROM na_heap
 WHERE aid <= 4 ORDER BY aid;
VACUUM na_pax;
SELECT nrows, capacity > nrows AS free_slots, form
  FROM pax_page_stats('na_pax') WHERE blkno = 0;
SELECT attname, encoding FROM pax_page_columns('na_pax', 0)
 WHERE attname = 'abalance';
UPDATE na_pax SET abalance = abalance - 4000 WHERE aid = 10;
UPDATE na_heap SET abalance = abalance - 4000 WHERE aid = 10;
SELECT pg_current_wal_insert_lsn() AS na_lsn \gset
SELECT abalance FROM na_pax WHERE aid = 11;
SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), :'na_lsn') < 1000
  AS read_wrote_no_page_image;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- the rows are heap's; VACUUM finds the dead version and keeps them
SELECT count(*), sum(abalance) FROM na_pax;
SELECT count(*), sum(abalance) FROM na_heap;
VACUUM na_pax;
SELECT count(*) AS differ FROM
  ((SELECT * FROM na_pax EXCEPT SELECT * FROM na_heap)
   UNION ALL (SELECT * FROM na_heap EXCEPT SELECT * FROM na_pax)) d;
SELECT * FROM pax_verify('na_pax', true, true);
DROP TABLE na_pax, na_heap;
