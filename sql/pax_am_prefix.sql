--
-- pax_am_prefix: prefix-encoded minipages (pax.h, "Prefix encoding"): the
-- values of a varlena column that the rows of a batch share the first
-- bytes of are stored without them, the prefix once a page.  Every value
-- reads back exactly as heap stores it, through every reader (slots,
-- PaxScan filters, aggregates and GROUP BY, join filters, index fetches,
-- VACUUM, rewrites); a row whose value does not start with a page's prefix
-- goes to another page; values a short varlena cannot hold (long, TOAST)
-- keep their column plain.
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

-- the encodings of a table's pages, per column
CREATE FUNCTION pfx_encodings(t regclass) RETURNS TABLE (attname name, encoding text, pages bigint)
LANGUAGE sql AS $$
    SELECT c.attname, c.encoding, count(*)
      FROM pax_page_stats(t) s, pax_page_columns(t, s.blkno) c
     GROUP BY 1, 2 ORDER BY 1, 2
$$;

-- the same queries on each table (pax_same_answers: %s is the table)
CREATE FUNCTION pfx_queries() RETURNS text[] LANGUAGE sql AS $q$ SELECT ARRAY[
        'SELECT count(*) FROM %s WHERE t = ''key_12345''',
        'SELECT count(*), min(id), max(id) FROM %s WHERE t BETWEEN ''key_1234'' AND ''key_2''',
        'SELECT count(*) FROM %s WHERE t LIKE ''key_123%%''',
        'SELECT count(*) FROM %s WHERE t IN (''key_7'', ''key_70'', ''key_700'', ''nope'')',
        'SELECT count(*) FROM %s WHERE vc IS NULL',
        'SELECT count(*) FROM %s WHERE vc = ''vc/7''',
        'SELECT count(*) FROM %s WHERE bp < ''bp-5''',
        'SELECT min(t), max(t), min(vc), max(vc), max(bp), count(nm) FROM %s',
        'SELECT sum(nm), avg(nm), min(nm), max(nm) FROM %s',
        'SELECT sum(nm) FROM %s WHERE nm > 100.5',
        'SELECT count(*) FROM %s WHERE nm = 123.45',
        'SELECT string_agg(DISTINCT left(t, 6), '','' ORDER BY left(t, 6)) FROM %s',
        'SELECT bp, count(*), sum(id) FROM %s GROUP BY bp ORDER BY bp LIMIT 5',
        'SELECT left(vc, 4), count(*) FROM %s GROUP BY 1 ORDER BY 1',
        'SELECT md5(string_agg(js::text || by::text || ar::text, '','' ORDER BY id)) FROM %s',
        'SELECT count(*) FROM %s WHERE js ->> ''k'' = ''v-42''',
        'SELECT sum(length(t) + length(vc) + octet_length(by)) FROM %s WHERE id %% 3 = 0'
    ] $q$;

CREATE TABLE pfx_heap (id int, t text, vc varchar(20), bp char(8), nm numeric,
                       js jsonb, by bytea, ar int[]) USING heap;
INSERT INTO pfx_heap
SELECT i, 'key_' || i,
       CASE WHEN i % 11 = 0 THEN NULL ELSE 'vc/' || (i % 500) END,
       'bp-' || (i % 9),
       i / 100.0,
       jsonb_build_object('k', 'v-' || (i % 100)),
       ('\x0102030405' || lpad(to_hex(i), 6, '0'))::bytea,
       ARRAY[1000, i]
  FROM generate_series(1, 20000) i;

-- every way of loading a batch
CREATE TABLE pfx_ins (LIKE pfx_heap) USING pax;
INSERT INTO pfx_ins SELECT * FROM pfx_heap;
SELECT pax_same('pfx_heap', 'pfx_ins');
CREATE TABLE pfx_ctas USING pax AS SELECT * FROM pfx_heap;
SELECT pax_same('pfx_heap', 'pfx_ctas');
COPY pfx_heap TO '/tmp/pax_am_prefix.copy';
CREATE TABLE pfx_copy (LIKE pfx_heap) USING pax;
COPY pfx_copy FROM '/tmp/pax_am_prefix.copy';
SELECT pax_same('pfx_heap', 'pfx_copy');

