--
-- pax_am_vacuum: VACUUM reclaims dead rows' space: UNUSED slots, value area
-- compaction, exact zone maps, slot reuse by inserts, tail truncation.
-- (Dead rows here are aborted inserts, which are dead whatever the xmin
-- horizon, so the numbers are stable.)
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;

-- dead rows interleaved with live ones: every third row is aborted (in a
-- subtransaction), with extreme values the zone maps see
CREATE TABLE rv (a int, b text NOT NULL, c float8, d text)
  USING pax WITH (autovacuum_enabled = off);
DO $$
BEGIN
  FOR i IN 1..900 LOOP
    IF i % 3 = 0 THEN
      BEGIN
        INSERT INTO rv VALUES (100000 + i, repeat('dead', 20), -i, NULL);
        RAISE EXCEPTION 'abort';
      EXCEPTION WHEN raise_exception THEN NULL;
      END;
    ELSE
      INSERT INTO rv VALUES (i, 'live ' || i, i / 4.0,
                             CASE WHEN i % 7 = 0 THEN NULL ELSE 'd' || i END);
    END IF;
  END LOOP;
END $$;
SELECT md5(string_agg(rv::text, ',' ORDER BY a)) AS before FROM rv \gset
SELECT pg_relation_size('rv') AS size_before \gset
SELECT pg_stat_force_next_flush();	-- the inserts' counts before VACUUM's
SELECT count(*) AS pages, sum(nrows) AS nrows, sum(value_bytes) AS value_bytes
  FROM pax_page_stats('rv');
SELECT attname, zone_min, zone_max FROM pax_page_columns('rv', 0)
 WHERE zone_min IS NOT NULL ORDER BY attnum;
VACUUM rv;
-- rows and value bytes shrink; the contents do not change
SELECT count(*) AS pages, sum(nrows) AS nrows, sum(value_bytes) AS value_bytes
  FROM pax_page_stats('rv');
-- the value area holds exactly the values left: no gaps
SELECT bool_and(s.value_bytes = c.v) AS value_area_compact
  FROM pax_page_stats('rv') s,
       LATERAL (SELECT sum(value_bytes) AS v
                  FROM pax_page_columns('rv', s.blkno)) c;
SELECT md5(string_agg(rv::text, ',' ORDER BY a)) = :'before' AS same,
       count(*) FROM rv;
-- zone maps are exact again: the aborted extremes are gone
SELECT attname, zone_min, zone_max FROM pax_page_columns('rv', 0)
 WHERE zone_min IS NOT NULL ORDER BY attnum;
CREATE TEMP VIEW zones_exact AS
SELECT bool_and(p.zone_min::int = x.min AND p.zone_max::int = x.max) AS exact_zones
  FROM pax_page_stats('rv') s,
       LATERAL (SELECT zone_min, zone_max FROM pax_page_columns('rv', s.blkno)
                 WHERE attname = 'a') p,
       LATERAL (SELECT min(a), max(a) FROM rv
                 WHERE (ctid::text::point)[0] = s.blkno) x;
SELECT * FROM zones_exact;
-- reclaimed slots are no rows: not by TID, not by pushdown, not by the
-- plain scan (b has no null bitmap: its reclaimed offsets are 0)
SELECT count(*) FROM rv WHERE ctid = '(0,3)';
SELECT count(*) FROM rv WHERE b = 'live 4' OR b LIKE 'dead%';
SELECT count(*) FROM rv WHERE a > 100000;
SET pax.enable_customscan = off;
SELECT count(*), sum(a) FROM rv;
SELECT count(*) FROM rv WHERE b LIKE 'dead%';
RESET pax.enable_customscan;
SELECT count(*), sum(a) FROM rv;
SELECT pg_stat_force_next_flush();
SELECT n_live_tup, n_dead_tup, vacuum_count FROM pg_stat_user_tables WHERE relname = 'rv';
SELECT relpages = pg_relation_size('rv') / 8192 AS relpages_ok, reltuples
  FROM pg_class WHERE relname = 'rv';

-- inserts reuse the reclaimed slots: the relation does not grow
INSERT INTO rv SELECT 2000 + i, 'new ' || i, i, CASE WHEN i % 2 = 0 THEN 'n' || i END
  FROM generate_series(1, 250) i;
SELECT pg_relation_size('rv') = :size_before AS same_size;
SELECT count(*) AS pages, sum(nrows) AS nrows FROM pax_page_stats('rv');
SELECT count(*), count(d), sum(a), sum(c) FROM rv WHERE a > 2000;
SELECT * FROM rv WHERE a IN (2001, 2002, 2250) ORDER BY a;
SET pax.enable_customscan = off;
SELECT count(*), count(d), sum(a), sum(c) FROM rv WHERE a > 2000;
RESET pax.enable_customscan;
SELECT count(*) FROM rv WHERE d IS NULL;
SELECT count(*) FROM rv WHERE d IS NOT NULL;
-- zone maps widened by the reused slots
SELECT * FROM zones_exact;
-- a second VACUUM finds nothing to remove and seals the pages
VACUUM rv;
SELECT count(*) AS pages, sum(nrows) AS nrows FROM pax_page_stats('rv');
SELECT relallvisible > 0 AS some_all_visible FROM pg_class WHERE relname = 'rv';
SELECT count(*), sum(a) FROM rv;

