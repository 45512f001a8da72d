--
-- pax_am_verify: pax_verify() finds nothing on healthy tables of many types
-- and shapes (NULLs, text, wide, TOAST, COPY, VACUUM, ALTER TABLE, aborted
-- inserts, rewrites), and errors clearly on what is not a pax table.
-- t/005_pax_verify.pl corrupts pages on disk and checks the reports.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;

-- superuser-only, like the other functions of the extension
SELECT has_function_privilege('public', 'pax_verify(regclass, bool, bool)', 'EXECUTE') AS public_may_run;

-- an empty table
CREATE TABLE vf_empty (a int, b text) USING pax;

-- many types, NULLs in every column, zone-mapped and not
CREATE TABLE vf_types (i2 int2, i4 int, i8 bigint, o oid, f4 float4, f8 float8,
    b bool, ch "char", d date, t time, ts timestamp, tz timestamptz,
    n numeric, tx text, vc varchar(20), bp char(5), u uuid, nm name,
    byt bytea, j jsonb, arr int[], iv interval) USING pax;
INSERT INTO vf_types
SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 30000)::int2 END,
       CASE WHEN i % 11 = 0 THEN NULL ELSE i - 2500 END,
       i::bigint * 1000000007, i::oid,
       CASE WHEN i % 13 = 0 THEN 'NaN'::float4 ELSE i / 3.0 END,
       CASE WHEN i % 17 = 0 THEN '-Infinity'::float8 ELSE -i / 7.0 END,
       CASE WHEN i % 5 = 0 THEN NULL ELSE i % 2 = 0 END,
       chr(65 + i % 26)::"char",
       CASE WHEN i = 1 THEN 'infinity'::date ELSE date '2000-01-01' + i END,
       time '00:00' + i * interval '1 second',
       timestamp '2020-01-01' + i * interval '1 minute',
       CASE WHEN i = 2 THEN '-infinity'::timestamptz
            ELSE timestamptz '2020-01-01 00:00+00' + i * interval '1 hour' END,
       i * 1.5, CASE WHEN i % 3 = 0 THEN NULL ELSE repeat('t', i % 40) END,
       'vc' || i, 'bp' || (i % 100), md5(i::text)::uuid, 'name' || i,
       decode(md5(i::text), 'hex'), jsonb_build_object('k', i),
       ARRAY[i, i + 1], i * interval '1 day'
  FROM generate_series(1, 5000) i;
INSERT INTO vf_types DEFAULT VALUES;

-- COPY (multi_insert), short and long text
CREATE TABLE vf_copy (id int, note text) USING pax;
COPY vf_copy FROM stdin;
1	one
2	\N
3	three
4	a somewhat longer note that is still stored inline
\.
INSERT INTO vf_copy SELECT i, repeat('c', i % 300) FROM generate_series(5, 3000) i;

-- TOAST: compressed inline, compressed external and uncompressed external
CREATE TABLE vf_toast (id int, big text) USING pax;
INSERT INTO vf_toast SELECT i, repeat('compressible ', 200 * i) FROM generate_series(1, 20) i;
INSERT INTO vf_toast SELECT 100 + i, (SELECT string_agg(md5(i::text || j::text), '') FROM generate_series(1, 150) j)
  FROM generate_series(1, 20) i;
ALTER TABLE vf_toast ALTER COLUMN big SET STORAGE EXTERNAL;
INSERT INTO vf_toast SELECT 200 + i, repeat('x', 5000) FROM generate_series(1, 5) i;
SELECT count(*) AS rows, sum(length(big)) AS chars,
       pg_relation_size(reltoastrelid) > 0 AS toasted
  FROM vf_toast, pg_class WHERE relname = 'vf_toast' GROUP BY reltoastrelid;

-- wide: 1,600 int4 columns, mostly NULL (columns without minipages)
\set ECHO none
SELECT format('CREATE TABLE vf_wide (%s) USING pax',
              string_agg(format('c%s int', k), ', ' ORDER BY k))
  FROM generate_series(1, 1600) k \gexec
