--
-- pax_am_const: constant minipages (pax_encoding.h, PAX_CONST_WIDTH): an
-- integer-like column whose values on a batch's page are all equal stores
-- no minipage, its value being the page's base (NULLs in the null bitmap).
-- Every value reads back exactly as heap stores it, through every reader
-- (slots, PaxScan filters, aggregates and join filters, index fetches,
-- VACUUM, rewrites); a row of another value goes to another page.
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
CREATE FUNCTION cst_queries() RETURNS text[] LANGUAGE sql AS $q$ SELECT ARRAY[
        'SELECT count(*), sum(id) FROM %s WHERE k = 7',
        'SELECT count(*), sum(id) FROM %s WHERE k <> 7',
        'SELECT count(*), sum(id) FROM %s WHERE k > 6 AND k < 8',
        'SELECT count(*), sum(id) FROM %s WHERE k BETWEEN 8 AND 20',
        'SELECT count(*), sum(id) FROM %s WHERE n = 42',
        'SELECT count(*), sum(id) FROM %s WHERE n IS NULL',
        'SELECT count(*), sum(id) FROM %s WHERE s = -3 AND d = ''2024-01-01''',
        'SELECT count(*), sum(id) FROM %s WHERE d > ''2024-01-01''',
        'SELECT count(*), sum(id) FROM %s WHERE grp = 3 AND k = 7',
        'SELECT sum(k), min(k), max(k), sum(n), min(n), max(n), count(n) FROM %s',
        'SELECT sum(s), min(s), max(s), min(d), max(d), sum(b) FROM %s',
        'SELECT sum(k), sum(n) FROM %s WHERE id %% 3 = 0',
        'SELECT grp, count(*), sum(k), sum(n), max(s) FROM %s GROUP BY grp ORDER BY grp',
        'SELECT md5(string_agg(k::text || s::text || coalesce(n::text, ''-'') || d::text || b::text, '','' ORDER BY id)) FROM %s'
    ] $q$;

-- k, s, d, b constant on every page, n constant with NULLs, grp constant
-- on runs of rows (its pages: constant or not)
CREATE TABLE cst_heap (id int, k int4, s int2, n int8, d date, b int8, grp int4) USING heap;
INSERT INTO cst_heap
SELECT i, 7, -3, CASE WHEN i % 10 = 0 THEN NULL ELSE 42 END, date '2024-01-01',
       -9223372036854775807, i / 1000
  FROM generate_series(1, 6000) i;
CREATE TABLE cst (LIKE cst_heap) USING pax;
INSERT INTO cst SELECT * FROM cst_heap ORDER BY id;
SELECT pax_same('cst_heap', 'cst');

-- the constant columns take no minipage bytes but their null bitmap
SELECT c.attname, c.encoding, c.value_width, max(c.minipage_bytes) AS minipage_bytes,
       count(*) > 1 AS some_pages
  FROM pax_page_stats('cst') s, pax_page_columns('cst', s.blkno) c
 WHERE c.encoding = 'constant'
 GROUP BY 1, 2, 3 ORDER BY 1;
SELECT count(*) AS problems FROM pax_verify('cst');
SET pax.encode_minipages = off;
CREATE TABLE cst_plain USING pax AS SELECT * FROM cst_heap;
RESET pax.encode_minipages;
-- encoded, the columns take fewer bytes a row; the pages hold no fewer
-- rows (their free room keeps TIDs for new versions: PaxCompactKeepTids)
CREATE FUNCTION cst_bytes_a_row(r regclass) RETURNS numeric LANGUAGE sql AS $$
  SELECT (SELECT sum(c.minipage_bytes + c.value_bytes)
            FROM pax_page_stats(r) s, pax_page_columns(r, s.blkno) c)::numeric /
         (SELECT sum(nrows) FROM pax_page_stats(r)) $$;
SELECT cst_bytes_a_row('cst') < cst_bytes_a_row('cst_plain') AS fewer_bytes,
       pg_relation_size('cst') <= pg_relation_size('cst_plain') AS no_larger;

-- the same answers through PaxScan, the plain scan and heap
SELECT same, answer FROM pax_same_answers(cst_queries(), 'cst_heap', 'cst') ORDER BY n;
SET pax.enable_customscan = off;
SELECT count(*) FILTER (WHERE same) AS same, count(*) FROM pax_same_answers(cst_queries(), 'cst_heap', 'cst');
RESET pax.enable_customscan;
-- a join filter on a constant key
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT count(*), sum(c.id) FROM cst c JOIN (VALUES (7), (9)) v(k) ON c.k = v.k;
SELECT count(*), sum(c.id) FROM cst c JOIN (VALUES (8), (9)) v(k) ON c.k = v.k;
SELECT count(*), sum(c.id) FROM cst c JOIN (VALUES (42::int8)) v(n) ON c.n = v.n;
RESET enable_mergejoin;
RESET enable_nestloop;

-- single rows: the page's value may join a page of the batch, another
-- value goes to another page
INSERT INTO cst_heap VALUES (6001, 7, -3, 42, '2024-01-01', -9223372036854775807, 6),
                            (6002, 8, -3, 42, '2024-01-02', 0, 6);
INSERT INTO cst VALUES (6001, 7, -3, 42, '2024-01-01', -9223372036854775807, 6);
INSERT INTO cst VALUES (6002, 8, -3, 42, '2024-01-02', 0, 6);
SELECT pax_same('cst_heap', 'cst');
SELECT c.encoding = 'constant' AS constant
  FROM cst t, pax_page_columns('cst', (t.ctid::text::point)[0]::bigint) c
 WHERE t.id = 6002 AND c.attname = 'k';
SELECT count(*) AS problems FROM pax_verify('cst');

-- DELETE, UPDATE, VACUUM, indexes, rewrites
CREATE INDEX cst_id ON cst (id);
CREATE INDEX cst_k ON cst (k);
DELETE FROM cst WHERE id % 5 = 0;
DELETE FROM cst_heap WHERE id % 5 = 0;
UPDATE cst SET k = 9 WHERE id % 7 = 1;
UPDATE cst_heap SET k = 9 WHERE id % 7 = 1;
VACUUM cst;
SELECT pax_same('cst_heap', 'cst');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT count(*), sum(id) FROM cst WHERE k = 7 AND id BETWEEN 100 AND 3000;
SELECT count(*), sum(id) FROM cst_heap WHERE k = 7 AND id BETWEEN 100 AND 3000;
RESET enable_seqscan;
RESET pax.enable_customscan;
SELECT count(*) AS problems FROM pax_verify('cst');
VACUUM FULL cst;
SELECT pax_same('cst_heap', 'cst');
SELECT same, answer FROM pax_same_answers(cst_queries(), 'cst_heap', 'cst') ORDER BY n;
SELECT count(*) AS problems FROM pax_verify('cst');

DROP TABLE cst_heap, cst, cst_plain;
DROP FUNCTION cst_queries(), cst_bytes_a_row(regclass);
