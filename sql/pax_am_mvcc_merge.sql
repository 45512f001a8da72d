--
-- pax_am_mvcc_merge: MERGE on pax tables: delete, update and insert actions,
-- rows it inserted matched by the next MERGE, a source row matching twice.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
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

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE m_pax, m_heap, m_src;
DROP FUNCTION same, dml, q, block, verify_all;
