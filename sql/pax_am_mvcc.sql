--
-- pax_am_mvcc: DELETE, UPDATE, MERGE, row locks, indexes of every kind,
-- unique/primary key/exclusion constraints, ON CONFLICT, foreign keys,
-- triggers, TOAST updates, CREATE/REINDEX CONCURRENTLY, CLUSTER, VACUUM and
-- the statistics counters, on pax tables.
--
-- Every statement runs on a pax table (name_pax) and on a heap table
-- (name_heap) holding the same data; the results are compared in SQL, heap
-- being the oracle.  The expected output was produced by running this file
-- with every "USING pax" replaced by "USING heap" and the replacement undone
-- in the output: pax must behave exactly as heap does.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
CREATE EXTENSION IF NOT EXISTS bloom;
RESET client_min_messages;

-- same(t): t_pax and t_heap as multisets of rows (compared as text)
CREATE FUNCTION same(t text, OUT pax bigint, OUT heap bigint,
					 OUT only_pax bigint, OUT only_heap bigint)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$
		SELECT (SELECT count(*) FROM %1$I), (SELECT count(*) FROM %2$I),
		  (SELECT count(*) FROM (SELECT x::text FROM %1$I x
								 EXCEPT ALL SELECT y::text FROM %2$I y) d),
		  (SELECT count(*) FROM (SELECT y::text FROM %2$I y
								 EXCEPT ALL SELECT x::text FROM %1$I x) d)$q$,
		t || '_pax', t || '_heap') INTO pax, heap, only_pax, only_heap;
END $$;

-- dml(t, stmt): runs stmt with {t} replaced by t_pax, then by t_heap; the
-- rows each affected (or returned, with RETURNING), whether the RETURNING
-- rows are the same multiset, and whether the tables are equal afterwards
CREATE FUNCTION dml(t text, stmt text, OUT pax bigint, OUT heap bigint,
					OUT same_returning bool, OUT same_table bool)
LANGUAGE plpgsql AS $$
DECLARE
	rp text[];
	rh text[];
	s record;
BEGIN
	IF stmt ~* 'returning' THEN
		EXECUTE 'WITH r AS (' || replace(stmt, '{t}', t || '_pax') ||
			') SELECT count(*), array_agg(r::text ORDER BY r::text) FROM r' INTO pax, rp;
		EXECUTE 'WITH r AS (' || replace(stmt, '{t}', t || '_heap') ||
			') SELECT count(*), array_agg(r::text ORDER BY r::text) FROM r' INTO heap, rh;
		same_returning := rp IS NOT DISTINCT FROM rh;
	ELSE
		EXECUTE replace(stmt, '{t}', t || '_pax');
		GET DIAGNOSTICS pax = ROW_COUNT;
		EXECUTE replace(stmt, '{t}', t || '_heap');
		GET DIAGNOSTICS heap = ROW_COUNT;
	END IF;
	SELECT * INTO s FROM same(t);
	same_table := s.pax = s.heap AND s.only_pax = 0 AND s.only_heap = 0;
END $$;

-- q(query): runs query with {t} replaced by pax, then heap table names;
-- row counts and whether both return the same multiset of rows
CREATE FUNCTION q(query text, OUT pax bigint, OUT heap bigint, OUT same bool)
LANGUAGE plpgsql AS $$
DECLARE
	rp text[];
	rh text[];
BEGIN
	EXECUTE 'SELECT count(*), array_agg(r::text ORDER BY r::text) FROM (' ||
		replace(query, '{t}', '_pax') || ') r' INTO pax, rp;
	EXECUTE 'SELECT count(*), array_agg(r::text ORDER BY r::text) FROM (' ||
		replace(query, '{t}', '_heap') || ') r' INTO heap, rh;
	same := rp IS NOT DISTINCT FROM rh;
END $$;

-- block(tid): the block number of a ctid
CREATE FUNCTION block(tid) RETURNS bigint LANGUAGE sql IMMUTABLE
	AS $$ SELECT ($1::text::point)[0]::bigint $$;

--
-- DELETE
--
CREATE TABLE d_pax (id int, v text, n int) USING pax;
CREATE TABLE d_heap (id int, v text, n int) USING heap;
INSERT INTO d_pax SELECT i, 'v' || i, i % 10 FROM generate_series(1, 3000) i;
INSERT INTO d_heap SELECT i, 'v' || i, i % 10 FROM generate_series(1, 3000) i;
SELECT * FROM same('d');
SELECT * FROM dml('d', 'DELETE FROM {t} WHERE n = 3');
SELECT * FROM dml('d', 'DELETE FROM {t} WHERE id % 7 = 0 RETURNING *');
SELECT * FROM dml('d', 'DELETE FROM {t} WHERE id > 2990 RETURNING id, v || ''!'' AS x');
SELECT * FROM dml('d', 'DELETE FROM {t} WHERE n = 3');          -- nothing left to delete
SELECT * FROM dml('d', 'DELETE FROM {t} USING generate_series(100, 120) g WHERE id = g RETURNING {t}.*');
-- a statement deletes each row once, even when a join finds it twice
SELECT * FROM dml('d', 'DELETE FROM {t} USING (VALUES (200), (200), (201)) g(x) WHERE id = x RETURNING id');
-- a deleted row: gone for a TID scan too
SELECT ctid AS tid_pax FROM d_pax WHERE id = 500 \gset
SELECT ctid AS tid_heap FROM d_heap WHERE id = 500 \gset
DELETE FROM d_pax WHERE id = 500;
DELETE FROM d_heap WHERE id = 500;
EXPLAIN (COSTS OFF) SELECT * FROM d_pax WHERE ctid = '(0,1)';
SELECT (SELECT count(*) FROM d_pax WHERE ctid = :'tid_pax') AS pax,
       (SELECT count(*) FROM d_heap WHERE ctid = :'tid_heap') AS heap;
-- deleted in an aborted transaction: still there
BEGIN;
DELETE FROM d_pax WHERE n < 5;
DELETE FROM d_heap WHERE n < 5;
SELECT * FROM same('d');
ROLLBACK;
SELECT * FROM same('d');
-- own deletes are visible at once in the deleting transaction, later
-- commands, and deleting everything
BEGIN;
DELETE FROM d_pax WHERE n = 9;
DELETE FROM d_heap WHERE n = 9;
SELECT (SELECT count(*) FROM d_pax WHERE n = 9) AS pax, (SELECT count(*) FROM d_heap WHERE n = 9) AS heap;
SELECT * FROM dml('d', 'DELETE FROM {t}');
SELECT * FROM same('d');
ROLLBACK;
SELECT * FROM same('d');

