--
-- pax_am_substr: a text column's prefix compared with values
-- (substring(col FROM 1 FOR n), substr(col, 1, n), left(col, n) with =, <>,
-- IN, NOT IN), pushed to PaxScan and compared on the first n characters of
-- the stored bytes (PaxAnalyzePrefix), checked against heap: bpchar read
-- as text (trailing spaces dropped), multibyte characters, compressed and
-- out-of-line values, NULLs, collations.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;
SET pax.enable_aggpushdown = off;

CREATE TABLE sb_pax (id int, ph char(15), t text, v varchar(20), big text) USING pax
	WITH (autovacuum_enabled = off);
INSERT INTO sb_pax
SELECT g, (g % 40 + 10)::text || '-' || g,
       (ARRAY['ab', 'a', '', 'abc', ' ab', 'ä€x', 'äb', 'ab ', 'a b'])[1 + g % 9],
       'x' || (g % 13),
       CASE WHEN g % 100 = 0 THEN repeat(md5(g::text), 300) ELSE 'y' || g END
  FROM generate_series(1, 5000) g;
INSERT INTO sb_pax VALUES (6001, '1 ', 'a', NULL, NULL), (6002, '1', NULL, 'x', NULL),
	(6003, '  ', ' ', ' ', NULL), (6004, NULL, 'ab', 'x1 ', NULL);
CREATE TABLE sb_heap AS SELECT * FROM sb_pax;
ANALYZE sb_pax, sb_heap;

-- pushed (TPC-H Q22's country codes)
EXPLAIN (COSTS OFF)
SELECT count(*) FROM sb_pax WHERE substring(ph FROM 1 FOR 2) IN ('13', '31', '23');
EXPLAIN (COSTS OFF) SELECT id FROM sb_pax WHERE left(t, 2) <> 'ab' AND substr(v, 1, 1) = 'x';
-- not pushed: another start, a length that is not a constant, an order
-- comparison, a nondeterministic collation
CREATE COLLATION sb_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXPLAIN (COSTS OFF)
SELECT id FROM sb_pax
 WHERE substring(t FROM 2 FOR 2) = 'b' OR left(t, id) = 'a' OR left(t, 2) < 'ab'
    OR left(t COLLATE sb_ci, 2) = 'AB';

-- sb_check(): pax's count and checksum against heap's for each predicate
CREATE FUNCTION sb_check(OUT checks int, OUT mismatches int) LANGUAGE plpgsql AS $$
DECLARE
    p text;
    h text;
    q text;
    c text;
BEGIN
    checks := 0;
    mismatches := 0;
    FOREACH c IN ARRAY ARRAY[
        $c$substring(ph FROM 1 FOR 2) IN ('13', '31', '23')$c$,
        $c$substr(ph, 1, 2) = '1 '$c$, $c$substr(ph, 1, 2) = '1'$c$,
        $c$left(ph, 1) = '1'$c$, $c$left(ph, 20) = '11-1'$c$,
        $c$left(t, 2) = 'ab'$c$, $c$left(t, 2) = 'äb'$c$, $c$left(t, 1) = 'ä'$c$,
        $c$substring(t FROM 1 FOR 3) = 'ab '$c$, $c$substring(t FROM 1 FOR 3) <> 'ab '$c$,
        $c$left(t, 2) NOT IN ('ab', 'a ')$c$, $c$left(v, 2) = 'x1'$c$,
        $c$left(big, 3) = '8d7'$c$,
        $c$left(big, 40) IN (SELECT left(repeat(md5('100'), 300), 40))$c$,
        $c$left(t, 2) = ANY (ARRAY['ab', NULL])$c$, $c$left(t, 2) <> ALL (ARRAY['ab', NULL])$c$,
        $c$left(t COLLATE "C", 2) = 'ab'$c$, $c$left(t, 2) = 'ab' COLLATE "C"$c$,
        $c$left(t COLLATE sb_ci, 2) = 'AB'$c$, $c$left(t, 2) = 'ab' OR left(t, 1) = 'ä'$c$]
    LOOP
        q := 'SELECT count(*) || '':'' || coalesce(sum(id), 0) FROM %I WHERE ' || c;
        EXECUTE format(q, 'sb_pax') INTO p;
        EXECUTE format(q, 'sb_heap') INTO h;
        checks := checks + 1;
        IF p IS DISTINCT FROM h THEN
            mismatches := mismatches + 1;
            RAISE NOTICE 'differs: % (pax %, heap %)', c, p, h;
        END IF;
    END LOOP;
END $$;
SELECT * FROM sb_check();

DROP FUNCTION sb_check();
DROP TABLE sb_pax, sb_heap;
DROP COLLATION sb_ci;