-- a table of fixed-width columns only has no value area: the free space
-- map must still offer its pages with free slots (emptied and partly
-- emptied ones) to single-row inserts
CREATE TABLE rvf (a int, b int8, c float8) USING pax WITH (autovacuum_enabled = off);
DO $$ BEGIN FOR i IN 1 .. 1500 LOOP INSERT INTO rvf VALUES (i, i * 10, i / 2.0); END LOOP; END $$;
SELECT pg_relation_size('rvf') AS rvf_size \gset
SELECT count(*) > 5 AS several_pages, sum(capacity - nrows) < 100 AS nearly_full
  FROM pax_page_stats('rvf');
DELETE FROM rvf WHERE a <= 600 OR a % 3 <> 0;
VACUUM rvf;
DO $$ BEGIN FOR i IN 1 .. 1100 LOOP INSERT INTO rvf VALUES (1500 + i, (1500 + i) * 10, (1500 + i) / 2.0); END LOOP; END $$;
SELECT pg_relation_size('rvf') = :rvf_size AS same_size;
SELECT count(*), sum(a), sum(b), sum(c) FROM rvf;
SET pax.enable_customscan = off;
SELECT count(*), sum(a), sum(b), sum(c) FROM rvf;
RESET pax.enable_customscan;
SELECT count(*) AS problems FROM pax_verify('rvf');
DROP TABLE rvf;

-- dead rows at the end: empty tail pages are truncated
CREATE TABLE tr (a int, b text) USING pax WITH (autovacuum_enabled = off);
INSERT INTO tr SELECT i, 'keep' || i FROM generate_series(1, 500) i;
BEGIN;
INSERT INTO tr SELECT i, repeat('x', 100) FROM generate_series(1, 3000) i;
ROLLBACK;
SELECT pg_relation_size('tr') AS tr_before \gset
SELECT pg_relation_size('tr') / 8192 AS pages;
-- TRUNCATE off: the space is reclaimed, the pages stay
VACUUM (TRUNCATE off) tr;
SELECT pg_relation_size('tr') = :tr_before AS not_truncated;
SELECT count(*) FILTER (WHERE nrows = 0) > 0 AS empty_pages FROM pax_page_stats('tr');
-- so does the reloption
ALTER TABLE tr SET (vacuum_truncate = off);
VACUUM tr;
SELECT pg_relation_size('tr') = :tr_before AS not_truncated;
ALTER TABLE tr RESET (vacuum_truncate);
VACUUM tr;
SELECT pg_relation_size('tr') < :tr_before AS truncated,
       pg_relation_size('tr') / 8192 AS pages;
SELECT count(*) FILTER (WHERE nrows = 0) AS empty_pages FROM pax_page_stats('tr');
SELECT count(*), sum(a) FROM tr;
SELECT relpages = pg_relation_size('tr') / 8192 AS relpages_ok FROM pg_class WHERE relname = 'tr';
-- the table grows again normally after truncation
INSERT INTO tr SELECT i, 'again' FROM generate_series(1, 1000) i;
SELECT count(*), sum(a) FROM tr;

-- VACUUM VERBOSE: a table of aborted rows only
CREATE TABLE vv (a int, b text) USING pax WITH (autovacuum_enabled = off);
BEGIN;
INSERT INTO vv SELECT i, md5(i::text) FROM generate_series(1, 1000) i;
ROLLBACK;
VACUUM (VERBOSE, PROCESS_TOAST false) vv;
SELECT pg_relation_size('vv');
-- INDEX_CLEANUP off on a table without indexes still reclaims
INSERT INTO vv SELECT i, 'v' || i FROM generate_series(1, 10) i;
BEGIN;
INSERT INTO vv SELECT i, 'w' || i FROM generate_series(1, 10) i;
ROLLBACK;
VACUUM (INDEX_CLEANUP off) vv;
SELECT nrows FROM pax_page_stats('vv');
SELECT count(*), sum(a) FROM vv;

-- VACUUM FULL and ANALYZE skip reclaimed slots
BEGIN;
INSERT INTO rv SELECT i, 'late', 0, NULL FROM generate_series(1, 100) i;
ROLLBACK;
VACUUM rv;
ANALYZE rv;
SELECT reltuples FROM pg_class WHERE relname = 'rv';
SELECT md5(string_agg(rv::text, ',' ORDER BY a)) AS before_full FROM rv \gset
VACUUM FULL rv;
SELECT md5(string_agg(rv::text, ',' ORDER BY a)) = :'before_full' AS same,
       count(*) FROM rv;

