--
-- pax_am_colskip: column skipping.  The plain scans of a pax table
-- (sequential, index, bitmap, TID) read only the columns their query can
-- read; every result must still equal heap's: whole-row references, row
-- security quals on columns the query does not name, views, subqueries,
-- parallel workers, and the rows that triggers, RETURNING, MERGE, cursors
-- and generated columns see.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle

CREATE FUNCTION cs_fill(am text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE TABLE cs_%s (id int PRIMARY KEY, a int, b text, c int,
		d numeric, e date, f text, g int, h int, i bigint, j text, k int)
		USING %s', am, am);
	EXECUTE format('INSERT INTO cs_%s
		SELECT n, n %% 211, ''b'' || n, NULL, n / 7.0, date ''2024-01-01'' + n %% 50,
			CASE WHEN n %% 11 = 0 THEN NULL ELSE ''f'' || (n %% 97) END,
			n %% 53, n %% 17, n * 1000, repeat(''j'', n %% 40), n %% 5
		FROM generate_series(1, 6000) n', am);
	EXECUTE format('CREATE INDEX ON cs_%s (a)', am);
	EXECUTE format('CREATE INDEX ON cs_%s (g)', am);
	EXECUTE format('CREATE TABLE csg_%s (id int PRIMARY KEY, a int, x int,
		s int GENERATED ALWAYS AS (a * 10 + x) STORED) USING %s', am, am);
	EXECUTE format('INSERT INTO csg_%s (id, a, x) SELECT n, n %% 100, n %% 7
		FROM generate_series(1, 2000) n', am);
	EXECUTE format('CREATE INDEX ON csg_%s (a)', am);
	EXECUTE format('ANALYZE cs_%s, csg_%s', am, am);
END
$$;
SELECT cs_fill('pax'), cs_fill('heap');

-- the plain scans, not PaxScan
SET pax.enable_customscan = off;
SET max_parallel_workers_per_gather = 0;

-- cs_run(qs) runs each query on both tables, numbered
CREATE FUNCTION cs_run(qs text[])
RETURNS TABLE (query int, pax bigint, heap bigint, same boolean)
LANGUAGE plpgsql AS $$
BEGIN
	FOR n IN 1 .. array_length(qs, 1) LOOP
		SELECT * INTO pax, heap, same FROM q(qs[n]);
		query := n;
		RETURN NEXT;
	END LOOP;
END
$$;

-- cs_queries() runs the read-only queries under the current scan settings
CREATE FUNCTION cs_queries()
RETURNS TABLE (query int, pax bigint, heap bigint, same boolean)
LANGUAGE sql AS $$
SELECT * FROM cs_run(ARRAY[
		-- a few columns, the last one far right
		'SELECT id, k FROM cs{t} WHERE a BETWEEN 10 AND 40',
		-- no column but the indexed one
		'SELECT count(*) FROM cs{t} WHERE a < 50',
		-- whole rows, three ways
		'SELECT t FROM cs{t} t WHERE a < 20',
		'SELECT row_to_json(t)::text AS r FROM cs{t} t WHERE a = 5',
		'SELECT * FROM cs{t} WHERE a = 7',
		-- a filter on a column the output does not name
		'SELECT id FROM cs{t} WHERE a < 30 AND f LIKE ''f1%''',
		-- a self join, the inner side by index
		'SELECT t.id, u.h, u.j FROM cs{t} t JOIN cs{t} u ON u.a = t.g WHERE t.a < 15',
		-- a correlated subquery reading another column of the outer row
		'SELECT id, (SELECT max(u.h) FROM cs{t} u WHERE u.a = t.g) AS m FROM cs{t} t WHERE a < 10',
		-- ORDER BY a column the rest of the query does not read
		'SELECT id, d FROM cs{t} WHERE a < 100 ORDER BY e, id',
		-- an expression over several columns, NULLs included
		'SELECT id, coalesce(f, b) || c::text || i AS x FROM cs{t} WHERE g = 3',
		-- TID scans
		'SELECT id, j FROM cs{t} WHERE ctid = ANY (ARRAY(SELECT ctid FROM cs{t} WHERE a = 33))',
		'SELECT id, h FROM cs{t} WHERE ctid >= ''(0,1)'' AND ctid < ''(100000,0)''',
		-- aggregates grouped by a column far from the filtered one
		'SELECT k, count(*), sum(i) FROM cs{t} WHERE a < 60 GROUP BY k'])
$$;

-- sequential scans
SET enable_indexscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id, k FROM cs_pax WHERE a BETWEEN 10 AND 40;
SELECT * FROM cs_queries();
-- bitmap scans
SET enable_seqscan = off;
SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) SELECT id, k FROM cs_pax WHERE a BETWEEN 10 AND 40;
SELECT * FROM cs_queries();
-- index scans
SET enable_bitmapscan = off;
SET enable_indexscan = on;
EXPLAIN (COSTS OFF) SELECT id, k FROM cs_pax WHERE a BETWEEN 10 AND 40;
SELECT * FROM cs_queries();
-- joins reading a scan's slot unprojected: a nested loop's inner index
-- scan reads what the join's expressions name on its side (not the
-- index column, which only the btree condition names), and so do hash and
-- merge joins of their children
CREATE FUNCTION cs_join_queries()
RETURNS TABLE (query int, pax bigint, heap bigint, same boolean)
LANGUAGE sql AS $$
SELECT * FROM cs_run(ARRAY[
		-- a join qual on an inner column no output names
		'SELECT t.id, u.id AS uid FROM cs{t} t JOIN cs{t} u ON u.a = t.g AND u.k <> t.k WHERE t.a < 15',
		-- the inner row whole
		'SELECT t.id, u FROM cs{t} t JOIN cs{t} u ON u.a = t.g WHERE t.a < 5',
		-- a subquery in the join''s output reading an inner column
		'SELECT t.id, (SELECT max(v.i) FROM cs{t} v WHERE v.a = u.h) AS m FROM cs{t} t JOIN cs{t} u ON u.a = t.g WHERE t.a < 5',
		-- an outer join, inner columns read above the join condition
		'SELECT t.id, u.b FROM cs{t} t LEFT JOIN cs{t} u ON u.a = t.g AND u.k = 1 WHERE t.a < 10 AND (u.id IS NULL OR u.d > 100)',
		-- both sides by index, the join on columns the output does not name
		'SELECT t.b, u.f, t.e FROM cs{t} t JOIN cs{t} u ON u.id = t.i / 1000 WHERE t.a < 20 AND u.k < 3',
		-- a semi join and an anti join
		'SELECT t.id, t.j FROM cs{t} t WHERE t.a < 30 AND EXISTS (SELECT 1 FROM cs{t} u WHERE u.a = t.h AND u.e > t.e)',
		'SELECT t.id FROM cs{t} t WHERE t.a < 30 AND NOT EXISTS (SELECT 1 FROM cs{t} u WHERE u.g = t.k AND u.c IS NOT NULL)',
		-- the generated column''s table
		'SELECT t.id, u.s, u.x FROM cs{t} t JOIN csg{t} u ON u.a = t.g WHERE t.a < 8'])
$$;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF)
SELECT t.id, u.id AS uid FROM cs_pax t JOIN cs_pax u ON u.a = t.g AND u.k <> t.k WHERE t.a < 15;
SELECT * FROM cs_join_queries();
SET enable_nestloop = off;
SET enable_hashjoin = on;
EXPLAIN (COSTS OFF)
SELECT t.id, u.id AS uid FROM cs_pax t JOIN cs_pax u ON u.a = t.g AND u.k <> t.k WHERE t.a < 15;
SELECT * FROM cs_join_queries();
SET enable_hashjoin = off;
SET enable_mergejoin = on;
SELECT * FROM cs_join_queries();
RESET enable_nestloop;
RESET enable_hashjoin;
RESET enable_mergejoin;
SET enable_indexscan = off;
SELECT * FROM cs_join_queries();
RESET enable_indexscan;