-- the varlena columns whose values share first bytes are prefix-encoded
-- (bp: a few distinct values, a dictionary; id: frame of reference), with
-- fixed-width rests where the rests are short and never end with a zero
-- byte (t, vc, js, bp; by on pages where no rest ends with one), in 4-bit
-- codes where their bytes make an alphabet of at most 15
SELECT attname, encoding FROM pfx_encodings('pfx_copy')
 WHERE encoding LIKE 'prefix%' GROUP BY 1, 2 ORDER BY 1;
-- a prefix-encoded value takes the bytes of its rest only: a short varlena
-- behind an offset (ar), or a fixed-width rest, no header, no offset (t);
-- (nm: decimal-scaled numerics, pax_am_factor)
SELECT round(sum(c.value_bytes)::numeric / (SELECT sum(pg_column_size(ar)) FROM pfx_copy), 2) AS ar_rest_share
  FROM pax_page_stats('pfx_copy') s, pax_page_columns('pfx_copy', s.blkno) c
 WHERE c.attname = 'ar';
SELECT round(sum(c.minipage_bytes)::numeric / (SELECT sum(octet_length(t) + 1 + 2) FROM pfx_copy), 2) AS t_rest_share,
       sum(c.value_bytes) AS t_value_bytes
  FROM pax_page_stats('pfx_copy') s, pax_page_columns('pfx_copy', s.blkno) c
 WHERE c.attname = 't';
SELECT pg_relation_size('pfx_copy') < pg_relation_size('pfx_heap') * 0.6 AS smaller;

-- the same answers through PaxScan, the plain scan and heap
SELECT same, answer FROM pax_same_answers(pfx_queries(), 'pfx_heap', 'pfx_copy') ORDER BY n;
SET pax.enable_customscan = off;
SELECT count(*) FILTER (WHERE same) AS same, count(*) FROM pax_same_answers(pfx_queries(), 'pfx_heap', 'pfx_copy');
RESET pax.enable_customscan;
-- a join filter on a prefix-encoded key
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT count(*), sum(p.id) FROM pfx_copy p JOIN (SELECT 'key_' || g AS k FROM generate_series(100, 20000, 97) g) k ON p.t = k.k;
SELECT count(*), sum(p.id) FROM pfx_heap p JOIN (SELECT 'key_' || g AS k FROM generate_series(100, 20000, 97) g) k ON p.t = k.k;
RESET enable_mergejoin;
RESET enable_nestloop;

-- values equal to the prefix (an empty rest) and empty strings, in
-- fixed-width rests (t) and behind offsets (u: rests too long for them)
CREATE TABLE pfx_edge_heap (id int, t text, u text) USING heap;
INSERT INTO pfx_edge_heap SELECT i, CASE WHEN i % 3 = 0 THEN 'abc' ELSE 'abc' || i END,
       'abc' || repeat('y', 40) || CASE WHEN i % 3 = 0 THEN '' ELSE repeat('z', i % 40) || i END
  FROM generate_series(1, 300) i;
INSERT INTO pfx_edge_heap SELECT i, '', 'abc' || repeat('y', 40) FROM generate_series(301, 310) i;
CREATE TABLE pfx_edge (LIKE pfx_edge_heap) USING pax;
INSERT INTO pfx_edge SELECT * FROM pfx_edge_heap ORDER BY id;
SELECT pax_same('pfx_edge_heap', 'pfx_edge');
SELECT * FROM pfx_encodings('pfx_edge') WHERE attname IN ('t', 'u');
SELECT count(*), count(*) FILTER (WHERE t = 'abc'), count(*) FILTER (WHERE t = ''),
       count(*) FILTER (WHERE u = 'abc' || repeat('y', 40)) FROM pfx_edge;

