--
-- pax_am_mvcc_trigger: triggers on pax tables: AFTER ROW triggers see OLD and
-- NEW, BEFORE ROW triggers change NEW, statement triggers see the transition
-- tables.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
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

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE tg_log, tg_pax, tg_heap;
DROP FUNCTION same, dml, q, block, verify_all, tg_row, tg_before, tg_stmt;
