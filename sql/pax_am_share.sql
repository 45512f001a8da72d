--
-- Versions of a row share the values they keep (pax_am/pax_place.c,
-- PaxValueShared): an UPDATE whose new version stays on its old version's
-- page points the text columns it does not change at the old version's
-- bytes in the value area instead of writing them again, as heap does
-- (heap copies the whole row).  Pruning and VACUUM compact the value area
-- moving a shared value once; pax_verify accepts versions of a column
-- sharing a value and nothing else.  Heap is the oracle.
--
CREATE TABLE sh_pax (id int PRIMARY KEY, bal int NOT NULL, first text,
  last text, street text, data text) USING pax
  WITH (autovacuum_enabled = off);
CREATE TABLE sh_heap (LIKE sh_pax INCLUDING ALL) USING heap
  WITH (autovacuum_enabled = off);
DO $$
BEGIN
  FOR g IN 1 .. 20 LOOP
    INSERT INTO sh_pax VALUES (g, 0, 'first ' || g, repeat('last', 5) || g,
      CASE WHEN g % 5 <> 0 THEN repeat('street ', 10) || g END,
      repeat(md5(g::text), 4));
  END LOOP;
END $$;
INSERT INTO sh_heap SELECT * FROM sh_pax;
-- pax_same(a, b): a and b row for row (sql/include/pax_same.sql)
\getenv abs_srcdir PG_ABS_SRCDIR
\set pax_same :abs_srcdir '/sql/include/pax_same.sql'
\i :pax_same
SELECT form, nrows FROM pax_page_stats('sh_pax') WHERE blkno = 0;

-- a new version that keeps its text values takes none of the value area
SELECT upper AS up0 FROM pax_page_stats('sh_pax') WHERE blkno = 0 \gset
UPDATE sh_pax SET bal = bal + 1 WHERE id = 3;
UPDATE sh_heap SET bal = bal + 1 WHERE id = 3;
SELECT :up0 - upper AS value_bytes_taken
  FROM pax_page_stats('sh_pax') WHERE blkno = 0;
-- one changed text value takes its own bytes only (132 + a header)
SELECT upper AS up0 FROM pax_page_stats('sh_pax') WHERE blkno = 0 \gset
UPDATE sh_pax SET data = data || 'x' WHERE id = 4;
UPDATE sh_heap SET data = data || 'x' WHERE id = 4;
SELECT :up0 - upper BETWEEN 129 AND 140 AS one_value_taken
  FROM pax_page_stats('sh_pax') WHERE blkno = 0;
-- a NULL kept stays NULL; a value set where the old one was NULL is new
UPDATE sh_pax SET bal = bal + 1 WHERE id = 5;
UPDATE sh_heap SET bal = bal + 1 WHERE id = 5;
UPDATE sh_pax SET street = 'new street' WHERE id = 10;
UPDATE sh_heap SET street = 'new street' WHERE id = 10;
SELECT pax_same('sh_pax', 'sh_heap');
SELECT * FROM pax_verify('sh_pax', true, true);

-- an aborted UPDATE's version shares the old version's values; the old
-- version's next update no longer names it, and pax_verify still finds
-- nothing wrong
BEGIN;
UPDATE sh_pax SET bal = bal - 1 WHERE id = 7;
ROLLBACK;
UPDATE sh_pax SET bal = bal + 2 WHERE id = 7;
UPDATE sh_heap SET bal = bal + 2 WHERE id = 7;
SELECT pax_same('sh_pax', 'sh_heap');
SELECT * FROM pax_verify('sh_pax', true, true);

-- many versions, each transaction's read pruning the page (its value area
-- compacted with shared values), then VACUUM: the rows stay heap's
-- sh_updates(n, col, every, expr): n updates of both tables, update r
-- adding 1 to bal of row r % 20 + 1 and, every every-th, setting col to
-- expr, each committed and followed by a read of the next row through its
-- index; then the statistics are flushed
CREATE PROCEDURE sh_updates(n int, col text, every int, expr text)
LANGUAGE plpgsql AS $$
DECLARE
  t text;
BEGIN
  FOR r IN 1 .. n LOOP
    FOREACH t IN ARRAY ARRAY['sh_pax', 'sh_heap'] LOOP
      EXECUTE format('UPDATE %I SET bal = bal + 1, %I = CASE WHEN $1 %% $2 = 0 '
                     'THEN %s ELSE %I END WHERE id = $1 %% 20 + 1',
                     t, col, expr, col) USING r, every;
    END LOOP;
    COMMIT;
    PERFORM bal FROM sh_pax WHERE id = (r + 1) % 20 + 1;
  END LOOP;
  PERFORM pg_stat_force_next_flush();
END $$;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CALL sh_updates(160, 'last', 7, 'last || $1');
RESET enable_bitmapscan;
RESET enable_seqscan;
SELECT n_tup_upd, n_tup_hot_upd = n_tup_upd AS all_hot
  FROM pg_stat_user_tables WHERE relname = 'sh_pax';
SELECT count(*) AS pages FROM pax_page_stats('sh_pax');
SELECT pax_same('sh_pax', 'sh_heap');
SELECT * FROM pax_verify('sh_pax', true, true);
VACUUM sh_pax;
VACUUM sh_heap;
SELECT pax_same('sh_pax', 'sh_heap');
SELECT * FROM pax_verify('sh_pax', true, true);
SELECT id, bal, length(last), street IS NULL AS no_street FROM sh_pax
 WHERE id IN (1, 5, 10, 20) ORDER BY id;

-- pruning compacts the value area only when the versions it removes free
-- some of its bytes (PaxPruneFreesValues): versions that changed only a
-- counter share every value and free none, versions whose text changed
-- free their old text, which later versions must find room in
SELECT upper AS up0 FROM pax_page_stats('sh_pax') WHERE blkno = 0 \gset
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CALL sh_updates(300, 'data', 3, 'md5($1::text) || substr(data, 33)');
RESET enable_bitmapscan;
RESET enable_seqscan;
SELECT s.n_tup_upd, s.n_tup_hot_upd = s.n_tup_upd AS all_hot,
       (SELECT count(*) FROM pax_page_stats('sh_pax')) AS pages,
       :up0 - p.upper < 2000 AS value_area_kept_small
  FROM pg_stat_user_tables s, pax_page_stats('sh_pax') p
 WHERE s.relname = 'sh_pax' AND p.blkno = 0;
SELECT pax_same('sh_pax', 'sh_heap');
SELECT * FROM pax_verify('sh_pax', true, true);
DROP TABLE sh_pax, sh_heap;
DROP PROCEDURE sh_updates;
DROP FUNCTION pax_same;
