--
-- pax_am_colcmp: predicates comparing two columns of a row (l_commitdate <
-- l_receiptdate), pushed to PaxScan and evaluated on the minipages
-- (PaxAnalyzeColumns, PaxFilterColumns), checked against heap for every
-- comparison operator over same-type and cross-type pairs, NULLs,
-- encoded (bulk-loaded) and row-form pages, and columns added later.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
\getenv abs_srcdir PG_ABS_SRCDIR
\set pg_versions :abs_srcdir '/sql/include/pg_versions.sql'
\i :pg_versions
SET max_parallel_workers_per_gather = 0;
SET pax.enable_aggpushdown = off;

CREATE TABLE cc_pax (i2 smallint, i4 int, i8 bigint, d1 date, d2 date,
	t1 timestamp, t2 timestamp, z1 timestamptz, z2 timestamptz,
	n1 numeric, n2 numeric, x text, y varchar(10), c1 char(4), c2 char(4),
	f4 float4, f8 float8, b1 bool, b2 bool) USING pax
	WITH (autovacuum_enabled = off);
-- encoded pages (a batch), then row-form pages (single rows)
INSERT INTO cc_pax
SELECT (g % 50)::int2, (g * 7) % 60, (g * 13) % 40, date '2024-01-01' + g % 30,
       date '2024-01-01' + (g * 3) % 31, timestamp '2024-01-01' + (g % 20) * interval '1 hour',
       timestamp '2024-01-01' + (g % 7) * interval '3 hours',
       timestamptz '2024-01-01 00:00+00' + (g % 11) * interval '1 day',
       timestamptz '2024-01-01 00:00+00' + (g % 13) * interval '1 day',
       (g % 13) / 4.0, (g % 11) / 3.0, 'k' || (g % 17), 'k' || (g % 19),
       'c' || (g % 5), 'c' || (g % 3), (g % 9) / 2.0, (g % 5) / 2.0,
       g % 2 = 0, g % 3 = 0
  FROM generate_series(1, 6000) g;
INSERT INTO cc_pax (i2, i4, i8, d1, d2, n1, n2, x, y, f4, f8)
  VALUES (NULL, 1, 1, NULL, '2024-01-02', NULL, 1, NULL, 'k1', NULL, 1),
         (1, NULL, NULL, '2024-01-02', NULL, 1, NULL, 'k1', NULL, 'NaN', 'NaN'),
         (3, 3, 3, '2024-01-03', '2024-01-03', 2, 2, 'k2', 'k2', 'Infinity', 'NaN');
DO $$ BEGIN
  FOR g IN 1..300 LOOP
    INSERT INTO cc_pax (i2, i4, i8, d1, d2, x, y, c1, c2)
      VALUES (g % 7, g % 5, g % 9, date '2024-02-01' + g % 4, date '2024-02-01' + g % 6,
              'r' || (g % 4), 'r' || (g % 3), 'c' || (g % 2), 'c  ');
  END LOOP;
END $$;
CREATE TABLE cc_heap AS SELECT * FROM cc_pax;
ANALYZE cc_pax, cc_heap;

-- pushed: same-type and cross-type pairs, either order of the columns
EXPLAIN (COSTS OFF) SELECT i4 FROM cc_pax WHERE d1 < d2 AND i2 >= i8 AND x <> y;
-- the other pushed clauses first, then the two columns', after the join
-- filter a hash join gives the scan (PAX_PHASE_LAST)
EXPLAIN (COSTS OFF) SELECT count(*) FROM cc_pax WHERE i4 = i8 AND x = 'k1';
-- not pushed: one column with itself, expressions over columns
EXPLAIN (COSTS OFF) SELECT count(*) FROM cc_pax WHERE i4 < i4 OR i4 + 1 < i8;

-- cc_check(): every operator over each pair, pax's count and checksum of
-- the passing rows against heap's; returns the pairs checked and those
-- that differ
CREATE FUNCTION cc_check(OUT checks int, OUT mismatches int) LANGUAGE plpgsql AS $$
DECLARE
    pair text[];
    op text;
    q text;
    p text;
    h text;
