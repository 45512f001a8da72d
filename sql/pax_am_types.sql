--
-- pax_am_types: every kind of value reads back exactly as heap stores it.
-- Each table is filled identically as heap and as pax; EXCEPT both ways
-- must return nothing, and the row counts must match.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
\getenv abs_srcdir PG_ABS_SRCDIR
\set pg_versions :abs_srcdir '/sql/include/pg_versions.sql'
\i :pg_versions
SET extra_float_digits = 3;

CREATE TYPE pax_mood AS ENUM ('sad', 'ok', 'happy');
CREATE TYPE pax_pair AS (x int, y text);
CREATE DOMAIN pax_posint AS int CHECK (VALUE > 0);
CREATE DOMAIN pax_shorttext AS varchar(20);

-- pax_same(a, b): a and b row for row (sql/include/pax_same.sql)
\set pax_same :abs_srcdir '/sql/include/pax_same.sql'
\i :pax_same

CREATE TABLE types_heap (
    i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, num numeric, num_t numeric(10,3),
    b bool, ch "char", t text, t_c text COLLATE "C", vc varchar(30), bp char(7), nm name,
    ba bytea, d date, tm time, tmtz timetz, ts timestamp, tstz timestamptz, iv interval,
    u uuid, j json, jb jsonb, arr int[], tarr text[], comp pax_pair, dom pax_posint,
    dom2 pax_shorttext, en pax_mood, inet_ inet, cidr_ cidr, mac macaddr, mac8 macaddr8,
    pt point, bx box, money_ money, bits bit(5), vbits varbit, tsv tsvector,
    rng int4range, mrng int4multirange, oid_ oid, xid_ xid, pgl pg_lsn
) USING heap;

INSERT INTO types_heap
SELECT (i % 32000)::int2, i, i::int8 * 1000003, i / 7.0::float4, i / 13.0, i / 17.0,
       (i / 3.0)::numeric(10,3), i % 2 = 0, chr(65 + i % 26)::"char",
       repeat('txt', i % 10) || i, 'c' || i, 'vc' || i, 'b' || (i % 100),
       'name' || i, decode(md5(i::text), 'hex'), date '2000-01-01' + i,
       time '00:00' + i * interval '1 second', timetz '12:00+02' + i * interval '1 minute',
       timestamp '2001-02-03 04:05:06' + i * interval '1 hour',
       timestamptz '2001-02-03 04:05:06+00' + i * interval '1 day',
       i * interval '1 minute 3 seconds', md5(i::text)::uuid,
       json_build_object('i', i, 's', 'x' || i), jsonb_build_object('k', i, 'a', jsonb_build_array(i, i + 1)),
       ARRAY[i, i + 1, i + 2], ARRAY['a' || i, NULL, 'c'], ROW(i, 'p' || i)::pax_pair,
       i + 1, 'short' || (i % 1000), (ARRAY['sad', 'ok', 'happy'])[1 + i % 3]::pax_mood,
       ('10.0.' || (i % 256) || '.' || (i % 200))::inet, ('192.168.' || (i % 256) || '.0/24')::cidr,
       ('08:00:2b:01:02:' || lpad(to_hex(i % 256), 2, '0'))::macaddr,
       ('08:00:2b:01:02:03:04:' || lpad(to_hex(i % 256), 2, '0'))::macaddr8,
       point(i, -i), box(point(i, i), point(i + 1, i + 2)), (i * 1.25)::money,
       (i % 32)::bit(5), (i % 1000)::bit(10)::varbit, to_tsvector('simple', 'word' || i || ' other'),
       int4range(i, i + 10), int4multirange(int4range(i, i + 1), int4range(i + 5, i + 9)),
       i::oid, (i + 100)::text::xid, ('0/' || to_hex(i * 4096))::pg_lsn
  FROM generate_series(1, 3000) i;

-- NULLs: every column NULL in some rows, all columns NULL in one row
UPDATE types_heap SET i2 = NULL, t = NULL, ba = NULL WHERE i4 % 7 = 0;
UPDATE types_heap SET f8 = NULL, jb = NULL, arr = NULL, tstz = NULL, u = NULL WHERE i4 % 11 = 0;
UPDATE types_heap SET num = NULL, comp = NULL, en = NULL, pt = NULL, vbits = NULL WHERE i4 % 13 < 2;
INSERT INTO types_heap (i4) VALUES (NULL);
INSERT INTO types_heap DEFAULT VALUES;

-- single-row inserts
CREATE TABLE types_pax (LIKE types_heap) USING pax;
INSERT INTO types_pax SELECT * FROM types_heap;
SELECT pax_same('types_heap', 'types_pax');
-- COPY (multi_insert)
CREATE TABLE types_pax_copy (LIKE types_heap) USING pax;
COPY types_heap TO '/tmp/pax_am_types.copy';
COPY types_pax_copy FROM '/tmp/pax_am_types.copy';
SELECT pax_same('types_heap', 'types_pax_copy');
-- CREATE TABLE AS and materialized views
CREATE TABLE types_pax_ctas USING pax AS SELECT * FROM types_heap;
SELECT pax_same('types_heap', 'types_pax_ctas');
CREATE MATERIALIZED VIEW types_pax_mv USING pax AS SELECT * FROM types_heap WHERE i4 % 2 = 0;
SELECT pax_same('(SELECT * FROM types_heap WHERE i4 % 2 = 0)', 'types_pax_mv');
REFRESH MATERIALIZED VIEW types_pax_mv;
SELECT count(*) FROM types_pax_mv;