SELECT format('INSERT INTO vf_wide SELECT %s FROM generate_series(1, 30) i',
              string_agg(format('CASE WHEN i %% 3 = 0 AND %s > 1500 THEN NULL ELSE i + %s END', k, k), ', ' ORDER BY k))
  FROM generate_series(1, 1600) k \gexec
\set ECHO all
INSERT INTO vf_wide (c1) VALUES (1), (NULL);

-- aborted inserts, then VACUUM (FREEZE): relfrozenxid passes their xmins
CREATE TABLE vf_aborted (a int, b text) USING pax;
INSERT INTO vf_aborted SELECT i, 'kept ' || i FROM generate_series(1, 1000) i;
BEGIN;
INSERT INTO vf_aborted SELECT i, 'aborted ' || i FROM generate_series(1, 1000) i;
SELECT txid_current() AS aborted_xid \gset
ROLLBACK;
BEGIN;
SAVEPOINT s;
INSERT INTO vf_aborted VALUES (-1, 'in an aborted subtransaction');
ROLLBACK TO SAVEPOINT s;
INSERT INTO vf_aborted VALUES (-2, 'committed after it');
COMMIT;
SELECT * FROM pax_verify('vf_aborted');
VACUUM (FREEZE) vf_aborted;
SELECT count(*), (SELECT relfrozenxid::text::bigint > :aborted_xid
                    FROM pg_class WHERE relname = 'vf_aborted') AS frozenxid_passed_aborted
  FROM vf_aborted;

-- VACUUM and ANALYZE on a table with all-visible pages
CREATE TABLE vf_vacuum (a int, b text) USING pax;
INSERT INTO vf_vacuum SELECT i, 'v' || i FROM generate_series(1, 3000) i;
VACUUM ANALYZE vf_vacuum;
INSERT INTO vf_vacuum SELECT i, NULL FROM generate_series(1, 100) i;

-- ALTER TABLE ADD/DROP COLUMN: pages of several layouts in one table
CREATE TABLE vf_alter (a int, b text, c float8) USING pax;
INSERT INTO vf_alter SELECT i, 'b' || i, i FROM generate_series(1, 1000) i;
ALTER TABLE vf_alter ADD COLUMN d int DEFAULT 7, ADD COLUMN e text;
INSERT INTO vf_alter SELECT i, 'b' || i, i, i, 'e' || i FROM generate_series(1001, 2000) i;
ALTER TABLE vf_alter DROP COLUMN b;
ALTER TABLE vf_alter DROP COLUMN a;
INSERT INTO vf_alter SELECT i, i, 'e' || i FROM generate_series(2001, 3000) i;
SELECT count(DISTINCT natts) AS layouts FROM pax_page_stats('vf_alter');

-- rewrites: VACUUM FULL and ALTER COLUMN TYPE
CREATE TABLE vf_rewrite (a int, b text) USING pax;
INSERT INTO vf_rewrite SELECT i, 'r' || i FROM generate_series(1, 2000) i;
BEGIN;
INSERT INTO vf_rewrite SELECT i, 'aborted' FROM generate_series(1, 100) i;
ROLLBACK;
VACUUM (FULL) vf_rewrite;
ALTER TABLE vf_rewrite ALTER COLUMN a TYPE bigint;

-- unlogged and temporary tables
CREATE UNLOGGED TABLE vf_unlogged (a int, b text) USING pax;
INSERT INTO vf_unlogged SELECT i, 'u' || i FROM generate_series(1, 1000) i;
CREATE TEMP TABLE vf_temp (a int, b text) USING pax;
INSERT INTO vf_temp SELECT i, 't' || i FROM generate_series(1, 1000) i;

