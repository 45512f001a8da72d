--
-- pax_am_factor: frame of reference with a common factor (pax.h,
-- PAX_FACTOR_FLAG): the integer-like values of a batch's page whose
-- differences from the page's least share a factor (amounts in thousands,
-- timestamps on whole minutes) are stored divided by it, bit-packed.  Every
-- value reads back exactly as heap stores it, through every reader (slots,
-- PaxScan filters and aggregates, join filters, index fetches, VACUUM,
-- rewrites); a row whose value is not a multiple of the factor from the
-- page's base goes to another page.  Float columns of such pages are
-- decimal-scaled, the same width byte on another type; numeric columns
-- too, with their display scale (PAX_NUMSCALE_BASE).
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
-- the columns' bytes a row: factored, the rows leave their pages free room,
-- since TIDs kept for new versions, not bytes, bound them (PaxCompactKeepTids)
CREATE FUNCTION fac_bytes_a_row(r regclass) RETURNS numeric LANGUAGE sql AS $$
  SELECT (SELECT sum(c.minipage_bytes + c.value_bytes)
            FROM pax_page_stats(r) s, pax_page_columns(r, s.blkno) c)::numeric /
         (SELECT sum(nrows) FROM pax_page_stats(r)) $$;
SELECT round(fac_bytes_a_row('fac') / fac_bytes_a_row('fac_plain'), 2) AS bytes_share;

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

-- decimal-scaled floats (PAX_FACTOR_FLAG on float4 and float8): the values
-- of a batch's page that are all k / 10^s for integers k read back bit for
-- bit are stored as k, bit-packed; -0, NaN, the infinities and values with
-- more decimals keep their page's column plain, or go to another page
CREATE TABLE flt_heap (id int, price float8, ratio float4, odd float8) USING heap;
INSERT INTO flt_heap
SELECT i, (hashint4(i) / 1000.0)::float8, ((i % 400) * 0.25)::float4,
       CASE WHEN i % 11 = 0 THEN NULL WHEN i = 9000 THEN '-0'::float8
            WHEN i = 9001 THEN 'NaN' WHEN i = 9002 THEN '-Infinity'
            WHEN i = 9003 THEN 1e-300 ELSE i * 0.1 END
  FROM generate_series(1, 12000) i;
CREATE TABLE flt (LIKE flt_heap) USING pax;
INSERT INTO flt SELECT * FROM flt_heap;
SELECT pax_same('flt_heap', 'flt');
SELECT c.attname, regexp_replace(c.encoding, ', \d+ bits$', '') AS encoding,
       count(*) > 0 AS some_pages
  FROM pax_page_stats('flt') s, pax_page_columns('flt', s.blkno) c
 WHERE c.attname <> 'id'
 GROUP BY 1, 2 ORDER BY 1, 2;
-- the values' very bits
SELECT count(*) FROM flt f JOIN flt_heap h USING (id)
 WHERE float8send(f.price) = float8send(h.price)
   AND float4send(f.ratio) = float4send(h.ratio)
   AND float8send(f.odd) IS NOT DISTINCT FROM float8send(h.odd);
SELECT same, answer FROM pax_same_answers(ARRAY[
    'SELECT count(*) FROM %s WHERE price = hashint4(777) / 1000.0::float8',
    'SELECT count(*), sum(id) FROM %s WHERE price < -1000.5',
    'SELECT count(*) FROM %s WHERE price BETWEEN 0 AND 1000000',
    'SELECT count(*) FROM %s WHERE ratio = 12.25',
    'SELECT count(*) FROM %s WHERE ratio IN (0.5, 99.75, 3.3)',
    'SELECT count(*), sum(odd) FROM %s WHERE odd > 500',
    'SELECT sum(price), avg(ratio), min(odd), max(odd), count(odd) FROM %s',
    'SELECT odd::text FROM %s WHERE id BETWEEN 8999 AND 9004 ORDER BY id',
    'SELECT ratio, count(*) FROM %s GROUP BY ratio ORDER BY ratio LIMIT 3'
    ], 'flt_heap', 'flt') ORDER BY n;
-- single rows: k / 10^s within the page's range joins a page of the
-- batch; more decimals, or -0, go to another page
INSERT INTO flt VALUES (12001, 1.5, 2.25, 0.3), (12002, 1.0001, 2.3, '-0');
INSERT INTO flt_heap VALUES (12001, 1.5, 2.25, 0.3), (12002, 1.0001, 2.3, '-0');
SELECT id, price, ratio, odd FROM flt WHERE id > 12000 ORDER BY id;
UPDATE flt SET price = price + 0.001 WHERE id % 9 = 0;
UPDATE flt_heap SET price = price + 0.001 WHERE id % 9 = 0;
SELECT pax_same('flt_heap', 'flt');
VACUUM FULL flt;
SELECT pax_same('flt_heap', 'flt');
SELECT count(*) FROM pax_verify('flt');

-- decimal-scaled numerics (pax.h, PAX_NUMSCALE_BASE): the numerics of a
-- batch's page that all have one display scale are stored as value *
-- 10^scale, over their common factor, bit-packed, and read back as the
-- very bytes numeric stores (zero, negatives, leading and trailing zero
-- digits, up to 2^63 - 1 at the scale); other scales, NaN and the
-- infinities keep their page's column as it was, or go to another page
CREATE TABLE num_heap (id int, price numeric(15,2), q numeric, r numeric,
                       big numeric, odd numeric) USING heap;