-- column by column, with NULLs counted
SELECT count(i2), count(t), count(ba), count(f8), count(jb), count(num), count(comp),
       sum(i8), sum(f4)::numeric(20,2), sum(num)::numeric(20,3), string_agg(bp, '' ORDER BY i4) = string_agg(bp, '' ORDER BY i4)
  FROM types_pax;
SELECT t_c, vc, bp, nm, en, comp, dom, dom2 FROM types_pax WHERE i4 IN (1, 2, 3000) ORDER BY i4;
SELECT jb -> 'a', j ->> 's', arr[2], tarr, rng, mrng FROM types_pax WHERE i4 = 42;
-- collations: C and default order the same strings differently
SELECT t_c FROM types_pax WHERE i4 < 20 ORDER BY t_c COLLATE "C" LIMIT 3;

-- narrow and wide rows, 1, 100 and 1600 columns
CREATE TABLE one_heap (a int) USING heap;
INSERT INTO one_heap SELECT CASE WHEN i % 10 = 0 THEN NULL ELSE i END FROM generate_series(1, 20000) i;
CREATE TABLE one_pax USING pax AS SELECT * FROM one_heap;
SELECT pax_same('one_heap', 'one_pax');
SELECT max(capacity) <= 291 AS capacity_bounded, min(nrows) > 0 AS no_empty_pages FROM pax_page_stats('one_pax');

\set ECHO none
SELECT format('CREATE TABLE wide100_heap (%s) USING heap',
              string_agg(format('c%s %s', k, CASE k % 3 WHEN 0 THEN 'int' WHEN 1 THEN 'text' ELSE 'float8' END), ', ' ORDER BY k))
  FROM generate_series(1, 100) k \gexec
