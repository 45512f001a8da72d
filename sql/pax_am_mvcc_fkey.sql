--
-- pax_am_mvcc_fkey: foreign keys: a pax child of a heap parent, a heap child
-- of a pax parent, pax on both sides, against heap on both sides; cascades,
-- SET NULL, RESTRICT and violations.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
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
-- refused by RESTRICT (18 reports it as restrict_violation, with its own
-- wording; 15 as foreign_key_violation)
DO $$
BEGIN
	UPDATE par_pax SET id = 1000 WHERE id = 60;
EXCEPTION WHEN foreign_key_violation OR restrict_violation THEN
	RAISE NOTICE 'par_pax: RESTRICT refused the update';
END $$;
DO $$
BEGIN
	UPDATE par_heap SET id = 1000 WHERE id = 60;
EXCEPTION WHEN foreign_key_violation OR restrict_violation THEN
	RAISE NOTICE 'par_heap: RESTRICT refused the update';
END $$;
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

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP VIEW ch_a_pax, ch_b_pax, ch_c_pax, ch_a_heap, ch_b_heap, ch_c_heap;
DROP TABLE ch_pax_pax, ch_heap_pax, ch_pax_heap, ch_heap_heap, rch_pax, rch_heap,
	par_pax, par_heap;
DROP FUNCTION same, dml, q, block, verify_all;
