--
-- pax_am_encoding: encoded minipages (frame of reference: integer-like
-- columns stored as offsets of 1, 2 or 4 bytes from a base per page;
-- dictionary: variable-length columns with few distinct values on a page
-- stored once each, a one-byte code a row).
-- Every value reads back exactly as heap stores it, through every reader
-- (slots, PaxScan filters and aggregates, join filters, index fetches,
-- VACUUM, rewrites); a row whose values do not fit a page's encodings goes
-- to another page; pages are smaller.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
\getenv abs_builddir PG_ABS_BUILDDIR
\set enc_file :abs_builddir '/results/pax_am_encoding.data'

-- pax_same(a, b): a and b row for row (sql/include/pax_same.sql)
\getenv abs_srcdir PG_ABS_SRCDIR
\set pax_same :abs_srcdir '/sql/include/pax_same.sql'
\i :pax_same

-- the results of the same queries on a table, as text
CREATE FUNCTION enc_queries(t text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    q text;
    r text;
BEGIN
    FOREACH q IN ARRAY ARRAY[
        'SELECT count(*), sum(i2), min(i2), max(i2) FROM %s WHERE i2 = 7',
        'SELECT count(*), sum(i4), min(i4), max(i4) FROM %s WHERE i4 BETWEEN 100 AND 2000',
        'SELECT count(*), sum(i8), min(i8), max(i8) FROM %s WHERE i8 > 1000000',
        'SELECT count(*), sum(i4) FROM %s WHERE i4 < -5 OR i4 > 2000000000',
        'SELECT count(*), min(o), max(o) FROM %s WHERE o >= 4000000000',
        'SELECT count(*), min(d), max(d) FROM %s WHERE d BETWEEN ''2020-01-01'' AND ''2020-03-01''',
        'SELECT count(*), min(tm), max(tm) FROM %s WHERE tm > ''12:00''',
        'SELECT count(*), min(ts), max(ts) FROM %s WHERE ts < ''2021-01-01''',
        'SELECT count(*), min(tstz), max(tstz) FROM %s WHERE tstz IS NOT NULL',
        'SELECT count(*) FROM %s WHERE d = ''infinity'' OR ts = ''-infinity''',
        'SELECT count(*), sum(i2), sum(i4), sum(i8), min(d), max(ts) FROM %s',
        'SELECT count(*) FROM %s WHERE i8 IS NULL OR i2 IS NULL',
        'SELECT string_agg(g::text || '':'' || n::text || '':'' || s::text, '','' ORDER BY g) FROM (SELECT i2 %% 5 AS g, count(*) AS n, sum(i4) AS s FROM %s GROUP BY 1) x',
        'SELECT count(*), sum(a.i4) FROM %s a JOIN (SELECT i FROM generate_series(1, 3000, 7) i) b ON a.i4 = b.i',
        'SELECT string_agg(id::text, '','' ORDER BY id) FROM %s WHERE i8 IN (-9223372036854775808, 9223372036854775807, 0)',
        'SELECT count(*), min(id), max(id) FROM %s WHERE tl = ''type 3''',
        'SELECT count(*), sum(id) FROM %s WHERE tl LIKE ''kind 1%%'' AND bp = ''bp2''',
        'SELECT count(*), md5(string_agg(tl || '':'' || n::text, '','' ORDER BY tl)) FROM (SELECT tl, count(*) AS n FROM %s WHERE tl < ''type'' GROUP BY tl) x',
        'SELECT string_agg(bp || '':'' || n::text || '':'' || s::text, '','' ORDER BY bp) FROM (SELECT bp, count(*) AS n, sum(nm) AS s FROM %s GROUP BY bp) x',
        'SELECT count(*), sum(nm), min(nm), max(nm) FROM %s WHERE nm > 1.5',
        'SELECT count(*), sum(length(ln)), min(ln) = max(ln) FROM %s WHERE ln LIKE ''b%%''',
        'SELECT count(*), count(vc), sum(length(vc)), min(vc), max(vc) FROM %s',
        'SELECT count(*), sum(length(t)), min(t), max(t) FROM %s WHERE t > ''row 5''',
        'SELECT count(*), sum(id) FROM %s WHERE tl = ''type 1'' OR tl IS NULL',
        'SELECT count(*), sum(id) FROM %s WHERE bp IN (''bp1'', ''bp3'') AND tl <> ''type 2''',
        'SELECT count(*), sum(id) FROM %s WHERE nm BETWEEN 0.5 AND 2 AND vc = ''e'''
    ]
    LOOP
        EXECUTE format('SELECT x::text FROM (%s) x', format(q, t)) INTO r;
        RETURN NEXT r;
    END LOOP;
END $$;

-- values of every pattern: narrow, moderate and wide ranges, clustered
-- and rising, the types' extremes and infinities, NULLs
CREATE TABLE enc_heap (id int, i2 int2, i4 int4, i8 int8, o oid, d date,
                       tm time, ts timestamp, tstz timestamptz, t text,
                       tl text, bp char(10), nm numeric, ln text, vc varchar(20)) USING heap;
ALTER TABLE enc_heap ALTER COLUMN vc SET STORAGE PLAIN;
INSERT INTO enc_heap
SELECT i,
       CASE WHEN i % 97 = 0 THEN NULL
            WHEN i <= 3000 THEN (i % 20)::int2
            WHEN i <= 6000 THEN (i * 7 % 3000 - 1500)::int2
            WHEN i = 6001 THEN 32767 WHEN i = 6002 THEN -32768
            ELSE (i % 200)::int2 END,
       CASE WHEN i % 89 = 0 THEN NULL
            WHEN i <= 3000 THEN i
            WHEN i <= 6000 THEN (i * 7919) % 60000 - 30000
            WHEN i <= 9000 THEN (i * 104729) % 2000000000
            WHEN i % 2 = 0 THEN 2147483647 - i ELSE -2147483648 + i END,
       CASE WHEN i % 83 = 0 THEN NULL
            WHEN i <= 3000 THEN i::int8 * 1000
            WHEN i <= 6000 THEN (i::int8 * 2654435761) % 4000000000
            WHEN i = 9001 THEN -9223372036854775808
            WHEN i = 9002 THEN 9223372036854775807
            WHEN i = 9003 THEN 0
            ELSE i::int8 * 1000000007 END,
       CASE WHEN i <= 6000 THEN (i % 300)::oid ELSE (4294967295 - i % 1000)::oid END,
       CASE WHEN i % 79 = 0 THEN NULL
            WHEN i = 9004 THEN 'infinity'::date WHEN i = 9005 THEN '-infinity'::date
            ELSE date '2020-01-01' + (i / 30) END,
       CASE WHEN i % 73 = 0 THEN NULL ELSE time '00:00' + i * interval '7 seconds' END,
       CASE WHEN i = 9006 THEN 'infinity'::timestamp WHEN i = 9007 THEN '-infinity'::timestamp
            ELSE timestamp '2020-06-01' + i * interval '1 minute' END,
       CASE WHEN i % 71 = 0 THEN NULL
            WHEN i <= 6000 THEN timestamptz '2020-06-01 00:00+00' + i * interval '1 second'
            ELSE timestamptz '2020-06-01 00:00+00' + (i * 7919 % 10000) * interval '1 day' END,
       'row ' || i,
       CASE WHEN i % 67 = 0 THEN NULL WHEN i % 1000 < 500 THEN 'type ' || (i % 7)
            ELSE 'kind ' || (i % 150) END,
       CASE WHEN i % 61 = 0 THEN NULL ELSE 'bp' || (i % 5) END,
       CASE WHEN i % 59 = 0 THEN NULL WHEN i < 7000 THEN (i % 11) / 4.0 ELSE i / 7.0 END,
       CASE WHEN i % 53 = 0 THEN NULL ELSE repeat(chr(97 + i % 3), 200 + i % 3) END,
       CASE WHEN i % 47 = 0 THEN NULL WHEN i % 2 = 0 THEN 'e' ELSE '' END
  FROM generate_series(1, 9500) i;

-- COPY: pages built from a batch of rows at a time
COPY enc_heap TO :'enc_file';
CREATE TABLE enc_copy (LIKE enc_heap) USING pax WITH (autovacuum_enabled = off);
COPY enc_copy FROM :'enc_file';
SELECT pax_same('enc_heap', 'enc_copy');
-- INSERT ... SELECT: one row at a time, encodings from the rows placed
CREATE TABLE enc_ins (LIKE enc_heap) USING pax;
INSERT INTO enc_ins SELECT * FROM enc_heap ORDER BY id;
SELECT pax_same('enc_heap', 'enc_ins');
-- single-row inserts in shuffled order
CREATE TABLE enc_one (LIKE enc_heap) USING pax;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT * FROM enc_heap WHERE id % 10 = 3 ORDER BY id * 7919 % 9500 LOOP
        INSERT INTO enc_one VALUES (r.id, r.i2, r.i4, r.i8, r.o, r.d, r.tm, r.ts, r.tstz, r.t,
                                    r.tl, r.bp, r.nm, r.ln, r.vc);
    END LOOP;
END $$;
SELECT pax_same('(SELECT * FROM enc_heap WHERE id % 10 = 3)', 'enc_one');

-- pages are encoded, and all columns that can be are somewhere
SELECT relname, count(*) FILTER (WHERE encoded > 0) > 0 AS encoded
  FROM (VALUES ('enc_copy'), ('enc_ins'), ('enc_one')) v(relname),
       LATERAL pax_page_stats(relname::regclass) GROUP BY 1 ORDER BY 1;
-- (bit-packed columns of COPY's pages: their bits vary with the pages' ranges)
SELECT attname, regexp_replace(encoding, ', \d+ bits$', ', bit-packed') AS encoding,
       array_agg(DISTINCT value_width ORDER BY value_width) AS widths
  FROM pax_page_stats('enc_copy') s, LATERAL pax_page_columns('enc_copy', s.blkno)
 WHERE encoding <> 'plain' GROUP BY 1, 2 ORDER BY 1, 2;
SELECT bool_and(minipage_bytes <= (capacity * substring(encoding from ', (\d+) bits$')::int + 7) / 8 + 8
                + CASE WHEN has_nullmap THEN (capacity + 7) / 8 ELSE 0 END) AS packed_sizes
  FROM pax_page_stats('enc_copy') s, LATERAL pax_page_columns('enc_copy', s.blkno)
 WHERE encoding ~ '^frame of reference, \d+ bits$';
-- rows inserted one at a time get dictionaries from the rows placed before
SELECT attname, count(*) > 0 AS some_pages
  FROM pax_page_stats('enc_ins') s, LATERAL pax_page_columns('enc_ins', s.blkno)
 WHERE encoding = 'dictionary' GROUP BY 1 ORDER BY 1;
SELECT count(*) AS problems FROM pax_verify('enc_copy');
SELECT count(*) AS problems FROM pax_verify('enc_ins');
SELECT count(*) AS problems FROM pax_verify('enc_one');

-- smaller than the same rows unencoded
SET pax.encode_minipages = off;
CREATE TABLE enc_plain (LIKE enc_heap) USING pax;
COPY enc_plain FROM :'enc_file';
SELECT count(*) FILTER (WHERE encoded > 0) AS encoded_pages FROM pax_page_stats('enc_plain');
RESET pax.encode_minipages;
SELECT pg_relation_size('enc_copy') < 0.9 * pg_relation_size('enc_plain') AS smaller;
-- bit-packing: smaller than byte widths alone, the same rows
SET pax.bitpack_minipages = off;
CREATE TABLE enc_bytes (LIKE enc_heap) USING pax;
COPY enc_bytes FROM :'enc_file';
RESET pax.bitpack_minipages;
SELECT count(*) AS packed_columns
  FROM pax_page_stats('enc_bytes') s, LATERAL pax_page_columns('enc_bytes', s.blkno)
 WHERE encoding ~ 'bits$';
SELECT pg_relation_size('enc_copy') < pg_relation_size('enc_bytes') AS smaller_packed;
SELECT pax_same('enc_bytes', 'enc_copy');
DROP TABLE enc_bytes;

-- bit-packed columns of every type that packs (4 and 8 bytes wide, ranges
-- of 2^17 .. 2^28 on a page) and bit-packed dictionary codes: every reader,
-- changes (new entries, codes among their neighbours') and VACUUM, against
-- heap
CREATE TABLE pk_heap (id int, i4 int4, i8 int8, o oid, d date, tm time,
                      ts timestamp, tstz timestamptz, tag text, k4 int4);
INSERT INTO pk_heap
SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE 1000000 + (i * 7919) % 1000003 END,
       -5000000000000 + (i::int8 * 104729) % 2000003,
       (3000000000 + (i * 7919) % 1048576)::oid,
       date '2000-01-01' + (i * 7919) % 2000000,
       time '10:00' + ((i * 7919) % 10000000) * interval '1 microsecond',
       timestamp '2020-01-01' + ((i * 7919) % 5000000) * interval '1 microsecond',
       CASE WHEN i % 89 = 0 THEN NULL
            ELSE timestamptz '2020-01-01 00:00+00' + ((i * 7919) % 9000000) * interval '1 microsecond' END,
       CASE WHEN i % 83 = 0 THEN NULL ELSE 'tag ' || (i % 5) END,
       -2000000 + (i * 104729) % 1000003
  FROM generate_series(1, 6000) i;
COPY pk_heap TO :'enc_file';
CREATE TABLE pk_pax (LIKE pk_heap) USING pax WITH (autovacuum_enabled = off);
COPY pk_pax FROM :'enc_file';
SELECT attname, count(*) > 0 AS packed
  FROM pax_page_stats('pk_pax') s, LATERAL pax_page_columns('pk_pax', s.blkno)
 WHERE encoding ~ 'bits$' GROUP BY 1 ORDER BY 1;
-- a packed dictionary has room for one more entry only (5 tags: 3 bits)
SELECT DISTINCT encoding
  FROM pax_page_stats('pk_pax') s, LATERAL pax_page_columns('pk_pax', s.blkno)
 WHERE attname = 'tag' AND encoding ~ 'bits$';
CREATE FUNCTION pk_queries(t text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    q text;
    r text;
BEGIN
    FOREACH q IN ARRAY ARRAY[
        'SELECT count(*), sum(i4), min(i4), max(i4) FROM %s WHERE i4 BETWEEN 1200000 AND 1700000',
        'SELECT count(*), sum(i4) FROM %s WHERE i4 = 1007919 OR i4 IS NULL',
        'SELECT count(*), sum(i8), min(i8), max(i8) FROM %s WHERE i8 < -4999999000000',
        'SELECT count(*), min(o), max(o) FROM %s WHERE o > 3000500000',
        'SELECT count(*), min(d), max(d) FROM %s WHERE d >= ''5000-01-01''',
        'SELECT count(*), min(tm), max(tm) FROM %s WHERE tm BETWEEN ''10:00:02'' AND ''10:00:07''',
        'SELECT count(*), min(ts), max(ts) FROM %s WHERE ts > ''2020-01-01 00:00:02''',
        'SELECT count(*), min(tstz), max(tstz) FROM %s WHERE tstz IS NULL OR tstz < ''2020-01-01 00:00:03+00''',
        'SELECT count(*), sum(i4), sum(i8), avg(i4), min(d), max(ts), max(tm) FROM %s',
        'SELECT string_agg(g::text || '':'' || n::text || '':'' || s::text, '','' ORDER BY g) FROM (SELECT id %% 7 AS g, count(*) AS n, sum(i8) AS s FROM %s GROUP BY 1) x',
        'SELECT count(*), sum(a.id) FROM %s a JOIN (SELECT 1000000 + i * 11 AS k FROM generate_series(1, 90000) i) b ON a.i4 = b.k',
        'SELECT string_agg(id::text, '','' ORDER BY id) FROM %s WHERE i4 IN (1007919, 1015838, 1999999)',
        'SELECT count(*), sum(k4), min(k4), max(k4), avg(k4) FROM %s',
        'SELECT count(*), sum(k4), min(k4), max(k4) FROM %s WHERE k4 > -1500000',
        'SELECT count(*), sum(id) FROM %s WHERE tag = ''tag 3''',
        'SELECT count(*), sum(id) FROM %s WHERE tag IN (''tag 1'', ''new'') OR tag IS NULL',
        'SELECT string_agg(coalesce(tag, ''-'') || '':'' || n::text, '','' ORDER BY tag) FROM (SELECT tag, count(*) AS n FROM %s GROUP BY tag) x',
        'SELECT md5(string_agg(id || '','' || i4 || '','' || i8 || '','' || o || '','' || d || '','' || tm || '','' || ts || '','' || coalesce(tstz::text, ''-'') || coalesce(tag, ''-'') || coalesce(k4::text, ''-''), '';'' ORDER BY id)) FROM %s'
    ]
    LOOP
        EXECUTE format('SELECT x::text FROM (%s) x', format(q, t)) INTO r;
        RETURN NEXT r;
    END LOOP;
END $$;
SELECT count(*) AS differ FROM (SELECT pk_queries('pk_heap') h, pk_queries('pk_pax') p) q
 WHERE q.h IS DISTINCT FROM q.p;
SET pax.enable_customscan = off;
SELECT count(*) AS differ FROM (SELECT pk_queries('pk_heap') h, pk_queries('pk_pax') p) q
 WHERE q.h IS DISTINCT FROM q.p;
RESET pax.enable_customscan;
CREATE INDEX ON pk_pax (i8);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*), sum(i4), min(ts) FROM pk_pax WHERE i8 BETWEEN -5000000000000 AND -4999999900000;
SELECT count(*), sum(i4), min(ts) FROM pk_heap WHERE i8 BETWEEN -5000000000000 AND -4999999900000;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- rows into the freed slots of packed pages (a single-row insert stores
-- its bits among its neighbours'), in range or not; updates; VACUUM
DELETE FROM pk_pax WHERE id % 4 = 0;
DELETE FROM pk_heap WHERE id % 4 = 0;
VACUUM pk_pax;
INSERT INTO pk_pax SELECT id + 10000, i4 + 1, i8 - 1, o, d, tm, ts, tstz,
                          CASE WHEN id % 2 = 0 THEN 'new' ELSE tag END, k4 + 1 FROM pk_heap WHERE id % 9 = 1;
INSERT INTO pk_heap SELECT id + 10000, i4 + 1, i8 - 1, o, d, tm, ts, tstz,
                           CASE WHEN id % 2 = 0 THEN 'new' ELSE tag END, k4 + 1 FROM pk_heap WHERE id % 9 = 1;
INSERT INTO pk_pax VALUES (20001, 2147483647, 9223372036854775807, 4294967295, 'infinity', '23:59:59', '-infinity', NULL, NULL, -2147483648),
                          (20002, -2147483648, -9223372036854775808, 0, '-infinity', '00:00', 'infinity', 'infinity', 'tag 2', NULL),
                          (20003, 1000001, -5000000000000, 3000000001, '2000-01-02', '10:00', '2020-01-01', '2020-01-01 00:00+00', 'other', 7);
INSERT INTO pk_heap VALUES (20001, 2147483647, 9223372036854775807, 4294967295, 'infinity', '23:59:59', '-infinity', NULL, NULL, -2147483648),
                           (20002, -2147483648, -9223372036854775808, 0, '-infinity', '00:00', 'infinity', 'infinity', 'tag 2', NULL),
                           (20003, 1000001, -5000000000000, 3000000001, '2000-01-02', '10:00', '2020-01-01', '2020-01-01 00:00+00', 'other', 7);
UPDATE pk_pax SET i4 = i4 + 3, ts = ts + interval '1 second', tag = 'tag 4' WHERE id % 5 = 2;
UPDATE pk_heap SET i4 = i4 + 3, ts = ts + interval '1 second', tag = 'tag 4' WHERE id % 5 = 2;
VACUUM pk_pax;
SELECT pax_same('pk_heap', 'pk_pax');
SELECT count(*) AS differ FROM (SELECT pk_queries('pk_heap') h, pk_queries('pk_pax') p) q
 WHERE q.h IS DISTINCT FROM q.p;
SELECT count(*) AS problems FROM pax_verify('pk_pax');
VACUUM FULL pk_pax;
SELECT pax_same('pk_heap', 'pk_pax');
SELECT count(*) AS problems FROM pax_verify('pk_pax');
DROP TABLE pk_heap, pk_pax;
DROP FUNCTION pk_queries;

-- a bulk-built page takes a dictionary only for few distinct values (10
-- brands, and 40 categories, among ~160 rows a page), not for about as
-- many as a page has rows (50 quantities like TPC-H's l_quantity), whose predicate
-- per entry would cost PaxScan's filters more than the values' own fast
-- path (TPC-H Q6 was 1.36x slower with l_quantity dictionary-encoded);
-- dictionary and plain columns side by side, their filters, aggregates,
-- changes and VACUUM FULL against heap
SET jit = off;
CREATE TABLE dq_heap (id int, q numeric(15,2), brand text, note text, cat char(12));
INSERT INTO dq_heap
SELECT i, ((i * 7) % 50 + 1)::numeric(15,2), 'Brand#' || (i * 13) % 10,
       md5(i::text), CASE WHEN i % 11 = 0 THEN NULL ELSE 'cat' || (i * 3) % 40 END
  FROM generate_series(1, 3000) i;
COPY dq_heap TO :'enc_file';
CREATE TABLE dq_pax (LIKE dq_heap) USING pax WITH (autovacuum_enabled = off);
COPY dq_pax FROM :'enc_file';
SELECT attname, count(*) FILTER (WHERE encoding ~ '^dictionary') > count(*) / 2 AS mostly_dictionary
  FROM pax_page_stats('dq_pax') s, LATERAL pax_page_columns('dq_pax', s.blkno)
 WHERE attname IN ('q', 'brand', 'note', 'cat') GROUP BY 1 ORDER BY 1;
CREATE FUNCTION dq_queries(t text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    q text;
BEGIN
    FOREACH q IN ARRAY ARRAY[
        'SELECT count(*), sum(q), avg(q), min(q), max(q) FROM %s',
        'SELECT count(*), sum(id) FROM %s WHERE q < 24',
        'SELECT count(*), sum(id) FROM %s WHERE q BETWEEN 10.00 AND 12.5 OR q = 50',
        'SELECT count(*), sum(q) FROM %s WHERE brand = ''Brand#13''',
        'SELECT count(*), sum(q) FROM %s WHERE brand IN (''Brand#1'', ''Brand#24'', ''none'') AND cat > ''cat3''',
        'SELECT count(*), sum(id) FROM %s WHERE cat IS NULL OR cat = ''cat7''',
        'SELECT string_agg(brand || '':'' || n::text || '':'' || s::text, '','' ORDER BY brand) FROM (SELECT brand, count(*) AS n, sum(q) AS s FROM %s GROUP BY brand) x',
        'SELECT md5(string_agg(id || '','' || q || '','' || brand || '','' || note || '','' || coalesce(cat, ''-''), '';'' ORDER BY id)) FROM %s'
    ] LOOP
        RETURN QUERY EXECUTE format('SELECT x::text FROM (%s) x', format(q, t));
    END LOOP;
END $$;
SELECT count(*) AS differ FROM (SELECT dq_queries('dq_heap') h, dq_queries('dq_pax') p) q
 WHERE q.h IS DISTINCT FROM q.p;
-- new values (dictionaries full or not), updates, deletes
UPDATE dq_pax SET q = q + 0.5, brand = 'Brand#99' WHERE id % 7 = 3;
UPDATE dq_heap SET q = q + 0.5, brand = 'Brand#99' WHERE id % 7 = 3;
DELETE FROM dq_pax WHERE id % 5 = 1;
DELETE FROM dq_heap WHERE id % 5 = 1;
INSERT INTO dq_pax SELECT id + 5000, q * 3, brand || 'x', note, cat FROM dq_heap WHERE id % 13 = 0;
INSERT INTO dq_heap SELECT id + 5000, q * 3, brand || 'x', note, cat FROM dq_heap WHERE id % 13 = 0;
SELECT count(*) AS differ FROM (SELECT dq_queries('dq_heap') h, dq_queries('dq_pax') p) q
 WHERE q.h IS DISTINCT FROM q.p;
VACUUM FULL dq_pax;
SELECT pax_same('dq_heap', 'dq_pax');
SELECT count(*) AS problems FROM pax_verify('dq_pax');
DROP TABLE dq_heap, dq_pax;
DROP FUNCTION dq_queries;
RESET jit;

-- narrow bit-packed columns (1 to 28 bits: every width that saves an
-- eighth of a byte width is packed), int2 included, and PaxScan's filters
-- that compare packed offsets as they unpack them (a whole page, or the
-- rows a first filter kept): each comparison against constants below,
-- at, inside and above every page's range, against heap.  Its 4,240
-- queries test PaxScan's C loops: JIT compiling each (bin/test's run with
-- jit_above_cost = 0) would take minutes and test nothing more.
SET jit = off;
CREATE TABLE nb_heap (id int, c1 int4, c3 int2, c7 int4, c12 int2, c14 int8,
                      c27 int4, k int4, neg int4);
INSERT INTO nb_heap
SELECT i, i % 2, (i * 3) % 7, CASE WHEN i % 61 = 0 THEN NULL ELSE (i * 13) % 101 END,
       (i * 7919) % 3001, (i * 104729) % 12001 - 6000,
       abs(hashint4(i)) % 100000007, 42, -50 + (i * 17) % 50
  FROM generate_series(1, 5000) i;
COPY nb_heap TO :'enc_file';
CREATE TABLE nb_pax (LIKE nb_heap) USING pax WITH (autovacuum_enabled = off);
COPY nb_pax FROM :'enc_file';
SELECT attname, min(substring(encoding FROM '(\d+) bits$')::int) AS min_bits,
       max(substring(encoding FROM '(\d+) bits$')::int) AS max_bits
  FROM pax_page_stats('nb_pax') s, LATERAL pax_page_columns('nb_pax', s.blkno)
 WHERE encoding ~ 'bits$' GROUP BY 1 ORDER BY 1;
CREATE FUNCTION nb_queries(t text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    col text;
    op text;
    c bigint;
    r text;
BEGIN
    FOREACH col IN ARRAY ARRAY['c1', 'c3', 'c7', 'c12', 'c14', 'c27', 'k', 'neg'] LOOP
        FOREACH op IN ARRAY ARRAY['<', '<=', '=', '>=', '>', '<>'] LOOP
            FOREACH c IN ARRAY ARRAY[-2147483648, -6001, -6000, -50, -1, 0, 1, 3, 6, 7, 42, 50,
                                    100, 101, 1500, 3000, 3001, 6000, 50000000,
                                    100000006, 100000007, 2147483647] LOOP
                EXECUTE format('SELECT count(*) || '':'' || coalesce(sum(id), 0) FROM %s WHERE %s %s %s',
                               t, col, op, c) INTO r;
                RETURN NEXT col || op || c || '=' || r;
                -- a second filter on the rows a first one kept
                EXECUTE format('SELECT count(*) || '':'' || coalesce(sum(id), 0) FROM %s WHERE id %% 3 = 1 AND c1 = 1 AND %s %s %s',
                               t, col, op, c) INTO r;
                RETURN NEXT 'kept ' || col || op || c || '=' || r;
            END LOOP;
        END LOOP;
        EXECUTE format('SELECT count(*) || '':'' || coalesce(sum(id), 0) FROM %s WHERE %s BETWEEN 1 AND 40 AND %s BETWEEN -100 AND 99999999',
                       t, col, col) INTO r;
        RETURN NEXT col || ' between=' || r;
    END LOOP;
END $$;
SELECT count(*) AS queries, count(*) FILTER (WHERE q.h IS DISTINCT FROM q.p) AS differ
  FROM (SELECT nb_queries('nb_heap') h, nb_queries('nb_pax') p) q;
SELECT count(*) AS problems FROM pax_verify('nb_pax');
DROP TABLE nb_heap, nb_pax;
DROP FUNCTION nb_queries;
RESET jit;

-- every reader, against heap: PaxScan (filters, aggregates, GROUP BY, join
-- filters), then the executor over plain scans, then index scans
EXPLAIN (COSTS OFF) SELECT count(*), sum(i4), min(i4), max(i4) FROM enc_copy WHERE i4 BETWEEN 100 AND 2000;
EXPLAIN (COSTS OFF) SELECT count(*) FROM enc_copy WHERE i2 = 7 AND ts < '2021-01-01';
SELECT q.h = q.c AND q.h = q.i AS same, q.h
  FROM (SELECT enc_queries('enc_heap') h, enc_queries('enc_copy') c,
               enc_queries('enc_ins') i) q;
SET pax.enable_customscan = off;
SELECT count(*) AS differ
  FROM (SELECT enc_queries('enc_heap') h, enc_queries('enc_copy') c,
               enc_queries('enc_ins') i) q WHERE q.h IS DISTINCT FROM q.c OR q.h IS DISTINCT FROM q.i;
RESET pax.enable_customscan;
CREATE INDEX ON enc_copy (i4);
CREATE INDEX ON enc_copy (ts);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*), sum(i8), min(d), max(tstz) FROM enc_copy WHERE i4 BETWEEN 100 AND 200;
SELECT count(*), sum(i8), min(d), max(tstz) FROM enc_heap WHERE i4 BETWEEN 100 AND 200;
SELECT id, i2, i4, i8, o, d, tm, ts FROM enc_copy WHERE ts = '-infinity' OR ts = 'infinity' ORDER BY id;
SELECT id, i2, i4, i8, o, d, tm, ts FROM enc_heap WHERE ts = '-infinity' OR ts = 'infinity' ORDER BY id;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- changes: rows whose new values leave a page's range go elsewhere; VACUUM
-- frees slots that only rows fitting the page's encodings take
UPDATE enc_copy SET i4 = -i4, i8 = i8 / 3 WHERE id % 5 = 0;
UPDATE enc_heap SET i4 = -i4, i8 = i8 / 3 WHERE id % 5 = 0;
DELETE FROM enc_copy WHERE id % 3 = 0;
DELETE FROM enc_heap WHERE id % 3 = 0;
VACUUM enc_copy;
UPDATE enc_copy SET tl = 'changed ' || (id % 4), bp = NULL WHERE id % 11 = 0;
UPDATE enc_heap SET tl = 'changed ' || (id % 4), bp = NULL WHERE id % 11 = 0;
VACUUM enc_copy;
INSERT INTO enc_copy SELECT i, (i % 3)::int2, i * 1000, -i, i, date '1999-01-01' + i,
                            '01:00', timestamp '1999-01-01' + i * interval '1 hour', NULL, 'new ' || i,
                            'new ' || (i % 3), 'bp9', i % 4, NULL, 'n'
  FROM generate_series(1, 2000) i;
INSERT INTO enc_heap SELECT i, (i % 3)::int2, i * 1000, -i, i, date '1999-01-01' + i,
                            '01:00', timestamp '1999-01-01' + i * interval '1 hour', NULL, 'new ' || i,
                            'new ' || (i % 3), 'bp9', i % 4, NULL, 'n'
  FROM generate_series(1, 2000) i;
INSERT INTO enc_copy SELECT id + 20000, i2, i4, i8, o, d, tm, ts, tstz, t, tl, bp, nm, ln, vc FROM enc_heap WHERE id % 3 = 1 AND id < 3000;
INSERT INTO enc_heap SELECT id + 20000, i2, i4, i8, o, d, tm, ts, tstz, t, tl, bp, nm, ln, vc FROM enc_heap WHERE id % 3 = 1 AND id < 3000;
-- COPY into pages with free dictionary entries and slots
COPY (SELECT * FROM enc_heap WHERE id % 13 = 0) TO :'enc_file';
COPY enc_copy FROM :'enc_file';
COPY enc_heap FROM :'enc_file';
SELECT pax_same('enc_heap', 'enc_copy');
SELECT count(*) AS problems FROM pax_verify('enc_copy');
SELECT count(*) AS differ
  FROM (SELECT enc_queries('enc_heap') h, enc_queries('enc_copy') c) q
 WHERE q.h IS DISTINCT FROM q.c;

-- rewrites (VACUUM FULL, CLUSTER, ALTER TABLE) build pages in batches
VACUUM FULL enc_copy;
SELECT pax_same('enc_heap', 'enc_copy');
CLUSTER enc_copy USING enc_copy_ts_idx;
SELECT pax_same('enc_heap', 'enc_copy');
ALTER TABLE enc_copy ALTER COLUMN i2 TYPE int4, DROP COLUMN tm, ALTER COLUMN bp TYPE varchar(12);
ALTER TABLE enc_heap ALTER COLUMN i2 TYPE int4, DROP COLUMN tm, ALTER COLUMN bp TYPE varchar(12);
SELECT pax_same('enc_heap', 'enc_copy');
SELECT count(*) AS problems FROM pax_verify('enc_copy');
SELECT count(*) FILTER (WHERE encoded > 0) > 0 AS encoded FROM pax_page_stats('enc_copy');

DROP TABLE enc_heap, enc_copy, enc_ins, enc_one, enc_plain;
DROP FUNCTION pax_same, enc_queries;

-- a table of a shape per page (bit widths and row counts varying page to
-- page) read by TID through an index, in a nested loop that comes back to
-- its pages: the fetching slot's layout cache grows past its first 128
-- entries, moving them as its sets split; the rows are heap's
CREATE TABLE enc_shapes (id int, a int8, b int8, e int8, c text) USING pax;
INSERT INTO enc_shapes
SELECT g, (g::int8 * 40503) % (2::int8 ^ (1 + (g / 290) % 40))::int8,
       (g::int8 * 7919) % (2::int8 ^ (1 + (g / 170) % 30))::int8,
       (g::int8 * 104729) % (2::int8 ^ (1 + (g / 230) % 20))::int8,
       repeat('y', (g / 410) % 30)
  FROM generate_series(1, 200000) g;
CREATE INDEX ON enc_shapes (id);
CREATE TABLE enc_shapes_heap (LIKE enc_shapes) USING heap;
INSERT INTO enc_shapes_heap SELECT * FROM enc_shapes;
CREATE INDEX ON enc_shapes_heap (id);
ANALYZE enc_shapes, enc_shapes_heap;
SELECT count(DISTINCT s) > 400 AS many_shapes
  FROM (SELECT string_agg(encoding || ':' || coalesce(value_width, 0) || ':' || has_nullmap,
                          ',' ORDER BY attnum) AS s
          FROM generate_series(0, pg_relation_size('enc_shapes') / 8192 - 1) b,
               pax_page_columns('enc_shapes', b)
         GROUP BY b) p;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_memoize = off;
EXPLAIN (COSTS OFF)
SELECT sum(s.a), sum(s.b), sum(s.e), sum(length(s.c))
  FROM generate_series(1, 200000, 3) k JOIN enc_shapes s ON s.id = (k * 7919) % 200000 + 1;
SELECT (SELECT row(sum(s.a), sum(s.b), sum(s.e), sum(length(s.c)))
          FROM generate_series(1, 200000, 3) k
          JOIN enc_shapes s ON s.id = (k * 7919) % 200000 + 1) =
       (SELECT row(sum(s.a), sum(s.b), sum(s.e), sum(length(s.c)))
          FROM generate_series(1, 200000, 3) k
          JOIN enc_shapes_heap s ON s.id = (k * 7919) % 200000 + 1) AS same;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_memoize;
DROP TABLE enc_shapes, enc_shapes_heap;