--
-- UPDATE
--
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

--
-- MERGE
--
CREATE TABLE m_pax (id int, v text, n int) USING pax;
CREATE TABLE m_heap (id int, v text, n int) USING heap;
INSERT INTO m_pax SELECT i, 'm' || i, 0 FROM generate_series(1, 1000) i;
INSERT INTO m_heap SELECT i, 'm' || i, 0 FROM generate_series(1, 1000) i;
CREATE TABLE m_src (id int, v text, op text);
INSERT INTO m_src SELECT i, 's' || i,
	CASE WHEN i % 3 = 0 THEN 'delete' WHEN i % 3 = 1 THEN 'update' ELSE 'keep' END
	FROM generate_series(901, 1100) i;
SELECT * FROM dml('m', $$
	MERGE INTO {t} t USING m_src s ON t.id = s.id
	WHEN MATCHED AND s.op = 'delete' THEN DELETE
	WHEN MATCHED AND s.op = 'update' THEN UPDATE SET v = s.v, n = t.n + 1
	WHEN NOT MATCHED AND s.op <> 'keep' THEN INSERT VALUES (s.id, s.v, -1)
	WHEN MATCHED THEN DO NOTHING$$);
SELECT n, count(*), min(id), max(id) FROM m_pax GROUP BY n ORDER BY n;
-- again: the inserted rows are now matched
SELECT * FROM dml('m', $$
	MERGE INTO {t} t USING m_src s ON t.id = s.id
	WHEN MATCHED AND s.op = 'update' THEN UPDATE SET n = t.n + 10
	WHEN MATCHED AND t.n = -1 THEN DELETE
	WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'late', -2)$$);
SELECT n, count(*), min(id), max(id) FROM m_pax GROUP BY n ORDER BY n;
-- a source row matching twice is an error
INSERT INTO m_src VALUES (950, 'dup', 'update');
MERGE INTO m_pax t USING m_src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = 0;
MERGE INTO m_heap t USING m_src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = 0;
SELECT * FROM same('m');

--
-- row locks in one session
--
CREATE TABLE l_pax (id int, v text) USING pax;
CREATE TABLE l_heap (id int, v text) USING heap;
INSERT INTO l_pax SELECT i, 'l' || i FROM generate_series(1, 500) i;
INSERT INTO l_heap SELECT i, 'l' || i FROM generate_series(1, 500) i;
BEGIN;
SELECT * FROM q('SELECT * FROM l{t} WHERE id <= 10 FOR UPDATE');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 5 AND 20 FOR NO KEY UPDATE');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 15 AND 30 FOR SHARE');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 25 AND 40 FOR KEY SHARE');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 1 AND 50 FOR UPDATE NOWAIT');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 1 AND 60 FOR SHARE SKIP LOCKED');
SELECT * FROM q('SELECT id FROM l{t} WHERE id > 490 ORDER BY id DESC LIMIT 3 FOR UPDATE');
SELECT * FROM q('SELECT a.id, b.v FROM l{t} a JOIN u_heap b USING (id) WHERE a.id < 100 FOR UPDATE OF a');
-- the locker's xid is in xmax of each locked row (and of no other)
SELECT (SELECT count(*) FROM l_pax WHERE xmax::text = txid_current()::text) AS pax_locked,
       (SELECT count(*) FROM l_heap WHERE xmax::text = txid_current()::text) AS heap_locked;
-- rows locked, then updated and deleted by the locker
UPDATE l_pax SET v = 'locked then updated' WHERE id BETWEEN 1 AND 3;
UPDATE l_heap SET v = 'locked then updated' WHERE id BETWEEN 1 AND 3;
DELETE FROM l_pax WHERE id = 4;
DELETE FROM l_heap WHERE id = 4;
SELECT * FROM q('SELECT * FROM l{t} WHERE id <= 5 FOR UPDATE');
SELECT id, v FROM l_pax WHERE id <= 5 ORDER BY id FOR KEY SHARE;
COMMIT;
-- locks in a rolled-back subtransaction, rows updated after locking in one
BEGIN;
SAVEPOINT a;
SELECT count(*) FROM (SELECT id FROM l_pax WHERE id BETWEEN 100 AND 109 FOR UPDATE) s;
SELECT count(*) FROM (SELECT id FROM l_heap WHERE id BETWEEN 100 AND 109 FOR UPDATE) s;
ROLLBACK TO a;
UPDATE l_pax SET v = 'after rolled back lock' WHERE id = 100;
UPDATE l_heap SET v = 'after rolled back lock' WHERE id = 100;
SAVEPOINT b;
SELECT count(*) FROM (SELECT id FROM l_pax WHERE id BETWEEN 100 AND 109 FOR SHARE) s;
SELECT count(*) FROM (SELECT id FROM l_heap WHERE id BETWEEN 100 AND 109 FOR SHARE) s;
UPDATE l_pax SET v = 'shared then updated' WHERE id = 101;
UPDATE l_heap SET v = 'shared then updated' WHERE id = 101;
RELEASE b;
COMMIT;
SELECT * FROM same('l');
SELECT id, v FROM l_pax WHERE id BETWEEN 1 AND 5 OR id IN (100, 101) ORDER BY id;

--
-- indexes of every kind, maintained by INSERT, UPDATE and DELETE, used by
-- index scans, bitmap scans and index-only scans, before and after VACUUM
--
CREATE TABLE ix_pax (id int, k int, r int4range, p point, a int[], ts tsvector, t text)
	USING pax WITH (autovacuum_enabled = off);
CREATE TABLE ix_heap (id int, k int, r int4range, p point, a int[], ts tsvector, t text)
	USING heap WITH (autovacuum_enabled = off);
CREATE FUNCTION ix_fill(tbl regclass, lo int, hi int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$INSERT INTO %s SELECT i, i %% 50, int4range(i, i + i %% 10 + 1),
		point(i %% 100, i / 100), ARRAY[i %% 7, i %% 11, i %% 13],
		to_tsvector('simple', 'w' || i %% 17 || ' x' || i %% 19),
		'text ' || (i %% 1000) FROM generate_series($1, $2) i$q$, tbl) USING lo, hi;
