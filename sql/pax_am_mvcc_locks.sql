--
-- pax_am_mvcc_locks: row locks in one session: every lock strength, NOWAIT,
-- SKIP LOCKED, FOR UPDATE OF in a join, the locker's xid in xmax, locked rows
-- updated and deleted by the locker, locks of a rolled-back subtransaction.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
CREATE TABLE l_pax (id int, v text) USING pax;
CREATE TABLE l_heap (id int, v text) USING heap;
INSERT INTO l_pax SELECT i, 'l' || i FROM generate_series(1, 500) i;
INSERT INTO l_heap SELECT i, 'l' || i FROM generate_series(1, 500) i;
-- a heap table to join with, holding some of their ids (the ids below 100
-- that pax_am_mvcc_update leaves in u_heap, which this join once used)
CREATE TABLE lj_heap (id int, v text) USING heap;
INSERT INTO lj_heap SELECT i, 'j' || i FROM generate_series(2, 99) i WHERE i NOT IN (40, 50, 75, 82);
BEGIN;
SELECT * FROM q('SELECT * FROM l{t} WHERE id <= 10 FOR UPDATE');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 5 AND 20 FOR NO KEY UPDATE');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 15 AND 30 FOR SHARE');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 25 AND 40 FOR KEY SHARE');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 1 AND 50 FOR UPDATE NOWAIT');
SELECT * FROM q('SELECT * FROM l{t} WHERE id BETWEEN 1 AND 60 FOR SHARE SKIP LOCKED');
SELECT * FROM q('SELECT id FROM l{t} WHERE id > 490 ORDER BY id DESC LIMIT 3 FOR UPDATE');
SELECT * FROM q('SELECT a.id, b.v FROM l{t} a JOIN lj_heap b USING (id) WHERE a.id < 100 FOR UPDATE OF a');
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

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE l_pax, l_heap, lj_heap;
DROP FUNCTION same, dml, q, block, verify_all;
