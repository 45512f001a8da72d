--
-- pax_am_mvcc_update: UPDATE on pax tables: keys and values, NULLs, wide
-- values that move a row off its page, the update chain (currtid2), many
-- updates of one row in one transaction, savepoints, WHERE CURRENT OF, and
-- rows moving between partitions.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
CREATE TABLE u_pax (id int, k int, v text, f float8) USING pax;
CREATE TABLE u_heap (id int, k int, v text, f float8) USING heap;
INSERT INTO u_pax SELECT i, i % 100, 'u' || i, i / 4.0 FROM generate_series(1, 3000) i;
INSERT INTO u_heap SELECT i, i % 100, 'u' || i, i / 4.0 FROM generate_series(1, 3000) i;
-- non-key column, key column, several columns, to NULL and back
SELECT * FROM dml('u', 'UPDATE {t} SET v = v || ''+'' WHERE k = 5');
SELECT * FROM dml('u', 'UPDATE {t} SET id = id + 100000 WHERE k = 6 RETURNING *');
SELECT * FROM dml('u', 'UPDATE {t} SET k = NULL, v = NULL, f = f * 2 WHERE id % 97 = 0 RETURNING id, k, v, f');
SELECT * FROM dml('u', 'UPDATE {t} SET k = id % 100, v = ''back'' WHERE k IS NULL RETURNING *');
-- every row, twice (the second pass sees the first's new versions only)
SELECT * FROM dml('u', 'UPDATE {t} SET f = f + 1');
SELECT * FROM dml('u', 'UPDATE {t} SET f = f + 1 RETURNING f');
-- UPDATE ... FROM, a join finding a row twice updates it once
SELECT * FROM dml('u', 'UPDATE {t} SET v = v || g.x FROM (VALUES (10, ''a''), (10, ''a''), (11, ''b'')) g(i, x) WHERE id = g.i RETURNING id, v');
-- no-op update of an unchanged value still makes a new version
SELECT * FROM dml('u', 'UPDATE {t} SET v = v WHERE id BETWEEN 20 AND 29');
-- the new version of an updated row is not updated again by the same statement
SELECT * FROM dml('u', 'UPDATE {t} SET id = id + 1 WHERE id BETWEEN 1 AND 5 RETURNING id');
SELECT * FROM same('u');

-- a wide value moves the new version of a row off its full page
CREATE TABLE w_pax (id int, v text) USING pax;
CREATE TABLE w_heap (id int, v text) USING heap;
INSERT INTO w_pax SELECT i, 'w' || i FROM generate_series(1, 2000) i;
INSERT INTO w_heap SELECT i, 'w' || i FROM generate_series(1, 2000) i;
SELECT (SELECT count(*) FROM w_pax WHERE id BETWEEN 30 AND 33 AND block(ctid) = 0) AS pax_on_block_0,
       (SELECT count(*) FROM w_heap WHERE id BETWEEN 30 AND 33 AND block(ctid) = 0) AS heap_on_block_0;
SELECT * FROM dml('w', 'UPDATE {t} SET v = (SELECT string_agg(md5(i::text), '''') FROM generate_series(1, 40) i) WHERE id BETWEEN 30 AND 33 RETURNING id, length(v), md5(v)');
SELECT (SELECT count(*) FROM w_pax WHERE id BETWEEN 30 AND 33 AND block(ctid) = 0) AS pax_on_block_0,
       (SELECT count(*) FROM w_heap WHERE id BETWEEN 30 AND 33 AND block(ctid) = 0) AS heap_on_block_0;
SELECT id, length(v), md5(v) FROM w_pax WHERE id BETWEEN 29 AND 34 ORDER BY id;
-- and back to a narrow value; then every other row widened
SELECT * FROM dml('w', 'UPDATE {t} SET v = ''narrow'' WHERE id BETWEEN 30 AND 33 RETURNING *');
SELECT * FROM dml('w', 'UPDATE {t} SET v = repeat(v, 50) WHERE id % 2 = 0');
SELECT * FROM q('SELECT id, length(v) FROM w{t}');
SELECT count(*), sum(length(v)) FROM w_pax;

-- the update chain: currtid2() follows it from the old version to the newest,
-- a TID scan of an old version finds nothing, the new version has a new TID
-- (in one transaction: once the old versions are dead to everyone, pruning
-- may free them, on heap too, where its page is full)
BEGIN;
SELECT ctid AS tid0 FROM u_pax WHERE id = 40 \gset pax_
SELECT ctid AS tid0 FROM u_heap WHERE id = 40 \gset heap_
UPDATE u_pax SET k = k + 1 WHERE id = 40;
UPDATE u_heap SET k = k + 1 WHERE id = 40;
SELECT ctid AS tid1 FROM u_pax WHERE id = 40 \gset pax_
SELECT ctid AS tid1 FROM u_heap WHERE id = 40 \gset heap_
UPDATE u_pax SET k = k + 1 WHERE id = 40;
UPDATE u_heap SET k = k + 1 WHERE id = 40;
SELECT 'pax' AS am, :'pax_tid0'::tid <> :'pax_tid1'::tid AS new_tid1, :'pax_tid1'::tid <> ctid AS new_tid2,
       currtid2('u_pax', :'pax_tid0') = ctid AS chain_from_0, currtid2('u_pax', :'pax_tid1') = ctid AS chain_from_1,
       (SELECT count(*) FROM u_pax WHERE ctid IN (:'pax_tid0', :'pax_tid1')) AS old_versions, k
  FROM u_pax WHERE id = 40
UNION ALL
SELECT 'heap', :'heap_tid0'::tid <> :'heap_tid1'::tid, :'heap_tid1'::tid <> ctid,
       currtid2('u_heap', :'heap_tid0') = ctid, currtid2('u_heap', :'heap_tid1') = ctid,
       (SELECT count(*) FROM u_heap WHERE ctid IN (:'heap_tid0', :'heap_tid1')), k
  FROM u_heap WHERE id = 40;
COMMIT;
-- the chain of a deleted row: no version is visible any more
SELECT ctid AS tid2 FROM u_pax WHERE id = 40 \gset pax_
SELECT ctid AS tid2 FROM u_heap WHERE id = 40 \gset heap_
DELETE FROM u_pax WHERE id = 40;
DELETE FROM u_heap WHERE id = 40;
SELECT CASE currtid2('u_pax', :'pax_tid0') WHEN :'pax_tid0' THEN 'first' WHEN :'pax_tid2' THEN 'last' ELSE 'other' END AS pax,
       CASE currtid2('u_heap', :'heap_tid0') WHEN :'heap_tid0' THEN 'first' WHEN :'heap_tid2' THEN 'last' ELSE 'other' END AS heap;

-- one row updated many times in one transaction, read in between
BEGIN;
UPDATE u_pax SET f = 0, v = 'r0' WHERE id = 50;
UPDATE u_heap SET f = 0, v = 'r0' WHERE id = 50;
UPDATE u_pax SET f = f + 1, v = v || '1' WHERE id = 50;
UPDATE u_heap SET f = f + 1, v = v || '1' WHERE id = 50;
SELECT * FROM q('SELECT id, k, v, f FROM u{t} WHERE id = 50');
UPDATE u_pax SET f = f + 1, v = v || '2' WHERE id = 50;
UPDATE u_heap SET f = f + 1, v = v || '2' WHERE id = 50;
UPDATE u_pax SET f = f + 1, v = v || '3' WHERE id = 50;
UPDATE u_heap SET f = f + 1, v = v || '3' WHERE id = 50;
UPDATE u_pax SET id = -50 WHERE id = 50;
UPDATE u_heap SET id = -50 WHERE id = 50;
SELECT * FROM q('SELECT id, k, v, f FROM u{t} WHERE id IN (50, -50)');
SELECT id, v, f FROM u_pax WHERE id IN (50, -50);
COMMIT;
SELECT * FROM q('SELECT id, k, v, f FROM u{t} WHERE id IN (50, -50)');
SELECT id, v, f FROM u_pax WHERE id IN (50, -50);

-- savepoints: UPDATE and DELETE rolled back to a savepoint, released ones kept
BEGIN;
UPDATE u_pax SET v = 'kept' WHERE id BETWEEN 60 AND 64;
UPDATE u_heap SET v = 'kept' WHERE id BETWEEN 60 AND 64;
SAVEPOINT s1;
UPDATE u_pax SET v = 'undone' WHERE id BETWEEN 60 AND 69;
UPDATE u_heap SET v = 'undone' WHERE id BETWEEN 60 AND 69;
DELETE FROM u_pax WHERE id BETWEEN 65 AND 74;
DELETE FROM u_heap WHERE id BETWEEN 65 AND 74;
SELECT * FROM q('SELECT id, v FROM u{t} WHERE id BETWEEN 60 AND 79');
ROLLBACK TO SAVEPOINT s1;
SELECT * FROM q('SELECT id, v FROM u{t} WHERE id BETWEEN 60 AND 79');
SAVEPOINT s2;
DELETE FROM u_pax WHERE id = 75;
DELETE FROM u_heap WHERE id = 75;
UPDATE u_pax SET v = 'released' WHERE id = 76;
UPDATE u_heap SET v = 'released' WHERE id = 76;
RELEASE SAVEPOINT s2;
SAVEPOINT s3;
UPDATE u_pax SET v = 'again undone' WHERE id = 76;
UPDATE u_heap SET v = 'again undone' WHERE id = 76;
ROLLBACK TO SAVEPOINT s3;
COMMIT;
SELECT id, v FROM u_pax WHERE id BETWEEN 60 AND 79 AND v IN ('kept', 'released', 'undone', 'again undone') ORDER BY id;
SELECT * FROM q('SELECT id, v FROM u{t} WHERE id BETWEEN 60 AND 79');
SELECT * FROM same('u');

-- WHERE CURRENT OF: a plain cursor and a FOR UPDATE cursor
BEGIN;
DECLARE cp CURSOR FOR SELECT id, v FROM u_pax WHERE id = 80;
DECLARE ch CURSOR FOR SELECT id, v FROM u_heap WHERE id = 80;
FETCH cp;
FETCH ch;
UPDATE u_pax SET v = 'current' WHERE CURRENT OF cp;
UPDATE u_heap SET v = 'current' WHERE CURRENT OF ch;
DECLARE cpu CURSOR FOR SELECT id FROM u_pax WHERE id BETWEEN 81 AND 85 ORDER BY id FOR UPDATE;
DECLARE chu CURSOR FOR SELECT id FROM u_heap WHERE id BETWEEN 81 AND 85 ORDER BY id FOR UPDATE;
FETCH 2 FROM cpu;
FETCH 2 FROM chu;
DELETE FROM u_pax WHERE CURRENT OF cpu;
DELETE FROM u_heap WHERE CURRENT OF chu;
FETCH cpu;
FETCH chu;
UPDATE u_pax SET v = 'current 2' WHERE CURRENT OF cpu RETURNING id, v;
UPDATE u_heap SET v = 'current 2' WHERE CURRENT OF chu RETURNING id, v;
COMMIT;
SELECT id, v FROM u_pax WHERE id BETWEEN 80 AND 85 ORDER BY id;
SELECT * FROM q('SELECT id, v FROM u{t} WHERE id BETWEEN 80 AND 85');

-- a row moving between a pax and a heap partition (delete + insert)
CREATE TABLE part_pax (id int, grp int, v text) PARTITION BY LIST (grp);
CREATE TABLE part_pax_1 PARTITION OF part_pax FOR VALUES IN (1) USING pax;
CREATE TABLE part_pax_2 PARTITION OF part_pax FOR VALUES IN (2) USING heap;
CREATE TABLE part_heap (id int, grp int, v text) PARTITION BY LIST (grp);
CREATE TABLE part_heap_1 PARTITION OF part_heap FOR VALUES IN (1) USING heap;
CREATE TABLE part_heap_2 PARTITION OF part_heap FOR VALUES IN (2) USING heap;
INSERT INTO part_pax SELECT i, 1 + i % 2, 'p' || i FROM generate_series(1, 100) i;
INSERT INTO part_heap SELECT i, 1 + i % 2, 'p' || i FROM generate_series(1, 100) i;
SELECT * FROM dml('part', 'UPDATE {t} SET grp = 3 - grp WHERE id <= 10 RETURNING *');
SELECT * FROM q('SELECT tableoid::regclass::text ~ ''_1$'' AS first, grp, id, v FROM part{t}');
SELECT tableoid::regclass, grp, count(*) FROM part_pax GROUP BY 1, 2 ORDER BY 1, 2;

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE u_pax, u_heap, w_pax, w_heap, part_pax, part_heap;
DROP FUNCTION same, dml, q, block, verify_all;
