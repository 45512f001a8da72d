--
-- pax_am_mvcc_toast: TOAST on pax tables: external values updated, updated
-- beside them, deleted; vacuumed, and the space used again.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
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
-- only the live values' chunks remain, and pax's TOAST table is no larger
-- (how far VACUUM truncates either depends on the cluster's other snapshots)
SELECT 'pax' AS am, chunks FROM chunks('to_pax') UNION ALL SELECT 'heap', chunks FROM chunks('to_heap');
SELECT (SELECT pages FROM chunks('to_pax')) <= (SELECT pages FROM chunks('to_heap')) AS pax_toast_not_larger;
-- space freed by VACUUM is used again
INSERT INTO to_pax SELECT i, 0, repeat(chr(64 + i), 100000) FROM generate_series(18, 20) i;
INSERT INTO to_heap SELECT i, 0, repeat(chr(64 + i), 100000) FROM generate_series(18, 20) i;
SELECT (SELECT pages FROM chunks('to_pax')) <= (SELECT pages FROM chunks('to_heap')) AS pax_toast_not_larger;
SELECT * FROM same('to');

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE to_pax, to_heap;
DROP FUNCTION same, dml, q, block, verify_all, chunks;