END $$;
SELECT ix_fill('ix_pax', 1, 5000), ix_fill('ix_heap', 1, 5000);
CREATE INDEX ix_pax_id ON ix_pax USING btree (id);
CREATE INDEX ix_heap_id ON ix_heap USING btree (id);
CREATE INDEX ix_pax_k ON ix_pax USING hash (k);
CREATE INDEX ix_heap_k ON ix_heap USING hash (k);
CREATE INDEX ix_pax_r ON ix_pax USING gist (r);
CREATE INDEX ix_heap_r ON ix_heap USING gist (r);
CREATE INDEX ix_pax_p ON ix_pax USING spgist (p);
CREATE INDEX ix_heap_p ON ix_heap USING spgist (p);
CREATE INDEX ix_pax_a ON ix_pax USING gin (a);
CREATE INDEX ix_heap_a ON ix_heap USING gin (a);
CREATE INDEX ix_pax_ts ON ix_pax USING gin (ts);
CREATE INDEX ix_heap_ts ON ix_heap USING gin (ts);
CREATE INDEX ix_pax_brin ON ix_pax USING brin (id) WITH (pages_per_range = 2);
CREATE INDEX ix_heap_brin ON ix_heap USING brin (id) WITH (pages_per_range = 2);
CREATE INDEX ix_pax_bloom ON ix_pax USING bloom (t);
CREATE INDEX ix_heap_bloom ON ix_heap USING bloom (t);
CREATE INDEX ix_pax_lower ON ix_pax USING btree (lower(t)) WHERE k < 10;
CREATE INDEX ix_heap_lower ON ix_heap USING btree (lower(t)) WHERE k < 10;
-- changes after the indexes were built: every index must follow them
SELECT * FROM dml('ix', 'UPDATE {t} SET k = k + 1, t = upper(t) WHERE id % 10 = 1');
SELECT * FROM dml('ix', 'UPDATE {t} SET id = id + 10000, r = int4range(id + 10000, id + 10005) WHERE id % 10 = 2');
SELECT * FROM dml('ix', 'UPDATE {t} SET a = a || 99, ts = ts || to_tsvector(''simple'', ''new''), p = point(-1, -1) WHERE id % 10 = 3');
SELECT * FROM dml('ix', 'UPDATE {t} SET t = t WHERE id % 10 = 4');
SELECT * FROM dml('ix', 'DELETE FROM {t} WHERE id % 10 = 5');
SELECT ix_fill('ix_pax', 5001, 6000), ix_fill('ix_heap', 5001, 6000);
SELECT * FROM same('ix');
ANALYZE ix_pax, ix_heap;

-- enable_seqscan does not disable PaxScan (a custom scan), so it is turned
-- off too wherever an index must be used
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SET enable_bitmapscan = off;
-- btree: index scan, index-only scan, backward, expression and partial index
EXPLAIN (COSTS OFF) SELECT * FROM ix_pax WHERE id BETWEEN 100 AND 200;
SELECT * FROM q('SELECT * FROM ix{t} WHERE id BETWEEN 100 AND 200');
SELECT * FROM q('SELECT * FROM ix{t} WHERE id > 10000');
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE id BETWEEN 100 AND 2000;
SELECT * FROM q('SELECT id FROM ix{t} WHERE id BETWEEN 100 AND 2000');
EXPLAIN (COSTS OFF) SELECT id, k FROM ix_pax WHERE id < 300 ORDER BY id DESC LIMIT 10;
SELECT * FROM q('SELECT id, k FROM ix{t} WHERE id < 300 ORDER BY id DESC LIMIT 10');
SELECT id, k, t FROM ix_pax WHERE id < 300 ORDER BY id DESC LIMIT 5;
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE lower(t) = 'text 8' AND k < 10;
SELECT * FROM q('SELECT id, t FROM ix{t} WHERE lower(t) = ''text 8'' AND k < 10');
-- hash
EXPLAIN (COSTS OFF) SELECT * FROM ix_pax WHERE k = 12;
SELECT * FROM q('SELECT * FROM ix{t} WHERE k = 12');
SELECT * FROM q('SELECT * FROM ix{t} WHERE k = 42');
-- gist on a range
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE r && int4range(1000, 1010);
SELECT * FROM q('SELECT * FROM ix{t} WHERE r && int4range(1000, 1010)');
SELECT * FROM q('SELECT id FROM ix{t} WHERE r @> 10503');
-- spgist on points: nearest neighbours by distance
EXPLAIN (COSTS OFF) SELECT id, p <-> point(50, 25) AS dist FROM ix_pax ORDER BY p <-> point(50, 25) LIMIT 5;
SELECT * FROM q('SELECT id, p <-> point(50, 25) AS dist FROM ix{t} ORDER BY p <-> point(50, 25), id LIMIT 5');
-- bitmap scans: spgist, gin on an array and on a tsvector, btree, bloom,
-- brin, and two indexes at once
SET enable_indexscan = off;
SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE p <@ box '(10,10),(20,20)';
SELECT * FROM q('SELECT id, p FROM ix{t} WHERE p <@ box ''(10,10),(20,20)''');
SELECT * FROM q('SELECT id FROM ix{t} WHERE p ~= point(-1, -1)');
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE a @> ARRAY[3, 5];
SELECT * FROM q('SELECT id, a FROM ix{t} WHERE a @> ARRAY[3, 5]');
SELECT * FROM q('SELECT id FROM ix{t} WHERE a @> ARRAY[99]');
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE ts @@ 'w3 & x4'::tsquery;
SELECT * FROM q('SELECT id, ts FROM ix{t} WHERE ts @@ ''w3 & x4''::tsquery');
SELECT * FROM q('SELECT id FROM ix{t} WHERE ts @@ ''new''::tsquery');
SELECT * FROM q('SELECT * FROM ix{t} WHERE id BETWEEN 2000 AND 2100');
SELECT * FROM q('SELECT * FROM ix{t} WHERE id < 1000 AND k = 3');
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE t = 'text 777';
SELECT * FROM q('SELECT * FROM ix{t} WHERE t = ''text 777''');
SELECT * FROM q('SELECT * FROM ix{t} WHERE t = ''TEXT 771''');
DROP INDEX ix_pax_id, ix_heap_id;
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE id BETWEEN 4000 AND 4400;
SELECT * FROM q('SELECT * FROM ix{t} WHERE id BETWEEN 4000 AND 4400');
SELECT * FROM q('SELECT * FROM ix{t} WHERE id > 6000');
CREATE INDEX ix_pax_id ON ix_pax (id);
CREATE INDEX ix_heap_id ON ix_heap (id);
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET pax.enable_customscan;
RESET enable_seqscan;