SELECT format('INSERT INTO wide100_heap SELECT %s FROM generate_series(1, 500) i',
              string_agg(CASE k % 3 WHEN 0 THEN format('CASE WHEN i %% %s = 0 THEN NULL ELSE i * %s END', k, k)
                                    WHEN 1 THEN format('''v%s_'' || i', k)
                                    ELSE format('i / %s.0', k) END, ', ' ORDER BY k))
  FROM generate_series(1, 100) k \gexec
\set ECHO all
CREATE TABLE wide100_pax (LIKE wide100_heap) USING pax;
INSERT INTO wide100_pax SELECT * FROM wide100_heap;
SELECT pax_same('wide100_heap', 'wide100_pax');
SELECT c95, c96, c97, c98, c99, c100 FROM wide100_pax WHERE c1 = 'v1_7';
-- COPY's batches and VACUUM FULL's: rows of more variable-length columns
-- than a prepared row lists (PAX_ROW_VARATTS), with NULLs
\getenv abs_builddir PG_ABS_BUILDDIR
\set wide_file :abs_builddir '/results/pax_am_types_wide.data'
COPY wide100_heap TO :'wide_file';
CREATE TABLE wide100_copy (LIKE wide100_heap) USING pax;
COPY wide100_copy FROM :'wide_file';
SELECT pax_same('wide100_heap', 'wide100_copy');
VACUUM FULL wide100_copy;
SELECT pax_same('wide100_heap', 'wide100_copy');
DROP TABLE wide100_copy;

\set ECHO none
SELECT format('CREATE TABLE wide1600_heap (%s) USING heap',
              string_agg(format('c%s int', k), ', ' ORDER BY k))
  FROM generate_series(1, 1600) k \gexec
SELECT format('INSERT INTO wide1600_heap SELECT %s FROM generate_series(1, 20) i',
              string_agg(format('i + %s', k), ', ' ORDER BY k))
  FROM generate_series(1, 1600) k \gexec
\set ECHO all
INSERT INTO wide1600_heap (c1, c1600) VALUES (NULL, NULL), (-1, NULL);
CREATE TABLE wide1600_pax (LIKE wide1600_heap) USING pax;
INSERT INTO wide1600_pax SELECT * FROM wide1600_heap;
SELECT pax_same('wide1600_heap', 'wide1600_pax');
SELECT c1, c800, c1600 FROM wide1600_pax ORDER BY c1 NULLS FIRST LIMIT 3;
SELECT count(*) AS pages, min(capacity), max(capacity) FROM pax_page_stats('wide1600_pax');

-- ADD COLUMN with and without defaults ("missing" attributes), DROP COLUMN
CREATE TABLE alter_heap (a int, b text, c int) USING heap;
CREATE TABLE alter_pax (a int, b text, c int) USING pax;
INSERT INTO alter_heap SELECT i, 'b' || i, i FROM generate_series(1, 1000) i;
INSERT INTO alter_pax SELECT * FROM alter_heap;
ALTER TABLE alter_heap ADD COLUMN d int DEFAULT 42, ADD COLUMN e text DEFAULT 'dflt', ADD COLUMN f int;
ALTER TABLE alter_pax ADD COLUMN d int DEFAULT 42, ADD COLUMN e text DEFAULT 'dflt', ADD COLUMN f int;
ALTER TABLE alter_heap ADD COLUMN g timestamptz DEFAULT now();
ALTER TABLE alter_pax ADD COLUMN g timestamptz DEFAULT now();
SELECT pax_same('(SELECT a, b, c, d, e, f FROM alter_heap)', '(SELECT a, b, c, d, e, f FROM alter_pax)');
SELECT count(DISTINCT g) AS one_default_value FROM alter_pax;
ALTER TABLE alter_heap DROP COLUMN b;
ALTER TABLE alter_pax DROP COLUMN b;
INSERT INTO alter_heap (a, c, d, e, f) SELECT i, i, i, 'new' || i, i FROM generate_series(1001, 1500) i;
INSERT INTO alter_pax (a, c, d, e, f) SELECT i, i, i, 'new' || i, i FROM generate_series(1001, 1500) i;
ALTER TABLE alter_heap DROP COLUMN g;
ALTER TABLE alter_pax DROP COLUMN g;
SELECT pax_same('alter_heap', 'alter_pax');
SELECT * FROM alter_pax WHERE a IN (1, 1000, 1001, 1500) ORDER BY a;
-- a page laid out before DROP COLUMN and one after
SELECT attname, has_nullmap FROM pax_page_columns('alter_pax', 0) ORDER BY attnum;
SELECT attname FROM pax_page_columns('alter_pax', (SELECT max(blkno) FROM pax_page_stats('alter_pax'))) ORDER BY attnum;

-- ALTER COLUMN TYPE rewrites the table through the access method
ALTER TABLE alter_pax ALTER COLUMN c TYPE bigint;
ALTER TABLE alter_heap ALTER COLUMN c TYPE bigint;
SELECT pax_same('alter_heap', 'alter_pax');

-- single-row inserts keep the layouts of the pages they fill from row to
-- row of one relation (PaxSingleInsertLayouts): a column's type changed
-- (the pages rewritten), a column dropped, one added, and rows of two pax
-- tables in turn between them, in one session, against heap.  Its 3,600
-- single-row INSERTs test pax's C code: JIT compiling each (bin/test's run
-- with jit_above_cost = 0) would take a minute and test nothing more.
SET jit = off;
CREATE TABLE sl_heap (a int, b int2, c text, d int) USING heap;
CREATE TABLE sl_pax (LIKE sl_heap) USING pax;
CREATE TABLE sl_pax2 (LIKE sl_heap) USING pax;
CREATE PROCEDURE sl_rows(lo int, hi int) LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN lo .. hi LOOP
        INSERT INTO sl_heap (a, b, d) VALUES (i, i % 100, i * 2);
        INSERT INTO sl_pax (a, b, d) VALUES (i, i % 100, i * 2);
        INSERT INTO sl_pax2 (a, b, d) VALUES (i, i % 7, -i);
    END LOOP;
END $$;
CALL sl_rows(1, 300);
UPDATE sl_heap SET c = 'c' || a WHERE a % 3 = 0;
UPDATE sl_pax SET c = 'c' || a WHERE a % 3 = 0;
ALTER TABLE sl_heap ALTER COLUMN b TYPE int8;
ALTER TABLE sl_pax ALTER COLUMN b TYPE int8;
CALL sl_rows(301, 600);
ALTER TABLE sl_heap DROP COLUMN c;
ALTER TABLE sl_pax DROP COLUMN c;
CALL sl_rows(601, 900);
ALTER TABLE sl_heap ADD COLUMN e text DEFAULT 'e';
ALTER TABLE sl_pax ADD COLUMN e text DEFAULT 'e';
CALL sl_rows(901, 1200);
SELECT pax_same('sl_heap', 'sl_pax');
SELECT count(*), sum(a), sum(b), sum(d) FROM sl_pax2;
SELECT count(*) AS problems FROM pax_verify('sl_pax');
DROP PROCEDURE sl_rows;
DROP TABLE sl_heap, sl_pax, sl_pax2;
RESET jit;

-- system columns
SELECT count(*) FILTER (WHERE xmin::text::bigint > 0) AS xmin_set,
       count(*) FILTER (WHERE xmax::text = '0') AS xmax_zero,
       count(DISTINCT ctid) AS distinct_ctids,
       count(*) FILTER (WHERE tableoid = 'alter_pax'::regclass) AS tableoid_ok
  FROM alter_pax;

DROP MATERIALIZED VIEW types_pax_mv;
DROP TABLE types_heap, types_pax, types_pax_copy, types_pax_ctas, one_heap, one_pax,
  wide100_heap, wide100_pax, wide1600_heap, wide1600_pax, alter_heap, alter_pax;
DROP FUNCTION pax_same;
DROP TYPE pax_pair, pax_mood;
DROP DOMAIN pax_posint, pax_shorttext;
