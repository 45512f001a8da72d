--
-- pax_am_factor: frame of reference with a common factor (pax.h,
-- PAX_FACTOR_FLAG): the integer-like values of a batch's page whose
-- differences from the page's least share a factor (amounts in thousands,
-- timestamps on whole minutes) are stored divided by it, bit-packed.  Every
-- value reads back exactly as heap stores it, through every reader (slots,
-- PaxScan filters and aggregates, join filters, index fetches, VACUUM,
-- rewrites); a row whose value is not a multiple of the factor from the
-- page's base goes to another page.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;

-- pax_same(a, b): a and b row for row (sql/include/pax_same.sql)
\getenv abs_srcdir PG_ABS_SRCDIR
\set pax_same :abs_srcdir '/sql/include/pax_same.sql'
\i :pax_same
\set pax_same_answers :abs_srcdir '/sql/include/pax_same_answers.sql'
\i :pax_same_answers

-- the same queries on each table (pax_same_answers: %s is the table)
CREATE FUNCTION fac_queries() RETURNS text[] LANGUAGE sql AS $q$ SELECT ARRAY[
        'SELECT count(*) FROM %s WHERE amount = 1000::int8 * hashint4(777)',
        'SELECT count(*) FROM %s WHERE amount = 1000::int8 * hashint4(777) + 1',
        'SELECT count(*), sum(id) FROM %s WHERE amount < 0',
        'SELECT count(*), sum(id) FROM %s WHERE amount BETWEEN -500000000000 AND 700000000000',
        'SELECT count(*) FROM %s WHERE amount IN (0, 1000, 1000::int8 * hashint4(5), 17)',
        'SELECT count(*), min(ts), max(ts) FROM %s WHERE ts >= ''2020-01-05 10:00'' AND ts < ''2020-01-06''',
        'SELECT count(*) FROM %s WHERE ts = ''2020-01-02 00:07''',
        'SELECT count(*) FROM %s WHERE ts = ''2020-01-02 00:07:30''',
        'SELECT count(*) FROM %s WHERE small = 21',
        'SELECT sum(amount), min(amount), max(amount), sum(small), count(neg) FROM %s',
        'SELECT sum(neg), min(neg), max(neg), min(ts), max(ts) FROM %s',
        'SELECT small, count(*), sum(amount) FROM %s GROUP BY small ORDER BY small LIMIT 5',
        'SELECT date_trunc(''day'', ts) d, count(*) FROM %s GROUP BY 1 ORDER BY 1 LIMIT 3',
        'SELECT md5(string_agg(amount::text || ts::text || neg::text, '','' ORDER BY id)) FROM %s'
    ] $q$;

CREATE TABLE fac_heap (id int, amount int8, ts timestamp, small int4, neg int8) USING heap;
INSERT INTO fac_heap
SELECT i, hashint4(i)::int8 * 1000,
       timestamp '2020-01-01' + (i % 50000) * interval '1 minute',
       (i % 100) * 7,
       CASE WHEN i % 13 = 0 THEN NULL ELSE -((hashint4(i * 3) & 1048575)::int8 * 60000000) END
  FROM generate_series(1, 20000) i;
CREATE TABLE fac (LIKE fac_heap) USING pax;
INSERT INTO fac SELECT * FROM fac_heap;
SELECT pax_same('fac_heap', 'fac');

-- the columns whose values share a factor are stored divided by it
SELECT c.attname, regexp_replace(c.encoding, ', \d+ bits$', '') AS encoding,
       count(*) > 0 AS some_pages
  FROM pax_page_stats('fac') s, pax_page_columns('fac', s.blkno) c
 WHERE c.encoding LIKE '%factor%'
 GROUP BY 1, 2 ORDER BY 1, 2;
SET pax.encode_minipages = off;
CREATE TABLE fac_plain USING pax AS SELECT * FROM fac_heap;
RESET pax.encode_minipages;
SELECT round(pg_relation_size('fac')::numeric / pg_relation_size('fac_plain'), 2) AS size_share;