-- VACUUM removes the dead rows and their index entries; rows inserted
-- after it (perhaps into freed space) are found through every index, and
-- index-only scans need no table fetches on all-visible pages
VACUUM ix_pax;
VACUUM ix_heap;
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SET enable_bitmapscan = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT id FROM ix_pax WHERE id BETWEEN 1 AND 1000;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT id FROM ix_heap WHERE id BETWEEN 1 AND 1000;
RESET enable_bitmapscan;
RESET pax.enable_customscan;
RESET enable_seqscan;
SELECT * FROM dml('ix', 'DELETE FROM {t} WHERE id % 10 = 6');
VACUUM ix_pax;
VACUUM ix_heap;
SELECT ix_fill('ix_pax', 7001, 8000), ix_fill('ix_heap', 7001, 8000);
SELECT * FROM dml('ix', 'UPDATE {t} SET k = -k, a = ARRAY[-1] WHERE id % 10 = 7');
SELECT * FROM same('ix');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SET enable_bitmapscan = off;
SELECT * FROM q('SELECT * FROM ix{t} WHERE id BETWEEN 1 AND 8000 AND id % 10 IN (5, 6, 7)');
SELECT * FROM q('SELECT id FROM ix{t} WHERE id BETWEEN 1 AND 8000');
SELECT * FROM q('SELECT * FROM ix{t} WHERE k = -7');
SELECT * FROM q('SELECT * FROM ix{t} WHERE k = 36');
SELECT * FROM q('SELECT id FROM ix{t} WHERE r && int4range(7000, 7100)');
SELECT * FROM q('SELECT id FROM ix{t} WHERE lower(t) = ''text 108'' AND k < 10');
SET enable_indexscan = off;
SET enable_bitmapscan = on;
SELECT * FROM q('SELECT id FROM ix{t} WHERE p <@ box ''(0,0),(99,99)''');
SELECT * FROM q('SELECT id FROM ix{t} WHERE a @> ARRAY[-1]');
SELECT * FROM q('SELECT id FROM ix{t} WHERE a @> ARRAY[6]');
SELECT * FROM q('SELECT id FROM ix{t} WHERE ts @@ ''w16''::tsquery');
SELECT * FROM q('SELECT id FROM ix{t} WHERE t = ''text 7''');
SELECT * FROM q('SELECT id FROM ix{t} WHERE id BETWEEN 7100 AND 7500 AND k = 8');
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET pax.enable_customscan;
RESET enable_seqscan;

--
-- unique and primary keys, exclusion constraints
--
CREATE TABLE pk_pax (id int PRIMARY KEY, v text) USING pax;
CREATE TABLE pk_heap (id int PRIMARY KEY, v text) USING heap;
INSERT INTO pk_pax SELECT i, 'k' || i FROM generate_series(1, 1000) i;
INSERT INTO pk_heap SELECT i, 'k' || i FROM generate_series(1, 1000) i;
INSERT INTO pk_pax VALUES (5, 'dup');
INSERT INTO pk_heap VALUES (5, 'dup');
UPDATE pk_pax SET id = 6 WHERE id = 7;
UPDATE pk_heap SET id = 6 WHERE id = 7;
INSERT INTO pk_pax VALUES (NULL, 'null key');
-- a key freed by DELETE or UPDATE can be used again, also in the same transaction
BEGIN;
DELETE FROM pk_pax WHERE id = 10;
DELETE FROM pk_heap WHERE id = 10;
INSERT INTO pk_pax VALUES (10, 'again');
INSERT INTO pk_heap VALUES (10, 'again');
UPDATE pk_pax SET id = 2000 WHERE id = 11;
UPDATE pk_heap SET id = 2000 WHERE id = 11;
INSERT INTO pk_pax VALUES (11, 'again');
INSERT INTO pk_heap VALUES (11, 'again');
COMMIT;
-- a failed statement leaves no rows and no index entries behind
INSERT INTO pk_pax SELECT i, 'batch' FROM generate_series(1001, 1100) i UNION ALL SELECT 1050, 'dup';
INSERT INTO pk_pax SELECT i, 'batch' FROM generate_series(1001, 1100) i;
INSERT INTO pk_heap SELECT i, 'batch' FROM generate_series(1001, 1100) i;
SELECT * FROM same('pk');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT * FROM q('SELECT * FROM pk{t} WHERE id BETWEEN 1 AND 12 OR id >= 1095');
RESET pax.enable_customscan;
RESET enable_seqscan;
-- a unique constraint on a key updated by a whole statement: checked at
-- its end when deferrable, row by row otherwise (heap scans in order)
CREATE TABLE uq_pax (id int, n int UNIQUE DEFERRABLE INITIALLY IMMEDIATE, m int UNIQUE) USING pax;
CREATE TABLE uq_heap (id int, n int UNIQUE DEFERRABLE INITIALLY IMMEDIATE, m int UNIQUE) USING heap;
INSERT INTO uq_pax SELECT i, i, i FROM generate_series(1, 100) i;
INSERT INTO uq_heap SELECT i, i, i FROM generate_series(1, 100) i;
SELECT * FROM dml('uq', 'UPDATE {t} SET n = n + 1');
UPDATE uq_pax SET n = 3 WHERE n = 2;
UPDATE uq_heap SET n = 3 WHERE n = 2;
UPDATE uq_pax SET m = 5 WHERE id = 6;
-- deferred: a swap of two keys within a transaction, a duplicate at COMMIT
BEGIN;
SET CONSTRAINTS ALL DEFERRED;
UPDATE uq_pax SET n = 3 WHERE n = 2;
UPDATE uq_heap SET n = 3 WHERE n = 2;
UPDATE uq_pax SET n = 2 WHERE id = 2;
UPDATE uq_heap SET n = 2 WHERE id = 2;
COMMIT;
BEGIN;
SET CONSTRAINTS ALL DEFERRED;
UPDATE uq_pax SET n = 3 WHERE n = 2;
COMMIT;
SELECT * FROM same('uq');
-- NULLS NOT DISTINCT (PostgreSQL 15)
CREATE TABLE nn_pax (a int, b int, UNIQUE NULLS NOT DISTINCT (a, b)) USING pax;
INSERT INTO nn_pax VALUES (1, NULL), (NULL, NULL);
INSERT INTO nn_pax VALUES (1, NULL);
-- exclusion constraints on a range (gist) and on equality (hash)
CREATE TABLE ex_pax (id int, r int4range, c int, EXCLUDE USING gist (r WITH &&), EXCLUDE USING hash (c WITH =)) USING pax;
CREATE TABLE ex_heap (id int, r int4range, c int, EXCLUDE USING gist (r WITH &&), EXCLUDE USING hash (c WITH =)) USING heap;
INSERT INTO ex_pax SELECT i, int4range(i * 10, i * 10 + 5), i FROM generate_series(1, 200) i;
INSERT INTO ex_heap SELECT i, int4range(i * 10, i * 10 + 5), i FROM generate_series(1, 200) i;
INSERT INTO ex_pax VALUES (1000, int4range(52, 58), 1000);
INSERT INTO ex_heap VALUES (1000, int4range(52, 58), 1000);
INSERT INTO ex_pax VALUES (1001, int4range(1, 3), 7);
UPDATE ex_pax SET r = int4range(20, 35) WHERE id = 2;
SELECT * FROM dml('ex', 'UPDATE {t} SET r = int4range(lower(r), lower(r) + 9) WHERE id % 2 = 0 RETURNING id, r');
DELETE FROM ex_pax WHERE id = 5;
DELETE FROM ex_heap WHERE id = 5;
SELECT * FROM dml('ex', 'INSERT INTO {t} VALUES (5000, int4range(50, 60), 5) RETURNING *');
SELECT * FROM same('ex');

