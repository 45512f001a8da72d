--
-- pax_am_heapmatch: smaller behaviours that must equal heap's
-- (issue 12, finding 9): system columns in RETURNING and scans,
-- seq_scan/seq_tup_read, the largest row, VACUUM's warnings.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
SET stats_fetch_consistency = none;

-- one pax and one heap table, the same statements on each
CREATE TABLE hm_p (a int PRIMARY KEY, b text) USING pax;
CREATE TABLE hm_h (a int PRIMARY KEY, b text) USING heap;

CREATE FUNCTION hm_sys(am text) RETURNS TABLE (r text) LANGUAGE plpgsql AS $$
DECLARE t regclass := CASE am WHEN 'pax' THEN 'hm_p' ELSE 'hm_h' END;
BEGIN
	-- RETURNING: the new row's header, in its own transaction
	RETURN QUERY EXECUTE format($q$
		INSERT INTO %s VALUES (1, 'one'), (2, 'two')
		RETURNING format('insert %%s %%s %%s %%s %%s %%s %%s', a,
			xmin = pg_current_xact_id()::xid, xmax, cmin, cmax, ctid, tableoid = %s::oid)$q$,
		t, t::oid);
	RETURN QUERY EXECUTE format($q$
		INSERT INTO %s SELECT a + 10, b FROM %s
		RETURNING format('insert-select %%s %%s %%s %%s %%s %%s', a,
			xmin = pg_current_xact_id()::xid, xmax, cmin, cmax, tableoid = %s::oid)$q$,
		t, t, t::oid);
	RETURN QUERY EXECUTE format($q$
		UPDATE %s SET b = b || '!' WHERE a = 1
		RETURNING format('update %%s %%s %%s %%s %%s', a,
			xmin = pg_current_xact_id()::xid, xmax, cmin, cmax)$q$, t);
	RETURN QUERY EXECUTE format($q$
		INSERT INTO %s VALUES (2, 'dup') ON CONFLICT (a) DO UPDATE SET b = 'upserted'
		RETURNING format('upsert %%s %%s %%s %%s %%s', a,
			xmin = pg_current_xact_id()::xid, xmax = pg_current_xact_id()::xid, cmin, cmax)$q$, t);
	RETURN QUERY EXECUTE format($q$
		DELETE FROM %s WHERE a = 11
		RETURNING format('delete %%s %%s %%s %%s %%s', a,
			xmin = pg_current_xact_id()::xid, xmax = pg_current_xact_id()::xid, cmin, cmax)$q$, t);
	-- a scan of the same transaction's rows (combo command ids too)
	RETURN QUERY EXECUTE format($q$
		SELECT format('scan %%s %%s %%s %%s %%s %%s %%s', a, b,
			xmin = pg_current_xact_id()::xid, xmax = pg_current_xact_id()::xid, cmin, cmax, ctid)
		FROM %s ORDER BY a$q$, t);
END $$;

BEGIN; SELECT * FROM hm_sys('pax'); COMMIT;
BEGIN; SELECT * FROM hm_sys('heap'); COMMIT;

-- rows of an earlier transaction, with PaxScan and without
SELECT a, b, xmin = (SELECT xmin FROM hm_p WHERE a = 1) AS same_xmin, xmax <> 0 AS locked, cmin, cmax, ctid
FROM hm_p ORDER BY a;
SET pax.enable_customscan = off;
SELECT a, b, xmax <> 0 AS locked, cmin, cmax, ctid, tableoid::regclass FROM hm_p ORDER BY a;
RESET pax.enable_customscan;
SELECT a, b, xmax <> 0 AS locked, cmin, cmax, ctid, tableoid::regclass FROM hm_h ORDER BY a;

-- seq_scan and seq_tup_read: the same counts as heap's for the same queries
CREATE TABLE hm_sp (a int, b int, c text) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE hm_sh (a int, b int, c text) USING heap WITH (autovacuum_enabled = off);
INSERT INTO hm_sp SELECT g, g % 10, 'x' || g FROM generate_series(1, 3000) g;
INSERT INTO hm_sh SELECT g, g % 10, 'x' || g FROM generate_series(1, 3000) g;
DELETE FROM hm_sp WHERE a % 7 = 0;
DELETE FROM hm_sh WHERE a % 7 = 0;
CREATE FUNCTION hm_reads() RETURNS text LANGUAGE sql AS $$
	SELECT format('pax %s scans %s rows, heap %s scans %s rows',
		pg_stat_get_numscans('hm_sp'::regclass),
		pg_stat_get_tuples_returned('hm_sp'::regclass),
		pg_stat_get_numscans('hm_sh'::regclass),
		pg_stat_get_tuples_returned('hm_sh'::regclass)) $$;
