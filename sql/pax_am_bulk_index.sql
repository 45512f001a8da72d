--
-- pax_am_bulk_index: INSERT statements into pax tables with indexes keep
-- their rows in batches (pax_bulk.c) and make the rows' index entries as
-- each batch is placed; against heap: the same rows, every index finding
-- them, the same errors for unique and exclusion constraints, nested reads
-- of the table, subtransactions, and rows that go in one at a time.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
SET jit = off;

-- pax_same(a, b): a and b row for row (sql/include/pax_same.sql)
\getenv abs_srcdir PG_ABS_SRCDIR
\set pax_same :abs_srcdir '/sql/include/pax_same.sql'
\i :pax_same

-- a primary key, a plain, an expression, a partial and a unique index
CREATE TABLE bx_pax (id int PRIMARY KEY, k int, s text, u int UNIQUE) USING pax;
CREATE TABLE bx_heap (id int PRIMARY KEY, k int, s text, u int UNIQUE) USING heap;
CREATE INDEX bx_pax_k ON bx_pax (k);
CREATE INDEX bx_heap_k ON bx_heap (k);
CREATE INDEX bx_pax_lower ON bx_pax (lower(s));
CREATE INDEX bx_heap_lower ON bx_heap (lower(s));
CREATE INDEX bx_pax_part ON bx_pax (k) WHERE id % 10 = 0;
CREATE INDEX bx_heap_part ON bx_heap (k) WHERE id % 10 = 0;
INSERT INTO bx_pax SELECT g, g % 97, 'Row ' || g, CASE WHEN g % 3 = 0 THEN NULL ELSE g END
  FROM generate_series(1, 5000) g;
INSERT INTO bx_heap SELECT g, g % 97, 'Row ' || g, CASE WHEN g % 3 = 0 THEN NULL ELSE g END
  FROM generate_series(1, 5000) g;
-- the rows went in batches: compact pages, as without indexes
SELECT form, count(*) > 1 AS pages FROM pax_page_stats('bx_pax') GROUP BY 1;
SELECT pax_same('bx_pax', 'bx_heap');
-- every index finds every row
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET pax.enable_customscan = off;
SELECT (SELECT count(*) FROM bx_pax WHERE id BETWEEN 100 AND 4000) AS pax,
       (SELECT count(*) FROM bx_heap WHERE id BETWEEN 100 AND 4000) AS heap;
SELECT (SELECT sum(id) FROM bx_pax WHERE k = 5) AS pax,
       (SELECT sum(id) FROM bx_heap WHERE k = 5) AS heap;
SELECT (SELECT sum(id) FROM bx_pax WHERE lower(s) = 'row 4321') AS pax,
       (SELECT sum(id) FROM bx_heap WHERE lower(s) = 'row 4321') AS heap;
SELECT (SELECT count(*) FROM bx_pax WHERE k = 7 AND id % 10 = 0) AS pax,
       (SELECT count(*) FROM bx_heap WHERE k = 7 AND id % 10 = 0) AS heap;
EXPLAIN (COSTS OFF) SELECT count(*) FROM bx_pax WHERE k = 7 AND id % 10 = 0;
RESET enable_bitmapscan;
SELECT (SELECT count(*) FROM bx_pax WHERE u > 2500) AS pax,
       (SELECT count(*) FROM bx_heap WHERE u > 2500) AS heap;
RESET enable_seqscan;
RESET pax.enable_customscan;
SELECT * FROM pax_verify('bx_pax', true, true);

-- a duplicate key: heap's error, whether the duplicate is in the table or
-- in the same batch, and nothing of the statement stays
INSERT INTO bx_pax SELECT g, 0, 'dup', NULL FROM generate_series(4990, 6000) g;
INSERT INTO bx_heap SELECT g, 0, 'dup', NULL FROM generate_series(4990, 6000) g;
INSERT INTO bx_pax SELECT g, 0, 'dup', NULL::int FROM generate_series(7001, 8000) g
  UNION ALL SELECT 7500, 1, 'x', NULL;
INSERT INTO bx_heap SELECT g, 0, 'dup', NULL::int FROM generate_series(7001, 8000) g
  UNION ALL SELECT 7500, 1, 'x', NULL;
INSERT INTO bx_pax SELECT 10000 + g, 0, 'dupu', 77 FROM generate_series(1, 300) g;
INSERT INTO bx_heap SELECT 10000 + g, 0, 'dupu', 77 FROM generate_series(1, 300) g;
SELECT (SELECT count(*) FROM bx_pax) AS pax, (SELECT count(*) FROM bx_heap) AS heap;
-- in a savepoint and in a function's EXCEPTION block: the same
BEGIN;
SAVEPOINT s;
INSERT INTO bx_pax SELECT g, 0, 'dup', NULL FROM generate_series(4001, 6000) g;
ROLLBACK TO s;
INSERT INTO bx_pax SELECT g, 1, 'in savepoint', NULL FROM generate_series(20001, 21000) g;
INSERT INTO bx_heap SELECT g, 1, 'in savepoint', NULL FROM generate_series(20001, 21000) g;
COMMIT;
DO $$
BEGIN
	INSERT INTO bx_pax SELECT g, 2, 'caught', NULL::int FROM generate_series(30001, 31000) g
	  UNION ALL SELECT 1, 2, 'dup', NULL;