-- a single row whose value lacks the prefix goes to another page; one
-- that has it may join a page of the batch
SELECT count(*) AS pages_before FROM pax_page_stats('pfx_copy');
INSERT INTO pfx_heap VALUES (20001, 'other', 'vc/1', 'bp-1', 1.5, '{}', '\x00', '{}');
INSERT INTO pfx_copy VALUES (20001, 'other', 'vc/1', 'bp-1', 1.5, '{}', '\x00', '{}');
INSERT INTO pfx_heap VALUES (20002, 'key_20002', 'vc/2', 'bp-2', 2.5, '{}', '\x01', '{1}');
INSERT INTO pfx_copy VALUES (20002, 'key_20002', 'vc/2', 'bp-2', 2.5, '{}', '\x01', '{1}');
SELECT pax_same('pfx_heap', 'pfx_copy');
SELECT t, vc, bp FROM pfx_copy WHERE id > 20000 ORDER BY id;
SELECT id, c.encoding FROM pfx_copy p,
       pax_page_columns('pfx_copy', (p.ctid::text::point)[0]::bigint) c
 WHERE p.id = 20001 AND c.attname = 't';

-- fixed-width rests in symbols (pax.h, PAX_SYMREST_BASE): rests whose
-- bytes make an alphabet of at most 15 take 4-bit codes (s: digits, b:
-- zero bytes inside a rest); more distinct bytes keep whole bytes (h);
-- a row whose rest holds a byte outside its page's alphabet goes to
-- another page
CREATE TABLE pfx_sym_heap (id int, s text, b bytea, h text) USING heap;
INSERT INTO pfx_sym_heap
SELECT i, 'n-' || (i * 37 % 1000),
       decode('0a0' || (i % 7 + 1) || '000' || (i / 7 % 7 + 1) || '0' || (i / 49 % 7 + 1), 'hex'),
       'h' || substr(md5(i::text), 1, 8) || chr(71 + i % 20)
  FROM generate_series(1, 3000) i;
CREATE TABLE pfx_sym (LIKE pfx_sym_heap) USING pax;
COPY pfx_sym_heap TO '/tmp/pax_am_prefix_sym.copy';
COPY pfx_sym FROM '/tmp/pax_am_prefix_sym.copy';
SELECT pax_same('pfx_sym_heap', 'pfx_sym');
SELECT attname, encoding FROM pfx_encodings('pfx_sym')
 WHERE attname IN ('s', 'b', 'h') GROUP BY 1, 2 ORDER BY 1, 2;
SELECT round(sum(c.minipage_bytes)::numeric / (SELECT count(*) FROM pfx_sym), 2) AS s_bytes_a_row
  FROM pax_page_stats('pfx_sym') s, pax_page_columns('pfx_sym', s.blkno) c
 WHERE c.attname = 's';
SELECT count(*), count(DISTINCT s), min(s), max(s), sum(length(s)) FROM pfx_sym WHERE s > 'n-5';
SELECT count(*), count(DISTINCT s), min(s), max(s), sum(length(s)) FROM pfx_sym_heap WHERE s > 'n-5';
SELECT count(*), sum(id) FROM pfx_sym WHERE s = 'n-37' OR s IN ('n-74', 'n-999');
SELECT count(*), sum(id) FROM pfx_sym_heap WHERE s = 'n-37' OR s IN ('n-74', 'n-999');
SELECT count(DISTINCT b), md5(string_agg(b::text, ',' ORDER BY id)),
       count(*) FILTER (WHERE b = '\x0a01000203') FROM pfx_sym;
SELECT count(DISTINCT b), md5(string_agg(b::text, ',' ORDER BY id)),
       count(*) FILTER (WHERE b = '\x0a01000203') FROM pfx_sym_heap;
INSERT INTO pfx_sym_heap VALUES (3002, 'n-12', '\x0a01000101', 'hq');
INSERT INTO pfx_sym VALUES (3002, 'n-12', '\x0a01000101', 'hq');
INSERT INTO pfx_sym_heap VALUES (3001, 'n-x1', '\x0a0f', 'h');
INSERT INTO pfx_sym VALUES (3001, 'n-x1', '\x0a0f', 'h');
SELECT pax_same('pfx_sym_heap', 'pfx_sym');
SELECT id, c.encoding FROM pfx_sym p,
       pax_page_columns('pfx_sym', (p.ctid::text::point)[0]::bigint) c
 WHERE p.id = 3001 AND c.attname = 's';