DROP VIEW zones_exact;
DROP TABLE rv, tr, vv;

-- an ALTER TABLE ADD COLUMN that rolls back leaves "orphan" pages laid out
-- for more columns than the table has: all their rows are dead, scans skip
-- them, inserts avoid them, VACUUM empties them
CREATE TABLE pax_orphan (a int, b text) USING pax WITH (autovacuum_enabled = off);
CREATE INDEX pax_orphan_a ON pax_orphan (a);
INSERT INTO pax_orphan SELECT g, 'x' FROM generate_series(1, 10) g;
BEGIN;
ALTER TABLE pax_orphan ADD COLUMN c int;
INSERT INTO pax_orphan SELECT g, 'y', g FROM generate_series(1, 500) g;
ROLLBACK;
SELECT count(*), sum(a) FROM pax_orphan;
SELECT count(*) FROM pax_orphan WHERE a > 5;
-- index entries of the rolled-back rows point into the orphan pages: an
-- index fetch finds their rows dead, not the pages corrupt
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET pax.enable_customscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*), sum(a), string_agg(b, '') FROM pax_orphan WHERE a BETWEEN 1 AND 500;
SELECT count(*), sum(a), string_agg(b, '') FROM pax_orphan WHERE a BETWEEN 1 AND 500;
-- and still when a later ADD COLUMN gives the table as many columns as
-- those pages have, of other types
ALTER TABLE pax_orphan ADD COLUMN d bpchar(30);
SELECT count(*), sum(a), string_agg(b, '') FROM pax_orphan WHERE a BETWEEN 1 AND 500;
ALTER TABLE pax_orphan DROP COLUMN d;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET pax.enable_customscan;
INSERT INTO pax_orphan VALUES (11, 'z');
SELECT count(*), sum(a) FROM pax_orphan;
SELECT count(*) AS problems FROM pax_verify('pax_orphan');
SELECT count(*) AS pages_shown FROM pax_page_stats('pax_orphan');
VACUUM pax_orphan;
SELECT count(*), sum(a) FROM pax_orphan;
SELECT count(*) AS problems FROM pax_verify('pax_orphan');
DROP TABLE pax_orphan;

-- VACUUM (FREEZE) freezes xmax as heap does: lockers (single and multixact)
-- and aborted updaters go, and relfrozenxid / relminmxid advance as heap's
CREATE TABLE fz_pax (id int, v text) USING pax;
CREATE TABLE fz_heap (id int, v text) USING heap;
INSERT INTO fz_pax SELECT g, 'v' || g FROM generate_series(1, 100) g;
INSERT INTO fz_heap SELECT g, 'v' || g FROM generate_series(1, 100) g;
BEGIN;
SELECT count(*) FROM (SELECT * FROM fz_pax WHERE id <= 10 FOR SHARE) s;
SELECT count(*) FROM (SELECT * FROM fz_heap WHERE id <= 10 FOR SHARE) s;
SAVEPOINT s;
SELECT count(*) FROM (SELECT * FROM fz_pax WHERE id <= 5 FOR UPDATE) s;
SELECT count(*) FROM (SELECT * FROM fz_heap WHERE id <= 5 FOR UPDATE) s;
RELEASE s;
COMMIT;
BEGIN;
UPDATE fz_pax SET v = 'aborted' WHERE id BETWEEN 20 AND 29;
UPDATE fz_heap SET v = 'aborted' WHERE id BETWEEN 20 AND 29;
ROLLBACK;
UPDATE fz_pax SET v = 'u' WHERE id > 90;
UPDATE fz_heap SET v = 'u' WHERE id > 90;
SELECT (SELECT count(*) FROM fz_pax WHERE xmax <> '0') AS pax_with_xmax,
       (SELECT count(*) FROM fz_heap WHERE xmax <> '0') AS heap_with_xmax;
VACUUM (FREEZE) fz_pax;
VACUUM (FREEZE) fz_heap;
SELECT (SELECT count(*) FROM fz_pax WHERE xmax <> '0') AS pax_with_xmax,
       (SELECT count(*) FROM fz_heap WHERE xmax <> '0') AS heap_with_xmax;
SELECT p.relfrozenxid = h.relfrozenxid AS same_relfrozenxid,
       p.relminmxid = h.relminmxid AS same_relminmxid,
       age(p.relfrozenxid) < 10 AS young
  FROM pg_class p, pg_class h WHERE p.relname = 'fz_pax' AND h.relname = 'fz_heap';
SELECT count(*) AS problems FROM pax_verify('fz_pax');
SELECT (SELECT string_agg(id || ':' || v, ',' ORDER BY id) FROM fz_pax) =
       (SELECT string_agg(id || ':' || v, ',' ORDER BY id) FROM fz_heap) AS same_rows;
DROP TABLE fz_pax, fz_heap;