-- nothing found anywhere, with and without the index pass
SELECT c.relname, pg_relation_size(c.oid) > 0 AS has_pages,
       (SELECT count(*) FROM pax_verify(c.oid)) AS problems,
       (SELECT count(*) FROM pax_verify(c.oid, false)) AS problems_no_indexes
  FROM pg_class c JOIN pg_am a ON a.oid = c.relam
 WHERE a.amname = 'pax' AND c.relname LIKE 'vf\_%'
 ORDER BY c.relname;
SELECT * FROM pax_verify('vf_types');

-- what is not a pax table: wrong_object_type
CREATE TABLE vf_heap (a int) USING heap;
CREATE INDEX vf_heap_a ON vf_heap (a);
SELECT * FROM pax_verify('vf_heap');
SELECT * FROM pax_verify('vf_heap', true, true);
SELECT * FROM pax_verify('vf_heap_a');
DO $$
BEGIN
	PERFORM pax_verify('vf_heap');
EXCEPTION WHEN wrong_object_type THEN
	RAISE NOTICE 'wrong_object_type: %', SQLERRM;
END $$;
SELECT * FROM pax_verify(NULL);

-- a rolled-back UPDATE leaves t_ctid pointing at the versions its abort
-- made dead; VACUUM removes them and truncates their pages: the healthy
-- table has nothing to report (issue 12, finding 10), frozen or not
CREATE TABLE vf_ctid (a int, b text) USING pax;
INSERT INTO vf_ctid SELECT g, repeat('x', 40) FROM generate_series(1, 600) g;
SELECT pg_relation_size('vf_ctid') / current_setting('block_size')::int AS blocks;
BEGIN;
UPDATE vf_ctid SET b = b || '!';
ROLLBACK;
SELECT pg_relation_size('vf_ctid') / current_setting('block_size')::int AS blocks;
SELECT * FROM pax_verify('vf_ctid');
VACUUM vf_ctid;
SELECT pg_relation_size('vf_ctid') / current_setting('block_size')::int AS blocks,
       count(*) FROM vf_ctid;
SELECT * FROM pax_verify('vf_ctid');
VACUUM (FREEZE) vf_ctid;
SELECT * FROM pax_verify('vf_ctid');
-- an UPDATE that committed: its t_ctid chains are checked and sound
UPDATE vf_ctid SET b = 'y' WHERE a <= 10;
SELECT * FROM pax_verify('vf_ctid');
-- and one in progress in this transaction, then rolled back
BEGIN;
UPDATE vf_ctid SET b = 'z' WHERE a > 590;
SELECT * FROM pax_verify('vf_ctid');
ROLLBACK;
SELECT * FROM pax_verify('vf_ctid');