DELETE FROM pfx_sym WHERE id % 3 = 0;
DELETE FROM pfx_sym_heap WHERE id % 3 = 0;
VACUUM pfx_sym;
INSERT INTO pfx_sym SELECT i, 'n-' || i % 7, '\x0a02000303', 'h1' FROM generate_series(3003, 3100) i;
INSERT INTO pfx_sym_heap SELECT i, 'n-' || i % 7, '\x0a02000303', 'h1' FROM generate_series(3003, 3100) i;
SELECT pax_same('pfx_sym_heap', 'pfx_sym');
SELECT count(*) FROM pax_verify('pfx_sym');

-- long values (no short varlena holds them) and TOAST keep a column plain
CREATE TABLE pfx_long_heap (id int, t text) USING heap;
INSERT INTO pfx_long_heap SELECT i, 'long_' || repeat('x', 120 + i % 20) || i FROM generate_series(1, 200) i;
INSERT INTO pfx_long_heap SELECT i, 'toast_' || (SELECT string_agg(md5(g::text || i), '') FROM generate_series(1, 300) g) FROM generate_series(201, 210) i;
CREATE TABLE pfx_long (LIKE pfx_long_heap) USING pax;
INSERT INTO pfx_long SELECT * FROM pfx_long_heap ORDER BY id;
SELECT pax_same('pfx_long_heap', 'pfx_long');
SELECT count(*) FROM pfx_encodings('pfx_long') WHERE encoding LIKE 'prefix%';

-- DELETE, UPDATE, VACUUM (which moves the rests), indexes, rewrites
CREATE INDEX pfx_copy_t ON pfx_copy (t);
CREATE INDEX pfx_heap_t ON pfx_heap (t);
DELETE FROM pfx_copy WHERE id % 4 = 0;
DELETE FROM pfx_heap WHERE id % 4 = 0;
UPDATE pfx_copy SET vc = vc || '+' WHERE id % 10 = 1;
UPDATE pfx_heap SET vc = vc || '+' WHERE id % 10 = 1;
VACUUM pfx_copy;
SELECT pax_same('pfx_heap', 'pfx_copy');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT id, t, vc FROM pfx_copy WHERE t IN ('key_1', 'key_15', 'key_19999', 'key_20002') ORDER BY id;
SELECT count(*), sum(id) FROM pfx_copy WHERE t BETWEEN 'key_5' AND 'key_6';
SELECT count(*), sum(id) FROM pfx_heap WHERE t BETWEEN 'key_5' AND 'key_6';
RESET enable_seqscan;
RESET pax.enable_customscan;
SELECT count(*) FROM pax_verify('pfx_copy');
VACUUM FULL pfx_copy;
SELECT pax_same('pfx_heap', 'pfx_copy');
CLUSTER pfx_copy USING pfx_copy_t;
SELECT pax_same('pfx_heap', 'pfx_copy');
SELECT count(*) > 0 AS prefix_after_rewrite FROM pfx_encodings('pfx_copy') WHERE encoding LIKE 'prefix%';
ALTER TABLE pfx_copy ALTER COLUMN vc TYPE text;
SELECT pax_same('pfx_heap', 'pfx_copy');
SELECT count(*) FROM pax_verify('pfx_copy');

-- off with pax.encode_minipages
SET pax.encode_minipages = off;
CREATE TABLE pfx_off USING pax AS SELECT * FROM pfx_heap;
SELECT count(*) FROM pfx_encodings('pfx_off') WHERE encoding LIKE 'prefix%';
RESET pax.encode_minipages;

DROP TABLE pfx_heap, pfx_ins, pfx_ctas, pfx_copy, pfx_edge_heap, pfx_edge,
  pfx_long_heap, pfx_long, pfx_off, pfx_sym_heap, pfx_sym;
DROP FUNCTION pfx_encodings(regclass), pfx_queries();
