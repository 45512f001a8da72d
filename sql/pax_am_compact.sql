--
-- pax_am_compact: compact pages (pax_am/README, "Compact rows"): the rows a
-- bulk load puts on a page share one row header; a row gets a header of its
-- own (one of the page's 12 header slots, else the page's header page) when
-- a DELETE, UPDATE or row lock stores an xmax in it, and VACUUM gives it the
-- shared header back once that xmax is gone.  Every statement runs on a pax
-- table and on a heap table with the same data, heap being the oracle
-- (sql/include/pax_am_oracle.sql).
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle

-- row states and header slots of a compact page, from the page itself
CREATE FUNCTION cp_states(rel regclass, blk int, OUT shared int, OUT slot int,
						  OUT overflow int, OUT unused int, OUT header_page bool)
LANGUAGE plpgsql AS $$
DECLARE
	p bytea := get_raw_page(rel::text, blk);
	natts int := get_byte(p, 28) | (get_byte(p, 29) << 8);
	cap int := get_byte(p, 26) | (get_byte(p, 27) << 8);
	nrows int := get_byte(p, 24) | (get_byte(p, 25) << 8);
	maplen int := (natts + 7) / 8;
	off int := 32 + 5 * maplen;
	nzones int := 0;
	s int;
BEGIN
	-- (no zone maps or encodings on the pages this test reads: see below)
	IF (get_byte(p, 30) & 2) <> 0 THEN
		RAISE EXCEPTION 'encoded page';
	END IF;
	off := ((off + 7) / 8) * 8;
	FOR i IN 0 .. natts - 1 LOOP
		IF (get_byte(p, 32 + 2 * maplen + i / 8) >> (i % 8)) & 1 = 1 THEN
			nzones := nzones + 1;
		END IF;
	END LOOP;
	off := off + 16 * nzones;
	shared := 0; slot := 0; overflow := 0; unused := 0;
	header_page := (get_byte(p, off + 24) | get_byte(p, off + 25) |
					get_byte(p, off + 26) | get_byte(p, off + 27)) <> 0;
	FOR r IN 0 .. nrows - 1 LOOP
		s := get_byte(p, off + 32 + r);
		IF s = 0 THEN shared := shared + 1;
		ELSIF s = 254 THEN overflow := overflow + 1;
		ELSIF s = 255 THEN unused := unused + 1;
		ELSE slot := slot + 1;
		END IF;
	END LOOP;
END $$;
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;

-- a bulk load builds compact pages: up to 226 narrow rows a page, the TIDs
-- up to heap's limit (MaxHeapTuplesPerPage, 291) kept for the rows' new
-- versions (PaxCompactKeepTids), where row-form pages hold fewer
SET pax.encode_minipages = off;
CREATE TABLE c_pax (id int, v text, n int) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE c_heap (id int, v text, n int) USING heap WITH (autovacuum_enabled = off);
INSERT INTO c_pax SELECT i, 'v' || i, i % 10 FROM generate_series(1, 3000) i;
INSERT INTO c_heap SELECT i, 'v' || i, i % 10 FROM generate_series(1, 3000) i;
SET pax.compact_rows = off;
CREATE TABLE c_row USING pax AS SELECT * FROM c_heap;
RESET pax.compact_rows;
SELECT (SELECT max(nrows) FROM pax_page_stats('c_pax')) AS compact_rows_a_page,
       (SELECT max(nrows) FROM pax_page_stats('c_row')) AS row_form_rows_a_page,
       pg_relation_size('c_pax') < pg_relation_size('c_row') AS smaller;
SELECT * FROM cp_states('c_pax', 0);
SELECT * FROM same('c');
SELECT * FROM q('SELECT id, v FROM c{t} WHERE n = 3 AND id < 100');
SELECT * FROM q('SELECT n, count(*), sum(id) FROM c{t} GROUP BY n');
SELECT ctid, xmax, id FROM c_pax WHERE id IN (1, 2, 292) ORDER BY id;

-- a few deletes take header slots; more (the 13th row of a page on) go to
-- the page's header page, which the relation gets as a block of its own
SELECT * FROM dml('c', 'DELETE FROM {t} WHERE id BETWEEN 1 AND 5');
SELECT * FROM cp_states('c_pax', 0);
SELECT * FROM dml('c', 'DELETE FROM {t} WHERE id BETWEEN 6 AND 40 RETURNING *');
SELECT * FROM cp_states('c_pax', 0);
SELECT form, count(*) FROM pax_page_stats('c_pax') GROUP BY form ORDER BY form;
SELECT * FROM q('SELECT * FROM c{t} WHERE id <= 50');
SELECT * FROM q('SELECT id FROM c{t} WHERE ctid = ''(0,3)''');

