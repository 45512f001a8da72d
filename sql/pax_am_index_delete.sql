--
-- Index entries deleted bottom-up (btree asks the table which duplicates
-- of a leaf page are dead before it splits it): a pax table gives the
-- same rows as heap through its indexes, and its primary key stays as
-- small as heap's under updates of another indexed column, with the
-- candidates spread over more table pages than one deletion reads
-- (pax_am/pax_index.c, PAX_BOTTOMUP_MAX_BLOCKS)
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
CREATE TABLE del_pax (id int PRIMARY KEY, k int, pad text) USING pax
  WITH (autovacuum_enabled = off);
CREATE TABLE del_heap (id int PRIMARY KEY, k int, pad text) USING heap
  WITH (autovacuum_enabled = off);
CREATE INDEX ON del_pax (k);
CREATE INDEX ON del_heap (k);
INSERT INTO del_pax SELECT g, g, repeat('p', 60) FROM generate_series(1, 3000) g;
INSERT INTO del_heap SELECT g, g, repeat('p', 60) FROM generate_series(1, 3000) g;
VACUUM ANALYZE del_pax;
VACUUM ANALYZE del_heap;

-- each round (a transaction of its own, whose old versions the next ones
-- may delete) changes k, an indexed column: no update is heap-only, and
-- the primary key gets an entry a row that is an unchanged key
SELECT format('UPDATE %I SET k = k + 1 WHERE id %% 3 = %s', t, r % 3)
  FROM generate_series(1, 12) r, unnest(ARRAY['del_pax', 'del_heap']) t
  ORDER BY r, t DESC \gexec

-- the same rows through each index
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS differ FROM
  ((SELECT id, k FROM del_pax WHERE id BETWEEN 100 AND 2900
    EXCEPT SELECT id, k FROM del_heap WHERE id BETWEEN 100 AND 2900)
   UNION ALL
   (SELECT id, k FROM del_heap WHERE k BETWEEN 100 AND 2900
    EXCEPT SELECT id, k FROM del_pax WHERE k BETWEEN 100 AND 2900)) d;
SELECT k FROM del_pax WHERE id = 1500;
SELECT id FROM del_pax WHERE k = 1504;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- 12,000 updates of 3,000 rows: without deletions the key would hold
-- 15,000 entries (35 pages, made in one transaction); pax's has no more
-- pages than twice heap's
SELECT pg_relation_size('del_pax_pkey') <= 2 * pg_relation_size('del_heap_pkey')
  AS pkey_as_small,
       pg_relation_size('del_pax_pkey') / 8192 < 30 AS pkey_deleted;
DROP TABLE del_pax, del_heap;