--
-- INSERT ... ON CONFLICT
--
CREATE TABLE oc_pax (id int PRIMARY KEY, v text, n int DEFAULT 0, u int UNIQUE) USING pax;
CREATE TABLE oc_heap (id int PRIMARY KEY, v text, n int DEFAULT 0, u int UNIQUE) USING heap;
INSERT INTO oc_pax SELECT i, 'o' || i, 0, i + 1000 FROM generate_series(1, 500) i;
INSERT INTO oc_heap SELECT i, 'o' || i, 0, i + 1000 FROM generate_series(1, 500) i;
SELECT * FROM dml('oc', 'INSERT INTO {t} SELECT i, ''new'', 1, i + 2000 FROM generate_series(490, 510) i ON CONFLICT DO NOTHING RETURNING *');
SELECT * FROM dml('oc', 'INSERT INTO {t} SELECT i, ''new'', 1, i + 3000 FROM generate_series(505, 520) i ON CONFLICT (id) DO NOTHING RETURNING id');
SELECT * FROM dml('oc', 'INSERT INTO {t} SELECT i, ''upd'', 1, i + 4000 FROM generate_series(1, 30) i ON CONFLICT (id) DO UPDATE SET v = {t}.v || ''/'' || EXCLUDED.v, n = {t}.n + EXCLUDED.n RETURNING *');
SELECT * FROM dml('oc', 'INSERT INTO {t} SELECT i, ''upd2'', 5, i + 5000 FROM generate_series(20, 40) i ON CONFLICT (id) DO UPDATE SET n = {t}.n + EXCLUDED.n WHERE {t}.n > 0 RETURNING id, v, n');
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (9999, ''by u'', 0, 1100) ON CONFLICT (u) DO UPDATE SET v = EXCLUDED.v RETURNING *');
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (100, ''x'', 0, 7777) ON CONFLICT ON CONSTRAINT {t}_pkey DO UPDATE SET u = EXCLUDED.u RETURNING *');
-- the updated row is updated again by a later command of the same transaction
BEGIN;
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (1, ''t1'') ON CONFLICT (id) DO UPDATE SET n = {t}.n + 100 RETURNING id, n');
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (1, ''t2'') ON CONFLICT (id) DO UPDATE SET n = {t}.n + 100 RETURNING id, n');
COMMIT;
SELECT id, v, n, u FROM oc_pax WHERE id IN (1, 25, 100, 505, 9999) ORDER BY id;
SELECT * FROM same('oc');
-- errors: one command affecting a row twice, a conflict on the other unique index
INSERT INTO oc_pax VALUES (1, 'a'), (1, 'b') ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;
INSERT INTO oc_pax VALUES (1, 'a', 0, 1002) ON CONFLICT (id) DO UPDATE SET u = EXCLUDED.u;
INSERT INTO oc_pax VALUES (3000, 'a', 0, 1002) ON CONFLICT (id) DO NOTHING;
SELECT * FROM same('oc');
-- a conflict with a row deleted in the same transaction is no conflict
BEGIN;
DELETE FROM oc_pax WHERE id = 2;
DELETE FROM oc_heap WHERE id = 2;
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (2, ''reborn'', 0, 1002) ON CONFLICT (id) DO UPDATE SET v = ''wrong'' RETURNING *');
COMMIT;
SELECT * FROM same('oc');

