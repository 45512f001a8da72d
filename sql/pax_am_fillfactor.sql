--
-- fillfactor on pax tables: inserts leave (100 - fillfactor) per cent of
-- each row-form page's row slots for the new versions of its rows (heap-only
-- updates use them), bulk loads make no compact pages, and fixed-width
-- columns stay unencoded; heap is the oracle for the rows
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
\i sql/include/pax_same.sql

-- a table's pages, its compact ones, and those holding more live rows than
-- its fillfactor leaves room for (capacity less the reserve)
CREATE FUNCTION ff_pages(rel regclass, ff int,
                         OUT pages bigint, OUT compact bigint, OUT overfull bigint)
  LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    WITH live AS (
      SELECT (ctid::text::point)[0]::bigint AS blkno, count(*) AS n
        FROM %s GROUP BY 1)
    SELECT count(*),
           count(*) FILTER (WHERE s.form = 'compact'),
           count(*) FILTER (WHERE l.n > s.capacity - s.capacity * (100 - %s) / 100)
      FROM pax_page_stats(%L) s JOIN live l USING (blkno)$q$, rel, ff, rel)
    INTO pages, compact, overfull;
END $$;

CREATE TABLE ff_pax (id int PRIMARY KEY, k int, v int, s text) USING pax
  WITH (fillfactor = 80, autovacuum_enabled = off);
CREATE TABLE ff_heap (id int PRIMARY KEY, k int, v int, s text) USING heap
  WITH (fillfactor = 80, autovacuum_enabled = off);

-- a bulk INSERT ... SELECT, COPY and single rows: row form, the reserve kept
INSERT INTO ff_pax SELECT g, g % 7, g, 's' || g % 5 FROM generate_series(1, 3000) g;
INSERT INTO ff_heap SELECT g, g % 7, g, 's' || g % 5 FROM generate_series(1, 3000) g;
COPY ff_pax FROM stdin;
3001	1	3001	copied
3002	2	3002	copied
3003	3	3003	copied
\.
COPY ff_heap FROM stdin;
3001	1	3001	copied
3002	2	3002	copied
3003	3	3003	copied
\.
DO $$
BEGIN
  FOR i IN 3004 .. 3400 LOOP
    INSERT INTO ff_pax VALUES (i, i % 7, i, 'one');
    INSERT INTO ff_heap VALUES (i, i % 7, i, 'one');
  END LOOP;
END $$;
SELECT pages > 1 AS several, compact, overfull FROM ff_pages('ff_pax', 80);
-- fixed-width columns stay unencoded: an updated value always fits
SELECT DISTINCT attname, encoding FROM pax_page_columns('ff_pax', 0)
  WHERE attname IN ('id', 'k', 'v') ORDER BY 1;

-- an UPDATE of a tenth of the rows fits the reserve: heap-only on both
UPDATE ff_pax SET v = v + 1000000 WHERE id % 10 = 0;
UPDATE ff_heap SET v = v + 1000000 WHERE id % 10 = 0;
SELECT pg_stat_force_next_flush();
SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
  WHERE relname IN ('ff_pax', 'ff_heap') ORDER BY relname DESC;
SELECT pax_same('ff_pax', 'ff_heap');

-- rows inserted after a DELETE and VACUUM (the free space map) keep it too
DELETE FROM ff_pax WHERE id % 3 = 0;
DELETE FROM ff_heap WHERE id % 3 = 0;
VACUUM ff_pax;
VACUUM ff_heap;
INSERT INTO ff_pax SELECT g, g % 7, g, 'again' FROM generate_series(4001, 5500) g;
INSERT INTO ff_heap SELECT g, g % 7, g, 'again' FROM generate_series(4001, 5500) g;
SELECT compact, overfull FROM ff_pages('ff_pax', 80);
SELECT pax_same('ff_pax', 'ff_heap');

-- a new fillfactor applies to the pages filled from then on, as heap's
ALTER TABLE ff_pax SET (fillfactor = 60);
INSERT INTO ff_pax SELECT g, g % 7, g, 'sixty' FROM generate_series(6001, 8000) g;
INSERT INTO ff_heap SELECT g, g % 7, g, 'sixty' FROM generate_series(6001, 8000) g;
SELECT overfull FROM ff_pages('ff_pax', 80);
SELECT count(*) FILTER (WHERE l.n > s.capacity - s.capacity * 40 / 100) AS overfull_60
  FROM pax_page_stats('ff_pax') s
  JOIN (SELECT (ctid::text::point)[0]::bigint AS blkno, count(*) AS n
          FROM ff_pax WHERE id > 6000 GROUP BY 1) l USING (blkno);

-- an UPDATE of an indexed column keeps its new version on its row's page
-- when it fits, the reserve included, as heap_update does (one WAL record;
-- the version gets index entries of its own)
CREATE TABLE ffi_pax (id int PRIMARY KEY, k int, v int) USING pax
  WITH (fillfactor = 50, autovacuum_enabled = off);
CREATE TABLE ffi_heap (id int PRIMARY KEY, k int, v int) USING heap
  WITH (fillfactor = 50, autovacuum_enabled = off);
CREATE INDEX ON ffi_pax (k);
CREATE INDEX ON ffi_heap (k);
INSERT INTO ffi_pax SELECT g, g, g FROM generate_series(1, 1000) g;
INSERT INTO ffi_heap SELECT g, g, g FROM generate_series(1, 1000) g;
CREATE TEMP TABLE ffi_before AS
  SELECT 'pax' AS am, id, (ctid::text::point)[0] AS blk FROM ffi_pax
  UNION ALL SELECT 'heap', id, (ctid::text::point)[0] FROM ffi_heap;
UPDATE ffi_pax SET k = k + 1000 WHERE id % 4 = 0;
UPDATE ffi_heap SET k = k + 1000 WHERE id % 4 = 0;
SELECT am, count(*) FILTER (WHERE now.blk <> b.blk) AS moved
  FROM ffi_before b
  JOIN (SELECT 'pax' AS am, id, (ctid::text::point)[0] AS blk FROM ffi_pax
        UNION ALL SELECT 'heap', id, (ctid::text::point)[0] FROM ffi_heap) now
  USING (am, id)
  GROUP BY am ORDER BY am DESC;
SELECT pg_stat_force_next_flush();
SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
  WHERE relname IN ('ffi_pax', 'ffi_heap') ORDER BY relname DESC;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pax_same('(SELECT * FROM ffi_pax WHERE k > 1000)',
                '(SELECT * FROM ffi_heap WHERE k > 1000)');
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) AS problems FROM pax_verify('ffi_pax', true, true);
DROP TABLE ffi_pax, ffi_heap;

-- without a fillfactor, a bulk load fills compact pages as before
CREATE TABLE ff_dense (id int, v int) USING pax WITH (autovacuum_enabled = off);
INSERT INTO ff_dense SELECT g, g FROM generate_series(1, 3000) g;
SELECT compact > 0 AS compact_pages FROM ff_pages('ff_dense', 100);

-- an UPDATE of every row goes to other pages where the reserve runs out,
-- and the rows stay heap's
UPDATE ff_pax SET v = -v;
UPDATE ff_heap SET v = -v;
SELECT pax_same('ff_pax', 'ff_heap');
SELECT count(*) AS problems FROM pax_verify('ff_pax', true, true);

DROP TABLE ff_pax, ff_heap, ff_dense;
DROP FUNCTION ff_pages(regclass, int);