EXCEPTION WHEN unique_violation THEN
	RAISE NOTICE 'caught: %', SQLERRM;
END $$;
SELECT pax_same('bx_pax', 'bx_heap');
SELECT * FROM pax_verify('bx_pax', true, true);

-- a function reads the table in a subtransaction that catches the error of
-- placing the kept rows (a duplicate kept before it): the statement still
-- fails with that error, at its next row (heap fails at the duplicate)
CREATE FUNCTION bx_peek(rel regclass) RETURNS int
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	BEGIN
		EXECUTE format('SELECT count(*) FROM %s', rel);
	EXCEPTION WHEN unique_violation THEN
		RAISE NOTICE 'peek caught: %', SQLERRM;
	END;
	RETURN 0;
END $$;
INSERT INTO bx_pax
  SELECT CASE WHEN x = 1 THEN 1 ELSE 50000 + x END,
         CASE WHEN x = 5 THEN bx_peek('bx_pax') ELSE 0 END, 'peek', NULL
  FROM generate_series(1, 300) x;
SELECT count(*) FROM bx_pax WHERE s = 'peek';
SELECT * FROM pax_verify('bx_pax', true, true);

-- a volatile function of the statement reads the table through an index:
-- it finds the rows inserted before it, as on heap
CREATE FUNCTION bx_seen(rel regclass, lo int) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE n bigint;
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	EXECUTE format('SELECT count(*) FROM %s WHERE id >= $1', rel) INTO n USING lo;
	RETURN n;
END $$;
CREATE TABLE bx_seen_pax (id int PRIMARY KEY, n bigint) USING pax;
CREATE TABLE bx_seen_heap (id int PRIMARY KEY, n bigint) USING heap;
INSERT INTO bx_seen_pax
  SELECT g, CASE WHEN g % 700 = 0 THEN bx_seen('bx_seen_pax', 1) END
  FROM generate_series(1, 3000) g;
INSERT INTO bx_seen_heap
  SELECT g, CASE WHEN g % 700 = 0 THEN bx_seen('bx_seen_heap', 1) END
  FROM generate_series(1, 3000) g;
SELECT pax_same('bx_seen_pax', 'bx_seen_heap');
SELECT id, n FROM bx_seen_pax WHERE n IS NOT NULL ORDER BY id;
-- the statement reads its own table through its index: before its rows
INSERT INTO bx_seen_pax SELECT id + 3000, n FROM bx_seen_pax WHERE id > 1000;
INSERT INTO bx_seen_heap SELECT id + 3000, n FROM bx_seen_heap WHERE id > 1000;
SELECT pax_same('bx_seen_pax', 'bx_seen_heap');
SELECT * FROM pax_verify('bx_seen_pax', true, true);

-- rows of TOAST size go in one at a time, between batches: their index
-- entries are made at once
CREATE TABLE bx_toast_pax (id int PRIMARY KEY, big text) USING pax;
CREATE TABLE bx_toast_heap (id int PRIMARY KEY, big text) USING heap;
INSERT INTO bx_toast_pax SELECT g, CASE WHEN g % 250 = 0 THEN repeat(md5(g::text), 300) ELSE 'small' END
  FROM generate_series(1, 2000) g;
INSERT INTO bx_toast_heap SELECT g, CASE WHEN g % 250 = 0 THEN repeat(md5(g::text), 300) ELSE 'small' END
  FROM generate_series(1, 2000) g;
SELECT pax_same('bx_toast_pax', 'bx_toast_heap');
SET enable_seqscan = off;
SELECT count(*), sum(length(big)) FROM bx_toast_pax WHERE id % 250 = 0 AND id > 0;
RESET enable_seqscan;
SELECT * FROM pax_verify('bx_toast_pax', true, true);

-- an exclusion constraint: heap's error, the same rows otherwise
CREATE TABLE bx_ex_pax (id int, r int4range, EXCLUDE USING gist (r WITH &&)) USING pax;
CREATE TABLE bx_ex_heap (id int, r int4range, EXCLUDE USING gist (r WITH &&)) USING heap;
INSERT INTO bx_ex_pax SELECT g, int4range(g * 10, g * 10 + 5) FROM generate_series(1, 1000) g;
INSERT INTO bx_ex_heap SELECT g, int4range(g * 10, g * 10 + 5) FROM generate_series(1, 1000) g;
INSERT INTO bx_ex_pax SELECT g, int4range(g * 10 + 20000, g * 10 + 20005) FROM generate_series(1, 500) g
  UNION ALL SELECT 0, int4range(100, 102);