-- switched off: the same answers
SET pax.enable_column_skipping = off;
SELECT * FROM cs_queries();
RESET pax.enable_column_skipping;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- parallel sequential scans: the workers' slots skip columns too
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT id, k FROM cs_pax WHERE h % 3 = 0;
SELECT * FROM q($$SELECT id, k FROM cs{t} WHERE h % 3 = 0$$);
SELECT * FROM q($$SELECT t FROM cs{t} t WHERE h % 3 = 0$$);
SELECT * FROM q($$SELECT g, sum(i) FROM cs{t} WHERE h = 4 GROUP BY g$$);
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- views: a column only the view's WHERE reads, and a security barrier
-- view whose qual must run before a leaky function sees the row
SET enable_seqscan = off;
CREATE VIEW csv_pax AS SELECT id, a FROM cs_pax WHERE h > 3;
CREATE VIEW csv_heap AS SELECT id, a FROM cs_heap WHERE h > 3;
SELECT * FROM q($$SELECT id FROM csv{t} WHERE a < 40$$);
CREATE VIEW csb_pax WITH (security_barrier) AS
	SELECT id, a, b FROM cs_pax WHERE k = 2;
CREATE VIEW csb_heap WITH (security_barrier) AS
	SELECT id, a, b FROM cs_heap WHERE k = 2;
