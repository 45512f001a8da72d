--
-- pax_am_colskip: column skipping.  The plain scans of a pax table
-- (sequential, index, bitmap, TID) read only the columns their query can
-- read; every result must still equal heap's: whole-row references, row
-- security quals on columns the query does not name, views, subqueries,
-- parallel workers, and the rows that triggers, RETURNING, MERGE, cursors
-- and generated columns see.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;

CREATE SCHEMA cs_pax;
CREATE SCHEMA cs_heap;
CREATE FUNCTION cs_fill(s text, am text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE TABLE %I.t (id int PRIMARY KEY, a int, b text, c int,
		d numeric, e date, f text, g int, h int, i bigint, j text, k int)
		USING %s', s, am);
	EXECUTE format('INSERT INTO %I.t
		SELECT n, n %% 211, ''b'' || n, NULL, n / 7.0, date ''2024-01-01'' + n %% 50,
			CASE WHEN n %% 11 = 0 THEN NULL ELSE ''f'' || (n %% 97) END,
			n %% 53, n %% 17, n * 1000, repeat(''j'', n %% 40), n %% 5
		FROM generate_series(1, 6000) n', s);
	EXECUTE format('CREATE INDEX ON %I.t (a)', s);
	EXECUTE format('CREATE INDEX ON %I.t (g)', s);
	EXECUTE format('CREATE TABLE %I.gen (id int PRIMARY KEY, a int, x int,
		s int GENERATED ALWAYS AS (a * 10 + x) STORED) USING %s', s, am);
	EXECUTE format('INSERT INTO %I.gen (id, a, x) SELECT n, n %% 100, n %% 7
		FROM generate_series(1, 2000) n', s);
	EXECUTE format('CREATE INDEX ON %I.gen (a)', s);
	EXECUTE format('ANALYZE %I.t, %I.gen', s, s);
END
$$;
SELECT cs_fill('cs_pax', 'pax'), cs_fill('cs_heap', 'heap');

-- cs_same(query) runs the query on both schemas: rows, pax, heap, same
CREATE FUNCTION cs_same(q text)
RETURNS TABLE (pax_rows bigint, heap_rows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	diff bigint;
BEGIN
	EXECUTE 'SET LOCAL search_path = cs_pax, public';
	EXECUTE 'CREATE TEMP TABLE cs_r_pax AS ' || q;
	EXECUTE 'SET LOCAL search_path = cs_heap, public';
	EXECUTE 'CREATE TEMP TABLE cs_r_heap AS ' || q;
	SELECT count(*) INTO pax_rows FROM cs_r_pax;
	SELECT count(*) INTO heap_rows FROM cs_r_heap;
	SELECT count(*) INTO diff FROM
		((TABLE cs_r_pax EXCEPT ALL TABLE cs_r_heap)
		 UNION ALL (TABLE cs_r_heap EXCEPT ALL TABLE cs_r_pax)) d;
	same := diff = 0;
	DROP TABLE cs_r_pax, cs_r_heap;
	RETURN NEXT;
END
$$;

-- the plain scans, not PaxScan
SET pax.enable_customscan = off;
SET max_parallel_workers_per_gather = 0;

-- cs_queries() runs the read-only queries under the current scan settings
CREATE FUNCTION cs_queries()
RETURNS TABLE (query int, pax_rows bigint, heap_rows bigint, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	qs text[] := ARRAY[
		-- a few columns, the last one far right
		'SELECT id, k FROM t WHERE a BETWEEN 10 AND 40',
		-- no column but the indexed one
		'SELECT count(*) FROM t WHERE a < 50',
		-- whole rows, three ways
		'SELECT t::text AS r FROM t WHERE a < 20',
		'SELECT row_to_json(t)::text AS r FROM t WHERE a = 5',
		'SELECT * FROM t WHERE a = 7',
		-- a filter on a column the output does not name
		'SELECT id FROM t WHERE a < 30 AND f LIKE ''f1%''',
		-- a self join, the inner side by index
		'SELECT t.id, u.h, u.j FROM t JOIN t u ON u.a = t.g WHERE t.a < 15',
		-- a correlated subquery reading another column of the outer row
		'SELECT id, (SELECT max(u.h) FROM t u WHERE u.a = t.g) AS m FROM t WHERE a < 10',
		-- ORDER BY a column the rest of the query does not read
		'SELECT id, d FROM t WHERE a < 100 ORDER BY e, id',
		-- an expression over several columns, NULLs included
		'SELECT id, coalesce(f, b) || c::text || i AS x FROM t WHERE g = 3',
		-- TID scans
		'SELECT id, j FROM t WHERE ctid = ANY (ARRAY(SELECT ctid FROM t WHERE a = 33))',
		'SELECT id, h FROM t WHERE ctid >= ''(0,1)'' AND ctid < ''(100000,0)''',
		-- aggregates grouped by a column far from the filtered one
		'SELECT k, count(*), sum(i) FROM t WHERE a < 60 GROUP BY k'];
BEGIN
	FOR n IN 1 .. array_length(qs, 1) LOOP
		SELECT * INTO pax_rows, heap_rows, same FROM cs_same(qs[n]);
		query := n;
		RETURN NEXT;
	END LOOP;
END
$$;

-- sequential scans
SET enable_indexscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id, k FROM cs_pax.t WHERE a BETWEEN 10 AND 40;
SELECT * FROM cs_queries();
-- bitmap scans
SET enable_seqscan = off;
SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) SELECT id, k FROM cs_pax.t WHERE a BETWEEN 10 AND 40;
SELECT * FROM cs_queries();
-- index scans
SET enable_bitmapscan = off;
SET enable_indexscan = on;
EXPLAIN (COSTS OFF) SELECT id, k FROM cs_pax.t WHERE a BETWEEN 10 AND 40;
SELECT * FROM cs_queries();
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
EXPLAIN (COSTS OFF) SELECT id, k FROM cs_pax.t WHERE h % 3 = 0;
SELECT * FROM cs_same($$SELECT id, k FROM t WHERE h % 3 = 0$$);
SELECT * FROM cs_same($$SELECT t::text AS r FROM t WHERE h % 3 = 0$$);
SELECT * FROM cs_same($$SELECT g, sum(i) FROM t WHERE h = 4 GROUP BY g$$);
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- views: a column only the view's WHERE reads, and a security barrier
-- view whose qual must run before a leaky function sees the row
SET enable_seqscan = off;
CREATE VIEW cs_pax.v AS SELECT id, a FROM cs_pax.t WHERE h > 3;
CREATE VIEW cs_heap.v AS SELECT id, a FROM cs_heap.t WHERE h > 3;
SELECT * FROM cs_same($$SELECT id FROM v WHERE a < 40$$);
CREATE VIEW cs_pax.sb WITH (security_barrier) AS
	SELECT id, a, b FROM cs_pax.t WHERE k = 2;
CREATE VIEW cs_heap.sb WITH (security_barrier) AS
	SELECT id, a, b FROM cs_heap.t WHERE k = 2;
SELECT * FROM cs_same($$SELECT id, b FROM sb WHERE a < 40 AND b LIKE 'b1%'$$);

-- row-level security: the policy reads columns the user may not select
-- and the query does not name
CREATE ROLE regress_cs_reader;
GRANT USAGE ON SCHEMA cs_pax, cs_heap TO regress_cs_reader;
GRANT SELECT (id, a) ON cs_pax.t, cs_heap.t TO regress_cs_reader;
ALTER TABLE cs_pax.t ENABLE ROW LEVEL SECURITY;
ALTER TABLE cs_heap.t ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON cs_pax.t USING (h % 2 = 0 AND f IS NOT NULL);
CREATE POLICY p ON cs_heap.t USING (h % 2 = 0 AND f IS NOT NULL);
SET ROLE regress_cs_reader;
SELECT count(*), sum(id) FROM cs_pax.t WHERE a < 50;
SELECT (SELECT array_agg(id ORDER BY id) FROM cs_pax.t WHERE a < 50) IS NOT DISTINCT FROM
	(SELECT array_agg(id ORDER BY id) FROM cs_heap.t WHERE a < 50) AS same;
SELECT (SELECT array_agg(id ORDER BY id) FROM cs_pax.t WHERE a = 17) IS NOT DISTINCT FROM
	(SELECT array_agg(id ORDER BY id) FROM cs_heap.t WHERE a = 17) AS same;
SELECT (SELECT array_agg(id ORDER BY id) FROM cs_pax.t WHERE a < 50 AND id % 3 = 0) IS NOT DISTINCT FROM
	(SELECT array_agg(id ORDER BY id) FROM cs_heap.t WHERE a < 50 AND id % 3 = 0) AS same;
-- and the columns it may not select stay out of reach
SELECT h FROM cs_pax.t WHERE a = 17;
RESET ROLE;
ALTER TABLE cs_pax.t DISABLE ROW LEVEL SECURITY;
ALTER TABLE cs_heap.t DISABLE ROW LEVEL SECURITY;

-- a column added with a default reads as its default
ALTER TABLE cs_pax.t ADD COLUMN z int DEFAULT 42;
ALTER TABLE cs_heap.t ADD COLUMN z int DEFAULT 42;
SELECT * FROM cs_same($$SELECT id, z FROM t WHERE a < 5$$);
SELECT * FROM cs_same($$SELECT id, z, k FROM t WHERE a < 5 AND z = 42$$);

-- writes through index scans: what triggers, RETURNING, MERGE, cursors
-- and generated columns see of the old row must be whole
CREATE FUNCTION cs_trig() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.c := OLD.h * 1000 + OLD.g;
	NEW.j := OLD.b || '/' || coalesce(OLD.f, '-');
	RETURN NEW;
END
$$;
CREATE TABLE cs_log (s text, r text);
CREATE FUNCTION cs_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO cs_log VALUES (TG_TABLE_SCHEMA, row_to_json(OLD)::text);
	RETURN NULL;
END
$$;
CREATE FUNCTION cs_writes(s text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	r text;
BEGIN
	EXECUTE format('SET LOCAL search_path = %I, public', s);
	CREATE TRIGGER bu BEFORE UPDATE ON t FOR EACH ROW EXECUTE FUNCTION cs_trig();
	CREATE TRIGGER ad AFTER DELETE ON t FOR EACH ROW EXECUTE FUNCTION cs_after();
	UPDATE t SET a = a WHERE a BETWEEN 3 AND 6;
	FOR r IN UPDATE t SET k = k + 10 WHERE a = 9 RETURNING row_to_json(t)::text LOOP
		RETURN NEXT r;
	END LOOP;
	FOR r IN DELETE FROM t WHERE a = 8 RETURNING id::text || ':' || b || ':' || i LOOP
		RETURN NEXT r;
	END LOOP;
	MERGE INTO t USING (SELECT n AS id, n AS x FROM generate_series(1, 400) n) v
		ON t.id = v.id AND t.a = 12
		WHEN MATCHED THEN UPDATE SET i = t.h + v.x;
	UPDATE gen SET x = x + 1 WHERE a < 4;
	INSERT INTO gen (id, a, x) SELECT id + 5000, a, x FROM gen WHERE a = 5;
	DROP TRIGGER bu ON t;
	DROP TRIGGER ad ON t;
END
$$;
SELECT count(*) FROM cs_writes('cs_pax');
SELECT count(*) FROM cs_writes('cs_heap');
SELECT * FROM cs_same($$SELECT * FROM t$$);
SELECT * FROM cs_same($$SELECT * FROM gen$$);
SELECT count(*) AS logged,
	count(*) FILTER (WHERE r LIKE '%"j"%' AND r LIKE '%"k"%') AS whole
FROM cs_log GROUP BY s ORDER BY s;
SELECT (SELECT array_agg(r ORDER BY r) FROM cs_log WHERE s = 'cs_pax') =
	(SELECT array_agg(r ORDER BY r) FROM cs_log WHERE s = 'cs_heap') AS same_old_rows;

-- a cursor's row, updated where current
BEGIN;
SET LOCAL search_path = cs_pax, public;
DECLARE cur CURSOR FOR SELECT id FROM t WHERE a = 11 ORDER BY id FOR UPDATE;
FETCH 2 FROM cur;
UPDATE t SET f = 'cur' || h || j WHERE CURRENT OF cur;
COMMIT;
BEGIN;
SET LOCAL search_path = cs_heap, public;
DECLARE cur CURSOR FOR SELECT id FROM t WHERE a = 11 ORDER BY id FOR UPDATE;
FETCH 2 FROM cur;
UPDATE t SET f = 'cur' || h || j WHERE CURRENT OF cur;
COMMIT;
SELECT * FROM cs_same($$SELECT * FROM t WHERE a = 11$$);

-- copies of rows read through an index
CREATE TABLE cs_pax.cp (LIKE cs_pax.t) USING pax;
CREATE TABLE cs_heap.cp (LIKE cs_heap.t);
INSERT INTO cs_pax.cp SELECT * FROM cs_pax.t WHERE a < 20;
INSERT INTO cs_heap.cp SELECT * FROM cs_heap.t WHERE a < 20;
SELECT * FROM cs_same($$SELECT * FROM cp$$);
RESET enable_seqscan;

RESET pax.enable_customscan;
RESET max_parallel_workers_per_gather;
DROP OWNED BY regress_cs_reader;
DROP ROLE regress_cs_reader;
DROP SCHEMA cs_pax CASCADE;
DROP SCHEMA cs_heap CASCADE;
DROP FUNCTION cs_fill(text, text), cs_same(text), cs_queries(), cs_trig(),
	cs_after(), cs_writes(text);
DROP TABLE cs_log;