--
-- foreign keys: a pax child of a heap parent, a heap child of a pax
-- parent, pax on both sides, against heap on both sides
--
CREATE TABLE par_pax (id int PRIMARY KEY, name text) USING pax;
CREATE TABLE par_heap (id int PRIMARY KEY, name text) USING heap;
INSERT INTO par_pax SELECT i, 'parent ' || i FROM generate_series(1, 100) i;
INSERT INTO par_heap SELECT i, 'parent ' || i FROM generate_series(1, 100) i;
-- children named ch_<child am>_<parent am>
CREATE TABLE ch_pax_pax (id int PRIMARY KEY, pid int REFERENCES par_pax ON DELETE CASCADE ON UPDATE CASCADE, v text) USING pax;
CREATE TABLE ch_heap_pax (id int PRIMARY KEY, pid int REFERENCES par_pax ON DELETE CASCADE ON UPDATE CASCADE, v text) USING heap;
CREATE TABLE ch_pax_heap (id int PRIMARY KEY, pid int REFERENCES par_heap ON DELETE CASCADE ON UPDATE CASCADE, v text) USING pax;
CREATE TABLE ch_heap_heap (id int PRIMARY KEY, pid int REFERENCES par_heap ON DELETE CASCADE ON UPDATE CASCADE, v text) USING heap;
-- and children that restrict (NO ACTION) or set NULL
CREATE TABLE rch_pax (id int, pid int REFERENCES par_pax ON DELETE SET NULL, qid int REFERENCES par_pax ON UPDATE RESTRICT) USING pax;
CREATE TABLE rch_heap (id int, pid int REFERENCES par_heap ON DELETE SET NULL, qid int REFERENCES par_heap ON UPDATE RESTRICT) USING heap;
INSERT INTO ch_pax_pax SELECT i, i % 100 + 1, 'c' || i FROM generate_series(1, 1000) i;
INSERT INTO ch_heap_pax SELECT i, i % 100 + 1, 'c' || i FROM generate_series(1, 1000) i;
INSERT INTO ch_pax_heap SELECT i, i % 100 + 1, 'c' || i FROM generate_series(1, 1000) i;
INSERT INTO ch_heap_heap SELECT i, i % 100 + 1, 'c' || i FROM generate_series(1, 1000) i;
INSERT INTO rch_pax SELECT i, i + 20, i + 50 FROM generate_series(1, 30) i;
INSERT INTO rch_heap SELECT i, i + 20, i + 50 FROM generate_series(1, 30) i;
-- violations
INSERT INTO ch_pax_pax VALUES (5000, 101, 'orphan');
INSERT INTO ch_pax_heap VALUES (5000, 101, 'orphan');
INSERT INTO ch_heap_pax VALUES (5000, 101, 'orphan');
UPDATE ch_pax_pax SET pid = 0 WHERE id = 1;
UPDATE par_pax SET id = 1000 WHERE id = 60;
UPDATE par_heap SET id = 1000 WHERE id = 60;
DELETE FROM par_pax WHERE id = 60;
-- cascades: the parent key updated, parents deleted, and SET NULL
UPDATE par_pax SET id = id + 1000 WHERE id BETWEEN 1 AND 5;
UPDATE par_heap SET id = id + 1000 WHERE id BETWEEN 1 AND 5;
UPDATE par_pax SET name = 'renamed' WHERE id BETWEEN 80 AND 85;    -- not the key: no cascade
UPDATE par_heap SET name = 'renamed' WHERE id BETWEEN 80 AND 85;
DELETE FROM par_pax WHERE id BETWEEN 15 AND 24;
DELETE FROM par_heap WHERE id BETWEEN 15 AND 24;
-- rows of a parent updated and deleted within one transaction
BEGIN;
UPDATE par_pax SET id = 2000 WHERE id = 20;
UPDATE par_heap SET id = 2000 WHERE id = 20;
DELETE FROM par_pax WHERE id = 2000;
DELETE FROM par_heap WHERE id = 2000;
INSERT INTO ch_pax_pax VALUES (3000, 30, 'late child');
INSERT INTO ch_heap_pax VALUES (3000, 30, 'late child');
INSERT INTO ch_pax_heap VALUES (3000, 30, 'late child');
INSERT INTO ch_heap_heap VALUES (3000, 30, 'late child');
COMMIT;
SELECT * FROM same('par');
SELECT * FROM same('rch');
CREATE VIEW ch_a_pax AS SELECT * FROM ch_pax_pax;
CREATE VIEW ch_b_pax AS SELECT * FROM ch_heap_pax;
CREATE VIEW ch_c_pax AS SELECT * FROM ch_pax_heap;
CREATE VIEW ch_a_heap AS SELECT * FROM ch_heap_heap;
CREATE VIEW ch_b_heap AS SELECT * FROM ch_heap_heap;
CREATE VIEW ch_c_heap AS SELECT * FROM ch_heap_heap;
SELECT 'pax child, pax parent' AS child_parent, * FROM same('ch_a')
UNION ALL SELECT 'heap child, pax parent', * FROM same('ch_b')
UNION ALL SELECT 'pax child, heap parent', * FROM same('ch_c');
SELECT pid, count(*) FROM ch_pax_pax WHERE pid < 26 OR pid = 30 OR pid > 1000 GROUP BY pid ORDER BY pid;
SELECT count(*) FILTER (WHERE pid IS NULL) AS set_null, count(*) FROM rch_pax;

--
-- triggers: AFTER ROW triggers see OLD and NEW, BEFORE ROW triggers change
-- NEW, statement triggers see the transition tables
--
CREATE TABLE tg_log (seq serial, am text, op text, old text, new text);
CREATE FUNCTION tg_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO tg_log (am, op, old, new)
	VALUES (substring(TG_TABLE_NAME from '_(.*)$'), TG_WHEN || ' ' || TG_OP,
			CASE WHEN TG_OP <> 'INSERT' THEN OLD::text END,
			CASE WHEN TG_OP <> 'DELETE' THEN NEW::text END);
	RETURN NULL;
END $$;
CREATE FUNCTION tg_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.v = 'skip' THEN
		RETURN NULL;
	END IF;
	NEW.n := coalesce(NEW.n, 0) + 1000;
	RETURN NEW;
END $$;
CREATE FUNCTION tg_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO tg_log (am, op, old, new)
	VALUES (substring(TG_TABLE_NAME from '_(.*)$'), 'STATEMENT ' || TG_OP,
			(SELECT string_agg(od::text, ';' ORDER BY od::text) FROM old_rows od),
			(SELECT string_agg(nr::text, ';' ORDER BY nr::text) FROM new_rows nr));
	RETURN NULL;