-- heapallindexed: every btree entry's key is its row's, every row visible
-- now has its entries.  A primary key, a second index, an expression
-- index, a partial index, an INCLUDE index and long compressible text
-- (index_form_tuple compresses, the row's value is TOASTed), after HOT
-- and non-HOT UPDATEs, DELETE and VACUUM; t/016_pax_verify_indexes.pl
-- corrupts entries and rows
CREATE TABLE vf_idx (id int PRIMARY KEY, b int, n numeric, s text, h text)
    USING pax;
INSERT INTO vf_idx SELECT i, i % 100, i / 7.0,
       CASE WHEN i % 9 = 0 THEN NULL ELSE repeat('long text ' || (i % 50), 1 + i % 200) END,
       'h' || i
  FROM generate_series(1, 3000) i;
CREATE INDEX vf_idx_b ON vf_idx (b, n);
CREATE INDEX vf_idx_expr ON vf_idx ((b * 2 + 1), lower(s));
CREATE INDEX vf_idx_part ON vf_idx (s) WHERE id % 10 = 0;
CREATE INDEX vf_idx_incl ON vf_idx (h) INCLUDE (n);
CREATE INDEX vf_idx_hash ON vf_idx USING hash (b);
SELECT count(*) AS compressed_or_toasted FROM vf_idx
 WHERE pg_column_size(s) < octet_length(s);
SELECT count(*) FROM pax_verify('vf_idx', true, true);
-- HOT: h, n and the indexed columns unchanged except in the second UPDATE
UPDATE vf_idx SET h = h WHERE id % 5 = 0;
UPDATE vf_idx SET b = b + 1, s = s || 'x' WHERE id % 7 = 0;
UPDATE vf_idx SET id = id + 100000 WHERE id % 11 = 0;
SELECT count(*) FROM pax_verify('vf_idx', true, true);
DELETE FROM vf_idx WHERE id % 3 = 0;
VACUUM vf_idx;
SELECT count(*) FROM pax_verify('vf_idx', true, true);
-- after VACUUM, REDIRECTs name heap-only versions; new rows take freed slots
UPDATE vf_idx SET h = h || '' WHERE id % 4 = 1;
INSERT INTO vf_idx SELECT i, i % 100, i, repeat('again ', i % 300), 'h' || i
  FROM generate_series(200001, 200500) i;
SELECT count(*) FROM pax_verify('vf_idx', true, true);
-- in a transaction that changed rows, and after it rolled back
BEGIN;
UPDATE vf_idx SET b = -b WHERE id % 13 = 0;
DELETE FROM vf_idx WHERE id % 17 = 0;
SELECT count(*) FROM pax_verify('vf_idx', true, true);
ROLLBACK;
SELECT count(*) FROM pax_verify('vf_idx', true, true);
-- heapallindexed implies check_indexes; named arguments
SELECT count(*) FROM pax_verify('vf_idx', check_indexes => false, heapallindexed => true);
-- an index built over HOT chains whose versions' keys differ (broken
-- chains): its entries name the roots, with the key of the chains' live ends
CREATE TABLE vf_broken (id int PRIMARY KEY, b int) USING pax;
SET pax.batch_bulk_inserts = off;	-- (a row-form page, with room for HOT)
INSERT INTO vf_broken SELECT i, i FROM generate_series(1, 100) i;
RESET pax.batch_bulk_inserts;
UPDATE vf_broken SET b = b + 1000 WHERE id <= 10;
UPDATE vf_broken SET b = b + 1000 WHERE id <= 5;
SELECT ctid, b FROM vf_broken WHERE id IN (1, 7) ORDER BY id;
CREATE INDEX vf_broken_b ON vf_broken (b);
SELECT * FROM pax_verify('vf_broken', true, true);
DROP TABLE vf_broken;
-- the tables above, their indexes (none) included
SELECT count(*) AS problems FROM pg_class c JOIN pg_am a ON a.oid = c.relam,
       LATERAL pax_verify(c.oid, true, true)
 WHERE a.amname = 'pax' AND c.relname LIKE 'vf\_%';

DROP TABLE vf_idx;
DROP TABLE vf_empty, vf_types, vf_copy, vf_toast, vf_wide, vf_aborted,
    vf_vacuum, vf_alter, vf_rewrite, vf_unlogged, vf_temp, vf_heap, vf_ctid;

-- pax_page_regions: the byte ranges of a page, disjoint, inside the page,
-- and on a bulk load's compact page every part of it
CREATE TABLE vf_regions USING pax AS
  SELECT i AS id, 'Brand#' || i % 5 AS brand, 'INV-' || lpad(i::text, 6, '0') AS inv,
         CASE WHEN i % 7 = 0 THEN NULL ELSE i * 0.5 END AS f
    FROM generate_series(1, 200) i;
SELECT region, count(*) AS ranges, count(DISTINCT attnum) AS columns
  FROM pax_page_regions('vf_regions', 0) GROUP BY region ORDER BY min(off);
SELECT bool_and(off + len <= coalesce(next_off, 8192)) AS disjoint,
       max(off + len) AS page_end
  FROM (SELECT off, len, lead(off) OVER (ORDER BY off) AS next_off
          FROM pax_page_regions('vf_regions', 0)) r;
SELECT pax_page_regions('vf_regions', 5);
SELECT * FROM pax_verify('vf_regions', true, true);
DROP TABLE vf_regions;