INSERT INTO bx_ex_heap SELECT g, int4range(g * 10 + 20000, g * 10 + 20005) FROM generate_series(1, 500) g
  UNION ALL SELECT 0, int4range(100, 102);
SELECT pax_same('bx_ex_pax', 'bx_ex_heap');

-- a prepared INSERT run twice, and EXPLAIN ANALYZE of one
PREPARE bx_ins(int) AS INSERT INTO bx_pax SELECT g, g % 5, 'prep', NULL FROM generate_series($1, $1 + 499) g;
EXECUTE bx_ins(40001);
EXECUTE bx_ins(41001);
DO $$ BEGIN EXECUTE 'EXPLAIN (ANALYZE) EXECUTE bx_ins(42001)'; END $$;
SET enable_seqscan = off;
SELECT count(*) FROM bx_pax WHERE id BETWEEN 40001 AND 43000;
RESET enable_seqscan;
SELECT * FROM pax_verify('bx_pax', true, true);

-- triggers that do not read a new row by its TID allow kept rows: BEFORE
-- ROW triggers, AFTER STATEMENT triggers (the statement's rows are placed
-- first), and those of a table foreign keys reference
CREATE TABLE bx_par_pax (id int PRIMARY KEY, note text) USING pax;
CREATE TABLE bx_par_heap (id int PRIMARY KEY, note text) USING heap;
CREATE TABLE bx_child_pax (id int, par int REFERENCES bx_par_pax) USING pax;
CREATE TABLE bx_child_heap (id int, par int REFERENCES bx_par_heap) USING heap;
CREATE FUNCTION bx_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.note := NEW.note || '+b';
	RETURN NEW;
END $$;
CREATE FUNCTION bx_after_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
	EXECUTE format('SELECT count(*) FROM %I WHERE note LIKE %L', TG_TABLE_NAME, '%+b')
	  INTO n;
	RAISE NOTICE 'after the statement: % rows', n;
	RETURN NULL;
END $$;
CREATE TRIGGER bx_b BEFORE INSERT ON bx_par_pax FOR EACH ROW EXECUTE FUNCTION bx_before();
CREATE TRIGGER bx_b BEFORE INSERT ON bx_par_heap FOR EACH ROW EXECUTE FUNCTION bx_before();
CREATE TRIGGER bx_s AFTER INSERT ON bx_par_pax FOR EACH STATEMENT EXECUTE FUNCTION bx_after_stmt();
CREATE TRIGGER bx_s AFTER INSERT ON bx_par_heap FOR EACH STATEMENT EXECUTE FUNCTION bx_after_stmt();
INSERT INTO bx_par_pax SELECT g, 'p' || g FROM generate_series(1, 3000) g;
INSERT INTO bx_par_heap SELECT g, 'p' || g FROM generate_series(1, 3000) g;
SELECT form, count(*) > 1 AS pages FROM pax_page_stats('bx_par_pax') GROUP BY 1;
SELECT pax_same('bx_par_pax', 'bx_par_heap');
-- the referencing table's foreign key check is an AFTER ROW trigger: its
-- rows go one at a time
INSERT INTO bx_child_pax SELECT g, g FROM generate_series(1, 3000, 7) g;
INSERT INTO bx_child_heap SELECT g, g FROM generate_series(1, 3000, 7) g;
SELECT form, count(*) FROM pax_page_stats('bx_child_pax') GROUP BY 1;
INSERT INTO bx_child_pax VALUES (0, 3001);
INSERT INTO bx_child_heap VALUES (0, 3001);
DELETE FROM bx_par_pax WHERE id = 8;
DELETE FROM bx_par_heap WHERE id = 8;
SELECT pax_same('bx_child_pax', 'bx_child_heap');
SELECT * FROM pax_verify('bx_par_pax', true, true);
DROP TABLE bx_child_pax, bx_child_heap, bx_par_pax, bx_par_heap;
DROP FUNCTION bx_before(), bx_after_stmt();

-- a trigger: rows one at a time, the executor making their entries
CREATE FUNCTION bx_trig() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RETURN NEW; END $$;
CREATE TRIGGER bx_t AFTER INSERT ON bx_toast_pax FOR EACH ROW EXECUTE FUNCTION bx_trig();
INSERT INTO bx_toast_pax SELECT g, 'x' FROM generate_series(5001, 6000) g;
SET enable_seqscan = off;
SELECT count(*) FROM bx_toast_pax WHERE id > 5000;
RESET enable_seqscan;
SELECT * FROM pax_verify('bx_toast_pax', true, true);

DROP TABLE bx_pax, bx_heap, bx_seen_pax, bx_seen_heap, bx_toast_pax, bx_toast_heap,
  bx_ex_pax, bx_ex_heap;
DROP FUNCTION bx_seen(regclass, int), bx_peek(regclass), bx_trig();