END $$;
CREATE TABLE tg_pax (id int, v text, n int) USING pax;
CREATE TABLE tg_heap (id int, v text, n int) USING heap;
INSERT INTO tg_pax SELECT i, 't' || i, i FROM generate_series(1, 20) i;
INSERT INTO tg_heap SELECT i, 't' || i, i FROM generate_series(1, 20) i;
CREATE TRIGGER tg_pax_row AFTER INSERT OR UPDATE OR DELETE ON tg_pax FOR EACH ROW EXECUTE FUNCTION tg_row();
CREATE TRIGGER tg_heap_row AFTER INSERT OR UPDATE OR DELETE ON tg_heap FOR EACH ROW EXECUTE FUNCTION tg_row();
CREATE TRIGGER tg_pax_before BEFORE UPDATE ON tg_pax FOR EACH ROW EXECUTE FUNCTION tg_before();
CREATE TRIGGER tg_heap_before BEFORE UPDATE ON tg_heap FOR EACH ROW EXECUTE FUNCTION tg_before();
CREATE TRIGGER tg_pax_upd AFTER UPDATE ON tg_pax REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION tg_stmt();
CREATE TRIGGER tg_heap_upd AFTER UPDATE ON tg_heap REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION tg_stmt();
SELECT * FROM dml('tg', 'UPDATE {t} SET v = v || ''!'' WHERE id <= 3 RETURNING *');
SELECT * FROM dml('tg', 'UPDATE {t} SET v = ''skip'' WHERE id = 4');
SELECT * FROM dml('tg', 'DELETE FROM {t} WHERE id IN (5, 6) RETURNING *');
SELECT * FROM dml('tg', 'INSERT INTO {t} VALUES (21, ''new'', 0)');
BEGIN;
SELECT * FROM dml('tg', 'UPDATE {t} SET id = -id WHERE id IN (7, 8)');
SELECT * FROM dml('tg', 'UPDATE {t} SET v = ''twice'' WHERE id = -7');
SELECT * FROM dml('tg', 'DELETE FROM {t} WHERE id = -8');
SAVEPOINT s;
SELECT * FROM dml('tg', 'DELETE FROM {t} WHERE id = 9');
ROLLBACK TO s;
COMMIT;
SELECT * FROM dml('tg', $$MERGE INTO {t} t USING (VALUES (10), (11), (99)) s(id) ON t.id = s.id
	WHEN MATCHED AND t.id = 10 THEN DELETE WHEN MATCHED THEN UPDATE SET v = 'merged'
	WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'merged in', 0)$$);
-- the pax and the heap table fired the same triggers with the same rows
SELECT (SELECT count(*) FROM tg_log WHERE am = 'pax') AS pax,
       (SELECT count(*) FROM tg_log WHERE am = 'heap') AS heap,
       (SELECT count(*) FROM (SELECT op, old, new FROM tg_log WHERE am = 'pax'
			EXCEPT ALL SELECT op, old, new FROM tg_log WHERE am = 'heap') d) AS only_pax,
       (SELECT count(*) FROM (SELECT op, old, new FROM tg_log WHERE am = 'heap'
			EXCEPT ALL SELECT op, old, new FROM tg_log WHERE am = 'pax') d) AS only_heap;
SELECT op, old, new FROM tg_log WHERE am = 'pax' ORDER BY op, old COLLATE "C", new COLLATE "C";
SELECT * FROM same('tg');

--
-- TOAST: external values updated, updated beside them, deleted; vacuumed
--
CREATE TABLE to_pax (id int, n int, t text) USING pax;
CREATE TABLE to_heap (id int, n int, t text) USING heap;
ALTER TABLE to_pax ALTER COLUMN t SET STORAGE EXTERNAL;
ALTER TABLE to_heap ALTER COLUMN t SET STORAGE EXTERNAL;
-- chunks(t): live chunks in the TOAST table of t, and its size in pages
CREATE FUNCTION chunks(t regclass, OUT chunks bigint, OUT pages bigint) LANGUAGE plpgsql AS $$
DECLARE
	toast regclass;
BEGIN
	SELECT reltoastrelid INTO toast FROM pg_class WHERE oid = t;
	EXECUTE format('SELECT count(*) FROM %s', toast) INTO chunks;
	pages := pg_relation_size(toast) / 8192;
END $$;
INSERT INTO to_pax SELECT i, 0, repeat(chr(64 + i), 100000) FROM generate_series(1, 20) i;
INSERT INTO to_heap SELECT i, 0, repeat(chr(64 + i), 100000) FROM generate_series(1, 20) i;
SELECT 'pax' AS am, * FROM chunks('to_pax') UNION ALL SELECT 'heap', * FROM chunks('to_heap');
-- a column beside the toasted one: the value is not copied
SELECT * FROM dml('to', 'UPDATE {t} SET n = n + 1 WHERE id <= 10');
SELECT 'pax' AS am, * FROM chunks('to_pax') UNION ALL SELECT 'heap', * FROM chunks('to_heap');
-- the toasted value itself, several times in one transaction
SELECT * FROM dml('to', 'UPDATE {t} SET t = repeat(''y'', 100000 + id) WHERE id BETWEEN 5 AND 14 RETURNING id, length(t), md5(t)');
BEGIN;
SELECT * FROM dml('to', 'UPDATE {t} SET t = t || ''z'' WHERE id = 15');
SELECT * FROM dml('to', 'UPDATE {t} SET t = t || ''z'' WHERE id = 15');
SELECT * FROM dml('to', 'UPDATE {t} SET t = t || ''z'' WHERE id = 15 RETURNING length(t)');
COMMIT;
SELECT * FROM dml('to', 'DELETE FROM {t} WHERE id > 17 RETURNING id, length(t), md5(t)');
SELECT * FROM dml('to', 'UPDATE {t} SET t = NULL WHERE id = 17');
SELECT * FROM dml('to', 'UPDATE {t} SET t = repeat(''small'', 3) WHERE id = 16');
SELECT * FROM q('SELECT id, n, length(t), md5(t), pg_column_compression(t) FROM to{t}');
SELECT id, n, length(t), left(t, 3), right(t, 2) FROM to_pax ORDER BY id;
VACUUM to_pax;
VACUUM to_heap;
-- only the live values' chunks remain; the TOAST tables are the same size
SELECT 'pax' AS am, * FROM chunks('to_pax') UNION ALL SELECT 'heap', * FROM chunks('to_heap');
SELECT (SELECT pages FROM chunks('to_pax')) <= (SELECT pages FROM chunks('to_heap')) AS pax_toast_not_larger;
-- space freed by VACUUM is used again
INSERT INTO to_pax SELECT i, 0, repeat(chr(64 + i), 100000) FROM generate_series(18, 20) i;
INSERT INTO to_heap SELECT i, 0, repeat(chr(64 + i), 100000) FROM generate_series(18, 20) i;
SELECT (SELECT pages FROM chunks('to_pax')) <= (SELECT pages FROM chunks('to_heap')) AS pax_toast_not_larger;
SELECT * FROM same('to');