-- the same answers through PaxScan, the plain scan and heap
SELECT same, answer FROM pax_same_answers(fac_queries(), 'fac_heap', 'fac') ORDER BY n;
SET pax.enable_customscan = off;
SELECT count(*) FILTER (WHERE same) AS same, count(*) FROM pax_same_answers(fac_queries(), 'fac_heap', 'fac');
RESET pax.enable_customscan;
-- a join filter on a factored key
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT count(*), sum(f.id) FROM fac f JOIN (SELECT hashint4(g)::int8 * 1000 AS k FROM generate_series(1, 20000, 37) g) k ON f.amount = k.k;
SELECT count(*), sum(f.id) FROM fac_heap f JOIN (SELECT hashint4(g)::int8 * 1000 AS k FROM generate_series(1, 20000, 37) g) k ON f.amount = k.k;
RESET enable_mergejoin;
RESET enable_nestloop;

-- single rows: a multiple of the factor may join a page of the batch, a
-- value between two multiples goes to another page
INSERT INTO fac_heap VALUES (20001, 5000, '2020-01-01 00:05', 14, -60000000),
                            (20002, 5001, '2020-01-01 00:05:01', 15, -60000001);
INSERT INTO fac VALUES (20001, 5000, '2020-01-01 00:05', 14, -60000000);
INSERT INTO fac VALUES (20002, 5001, '2020-01-01 00:05:01', 15, -60000001);
SELECT pax_same('fac_heap', 'fac');
SELECT id, amount, ts, small, neg FROM fac WHERE id > 20000 ORDER BY id;

-- DELETE, UPDATE, VACUUM, indexes, rewrites
CREATE INDEX fac_amount ON fac (amount);
CREATE INDEX fac_heap_amount ON fac_heap (amount);
DELETE FROM fac WHERE id % 5 = 0;
DELETE FROM fac_heap WHERE id % 5 = 0;
UPDATE fac SET ts = ts + interval '1 second' WHERE id % 7 = 1;
UPDATE fac_heap SET ts = ts + interval '1 second' WHERE id % 7 = 1;
VACUUM fac;
SELECT pax_same('fac_heap', 'fac');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT count(*), sum(id) FROM fac WHERE amount BETWEEN 0 AND 300000000000;
SELECT count(*), sum(id) FROM fac_heap WHERE amount BETWEEN 0 AND 300000000000;
RESET enable_seqscan;
RESET pax.enable_customscan;
SELECT count(*) FROM pax_verify('fac');
VACUUM FULL fac;
SELECT pax_same('fac_heap', 'fac');
CLUSTER fac USING fac_amount;
SELECT pax_same('fac_heap', 'fac');
SELECT count(*) FROM pax_verify('fac');

-- an int8 near the other end of the type's range never joins a page whose
-- base it lies below (modulo 2^64 its offset would be small, out of order
-- with the others' for filters and sums on offsets)
SET pax.compact_rows = off;
CREATE TABLE wrap_heap (a int8) USING heap;
INSERT INTO wrap_heap SELECT 9223372036854775807 - i FROM generate_series(0, 99) i;
CREATE TABLE wrap (LIKE wrap_heap) USING pax;
INSERT INTO wrap SELECT * FROM wrap_heap;
RESET pax.compact_rows;
INSERT INTO wrap VALUES (-9223372036854775808);
INSERT INTO wrap VALUES (-9223372036854775750);
INSERT INTO wrap_heap VALUES (-9223372036854775808), (-9223372036854775750);
SELECT same, answer FROM pax_same_answers(ARRAY[
    'SELECT count(*), min(a), max(a) FROM %s WHERE a < 0',
    'SELECT count(*) FROM %s WHERE a BETWEEN -9223372036854775808 AND 9223372036854774900',
    'SELECT min(a), max(a), count(*) FROM %s',
    'SELECT a FROM %s WHERE a = -9223372036854775808'], 'wrap_heap', 'wrap') ORDER BY n;

DROP TABLE fac_heap, fac, fac_plain, wrap_heap, wrap;
DROP FUNCTION fac_queries();