SELECT * FROM q($$SELECT id, b FROM csb{t} WHERE a < 40 AND b LIKE 'b1%'$$);

-- row-level security: the policy reads columns the user may not select
-- and the query does not name
CREATE ROLE regress_cs_reader;
GRANT SELECT (id, a) ON cs_pax, cs_heap TO regress_cs_reader;
GRANT EXECUTE ON FUNCTION q(text) TO regress_cs_reader;
ALTER TABLE cs_pax ENABLE ROW LEVEL SECURITY;
ALTER TABLE cs_heap ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON cs_pax USING (h % 2 = 0 AND f IS NOT NULL);
CREATE POLICY p ON cs_heap USING (h % 2 = 0 AND f IS NOT NULL);
SET ROLE regress_cs_reader;
SELECT count(*), sum(id) FROM cs_pax WHERE a < 50;
SELECT * FROM q($$SELECT id FROM cs{t} WHERE a < 50$$);
SELECT * FROM q($$SELECT id FROM cs{t} WHERE a = 17$$);
SELECT * FROM q($$SELECT id FROM cs{t} WHERE a < 50 AND id % 3 = 0$$);
-- and the columns it may not select stay out of reach
SELECT h FROM cs_pax WHERE a = 17;
RESET ROLE;
ALTER TABLE cs_pax DISABLE ROW LEVEL SECURITY;
ALTER TABLE cs_heap DISABLE ROW LEVEL SECURITY;

-- a column added with a default reads as its default
ALTER TABLE cs_pax ADD COLUMN z int DEFAULT 42;
ALTER TABLE cs_heap ADD COLUMN z int DEFAULT 42;
SELECT * FROM q($$SELECT id, z FROM cs{t} WHERE a < 5$$);
SELECT * FROM q($$SELECT id, z, k FROM cs{t} WHERE a < 5 AND z = 42$$);

-- writes through index scans: what triggers, RETURNING, MERGE, cursors
-- and generated columns see of the old row must be whole
CREATE FUNCTION cs_trig() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.c := OLD.h * 1000 + OLD.g;
	NEW.j := OLD.b || '/' || coalesce(OLD.f, '-');
	RETURN NEW;
END
$$;
CREATE TABLE cs_log (am text, r text);
CREATE FUNCTION cs_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO cs_log VALUES (substring(TG_TABLE_NAME from '_(.*)$'),
							   row_to_json(OLD)::text);
	RETURN NULL;