-- deleted in an aborted transaction, and in a subtransaction: still there
BEGIN;
SELECT * FROM dml('c', 'DELETE FROM {t} WHERE id BETWEEN 300 AND 500');
SAVEPOINT s1;
SELECT * FROM dml('c', 'DELETE FROM {t} WHERE id BETWEEN 600 AND 700');
ROLLBACK TO s1;
SELECT * FROM same('c');
ROLLBACK;
SELECT * FROM same('c');
-- an older snapshot still sees the rows a later command deleted, with
-- the deleter's xmax (a header page's header, read through a copy)
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM c_pax;
SELECT * FROM q('SELECT count(*) FROM c{t}');
SELECT xmax <> 0 AS has_xmax, count(*) FROM c_pax WHERE id BETWEEN 300 AND 500 GROUP BY 1;
COMMIT;

-- UPDATE: the old versions keep their headers (and t_ctid chains) on the
-- header page; the new versions go to row-form pages
SELECT * FROM dml('c', 'UPDATE {t} SET v = v || ''!'' WHERE id BETWEEN 292 AND 400');
SELECT * FROM dml('c', 'UPDATE {t} SET n = n + 100 WHERE id BETWEEN 292 AND 300 RETURNING id, n');
SELECT * FROM q('SELECT * FROM c{t} WHERE id BETWEEN 290 AND 410');

-- row locks, and a lock that waits for nothing but a finished locker
BEGIN;
SELECT * FROM q('SELECT id FROM c{t} WHERE id BETWEEN 600 AND 700 FOR UPDATE');
SELECT * FROM q('SELECT id FROM c{t} WHERE id BETWEEN 650 AND 800 FOR KEY SHARE');
COMMIT;
SELECT * FROM dml('c', 'DELETE FROM {t} WHERE id BETWEEN 690 AND 710');
SELECT * FROM same('c');

-- foreign keys lock the referenced rows (FOR KEY SHARE)
CREATE TABLE cref_pax (id int PRIMARY KEY, k int) USING pax;
CREATE TABLE cref_heap (id int PRIMARY KEY, k int) USING heap;
INSERT INTO cref_pax SELECT i, i FROM generate_series(1, 2000) i;
INSERT INTO cref_heap SELECT i, i FROM generate_series(1, 2000) i;
CREATE TABLE cfk_pax (r int REFERENCES cref_pax) USING pax;
CREATE TABLE cfk_heap (r int REFERENCES cref_heap) USING heap;
INSERT INTO cfk_pax SELECT i % 2000 + 1 FROM generate_series(1, 3000) i;
INSERT INTO cfk_heap SELECT i % 2000 + 1 FROM generate_series(1, 3000) i;
SELECT * FROM same('cfk');
DELETE FROM cref_pax WHERE id = 5;
DELETE FROM cref_heap WHERE id = 5;
DELETE FROM cref_pax WHERE id > 1999;
DELETE FROM cref_heap WHERE id > 1999;
SELECT * FROM dml('cref', 'UPDATE {t} SET k = -k WHERE id < 400');

-- VACUUM: dead rows become UNUSED (their slots free), the rows whose xmax
-- is gone (aborted deleters, ended lockers) share the header again, and a
-- header page no row needs any more is laid out afresh for rows
VACUUM c_pax;
SELECT * FROM cp_states('c_pax', 0);
SELECT * FROM cp_states('c_pax', 1);
-- (page 2's rows are all live: from 16 on, VACUUM may freeze them when it
-- logs the page's image anyway, after a checkpoint, and rows it froze keep
-- their own headers this time; so only its rows are counted)
SELECT shared + slot + overflow AS live_rows, unused FROM cp_states('c_pax', 2);
SELECT * FROM same('c');
VACUUM (FREEZE) c_pax;
SELECT * FROM same('c');
SELECT count(*) FILTER (WHERE nrows = 0) AS no_rows FROM pax_page_stats('c_pax');

-- every row of a page deleted: the page is laid out afresh and reused
SELECT * FROM dml('c', 'DELETE FROM {t} WHERE id BETWEEN 2000 AND 2900');
VACUUM c_pax;
SELECT pg_relation_size('c_pax') AS size_before \gset
INSERT INTO c_pax SELECT i, 'w' || i, 1 FROM generate_series(2000, 2400) i;
INSERT INTO c_heap SELECT i, 'w' || i, 1 FROM generate_series(2000, 2400) i;
SELECT pg_relation_size('c_pax') = :size_before AS reused;
SELECT * FROM same('c');