BEGIN
    checks := 0;
    mismatches := 0;
    FOREACH pair SLICE 1 IN ARRAY ARRAY[
        ['i4', 'i8'], ['i2', 'i4'], ['i8', 'i2'], ['d1', 'd2'], ['t1', 't2'],
        ['z1', 'z2'], ['d1', 't1'], ['t2', 'd2'], ['n1', 'n2'], ['x', 'y'],
        ['y', 'x'], ['c1', 'c2'], ['f4', 'f8'], ['f8', 'f4'], ['b1', 'b2'],
        ['x COLLATE "C"', 'y']]
    LOOP
        FOREACH op IN ARRAY ARRAY['<', '<=', '=', '<>', '>=', '>'] LOOP
            IF pair[1] LIKE 'b_' AND op NOT IN ('=', '<>') THEN
                CONTINUE;
            END IF;
            q := format('SELECT count(*) || '':'' || coalesce(sum(hashtext(t::text)), 0) FROM %%I t WHERE %s %s %s',
                        pair[1], op, pair[2]);
            EXECUTE format(q, 'cc_pax') INTO p;
            EXECUTE format(q, 'cc_heap') INTO h;
            checks := checks + 1;
            IF p IS DISTINCT FROM h THEN
                mismatches := mismatches + 1;
                RAISE NOTICE 'differs: % % % (pax %, heap %)', pair[1], op, pair[2], p, h;
            END IF;
        END LOOP;
    END LOOP;
END $$;
SELECT * FROM cc_check();

-- a column added later: its default on the pages laid out before it
ALTER TABLE cc_pax ADD COLUMN a1 int DEFAULT 20, ADD COLUMN a2 int;
ALTER TABLE cc_heap ADD COLUMN a1 int DEFAULT 20, ADD COLUMN a2 int;
INSERT INTO cc_pax (i4, a1, a2) VALUES (5, 1, 10), (50, 30, 2);
INSERT INTO cc_heap (i4, a1, a2) VALUES (5, 1, 10), (50, 30, 2);
SELECT (SELECT count(*) FROM cc_pax WHERE i4 < a1) AS pax_lt,
       (SELECT count(*) FROM cc_heap WHERE i4 < a1) AS heap_lt,
       (SELECT count(*) FROM cc_pax WHERE a1 < a2) AS pax_lt2,
       (SELECT count(*) FROM cc_heap WHERE a1 < a2) AS heap_lt2;
-- a dropped column in between
ALTER TABLE cc_pax DROP COLUMN i2;
ALTER TABLE cc_heap DROP COLUMN i2;
SELECT (SELECT count(*) FROM cc_pax WHERE i4 <= i8 AND d1 <> d2) AS pax,
       (SELECT count(*) FROM cc_heap WHERE i4 <= i8 AND d1 <> d2) AS heap;

-- EXPLAIN ANALYZE counts the rows the two columns' clause removes with
-- the other pushed clauses', as heap's Filter counts them
SELECT explain_analyze($$SELECT count(*) FROM cc_pax WHERE i4 < i8 AND x = 'k1'$$);
SELECT explain_analyze($$SELECT count(*) FROM cc_heap WHERE i4 < i8 AND x = 'k1'$$);
-- under a hash join's runtime filter, which runs first
CREATE TABLE cc_keys (k text) USING heap;
INSERT INTO cc_keys VALUES ('k1'), ('k2');
ANALYZE cc_keys;
SELECT explain_analyze($$SELECT count(*) FROM cc_pax p JOIN cc_keys k ON p.x = k.k WHERE p.i4 < p.i8$$);
SELECT (SELECT count(*) FROM cc_pax p JOIN cc_keys k ON p.x = k.k WHERE p.i4 < p.i8) AS pax,
       (SELECT count(*) FROM cc_heap p JOIN cc_keys k ON p.x = k.k WHERE p.i4 < p.i8) AS heap;
DROP TABLE cc_keys;

-- two columns of different collations leave texteq none: heap's error,
-- on the rows heap's qual meets (not pushed, so the executor meets them)
CREATE TABLE cc_coll_pax (k int, a text COLLATE "C", b text COLLATE "POSIX") USING pax;
INSERT INTO cc_coll_pax VALUES (1, 'x', 'x'), (2, 'y', 'z');
CREATE TABLE cc_coll_heap AS SELECT * FROM cc_coll_pax;
EXPLAIN (COSTS OFF) SELECT count(*) FROM cc_coll_pax WHERE k = 1 AND a = b;
SELECT count(*) FROM cc_coll_pax WHERE k = 1 AND a = b;
SELECT count(*) FROM cc_coll_heap WHERE k = 1 AND a = b;
SELECT count(*) FROM cc_coll_pax WHERE k = 3 AND a = b;
SELECT count(*) FROM cc_coll_heap WHERE k = 3 AND a = b;
-- heap's qual meets a = b first, on every row: the failing clause keeps
-- k = 3 after it (PaxMayFail), where leakproof texteq would have let it be
-- pushed ahead (a finding of bench/run differential)
EXPLAIN (COSTS OFF) SELECT count(*) FROM cc_coll_pax WHERE a = b AND k = 3;
SELECT count(*) FROM cc_coll_pax WHERE a = b AND k = 3;
SELECT count(*) FROM cc_coll_heap WHERE a = b AND k = 3;
DROP TABLE cc_coll_pax, cc_coll_heap;

DROP FUNCTION cc_check();
DROP TABLE cc_pax, cc_heap;