END
$$;
CREATE TRIGGER bu BEFORE UPDATE ON cs_pax FOR EACH ROW EXECUTE FUNCTION cs_trig();
CREATE TRIGGER bu BEFORE UPDATE ON cs_heap FOR EACH ROW EXECUTE FUNCTION cs_trig();
CREATE TRIGGER ad AFTER DELETE ON cs_pax FOR EACH ROW EXECUTE FUNCTION cs_after();
CREATE TRIGGER ad AFTER DELETE ON cs_heap FOR EACH ROW EXECUTE FUNCTION cs_after();
SELECT * FROM dml('cs', 'UPDATE {t} SET a = a WHERE a BETWEEN 3 AND 6');
SELECT * FROM dml('cs', 'UPDATE {t} t SET k = k + 10 WHERE a = 9 RETURNING row_to_json(t)::text');
SELECT * FROM dml('cs', 'DELETE FROM {t} WHERE a = 8 RETURNING id::text || '':'' || b || '':'' || i');
SELECT * FROM dml('cs', 'MERGE INTO {t} t
	USING (SELECT n AS id, n AS x FROM generate_series(1, 400) n) v
	ON t.id = v.id AND t.a = 12 WHEN MATCHED THEN UPDATE SET i = t.h + v.x');
SELECT * FROM dml('csg', 'UPDATE {t} SET x = x + 1 WHERE a < 4');
SELECT * FROM dml('csg', 'INSERT INTO {t} (id, a, x) SELECT id + 5000, a, x FROM {t} WHERE a = 5');
DROP TRIGGER bu ON cs_pax;
DROP TRIGGER bu ON cs_heap;
DROP TRIGGER ad ON cs_pax;
DROP TRIGGER ad ON cs_heap;
SELECT am, count(*) AS logged,
	count(*) FILTER (WHERE r LIKE '%"j"%' AND r LIKE '%"k"%') AS whole
FROM cs_log GROUP BY am ORDER BY am;
SELECT (SELECT array_agg(r ORDER BY r) FROM cs_log WHERE am = 'pax') =
	(SELECT array_agg(r ORDER BY r) FROM cs_log WHERE am = 'heap') AS same_old_rows;

-- rule actions read OLD and NEW columns the statement does not name
CREATE TABLE cs_rlog (am text, op text, h int, j text, f text, i bigint);
CREATE RULE ru AS ON UPDATE TO cs_pax DO ALSO
	INSERT INTO cs_rlog VALUES ('pax', 'update', old.h, old.j, new.f, NULL);
CREATE RULE ru AS ON UPDATE TO cs_heap DO ALSO
	INSERT INTO cs_rlog VALUES ('heap', 'update', old.h, old.j, new.f, NULL);
CREATE RULE rd AS ON DELETE TO cs_pax DO ALSO
	INSERT INTO cs_rlog VALUES ('pax', 'delete', old.h, NULL, NULL, old.i);
CREATE RULE rd AS ON DELETE TO cs_heap DO ALSO
	INSERT INTO cs_rlog VALUES ('heap', 'delete', old.h, NULL, NULL, old.i);
SELECT * FROM dml('cs', 'UPDATE {t} SET k = k + 1 WHERE a = 13');
SELECT * FROM dml('cs', 'DELETE FROM {t} WHERE a = 14');
SELECT * FROM dml('cs', 'UPDATE {t} t SET k = k + 1 FROM cs_log l
	WHERE t.a = 15 AND t.b <> l.r');
SELECT * FROM dml('cs', 'DELETE FROM {t} t USING generate_series(1, 6000, 7) v
	WHERE t.id = v AND t.g = 16');
SELECT am, op, count(*), count(h) AS h, count(j) AS j, count(f) AS f, count(i) AS i
FROM cs_rlog GROUP BY am, op ORDER BY am, op;
SELECT (SELECT array_agg(r ORDER BY r) FROM (SELECT (l.*)::text r FROM cs_rlog l WHERE am = 'pax') x) =
	(SELECT array_agg(replace(r, '(heap,', '(pax,') ORDER BY r) FROM (SELECT (l.*)::text r FROM cs_rlog l WHERE am = 'heap') x)
	AS same_rule_rows;
-- (an UPDATE that only assigns salary: its selectedCols name ename alone,
-- and the hash join reads the scan's slot unprojected)
CREATE TABLE csr_pax (ename text, salary int) USING pax;
CREATE TABLE csr_heap (ename text, salary int) USING heap;
CREATE TABLE csr_mass (ename text, salary int);
INSERT INTO csr_pax SELECT 'e' || n, n * 100 FROM generate_series(1, 50) n;
INSERT INTO csr_heap SELECT * FROM csr_pax;
INSERT INTO csr_mass SELECT 'e' || n, n * 100 + n % 3 FROM generate_series(1, 50, 2) n;
CREATE RULE rs AS ON UPDATE TO csr_pax WHERE new.salary <> old.salary DO ALSO
	INSERT INTO cs_rlog VALUES ('pax', 'raise', old.salary, NULL, new.ename, new.salary);
CREATE RULE rs AS ON UPDATE TO csr_heap WHERE new.salary <> old.salary DO ALSO
	INSERT INTO cs_rlog VALUES ('heap', 'raise', old.salary, NULL, new.ename, new.salary);
SET enable_mergejoin = off;
SET enable_seqscan = on;
SELECT * FROM dml('csr', 'UPDATE {t} SET salary = m.salary FROM csr_mass m
	WHERE {t}.ename = m.ename');
RESET enable_mergejoin;
SET enable_seqscan = off;
SELECT am, count(*), sum(h) AS old_salaries, sum(i) AS new_salaries
FROM cs_rlog WHERE op = 'raise' GROUP BY am ORDER BY am;
DROP TABLE csr_pax, csr_heap, csr_mass;
DROP RULE ru ON cs_pax;
DROP RULE ru ON cs_heap;
DROP RULE rd ON cs_pax;
DROP RULE rd ON cs_heap;

-- a cursor's row, updated where current
BEGIN;
DECLARE cur CURSOR FOR SELECT id FROM cs_pax WHERE a = 11 ORDER BY id FOR UPDATE;
FETCH 2 FROM cur;
UPDATE cs_pax SET f = 'cur' || h || j WHERE CURRENT OF cur;
COMMIT;
BEGIN;
DECLARE cur CURSOR FOR SELECT id FROM cs_heap WHERE a = 11 ORDER BY id FOR UPDATE;
FETCH 2 FROM cur;
UPDATE cs_heap SET f = 'cur' || h || j WHERE CURRENT OF cur;
COMMIT;
SELECT * FROM same('cs');

-- copies of rows read through an index
CREATE TABLE csc_pax (LIKE cs_pax) USING pax;
CREATE TABLE csc_heap (LIKE cs_heap) USING heap;
INSERT INTO csc_pax SELECT * FROM cs_pax WHERE a < 20;
INSERT INTO csc_heap SELECT * FROM cs_heap WHERE a < 20;
SELECT * FROM same('csc');
RESET enable_seqscan;

RESET pax.enable_customscan;
RESET max_parallel_workers_per_gather;
SELECT * FROM verify_all();
DROP OWNED BY regress_cs_reader;
DROP ROLE regress_cs_reader;
DROP VIEW csv_pax, csv_heap, csb_pax, csb_heap;
DROP TABLE cs_pax, cs_heap, csg_pax, csg_heap, csc_pax, csc_heap, cs_log, cs_rlog;
DROP FUNCTION cs_fill(text), cs_run(text[]), cs_queries(), cs_join_queries(), cs_trig(), cs_after();
DROP FUNCTION same, dml, q, block, verify_all;