-- a compact page whose dead rows left room for a header each goes back to
-- the row form, with every row kept where it was: here pruning does it
-- before VACUUM, at the UPDATE's scan, so that the updated rows stay on
-- the page (HOT); VACUUM then frees the dead rows' slots
CREATE TABLE w_pax (id int, pad text) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE w_heap (id int, pad text) USING heap WITH (autovacuum_enabled = off);
INSERT INTO w_pax SELECT i, repeat('p', 90) || i FROM generate_series(1, 1000) i;
INSERT INTO w_heap SELECT i, repeat('p', 90) || i FROM generate_series(1, 1000) i;
SELECT (get_byte(get_raw_page('w_pax', 0), 30) & 4) <> 0 AS compact,
       (SELECT nrows FROM pax_page_stats('w_pax') WHERE blkno = 0) AS nrows;
SELECT * FROM dml('w', 'DELETE FROM {t} WHERE id % 3 = 0 AND id < 100');
SELECT * FROM dml('w', 'UPDATE {t} SET pad = ''short'' WHERE id IN (10, 20, 30, 40, 50, 61, 62, 64, 65)');
BEGIN;
SELECT * FROM q('SELECT id FROM w{t} WHERE id BETWEEN 40 AND 45 FOR SHARE');
COMMIT;
SELECT string_agg(ctid::text || id, ',' ORDER BY id) AS tids FROM w_pax WHERE id < 100 \gset
VACUUM w_pax;
SELECT (get_byte(get_raw_page('w_pax', 0), 30) & 4) <> 0 AS compact,
       (SELECT nrows FROM pax_page_stats('w_pax') WHERE blkno = 0) AS nrows,
       (SELECT string_agg(ctid::text || id, ',' ORDER BY id) FROM w_pax WHERE id < 100) = :'tids' AS same_tids;
SELECT * FROM q('SELECT id, pad FROM w{t} WHERE id < 100');
SELECT count(*) AS updated_in_place FROM w_pax
  WHERE pad = 'short' AND (ctid::text::point)[0] = 0;
SELECT nrows < capacity AS free_slots FROM pax_page_stats('w_pax') WHERE blkno = 0;
INSERT INTO w_pax SELECT i, 'new' || i FROM generate_series(2001, 2020) i;
INSERT INTO w_heap SELECT i, 'new' || i FROM generate_series(2001, 2020) i;
SELECT * FROM same('w');
SELECT * FROM pax_verify('w_pax');
DROP TABLE w_pax, w_heap;

-- an aborted load: its compact pages die whole, VACUUM empties them
BEGIN;
INSERT INTO c_pax SELECT i, 'x', 0 FROM generate_series(5000, 8000) i;
ROLLBACK;
VACUUM c_pax;
SELECT * FROM same('c');

-- COPY FREEZE: frozen compact pages; rewrites of frozen rows are compact
CREATE TABLE cf_pax (id int, v text) USING pax;
CREATE TABLE cf_heap (id int, v text) USING heap;
BEGIN;
TRUNCATE cf_pax;
COPY cf_pax FROM PROGRAM 'seq 1 2000 | awk ''{print $1 "\tf" $1}''' WITH (FREEZE);
COMMIT;
INSERT INTO cf_heap SELECT id, v FROM cf_pax;
SELECT * FROM same('cf');
SELECT * FROM cp_states('cf_pax', 0);
SELECT * FROM dml('cf', 'UPDATE {t} SET v = ''u'' WHERE id % 100 = 0');
VACUUM (FREEZE) cf_pax;
VACUUM FULL cf_pax;
SELECT * FROM same('cf');
SELECT max(nrows) AS rows_a_page FROM pax_page_stats('cf_pax');
CREATE INDEX cf_pax_idx ON cf_pax (id);
CLUSTER cf_pax USING cf_pax_idx;
SELECT * FROM same('cf');

-- indexes: index, bitmap and index-only scans on compact pages
CREATE INDEX ON c_pax (id);
CREATE INDEX ON c_heap (id);
SET enable_seqscan = off;
SELECT * FROM q('SELECT * FROM c{t} WHERE id BETWEEN 100 AND 120');
SET enable_indexscan = off;
SELECT * FROM q('SELECT * FROM c{t} WHERE id BETWEEN 100 AND 320');
RESET enable_indexscan;
RESET enable_seqscan;

SELECT * FROM verify_all();
RESET pax.encode_minipages;
DROP TABLE c_pax, c_heap, c_row, cfk_pax, cfk_heap, cref_pax, cref_heap,
    cf_pax, cf_heap;
DROP FUNCTION cp_states;
DROP FUNCTION same, dml, q, block, verify_all;
