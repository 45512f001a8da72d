--
-- pax_am_pushdown: the PaxScan custom scan.  EXPLAIN shows what is pushed
-- and projected; a randomized differential test checks that every
-- combination of the pax.* GUCs gives the plain SeqScan's result and
-- heap's, over many types, NULL rates, sorted and random row orders, and
-- random predicates.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
\getenv abs_srcdir PG_ABS_SRCDIR
\set pg_versions :abs_srcdir '/sql/include/pg_versions.sql'
\i :pg_versions
SET max_parallel_workers_per_gather = 0;
-- enable_seqscan = off (used below to favour PaxScan) adds disable_cost, which would JIT every query
SET jit = off;
-- the scan pushdown, under the usual Agg (pax_am_aggregate tests PaxScan's own)
SET pax.enable_aggpushdown = off;
SET extra_float_digits = 3;

CREATE TABLE pd (id int, age int, name text, f float8, b bool, d date, pad text) USING pax
	WITH (autovacuum_enabled = off);
INSERT INTO pd SELECT i, i % 100, 'n' || i, i / 7.0, i % 3 = 0, date '2020-01-01' + i % 1000, repeat('p', 20)
  FROM generate_series(1, 20000) i;
INSERT INTO pd (id) VALUES (NULL);
ANALYZE pd;

-- what is pushed, what stays, what is read
EXPLAIN (COSTS OFF) SELECT id FROM pd WHERE age = 20;
EXPLAIN (COSTS OFF) SELECT id FROM pd WHERE 20 = age AND name LIKE 'n1%' AND name LIKE 'n1_%';
EXPLAIN (COSTS OFF) SELECT count(*) FROM pd WHERE id BETWEEN 10 AND 20;
EXPLAIN (COSTS OFF) SELECT name FROM pd WHERE age IN (1, 2) AND f > 3 AND b;
EXPLAIN (COSTS OFF) SELECT * FROM pd WHERE age <> ALL ('{1,2}') OR age IS NULL;
EXPLAIN (COSTS OFF) SELECT pd FROM pd WHERE d >= now() - interval '1 day';
EXPLAIN (COSTS OFF) SELECT ctid, tableoid::regclass FROM pd WHERE NOT b;
-- xmin needs the plain scan (PaxScan forms virtual rows)
EXPLAIN (COSTS OFF) SELECT xmin FROM pd WHERE age = 1;
-- volatile values are not pushed
EXPLAIN (COSTS OFF) SELECT id FROM pd WHERE age = (random() * 0)::int;

-- counters under EXPLAIN ANALYZE: zone maps skip pages of the sorted id
SELECT explain_analyze($$SELECT count(*) FROM pd WHERE id BETWEEN 1000 AND 1099$$);
SELECT explain_analyze($$SELECT id FROM pd WHERE age = 20 AND id < 300$$);
SET pax.enable_zonemaps = off;
SELECT explain_analyze($$SELECT count(*) FROM pd WHERE id BETWEEN 1000 AND 1099$$);
RESET pax.enable_zonemaps;
SET pax.enable_pushdown = off;
EXPLAIN (COSTS OFF) SELECT id FROM pd WHERE age = 20;
RESET pax.enable_pushdown;
SET pax.enable_customscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM pd WHERE age = 20;
RESET pax.enable_customscan;

-- pax.enable_pushdown = off gives heap's plan: no PaxScan competes, whose
-- costs could turn a hash join round and read first the side heap reads
-- second, sparing (or meeting) the rows whose x * 2 overflows
CREATE TABLE jpa (k int, x int) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE jpb (k int, id int, d date) USING pax WITH (autovacuum_enabled = off);
INSERT INTO jpa SELECT i % 500, CASE WHEN i % 7 = 0 THEN 2147483647 ELSE i END
  FROM generate_series(1, 1000) i;
INSERT INTO jpb SELECT i % 700, i, date '2000-01-01' + i FROM generate_series(1, 1000) i;
CREATE TABLE jha (k int, x int) USING heap WITH (autovacuum_enabled = off);
CREATE TABLE jhb (k int, id int, d date) USING heap WITH (autovacuum_enabled = off);
INSERT INTO jha SELECT * FROM jpa;
INSERT INTO jhb SELECT * FROM jpb;
ANALYZE jpa, jpb, jha, jhb;
CREATE FUNCTION jplan(a text, b text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
    FOR l IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT max(b.id) FROM %I a LEFT JOIN %I b ON a.k = b.k
        WHERE a.x * 2 < 0 AND b.d BETWEEN ''2026-10-20'' AND ''1996-01-15''', a, b) LOOP
        RETURN NEXT replace(replace(l, a, 'A'), b, 'B');
    END LOOP;
END $$;
SET pax.enable_pushdown = off;
SELECT jplan('jpa', 'jpb');
SELECT array(SELECT jplan('jpa', 'jpb')) = array(SELECT jplan('jha', 'jhb')) AS heap_plan;
SELECT max(b.id) FROM jha a LEFT JOIN jhb b ON a.k = b.k
 WHERE a.x * 2 < 0 AND b.d BETWEEN '2026-10-20' AND '1996-01-15';
SELECT max(b.id) FROM jpa a LEFT JOIN jpb b ON a.k = b.k
 WHERE a.x * 2 < 0 AND b.d BETWEEN '2026-10-20' AND '1996-01-15';
RESET pax.enable_pushdown;
DROP FUNCTION jplan(text, text);
DROP TABLE jpa, jpb, jha, jhb;

-- parameters: prepared statements, nestloop inner side, rescans
PREPARE q(int, int) AS SELECT count(*) FROM pd WHERE age = $1 AND id > $2;
EXECUTE q(5, 100);
EXECUTE q(6, 19000);
CREATE TABLE ages (a int) USING heap WITH (autovacuum_enabled = off);
INSERT INTO ages VALUES (3), (7), (NULL);
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
EXPLAIN (COSTS OFF) SELECT a, (SELECT count(*) FROM pd WHERE age = ages.a) FROM ages;
SELECT a, (SELECT count(*) FROM pd WHERE age = ages.a) FROM ages ORDER BY a;
SELECT a, c FROM ages, LATERAL (SELECT count(*) AS c FROM pd WHERE age = ages.a AND id < 1000) x ORDER BY a;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;

-- backward scans
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT id FROM pd WHERE age = 99;
FETCH LAST FROM c;
FETCH BACKWARD 2 FROM c;
FETCH FIRST FROM c;
COMMIT;

-- parallel PaxScan
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT count(*), sum(id) FROM pd WHERE age < 50;
SELECT count(*), sum(id) FROM pd WHERE age < 50;
SELECT explain_analyze($$SELECT count(*) FROM pd WHERE id BETWEEN 1000 AND 1099$$);
-- workers alone: each claims its next block one page early and records the
-- buffers it reads for the leader; still every row exactly once, and the
-- same again with the leader's recent buffers handed to the workers
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT count(*), count(DISTINCT id), sum(id) FROM pd WHERE age < 50;
SELECT count(*), count(DISTINCT id), sum(id) FROM pd WHERE age < 50;
SELECT count(*), count(DISTINCT id), sum(id) FROM pd WHERE age < 50;
SELECT count(*), count(DISTINCT name), min(id), max(id) FROM pd;
RESET parallel_leader_participation;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- partitions: PaxScan on pax partitions, SeqScan on heap ones, pruning
CREATE TABLE pt (id int, k int) PARTITION BY RANGE (id);
CREATE TABLE pt1 PARTITION OF pt FOR VALUES FROM (0) TO (1000) USING pax
	WITH (autovacuum_enabled = off);
CREATE TABLE pt2 PARTITION OF pt FOR VALUES FROM (1000) TO (2000) USING heap
	WITH (autovacuum_enabled = off);
CREATE TABLE pt3 PARTITION OF pt FOR VALUES FROM (2000) TO (3000) USING pax
	WITH (autovacuum_enabled = off);
INSERT INTO pt SELECT i, i % 10 FROM generate_series(0, 2999) i;
ANALYZE pt;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pt WHERE k = 3;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pt WHERE k = 3 AND id >= 2000;
SELECT count(*) FROM pt WHERE k = 3;
SELECT count(*) FROM pt WHERE k = 3 AND id >= 2000;
-- joins on either side
SELECT count(*) FROM pt1 JOIN pd ON pd.id = pt1.id WHERE pt1.k = 1 AND pd.age < 50;

-- numeric comparisons: inline in 64 bits for short stored forms, in 128
-- bits, or through numeric_cmp (NaN, infinities, long values); equal values
-- of different display scales are equal.  COPY groups a page's values by
-- column, INSERT leaves them by row: both are read.
\getenv abs_builddir PG_ABS_BUILDDIR
\set numc_file :abs_builddir '/results/pax_am_pushdown_numc.data'
SELECT setseed(0.77);
CREATE TABLE numc_heap (n numeric, m numeric(15,2)) USING heap;
INSERT INTO numc_heap
SELECT v, CASE WHEN abs(v) < 1e13 THEN v END FROM (
  SELECT round((random() * 200 - 100)::numeric, (random() * 10)::int) FROM generate_series(1, 1500)
  UNION ALL
  SELECT power(10::numeric, e) * s FROM generate_series(-30, 30) e, (VALUES (1), (-1), (3.5)) x(s)
  UNION ALL
  VALUES (0), (0.0), (0.00), (24), (24.00), (24.001), (0.05), (0.050), (-0.05),
         (99999999.99999999), (0.00000001), (0.000000001), (1e20), (-1e-20),
         (123456789012345678901234567890.5), ('NaN'), ('Infinity'), ('-Infinity'),
         (NULL), (9999999999999999), (10000000000000000), (12.5)) v(v);
COPY numc_heap TO :'numc_file';
CREATE TABLE numc_pax (LIKE numc_heap) USING pax WITH (autovacuum_enabled = off);
COPY numc_pax FROM :'numc_file';
CREATE TABLE numc_pax2 (LIKE numc_heap) USING pax;
INSERT INTO numc_pax2 SELECT * FROM numc_heap;
ANALYZE numc_heap, numc_pax, numc_pax2;
EXPLAIN (COSTS OFF) SELECT n FROM numc_pax WHERE n < 24 AND m >= 0.05;
-- whether query q's result on pax differs from heap's (expect), with a
-- NOTICE of both when it does
CREATE FUNCTION pd_differs(expect text, q text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    got text;
BEGIN
    EXECUTE q INTO got;
    IF got IS DISTINCT FROM expect THEN
        RAISE NOTICE 'mismatch: % (% vs heap %)', q, got, expect;
        RETURN true;
    END IF;
    RETURN false;
END $$;
CREATE FUNCTION numc_check(OUT checks int, OUT mismatches int) LANGUAGE plpgsql AS $$
DECLARE
    c text; op text; col text; tbl text; q text; expect text;
BEGIN
    checks := 0; mismatches := 0;
    PERFORM set_config('enable_seqscan', 'off', true);
    FOREACH c IN ARRAY ARRAY['0', '24', '-24', '24.00', '0.05', '0.0500', '-0.05', '12.5',
                             '1e20', '1e-20', '99999999.99999999', '0.00000001',
                             '123456789012345678901234567890.5', '9223372036854775807',
                             '92233720368547758070', '0.000000000000000000000000000000000000001',
                             'NaN', 'Infinity', '-Infinity'] LOOP
        FOREACH op IN ARRAY ARRAY['=', '<>', '<', '<=', '>', '>='] LOOP
            FOREACH col IN ARRAY ARRAY['n', 'm'] LOOP
                FOREACH q IN ARRAY ARRAY[format('%I %s %L::numeric', col, op, c),
                                         format('%L::numeric %s %I', c, op, col)] LOOP
                    q := 'SELECT count(*) || '':'' || coalesce(md5(string_agg(x::text, '','' ORDER BY x::text)), '''') FROM %I x WHERE ' || q;
                    EXECUTE format(q, 'numc_heap') INTO expect;
                    FOREACH tbl IN ARRAY ARRAY['numc_pax', 'numc_pax2'] LOOP
                        checks := checks + 1;
                        IF pd_differs(expect, format(q, tbl)) THEN
                            mismatches := mismatches + 1;
                        END IF;
                    END LOOP;
                END LOOP;
            END LOOP;
        END LOOP;
    END LOOP;
END $$;
SELECT * FROM numc_check();
DROP FUNCTION numc_check;
DROP TABLE numc_heap, numc_pax, numc_pax2;

-- a date column against timestamps (date '...' + interval '...'): compared
-- as dates, at midnight or inside a day, before 2000 and BC, infinities,
-- dates past the end of the timestamp range
CREATE TABLE dts_heap (d date) USING heap;
INSERT INTO dts_heap SELECT date '1999-12-25' + i FROM generate_series(0, 20) i;
INSERT INTO dts_heap VALUES ('-infinity'), ('infinity'), ('4713-01-01 BC'), ('0044-03-15 BC'),
    ('5000000-01-01'), ('294276-12-31'), ('1970-01-01'), (NULL);
CREATE TABLE dts_pax (LIKE dts_heap) USING pax WITH (autovacuum_enabled = off);
INSERT INTO dts_pax SELECT * FROM dts_heap;
EXPLAIN (COSTS OFF) SELECT * FROM dts_pax WHERE d < date '2000-01-01' + interval '1 day';
CREATE FUNCTION dts_check(OUT checks int, OUT mismatches int) LANGUAGE plpgsql AS $$
DECLARE
    c text; op text; q text; expect text;
BEGIN
    checks := 0; mismatches := 0;
    PERFORM set_config('enable_seqscan', 'off', true);
    FOREACH c IN ARRAY ARRAY['2000-01-01', '2000-01-01 00:00:00.000001', '2000-01-03 12:00',
                             '2000-01-04 23:59:59.999999', '1999-12-31 23:59:59.999999',
                             '1999-12-25 06:00', '1969-12-31 18:00', '0044-03-15 12:00 BC',
                             '4713-01-01 00:00 BC', '294276-12-31 23:59:59', '-infinity', 'infinity'] LOOP
        FOREACH op IN ARRAY ARRAY['=', '<>', '<', '<=', '>', '>='] LOOP
            FOREACH q IN ARRAY ARRAY[format('d %s %L::timestamp', op, c),
                                     format('%L::timestamp %s d', c, op)] LOOP
                q := 'SELECT count(*) || '':'' || coalesce(string_agg(d::text, '','' ORDER BY d), '''') FROM %I WHERE ' || q;
                EXECUTE format(q, 'dts_heap') INTO expect;
                checks := checks + 1;
                IF pd_differs(expect, format(q, 'dts_pax')) THEN
                    mismatches := mismatches + 1;
                END IF;
            END LOOP;
        END LOOP;
    END LOOP;
END $$;
SELECT * FROM dts_check();
DROP FUNCTION dts_check;
DROP TABLE dts_heap, dts_pax;

-- a clause left to the executor that can fail (not leakproof) keeps the
-- clauses after it, in the plan's order, with the executor too: heap
-- evaluates it on the rows they would remove, and fails there
CREATE TABLE eo_h (a int, b text) USING heap;
INSERT INTO eo_h SELECT i, 'x' || i FROM generate_series(1, 1000) i;
CREATE TABLE eo_p (LIKE eo_h) USING pax WITH (autovacuum_enabled = off);
INSERT INTO eo_p SELECT * FROM eo_h;
ANALYZE eo_h, eo_p;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM eo_p WHERE 10 / (a - a) > 0 AND a = ANY ('{-1,-2,-3,-4,-5,-6}');
SELECT count(*) FROM eo_h WHERE 10 / (a - a) > 0 AND a = ANY ('{-1,-2,-3,-4,-5,-6}');
SELECT count(*) FROM eo_p WHERE 10 / (a - a) > 0 AND a = ANY ('{-1,-2,-3,-4,-5,-6}');
-- one that cannot fail does not; nor one that runs after the pushed ones
EXPLAIN (COSTS OFF)
SELECT count(*) FROM eo_p WHERE a <> a AND a = ANY ('{-1,-2,-3,-4,-5,-6}');
EXPLAIN (COSTS OFF)
SELECT count(*) FROM eo_p WHERE a = ANY ('{-1,-2,-3,-4,-5,-6}') AND 10 / (a - a) > 0;
SELECT count(*) FROM eo_p WHERE a = ANY ('{-1,-2,-3,-4,-5,-6}') AND 10 / (a - a) > 0;
SELECT count(*) FROM eo_h WHERE a = ANY ('{-1,-2,-3,-4,-5,-6}') AND 10 / (a - a) > 0;
DROP TABLE eo_h, eo_p;

-- LIKE and NOT LIKE with patterns of literal characters and % only: their
-- literal runs found in the stored bytes (text, varchar, bpchar with its
-- blanks, "C" and default collations, multibyte characters, compressed
-- and out-of-line values); patterns with _ or an escape stay with the
-- executor
CREATE TABLE lk_heap (t text, c text COLLATE "C", v varchar(30), b char(8)) USING heap;
INSERT INTO lk_heap SELECT x, x, left(x, 30), left(x, 8) FROM unnest(ARRAY[
    NULL, '', 'a', 'ab', 'abc', 'abcabc', 'aXbXc', 'cba', 'special requests',
    'specialrequests', 'requests special', 'speciaLrequests', 'ünïcødé', 'Ünï',
    '%', 'a%b', 'a_b', 'a\b', 'aa', 'aaa', 'bbb a']) x;
INSERT INTO lk_heap (t, c) VALUES (repeat('x', 6000) || 'needle', repeat('y', 6000));
INSERT INTO lk_heap (t, c) SELECT string_agg(md5(i::text), ''), 'z' || string_agg(md5(i::text), '')
    FROM generate_series(1, 150) i;
INSERT INTO lk_heap SELECT x, x, x, x FROM (SELECT 'f' || i || 'bc' FROM generate_series(1, 3000) i) f(x);
CREATE TABLE lk_pax (LIKE lk_heap) USING pax WITH (autovacuum_enabled = off);
INSERT INTO lk_pax SELECT * FROM lk_heap;
ANALYZE lk_heap, lk_pax;
EXPLAIN (COSTS OFF) SELECT * FROM lk_pax WHERE t LIKE '%special%requests%' AND b NOT LIKE 'a%';
EXPLAIN (COSTS OFF) SELECT * FROM lk_pax WHERE t LIKE 'a_c' AND c LIKE 'a\%';
SET pax.enable_aggpushdown = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM lk_pax WHERE v LIKE '%b%c';
RESET pax.enable_aggpushdown;
CREATE FUNCTION lk_check(OUT checks int, OUT mismatches int) LANGUAGE plpgsql AS $$
DECLARE
    col text; pat text; op text; q text; expect text;
BEGIN
    checks := 0; mismatches := 0;
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('pax.enable_aggpushdown', 'on', true);
    FOREACH col IN ARRAY ARRAY['t', 'c', 'v', 'b'] LOOP
        FOREACH pat IN ARRAY ARRAY['', '%', '%%', 'a', 'a%', '%a', '%a%', 'a%c', 'a%b%c',
                                   '%b%c%', 'abc', 'abcabc%', '%abc%abc%', '%abc%abc%abc%',
                                   '%special%requests%', 'special%requests', '%requests%special',
                                   'ü%', '%é', '%ï%', 'Ü%ï', '%needle', 'x%needle', 'x%x%needle',
                                   '%c%a%', 'a%a', 'a%%a', 'aa%aa', 'a%   ', '%  ', 'a       ',
                                   '%y', 'z%', 'a_b', 'a\%b', 'a\\b%'] LOOP
            FOREACH op IN ARRAY ARRAY['LIKE', 'NOT LIKE'] LOOP
                -- the rows, and a count in PaxScan's aggregate mode
                FOREACH q IN ARRAY ARRAY[
                    'SELECT count(*) || '':'' || coalesce(md5(string_agg(t, '','' ORDER BY t)), '''') FROM %I WHERE %I %s %L',
                    'SELECT count(*) FROM %I WHERE %I %s %L'] LOOP
                    EXECUTE format(q, 'lk_heap', col, op, pat) INTO expect;
                    checks := checks + 1;
                    IF pd_differs(expect, format(q, 'lk_pax', col, op, pat)) THEN
                        mismatches := mismatches + 1;
                    END IF;
                END LOOP;
            END LOOP;
        END LOOP;
    END LOOP;
END $$;
SELECT * FROM lk_check();
DROP FUNCTION lk_check;
DROP TABLE lk_heap, lk_pax;

-- bpchar, text and varchar compared bytewise (bpchar without its trailing
-- blanks, as bpcharcmp): any comparison under "C", equality, <>, IN and
-- NOT IN under any deterministic collation, on plain and dictionary pages,
-- against heap; compressed values and ICU ranges go through the operator
CREATE TABLE bc_heap (b char(6), bu bpchar, bc char(6) COLLATE "C", t text, v varchar(10)) USING heap;
INSERT INTO bc_heap SELECT x, x, x, x, x FROM unnest(ARRAY[
    NULL, '', ' ', 'a', 'a ', ' a', 'a  b', 'ab', 'abc', 'abcdef', 'b', 'ü', 'Ü ', 'Z', 'a b']) x;
INSERT INTO bc_heap SELECT x, x, x, x, x FROM (SELECT (ARRAY['a', 'ab ', 'b', ' c', 'Z'])[1 + i % 5]
    FROM generate_series(1, 2000) i) f(x);
INSERT INTO bc_heap (bu, t) VALUES (repeat('q', 6000) || '  ', repeat('q', 6000));
CREATE TABLE bc_pax (LIKE bc_heap) USING pax WITH (autovacuum_enabled = off);
INSERT INTO bc_pax SELECT * FROM bc_heap;
ANALYZE bc_heap, bc_pax;
EXPLAIN (COSTS OFF) SELECT * FROM bc_pax WHERE b IN ('a', 'ab') AND bu <> 'Z' AND bc > 'a';
CREATE FUNCTION bc_check(OUT checks int, OUT mismatches int) LANGUAGE plpgsql AS $$
DECLARE
    col text; val text; op text; coll text; cond text; q text; expect text;
BEGIN
    checks := 0; mismatches := 0;
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('pax.enable_aggpushdown', 'on', true);
    FOREACH col IN ARRAY ARRAY['b', 'bu', 'bc', 't', 'v'] LOOP
        FOREACH val IN ARRAY ARRAY['', ' ', 'a', 'a   ', ' a', 'a  b', 'ab', 'ab ', 'abc', 'abcdef',
                                   'ü', 'Ü', 'Z', 'zz', 'a b'] LOOP
            FOREACH coll IN ARRAY ARRAY['', ' COLLATE "C"', ' COLLATE "und-x-icu"'] LOOP
                FOREACH op IN ARRAY ARRAY['=', '<>', '<', '<=', '>', '>=', 'IN', 'NOT IN'] LOOP
                    IF op IN ('IN', 'NOT IN') THEN
                        cond := format('%I%s %s (%L, %L, %L)', col, coll, op, val, 'ab', ' c');
                    ELSE
                        cond := format('%I%s %s %L', col, coll, op, val);
                    END IF;
                    FOREACH q IN ARRAY ARRAY[
                        'SELECT count(*) || '':'' || coalesce(md5(string_agg(t, '','' ORDER BY t)), '''') FROM %I WHERE %s',
                        'SELECT count(*) FROM %I WHERE %s'] LOOP
                        EXECUTE format(q, 'bc_heap', cond) INTO expect;
                        checks := checks + 1;
                        IF pd_differs(expect, format(q, 'bc_pax', cond)) THEN
                            mismatches := mismatches + 1;
                        END IF;
                    END LOOP;
                END LOOP;
            END LOOP;
        END LOOP;
    END LOOP;
END $$;
SELECT * FROM bc_check();
DROP FUNCTION bc_check, pd_differs;
DROP TABLE bc_heap, bc_pax;

-- the randomized differential test
CREATE TABLE rnd_heap (
    i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, n numeric, d date,
    ts timestamp, tz timestamptz, tm time, t text COLLATE "C", t2 text,
    vc varchar(10), bp char(4), b bool, c "char", o oid, u uuid, by bytea,
    iv interval
) USING heap;
SELECT setseed(0.42);
INSERT INTO rnd_heap
SELECT CASE WHEN random() < nr THEN NULL ELSE (random() * 200 - 100)::int2 END,
       CASE WHEN random() < nr THEN NULL ELSE g END,
       CASE WHEN random() < nr THEN NULL ELSE (random() * 1e12)::int8 - 500000000000 END,
       CASE WHEN random() < nr THEN NULL WHEN random() < 0.02 THEN 'NaN'::float4 ELSE (random() * 100)::float4 END,
       CASE WHEN random() < nr THEN NULL WHEN random() < 0.02 THEN 'Infinity'::float8 ELSE random() * 1000 - 500 END,
       CASE WHEN random() < nr THEN NULL ELSE round((random() * 1000)::numeric, 2) END,
       CASE WHEN random() < nr THEN NULL ELSE date '2000-01-01' + (random() * 3000)::int END,
       CASE WHEN random() < nr THEN NULL ELSE timestamp '2000-01-01' + random() * interval '3000 days' END,
       CASE WHEN random() < nr THEN NULL ELSE timestamptz '2000-01-01 00:00+00' + random() * interval '3000 days' END,
       CASE WHEN random() < nr THEN NULL ELSE time '00:00' + random() * interval '24 hours' END,
       CASE WHEN random() < nr THEN NULL ELSE chr(97 + (random() * 25)::int) || (random() * 100)::int END,
       CASE WHEN random() < nr THEN NULL ELSE chr(65 + (random() * 57)::int) || (random() * 100)::int END,
       CASE WHEN random() < nr THEN NULL ELSE 'v' || (random() * 50)::int END,
       CASE WHEN random() < nr THEN NULL ELSE chr(97 + (random() * 5)::int) END,
       CASE WHEN random() < nr THEN NULL ELSE random() < 0.5 END,
       CASE WHEN random() < nr THEN NULL ELSE chr(97 + (random() * 5)::int)::"char" END,
       CASE WHEN random() < nr THEN NULL ELSE (random() * 100)::int::oid END,
       CASE WHEN random() < nr THEN NULL ELSE md5(((random() * 50)::int)::text)::uuid END,
       CASE WHEN random() < nr THEN NULL ELSE decode(lpad(to_hex((random() * 255)::int), 2, '0'), 'hex') END,
       CASE WHEN random() < nr THEN NULL ELSE (random() * 100)::int * interval '1 hour' END
  FROM generate_series(1, 6000) g,
       LATERAL (SELECT CASE WHEN g % 3 = 0 THEN 0.0 WHEN g % 3 = 1 THEN 0.1 ELSE 0.6 END AS nr) x;
-- a long value, compressed inline, exercises the toasted fallback
INSERT INTO rnd_heap (i4, t, t2) VALUES (-1, repeat('a', 5000), repeat('b', 5000));
-- sorted by i4 (zone maps useful) and in random order
CREATE TABLE rnd_sorted (LIKE rnd_heap) USING pax;
INSERT INTO rnd_sorted SELECT * FROM rnd_heap ORDER BY i4;
CREATE TABLE rnd_random (LIKE rnd_heap) USING pax;
INSERT INTO rnd_random SELECT * FROM rnd_heap ORDER BY md5(i4::text || i8::text);
ANALYZE rnd_heap, rnd_sorted, rnd_random;

CREATE FUNCTION pax_rnd_pred() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    cols text[] := ARRAY['i2','i4','i8','f4','f8','n','d','ts','tz','tm','t','t2','vc','bp','b','c','o','u','by','iv'];
    col text := cols[1 + floor(random() * array_length(cols, 1))::int];
    ops text[] := ARRAY['=', '<>', '<', '<=', '>', '>='];
    op text := ops[1 + floor(random() * 6)::int];
    v1 text; v2 text; v3 text; r float8 := random();
    casts text := '';
BEGIN
    EXECUTE format('SELECT quote_nullable(%I::text) FROM rnd_heap OFFSET %s LIMIT 1', col, floor(random() * 6000)::int) INTO v1;
    EXECUTE format('SELECT quote_nullable(%I::text) FROM rnd_heap OFFSET %s LIMIT 1', col, floor(random() * 6000)::int) INTO v2;
    EXECUTE format('SELECT quote_nullable(%I::text) FROM rnd_heap OFFSET %s LIMIT 1', col, floor(random() * 6000)::int) INTO v3;
    casts := format('::%s', pg_typeof_name(col));
    -- cross-type integer and float constants
    IF col IN ('i2', 'i4') AND random() < 0.3 THEN casts := '::int8'; END IF;
    IF col = 'i8' AND random() < 0.3 THEN
        casts := '::int4';
        v1 := quote_literal((random() * 1e9)::int::text);
        v2 := quote_literal((random() * 1e9)::int::text);
        v3 := quote_literal((-random() * 1e9)::int::text);
    END IF;
    IF col = 'f4' AND random() < 0.5 THEN casts := '::float8'; END IF;
    IF col = 'b' THEN
        IF r < 0.3 THEN RETURN 'b'; ELSIF r < 0.6 THEN RETURN 'NOT b'; END IF;
    END IF;
    IF r < 0.08 THEN RETURN format('%I IS NULL', col);
    ELSIF r < 0.16 THEN RETURN format('%I IS NOT NULL', col);
    ELSIF r < 0.30 THEN RETURN format('%I BETWEEN %s%s AND %s%s', col, v1, casts, v2, casts);
    ELSIF r < 0.42 THEN RETURN format('%I IN (%s%s, %s%s, %s%s)', col, v1, casts, v2, casts, v3, casts);
    ELSIF r < 0.48 THEN RETURN format('%I <> ALL (ARRAY[%s%s, %s%s])', col, v1, casts, v2, casts);
    ELSIF r < 0.58 THEN RETURN format('(%I %s %s%s OR %I %s %s%s)', col, op, v1, casts, col, ops[1 + floor(random() * 6)::int], v2, casts);
    ELSIF r < 0.66 THEN RETURN format('%s%s %s %I', v1, casts, op, col);
    ELSIF r < 0.70 THEN RETURN format('(%I = %s%s OR %I IS NULL)', col, v1, casts, col);
    ELSE RETURN format('%I %s %s%s', col, op, v1, casts);
    END IF;
END $$;
CREATE FUNCTION pg_typeof_name(col text) RETURNS text LANGUAGE sql AS $$
    SELECT format_type(atttypid, atttypmod) FROM pg_attribute
     WHERE attrelid = 'rnd_heap'::regclass AND attname = col $$;

CREATE FUNCTION pax_rnd_check(npreds int) RETURNS TABLE (predicates int, checks int, mismatches int, paxscan_plans int)
LANGUAGE plpgsql AS $$
DECLARE
    pred text; q text; expect text; got text; plan text;
    settings text[] := ARRAY[
        'pax.enable_customscan=off',
        'pax.enable_customscan=on,pax.enable_pushdown=off',
        'pax.enable_customscan=on,pax.enable_pushdown=on,pax.enable_zonemaps=off',
        'pax.enable_customscan=on,pax.enable_pushdown=on,pax.enable_zonemaps=on'];
    s text; kv text; tbl text;
BEGIN
    predicates := 0; checks := 0; mismatches := 0; paxscan_plans := 0;
    FOR k IN 1..npreds LOOP
        pred := pax_rnd_pred();
        IF random() < 0.3 THEN pred := pred || ' AND ' || pax_rnd_pred(); END IF;
        predicates := predicates + 1;
        q := 'SELECT count(*) || '':'' || coalesce(md5(string_agg(x::text, '','' ORDER BY x::text)), '''') FROM %s x WHERE ' || pred;
        PERFORM set_config('enable_seqscan', 'on', true);
        EXECUTE format(q, 'rnd_heap') INTO expect;
        FOREACH tbl IN ARRAY ARRAY['rnd_sorted', 'rnd_random'] LOOP
            FOREACH s IN ARRAY settings LOOP
                FOREACH kv IN ARRAY string_to_array(s, ',') LOOP
                    PERFORM set_config(split_part(kv, '=', 1), split_part(kv, '=', 2), true);
                END LOOP;
                -- make PaxScan win when it is enabled
                PERFORM set_config('enable_seqscan', CASE WHEN s LIKE '%customscan=on%' THEN 'off' ELSE 'on' END, true);
                EXECUTE format(q, tbl) INTO got;
                EXECUTE 'EXPLAIN (COSTS OFF) ' || format(q, tbl) INTO plan;
                checks := checks + 1;
                IF got IS DISTINCT FROM expect THEN
                    mismatches := mismatches + 1;
                    RAISE NOTICE 'mismatch on % with %: % vs heap %', tbl, s, pred, expect;
                END IF;
            END LOOP;
            FOR plan IN EXECUTE 'EXPLAIN (COSTS OFF) ' || format(q, tbl) LOOP
                -- PaxScan, or no scan at all for predicates folded to false
                IF plan LIKE '%PaxScan%' OR plan LIKE '%One-Time Filter: false%' THEN
                    paxscan_plans := paxscan_plans + 1;
                END IF;
            END LOOP;
        END LOOP;
    END LOOP;
    RESET pax.enable_customscan; RESET pax.enable_pushdown; RESET pax.enable_zonemaps; RESET enable_seqscan;
    RETURN NEXT;
END $$;

-- two bounds on one integer column are applied in one pass: every kind of
-- bound, the widths' extremes, empty ranges, bounds no value can meet, and
-- pages with and without NULLs, against heap
CREATE TABLE rng_pax (i2 int2, i4 int4, i8 int8, o oid, d date) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE rng_heap (i2 int2, i4 int4, i8 int8, o oid, d date) USING heap;
INSERT INTO rng_pax SELECT (k % 65536 - 32768)::int2, k * 53687 - 2147483647,
	CASE WHEN k % 3 = 0 THEN 9223372036854775807 - k WHEN k % 3 = 1
		THEN -9223372036854775807 - 1 + k ELSE k - 20000 END,
	((k::int8 * 131071) % 4294967296)::oid, date '2000-01-01' + (k % 3000)
  FROM generate_series(0, 40000) k;
INSERT INTO rng_pax SELECT CASE WHEN k % 5 = 0 THEN NULL ELSE k END, NULLIF(k, 7),
	k, k, date '2000-01-01' + k FROM generate_series(1, 300) k;
INSERT INTO rng_heap SELECT * FROM rng_pax;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rng_pax WHERE i4 BETWEEN 0 AND 1000000;
CREATE FUNCTION rng_check(q text) RETURNS TABLE (cond text, n bigint, same bool)
LANGUAGE plpgsql AS $$
DECLARE
	p bigint; h bigint; ps numeric; hs numeric;
BEGIN
	EXECUTE 'SELECT count(*), sum(hashint8(coalesce(i8, 0))::numeric + coalesce(i4, 0)) FROM rng_pax WHERE ' || q
		INTO p, ps;
	EXECUTE 'SELECT count(*), sum(hashint8(coalesce(i8, 0))::numeric + coalesce(i4, 0)) FROM rng_heap WHERE ' || q
		INTO h, hs;
	RETURN QUERY SELECT q, p, p = h AND ps IS NOT DISTINCT FROM hs;
END $$;
SELECT c.* FROM unnest(ARRAY[
	'i4 BETWEEN -1000000 AND 1000000',
	'i4 > -2147483647 AND i4 < 2147483647',
	'i4 >= -2147483647 AND i4 <= 2147418113',
	'i4 > 5 AND i4 < 6',
	'i4 >= 6 AND i4 <= 6',
	'i4 > 10 AND i4 < 2',
	'i4 < 100000000 AND i4 > -100000000',
	'i2 BETWEEN -100 AND 100',
	'i2 > -32768 AND i2 <= 32767',
	'i2 >= 1 AND i2 < 200',
	'i8 >= 9223372036854775000 AND i8 <= 9223372036854775807',
	'i8 > 9223372036854775807 AND i8 < 9223372036854775807',
	'i8 > -9223372036854775808 AND i8 < -9223372036854770000',
	'i8 >= -9223372036854775808 AND i8 < -9223372036854775807',
	'i8 > -20000 AND i8 <= 20000 AND i4 > 0 AND i4 < 2000000000',
	'o > 4000000000 AND o <= 4294967295',
	'o >= 0 AND o < 100000',
	'd >= date ''2001-01-01'' AND d < date ''2001-01-01'' + interval ''1 month''',
	'd > date ''2003-01-01'' AND d <= date ''2008-12-31''',
	'i4 > 0 AND i8 < 0 AND i4 < 1000000000 AND i8 > -9223372036854775000'
]) q, LATERAL rng_check(q) c;
RESET enable_seqscan;
DROP FUNCTION rng_check;
DROP TABLE rng_pax, rng_heap;

SELECT setseed(0.1234);
SELECT predicates, checks, mismatches, paxscan_plans = 2 * predicates AS paxscan_used FROM pax_rnd_check(200);

DROP TABLE pd, ages, pt, rnd_heap, rnd_sorted, rnd_random;
DROP FUNCTION pax_rnd_check, pax_rnd_pred, pg_typeof_name;