INSERT INTO num_heap
SELECT i, (hashint4(i) % 10000000) / 100.0, (i % 10000) / 100.0,
       round(((i % 2000) - 1000) * 0.0001, 4),
       9223372036854775807 - i * 1000000007::numeric,
       CASE WHEN i % 13 = 0 THEN NULL WHEN i = 9000 THEN 'NaN'
            WHEN i = 9001 THEN 'Infinity' WHEN i = 9002 THEN 1.5
            WHEN i = 9003 THEN 12345678901234567890123 ELSE i * 0.5 END
  FROM generate_series(1, 12000) i;
CREATE TABLE num (LIKE num_heap) USING pax;
COPY num_heap TO '/tmp/pax_am_factor_num.copy';
COPY num FROM '/tmp/pax_am_factor_num.copy';
SELECT pax_same('num_heap', 'num');
SELECT c.attname, regexp_replace(c.encoding, ', factor \d+, \d+ bits$', '') AS encoding,
       count(*) > 0 AS some_pages
  FROM pax_page_stats('num') s, pax_page_columns('num', s.blkno) c
 WHERE c.attname <> 'id'
 GROUP BY 1, 2 ORDER BY 1, 2;
-- the values' very bytes, and their display
SELECT count(*) FROM num n JOIN num_heap h USING (id)
 WHERE numeric_send(n.price) = numeric_send(h.price)
   AND numeric_send(n.q) = numeric_send(h.q)
   AND numeric_send(n.r) = numeric_send(h.r)
   AND numeric_send(n.big) = numeric_send(h.big)
   AND numeric_send(n.odd) IS NOT DISTINCT FROM numeric_send(h.odd)
   AND n.q::text = h.q::text AND n.r::text = h.r::text;
SELECT id, price, q, r, odd FROM num WHERE id IN (1, 100, 1000, 10000) ORDER BY id;
SELECT same, answer FROM pax_same_answers(ARRAY[
    'SELECT count(*) FROM %s WHERE price = (hashint4(777) %% 10000000) / 100.0',
    'SELECT count(*), sum(id) FROM %s WHERE price < -1000.5',
    'SELECT count(*) FROM %s WHERE q BETWEEN 10 AND 20.5',
    'SELECT count(*) FROM %s WHERE r = 0 OR r = -0.0999',
    'SELECT count(*), sum(r), min(r), max(r) FROM %s WHERE r < 0',
    'SELECT sum(price), avg(q), min(big), max(big), sum(odd), count(odd) FROM %s',
    'SELECT sum(price * q), sum(q + r) FROM %s WHERE q > 50',
    'SELECT q, count(*) FROM %s GROUP BY q ORDER BY q LIMIT 3',
    'SELECT odd::text FROM %s WHERE id BETWEEN 8999 AND 9004 ORDER BY id'
    ], 'num_heap', 'num') ORDER BY n;
SET pax.enable_customscan = off;
SELECT count(*) FILTER (WHERE same) AS same, count(*) FROM pax_same_answers(ARRAY[
    'SELECT count(*) FROM %s WHERE q BETWEEN 10 AND 20.5',
    'SELECT sum(price), avg(q), min(big), max(big), sum(odd), count(odd) FROM %s'
    ], 'num_heap', 'num');
RESET pax.enable_customscan;
-- single rows: another display scale goes to another page; the page's
-- scale within its range may join a page of the batch
INSERT INTO num VALUES (12001, 1.5, 1.50, 0.0001, 1, 0.5), (12002, 2, 3.125, 0.1, 2, 'NaN');
INSERT INTO num_heap VALUES (12001, 1.5, 1.50, 0.0001, 1, 0.5), (12002, 2, 3.125, 0.1, 2, 'NaN');
SELECT id, price, q, r, big, odd FROM num WHERE id > 12000 ORDER BY id;
-- DELETE, UPDATE, VACUUM, an index, rewrites
CREATE INDEX num_q ON num (q);
DELETE FROM num WHERE id % 7 = 0;
DELETE FROM num_heap WHERE id % 7 = 0;
UPDATE num SET price = price + 0.01, r = r * 2 WHERE id % 9 = 0;
UPDATE num_heap SET price = price + 0.01, r = r * 2 WHERE id % 9 = 0;
VACUUM num;
INSERT INTO num SELECT i, i / 100.0, i % 100, 0.0005, i, 0.5 FROM generate_series(12003, 12100) i;
INSERT INTO num_heap SELECT i, i / 100.0, i % 100, 0.0005, i, 0.5 FROM generate_series(12003, 12100) i;
SELECT pax_same('num_heap', 'num');
SET enable_seqscan = off;
SELECT id, q FROM num WHERE q IN (12.34, 99.99, 3.125) ORDER BY id LIMIT 5;
SELECT id, q FROM num_heap WHERE q IN (12.34, 99.99, 3.125) ORDER BY id LIMIT 5;
RESET enable_seqscan;
VACUUM FULL num;
SELECT pax_same('num_heap', 'num');
SELECT count(*) FROM pax_verify('num');

DROP TABLE fac_heap, fac, fac_plain, wrap_heap, wrap, flt_heap, flt, num_heap, num;
DROP FUNCTION fac_queries(), fac_bytes_a_row(regclass);