--
-- CREATE INDEX CONCURRENTLY and REINDEX CONCURRENTLY on tables with dead
-- and updated rows; CLUSTER; REINDEX
--
CREATE TABLE cc_pax (id int, k int, v text) USING pax;
CREATE TABLE cc_heap (id int, k int, v text) USING heap;
INSERT INTO cc_pax SELECT i, i % 100, 'c' || i FROM generate_series(1, 5000) i;
INSERT INTO cc_heap SELECT i, i % 100, 'c' || i FROM generate_series(1, 5000) i;
SELECT * FROM dml('cc', 'UPDATE {t} SET k = k + 1000 WHERE id % 3 = 0');
SELECT * FROM dml('cc', 'DELETE FROM {t} WHERE id % 5 = 0');
CREATE INDEX CONCURRENTLY cc_pax_k ON cc_pax (k);
CREATE INDEX CONCURRENTLY cc_heap_k ON cc_heap (k);
CREATE UNIQUE INDEX CONCURRENTLY cc_pax_id ON cc_pax (id);
CREATE UNIQUE INDEX CONCURRENTLY cc_heap_id ON cc_heap (id);
CREATE INDEX CONCURRENTLY cc_pax_v ON cc_pax USING hash (v);
CREATE INDEX CONCURRENTLY cc_heap_v ON cc_heap USING hash (v);
-- a unique index over duplicates fails and is left invalid
INSERT INTO cc_pax VALUES (1, -1, 'dup k');
INSERT INTO cc_heap VALUES (1, -1, 'dup k');
DELETE FROM cc_pax WHERE v = 'dup k';
DELETE FROM cc_heap WHERE v = 'dup k';
INSERT INTO cc_pax VALUES (-1, 1, 'dup v'), (-2, 2, 'dup v');
INSERT INTO cc_heap VALUES (-1, 1, 'dup v'), (-2, 2, 'dup v');
CREATE UNIQUE INDEX CONCURRENTLY cc_pax_uv ON cc_pax (v);
CREATE UNIQUE INDEX CONCURRENTLY cc_heap_uv ON cc_heap (v);
SELECT c.relname, i.indisvalid, i.indisready FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
 WHERE i.indrelid IN ('cc_pax'::regclass, 'cc_heap'::regclass) ORDER BY 1;
DROP INDEX cc_pax_uv, cc_heap_uv;
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM cc_pax WHERE k = 1003;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k = 1003');
SELECT * FROM q('SELECT * FROM cc{t} WHERE k BETWEEN 10 AND 20');
SELECT * FROM q('SELECT * FROM cc{t} WHERE v = ''c4999''');
SELECT * FROM q('SELECT * FROM cc{t} WHERE id < 0');
SELECT * FROM dml('cc', 'UPDATE {t} SET k = -k WHERE id % 3 = 1');
REINDEX INDEX CONCURRENTLY cc_pax_k;
REINDEX INDEX CONCURRENTLY cc_heap_k;
REINDEX TABLE CONCURRENTLY cc_pax;
REINDEX TABLE CONCURRENTLY cc_heap;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k = -1');
SELECT * FROM q('SELECT * FROM cc{t} WHERE k BETWEEN 1000 AND 1010');
SELECT * FROM q('SELECT id FROM cc{t} WHERE id BETWEEN 100 AND 300');
SELECT * FROM q('SELECT * FROM cc{t} WHERE v = ''c4998''');
REINDEX TABLE cc_pax;
REINDEX TABLE cc_heap;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k BETWEEN -50 AND -40');
RESET pax.enable_customscan;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT c.relname, i.indisvalid, i.indisready FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
 WHERE i.indrelid IN ('cc_pax'::regclass, 'cc_heap'::regclass) ORDER BY 1;
-- CLUSTER: rows in index order afterwards, dead rows gone, indexes rebuilt
CLUSTER cc_pax USING cc_pax_k;
CLUSTER cc_heap USING cc_heap_k;
SELECT (SELECT count(*) FROM (SELECT k < lag(k) OVER (ORDER BY ctid) AS out_of_order FROM cc_pax) s WHERE out_of_order) AS pax_out_of_order,
       (SELECT count(*) FROM (SELECT k < lag(k) OVER (ORDER BY ctid) AS out_of_order FROM cc_heap) s WHERE out_of_order) AS heap_out_of_order;
SELECT relname, indisclustered FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
 WHERE c.relname IN ('cc_pax_k', 'cc_heap_k') ORDER BY 1;
SELECT * FROM same('cc');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k = 1003');
SELECT * FROM q('SELECT * FROM cc{t} WHERE id BETWEEN 4000 AND 4100');
RESET pax.enable_customscan;
RESET enable_seqscan;
SELECT * FROM dml('cc', 'UPDATE {t} SET v = v || ''x'' WHERE k = 7 RETURNING *');
CLUSTER cc_pax;
CLUSTER cc_heap;
SELECT * FROM same('cc');
-- VACUUM FULL after updates and deletes
SELECT * FROM dml('cc', 'DELETE FROM {t} WHERE k < 0');
VACUUM FULL cc_pax;
VACUUM FULL cc_heap;
SELECT * FROM same('cc');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT * FROM q('SELECT * FROM cc{t} WHERE k BETWEEN 0 AND 1100');
RESET pax.enable_customscan;
RESET enable_seqscan;

--
-- the statistics counters: inserted, updated, deleted, live and dead rows
--
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
SELECT c.relname, v.blkno, v.row, v.attnum, v.msg
  FROM pg_class c JOIN pg_am a ON a.oid = c.relam AND a.amname = 'pax'
  CROSS JOIN LATERAL pax_verify(c.oid) v
 WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1, 2, 3, 4;

DROP VIEW ch_a_pax, ch_b_pax, ch_c_pax, ch_a_heap, ch_b_heap, ch_c_heap;
DROP TABLE d_pax, d_heap, u_pax, u_heap, w_pax, w_heap, part_pax, part_heap, m_pax, m_heap, m_src,
	l_pax, l_heap, ix_pax, ix_heap, pk_pax, pk_heap, uq_pax, uq_heap, nn_pax,
	ex_pax, ex_heap, oc_pax, oc_heap, ch_pax_pax, ch_heap_pax, ch_pax_heap,
	ch_heap_heap, rch_pax, rch_heap, par_pax, par_heap, tg_log, tg_pax, tg_heap,
	to_pax, to_heap, cc_pax, cc_heap, st_pax, st_heap;
DROP FUNCTION same, dml, q, block, ix_fill, tg_row, tg_before, tg_stmt, chunks;