SELECT pg_stat_force_next_flush();
SELECT hm_reads();
\o /dev/null
SELECT count(*) FROM hm_sp; SELECT count(*) FROM hm_sh;
SELECT count(*) FROM hm_sp WHERE b = 3; SELECT count(*) FROM hm_sh WHERE b = 3;
SELECT sum(a) FROM hm_sp WHERE a BETWEEN 10 AND 20; SELECT sum(a) FROM hm_sh WHERE a BETWEEN 10 AND 20;
SELECT * FROM hm_sp WHERE a < 100; SELECT * FROM hm_sh WHERE a < 100;
SELECT * FROM hm_sp WHERE a > 5000; SELECT * FROM hm_sh WHERE a > 5000;
SELECT * FROM hm_sp WHERE c LIKE 'x1%'; SELECT * FROM hm_sh WHERE c LIKE 'x1%';
SELECT * FROM hm_sp LIMIT 1; SELECT * FROM hm_sh LIMIT 1;
SELECT * FROM hm_sp WHERE b = 7 LIMIT 5; SELECT * FROM hm_sh WHERE b = 7 LIMIT 5;
SELECT * FROM hm_sp WHERE a > 2000 LIMIT 3; SELECT * FROM hm_sh WHERE a > 2000 LIMIT 3;
\o
SELECT pg_stat_force_next_flush();
SELECT hm_reads();
-- scroll cursors step over rows again
BEGIN;
DECLARE hm_c1 SCROLL CURSOR FOR SELECT * FROM hm_sp WHERE b = 1;
DECLARE hm_c2 SCROLL CURSOR FOR SELECT * FROM hm_sh WHERE b = 1;
\o /dev/null
FETCH 3 FROM hm_c1; FETCH 3 FROM hm_c2;
FETCH BACKWARD 2 FROM hm_c1; FETCH BACKWARD 2 FROM hm_c2;
FETCH ABSOLUTE -1 FROM hm_c1; FETCH ABSOLUTE -1 FROM hm_c2;
\o
COMMIT;
-- a nested loop rescans its inner side: each rescan is a scan
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_material = off;
\o /dev/null
SELECT * FROM generate_series(1, 3) g, hm_sp WHERE hm_sp.a = g AND hm_sp.b = 1;
SELECT * FROM generate_series(1, 3) g, hm_sh WHERE hm_sh.a = g AND hm_sh.b = 1;
\o
RESET enable_hashjoin; RESET enable_mergejoin; RESET enable_material;
-- a statement that fails where a pushed value is first computed (a domain's
-- check, an InitPlan's division by zero): heap has read the rows up to the
-- first one its qual ran on, and so has pax
CREATE DOMAIN hm_dint AS int CHECK (VALUE > -100000);
CREATE FUNCTION hm_fail(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLERRM;
END $$;
SELECT hm_fail(format('SELECT count(*) FROM %s WHERE b = ANY (ARRAY[1, -2147483648]::hm_dint[])', t))
  FROM (VALUES ('hm_sp'), ('hm_sh')) v(t);
SELECT hm_fail(format('SELECT count(*) FROM %s WHERE a > 1500 AND b = (SELECT 1 / 0)', t))
  FROM (VALUES ('hm_sp'), ('hm_sh')) v(t);
-- a clause the executor evaluates (a cross-type comparison) filters every
-- row before heap computes the failing value: no error on either
SELECT hm_fail(format('SELECT count(*) FROM %s WHERE a = -52::numeric AND b <> ALL (ARRAY[1, -2147483648]::hm_dint[])', t))
  FROM (VALUES ('hm_sp'), ('hm_sh')) v(t);
SELECT pg_stat_force_next_flush();
SELECT hm_reads();
DROP FUNCTION hm_fail(text);
DROP DOMAIN hm_dint;
-- PaxScan's parallel mode (the plain scan: the aggregate mode would
-- compute the count itself)
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SET pax.enable_aggpushdown = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM hm_sp WHERE b = 3;
\o /dev/null
SELECT count(*) FROM hm_sp WHERE b = 3; SELECT count(*) FROM hm_sh WHERE b = 3;
\o
RESET parallel_setup_cost; RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size; RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;
RESET pax.enable_aggpushdown;
SELECT pg_stat_force_next_flush();
-- the workers report their counts as they exit: wait for them (10 s at most)
DO $$
BEGIN
	FOR i IN 1..100 LOOP
		EXIT WHEN pg_stat_get_tuples_returned('hm_sp'::regclass) = 27977
			AND pg_stat_get_tuples_returned('hm_sh'::regclass) = 27977;
		PERFORM pg_sleep(0.1);
	END LOOP;
END $$;
SELECT hm_reads();

-- the largest row: heap's, with heap's error above it
CREATE TABLE hm_wp (t text) USING pax;
CREATE TABLE hm_wh (t text) USING heap;
ALTER TABLE hm_wp ALTER t SET STORAGE PLAIN;
ALTER TABLE hm_wh ALTER t SET STORAGE PLAIN;
CREATE TABLE hm_wp2 (a int, b text, c text) USING pax;
CREATE TABLE hm_wh2 (a int, b text, c text) USING heap;
ALTER TABLE hm_wp2 ALTER b SET STORAGE PLAIN, ALTER c SET STORAGE PLAIN;
ALTER TABLE hm_wh2 ALTER b SET STORAGE PLAIN, ALTER c SET STORAGE PLAIN;
CREATE FUNCTION hm_largest(tab text, ncols int, lo int, hi int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE n int; last int := NULL;
BEGIN
	FOR n IN lo..hi LOOP
		BEGIN
			IF ncols = 1 THEN
				EXECUTE format('INSERT INTO %I VALUES (repeat(''x'', %s))', tab, n);
			ELSE
				EXECUTE format('INSERT INTO %I VALUES (1, repeat(''x'', %s), repeat(''y'', %s))', tab, n, n);
			END IF;
			last := n;
		EXCEPTION WHEN program_limit_exceeded THEN
			RETURN format('%s: largest %s; %s: %s', tab, last, n, SQLERRM);
		END;
	END LOOP;
	RETURN format('%s: all taken', tab);
END $$;
SELECT hm_largest('hm_wp', 1, 8100, 8140);
SELECT hm_largest('hm_wh', 1, 8100, 8140);
SELECT hm_largest('hm_wp2', 2, 4040, 4070);
SELECT hm_largest('hm_wh2', 2, 4040, 4070);
SELECT count(*), max(length(t)), sum(length(t)) FROM hm_wp;
SELECT count(*), max(length(t)), sum(length(t)) FROM hm_wh;
SELECT max(length(b)), max(length(c)) FROM hm_wp2;
SELECT max(length(b)), max(length(c)) FROM hm_wh2;
-- the largest rows update too
UPDATE hm_wp SET t = repeat('z', length(t)) WHERE length(t) = 8132;
SELECT count(*) FROM hm_wp WHERE t = repeat('z', 8132);

-- 1,600 int8 columns: heap's error (54000), no page left behind
DO $$
BEGIN
	EXECUTE (SELECT format('CREATE TABLE hm_1600p (%s) USING pax',
						   string_agg('c' || g || ' int8', ', '))
			 FROM generate_series(1, 1600) g);
	EXECUTE (SELECT format('CREATE TABLE hm_1600h (%s) USING heap',
						   string_agg('c' || g || ' int8', ', '))
			 FROM generate_series(1, 1600) g);
END $$;
CREATE FUNCTION hm_insert_wide(tab text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE (SELECT format('INSERT INTO %I VALUES (%s)', tab, string_agg(g::text, ', '))
			 FROM generate_series(1, 1600) g);
	RETURN 'inserted';
EXCEPTION WHEN OTHERS THEN
	RETURN format('%s: %s', SQLSTATE, SQLERRM);
END $$;
SELECT hm_insert_wide('hm_1600p'), hm_insert_wide('hm_1600h');
SELECT hm_insert_wide('hm_1600p'), hm_insert_wide('hm_1600p');
SELECT pg_relation_size('hm_1600p') AS pax_size, pg_relation_size('hm_1600h') AS heap_size;
INSERT INTO hm_1600p (c1, c2) VALUES (1, 2);
SELECT c1, c2, c1600 FROM hm_1600p;

-- VACUUM: heap's warnings
CREATE TEMP TABLE hm_tp (a int, b int) USING pax;
CREATE INDEX ON hm_tp (a);
CREATE INDEX ON hm_tp (b);
INSERT INTO hm_tp VALUES (1, 1);
VACUUM (PARALLEL 2) hm_tp;
VACUUM (PARALLEL 2, INDEX_CLEANUP off) hm_tp;
VACUUM (PARALLEL 0) hm_tp;
CREATE TEMP TABLE hm_th (a int, b int) USING heap;
CREATE INDEX ON hm_th (a);
CREATE INDEX ON hm_th (b);
INSERT INTO hm_th VALUES (1, 1);
VACUUM (PARALLEL 2) hm_th;

DROP TABLE hm_p, hm_h, hm_sp, hm_sh, hm_wp, hm_wh, hm_wp2, hm_wh2, hm_1600p, hm_1600h;
DROP FUNCTION hm_sys(text), hm_reads(), hm_largest(text, int, int, int), hm_insert_wide(text);
