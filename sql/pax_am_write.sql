--
-- pax_am_write: the ways rows get into a pax table, transactions around
-- them, TOAST, partitions and moving a table between access methods.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;

-- transactions: aborted rows are invisible, own rows visible, savepoints
CREATE TABLE tx (a int, b text) USING pax;
INSERT INTO tx VALUES (1, 'committed');
BEGIN;
INSERT INTO tx VALUES (2, 'aborted');
SELECT * FROM tx ORDER BY a;
ROLLBACK;
SELECT * FROM tx ORDER BY a;
BEGIN;
INSERT INTO tx VALUES (3, 'before savepoint');
SAVEPOINT s1;
INSERT INTO tx SELECT i, 'in savepoint' FROM generate_series(10, 19) i;
SELECT count(*) FROM tx;
ROLLBACK TO SAVEPOINT s1;
INSERT INTO tx VALUES (4, 'after rollback to');
SAVEPOINT s2;
INSERT INTO tx VALUES (5, 'released');
RELEASE SAVEPOINT s2;
COMMIT;
SELECT * FROM tx ORDER BY a;
-- a statement sees the rows it inserted only after it (command ids)
INSERT INTO tx SELECT a + 100, b FROM tx;
SELECT count(*) FROM tx;

-- COPY FROM packs whole pages; pages end up well filled: to the bytes, or
-- to the 226 rows a compact page of narrow rows holds (PaxCompactKeepTids)
CREATE TABLE cp (id int, v text, f float8) USING pax;
COPY cp FROM PROGRAM 'seq 1 20000 | awk ''{print $1 "\tvalue " $1 "\t" $1/4}''';
SELECT count(*), sum(id), count(DISTINCT v), sum(f) FROM cp;
SELECT count(*) AS pages, min(nrows), max(capacity),
       (round(avg(free_bytes)) < 200 OR avg(nrows) > 0.9 * max(capacity)) AS well_filled
  FROM pax_page_stats('cp') WHERE blkno < (SELECT max(blkno) FROM pax_page_stats('cp'));
COPY cp FROM stdin;
20001	last	0.5
\N	\N	\N
\.
SELECT * FROM cp WHERE id IS NULL OR id > 20000 ORDER BY id;
-- COPY keeps each batch's last rows, too few to fill a page, for its next
-- batch (PaxBulkMulti): all are in when COPY ends, in its transaction, and
-- go with a subtransaction rolled back
BEGIN;
COPY cp FROM PROGRAM 'seq 30001 32500 | awk ''{print $1 "\tkept " $1 "\t" $1/8}''';
SELECT count(*), sum(id), sum(f) FROM cp WHERE id > 30000;
SAVEPOINT s;
COPY cp FROM PROGRAM 'seq 40001 42300 | awk ''{print $1 "\tgone\t0"}''';
SELECT count(*) FROM cp WHERE id > 40000;
ROLLBACK TO SAVEPOINT s;
COPY cp FROM PROGRAM 'seq 50001 50100 | awk ''{print $1 "\tlast\t1"}''';
COMMIT;
SELECT count(*), sum(id) FROM cp WHERE id > 30000 AND id < 40000;
SELECT count(*) FILTER (WHERE id > 40000 AND id < 50000) AS gone,
       count(*) FILTER (WHERE id > 50000) AS last FROM cp;
SELECT count(*) AS problems FROM pax_verify('cp');
-- COPY lays each page's variable-length values out column by column
-- (PaxPageGroupValues): short and 4-byte-aligned plain values, long ones,
-- NULLs, several COPY batches on one page; read back as heap reads them
\getenv abs_builddir PG_ABS_BUILDDIR
\set cpg_file :abs_builddir '/results/pax_am_write_cpg.data'
CREATE TABLE cpg_heap (id int, n numeric, t text, p text, b bytea, c char(3), i int8) USING heap;
ALTER TABLE cpg_heap ALTER COLUMN p SET STORAGE PLAIN;
INSERT INTO cpg_heap
SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE round(i / 3.0, i % 5) END,
       CASE WHEN i % 11 = 0 THEN NULL WHEN i % 13 = 0 THEN repeat('L', 300 + i % 50) ELSE 'v' || i END,
       CASE WHEN i % 17 = 0 THEN NULL ELSE repeat('p', i % 9) END,
       CASE WHEN i % 5 = 0 THEN NULL ELSE decode(md5(i::text), 'hex') END,
       (i % 3)::text, i * 1000
  FROM generate_series(1, 3000) i;
COPY cpg_heap TO :'cpg_file';
CREATE TABLE cpg_pax (LIKE cpg_heap INCLUDING STORAGE) USING pax;
COPY cpg_pax FROM :'cpg_file';
COPY cpg_pax FROM :'cpg_file';
INSERT INTO cpg_heap SELECT * FROM cpg_heap;
SELECT (SELECT count(*) FROM cpg_pax) AS pax,
       (SELECT count(*) FROM (SELECT * FROM cpg_pax EXCEPT ALL SELECT * FROM cpg_heap) d) AS only_pax,
       (SELECT count(*) FROM (SELECT * FROM cpg_heap EXCEPT ALL SELECT * FROM cpg_pax) d) AS only_heap;
SELECT count(*) AS problems FROM pax_verify('cpg_pax');
-- and through indexes and after VACUUM's compaction
DELETE FROM cpg_pax WHERE id % 4 = 0;
DELETE FROM cpg_heap WHERE id % 4 = 0;
VACUUM cpg_pax;
CREATE INDEX ON cpg_pax (id);
SET enable_seqscan = off;
SELECT count(*) FROM (SELECT * FROM cpg_pax WHERE id BETWEEN 100 AND 2000
                      EXCEPT ALL SELECT * FROM cpg_heap WHERE id BETWEEN 100 AND 2000) d;
RESET enable_seqscan;
SELECT count(*) AS problems FROM pax_verify('cpg_pax');
DROP TABLE cpg_heap, cpg_pax;
-- COPY FREEZE in the creating transaction
BEGIN;
CREATE TABLE cpf (a int) USING pax;
COPY cpf FROM PROGRAM 'seq 1 1000' WITH (FREEZE);
COMMIT;
SELECT count(*), sum(a) FROM cpf;

-- TOAST: a varlena table gets a TOAST table; large values are compressed
-- or moved out of line as on heap, and read back exactly
CREATE TABLE big (id int, t text, b bytea) USING pax;
SELECT reltoastrelid <> 0 AS has_toast FROM pg_class WHERE relname = 'big';
INSERT INTO big SELECT i, repeat('abc', 2000 * i), decode(repeat(md5(i::text), 200 * i), 'hex')
  FROM generate_series(1, 20) i;
INSERT INTO big VALUES (100, (SELECT string_agg(md5(k::text), '') FROM generate_series(1, 5000) k), NULL);
SELECT id, length(t), md5(t), length(b), pg_column_compression(t), pg_column_compression(b)
  FROM big WHERE id IN (1, 2, 20, 100) ORDER BY id;
SELECT pg_relation_size(reltoastrelid) > 0 AS toasted FROM pg_class WHERE relname = 'big';
ALTER TABLE big ALTER COLUMN t SET STORAGE EXTERNAL;
INSERT INTO big VALUES (200, repeat('xyz', 3000), NULL);
SELECT pg_column_compression(t), length(t) FROM big WHERE id = 200;
ALTER TABLE big ALTER COLUMN t SET STORAGE EXTENDED;
-- a table without large columns has no TOAST table
CREATE TABLE small (a int, b varchar(10)) USING pax;
SELECT reltoastrelid = 0 AS no_toast FROM pg_class WHERE relname = 'small';
-- values of plain storage that cannot fit a page are refused cleanly
CREATE TABLE plain (a int, t text) USING pax;
ALTER TABLE plain ALTER COLUMN t SET STORAGE PLAIN;
INSERT INTO plain VALUES (1, repeat('x', 9000));
INSERT INTO plain VALUES (2, repeat('x', 2000));
SELECT a, length(t) FROM plain;

-- partitions: pax beside heap under one parent, ATTACH/DETACH, pruning
CREATE TABLE events (id int, day date, payload text) PARTITION BY RANGE (day);
CREATE TABLE events_2023 PARTITION OF events FOR VALUES FROM ('2023-01-01') TO ('2024-01-01') USING pax;
CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') USING heap;
INSERT INTO events SELECT i, date '2023-01-01' + (i % 700), 'p' || i FROM generate_series(1, 7000) i;
SELECT c.relname, a.amname, count(*)
  FROM events e JOIN pg_class c ON c.oid = e.tableoid JOIN pg_am a ON a.oid = c.relam
 GROUP BY 1, 2 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE day < '2023-06-01';
SELECT count(*) FROM events WHERE day < '2023-06-01';
CREATE TABLE events_2025 (id int, day date, payload text) USING pax;
INSERT INTO events_2025 VALUES (1, '2025-03-03', 'attached');
ALTER TABLE events ATTACH PARTITION events_2025 FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
SELECT payload FROM events WHERE day >= '2025-01-01';
ALTER TABLE events DETACH PARTITION events_2023;
SELECT count(*) FROM events;
SELECT count(*) FROM events_2023;
-- default_table_access_method picks the AM of new partitions
SET default_table_access_method = pax;
CREATE TABLE events_2026 PARTITION OF events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
RESET default_table_access_method;
SELECT a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.relname = 'events_2026';

-- ALTER TABLE SET ACCESS METHOD (PostgreSQL 15): heap -> pax -> heap
CREATE TABLE mig (a int, b text, c numeric) USING heap;
INSERT INTO mig SELECT i, 'm' || i, i * 1.5 FROM generate_series(1, 5000) i;
SELECT md5(string_agg(mig::text, ',' ORDER BY a)) AS before FROM mig \gset
ALTER TABLE mig SET ACCESS METHOD pax;
SELECT a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.relname = 'mig';
SELECT md5(string_agg(mig::text, ',' ORDER BY a)) = :'before' AS same FROM mig;
ALTER TABLE mig SET ACCESS METHOD heap;
SELECT md5(string_agg(mig::text, ',' ORDER BY a)) = :'before' AS same FROM mig;

-- VACUUM FULL keeps live rows and drops aborted ones
CREATE TABLE vf (a int, b text) USING pax;
INSERT INTO vf SELECT i, 'keep' || i FROM generate_series(1, 3000) i;
BEGIN;
INSERT INTO vf SELECT i, 'gone' FROM generate_series(1, 3000) i;
ROLLBACK;
SELECT pg_relation_size('vf') AS size_before \gset
VACUUM FULL vf;
SELECT count(*), count(*) FILTER (WHERE b = 'gone') AS gone, pg_relation_size('vf') < :size_before AS smaller FROM vf;

-- VACUUM: freezes, marks aborted rows, sets all-visible pages and the VM
CREATE EXTENSION IF NOT EXISTS pg_visibility;
CREATE TABLE vac (a int, b text) USING pax;
INSERT INTO vac SELECT i, 'x' || i FROM generate_series(1, 10000) i;
BEGIN;
INSERT INTO vac SELECT i, 'aborted' FROM generate_series(1, 500) i;
ROLLBACK;
VACUUM vac;
SELECT relpages = pg_relation_size('vac') / 8192 AS relpages_ok, reltuples,
       relallvisible > 0 AS some_all_visible, relallvisible = relpages AS all_pages
  FROM pg_class WHERE relname = 'vac';
SELECT all_visible, all_frozen, count(*) > 0 AS pages
  FROM pg_visibility_map('vac') GROUP BY 1, 2 ORDER BY 1, 2;
-- (pg_check_visible/pg_check_frozen read heap line pointers: not for pax)
SELECT count(*) AS vm_without_page_flag
  FROM pg_visibility('vac') WHERE all_visible AND NOT pd_all_visible;
SELECT count(*) AS problems FROM pax_verify('vac');
VACUUM (FREEZE) vac;
SELECT age(relfrozenxid) AS frozen_age FROM pg_class WHERE relname = 'vac';
SELECT bool_and(all_frozen = all_visible) AS frozen_where_visible FROM pg_visibility_map('vac');
SELECT count(*) AS frozen_not_visible
  FROM pg_visibility_map('vac') WHERE all_frozen AND NOT all_visible;
-- an insert into an all-visible page clears its flag and map bits
INSERT INTO vac VALUES (-1, 'after vacuum');
SELECT count(*), count(*) FILTER (WHERE b = 'aborted') AS aborted FROM vac;
SELECT * FROM vac WHERE a = -1;
SELECT count(*) AS vm_without_page_flag
  FROM pg_visibility('vac') WHERE all_visible AND NOT pd_all_visible;
-- parallel and plain scans of all-visible pages agree
SET pax.enable_customscan = off;
SELECT count(*), sum(a) FROM vac;
RESET pax.enable_customscan;
SELECT count(*), sum(a) FROM vac;

-- the pgstat counters see pax inserts
SELECT pg_stat_force_next_flush();
SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'cp';

-- Every WAL record of many rows placed on a page that already holds some
-- reads back: each row names a range in every minipage, and a page's ranges
-- once added up to more than a record may carry for a block (15 wrote the
-- length truncated, a record nothing could read; 16 and later PANIC).  A
-- page changed that much is logged as its image.  Shapes: narrow int and
-- char(n) rows by INSERT ... SELECT and by COPY, onto a page holding a row,
-- then an UPDATE of every row.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pg_walinspect;
RESET client_min_messages;
CREATE TABLE walpage (a1 int4, a2 int4, a3 int4, a4 int4, a5 int4, a6 int4,
  p char(15), q char(1), a9 int4, a10 int4, a11 int4, a12 int4, a13 int4,
  a14 int4, a15 int4, a16 int4, s char(10)) USING pax;
CREATE TABLE walpage_heap (LIKE walpage);
INSERT INTO walpage VALUES (0, 0, 0, 0, 0, 0, 'x', 'y', 0, 0, 0, 0, 0, 0, 0, 0, 'z');
SELECT pg_current_wal_insert_lsn() AS walpage_lsn \gset
INSERT INTO walpage
  SELECT i, i * 7, i * 13, i % 5, i, i, (ARRAY['1-URGENT', '2-HIGH', '3-MEDIUM',
         '4-NOT SPECI', '5-LOW'])[1 + i % 5], '0', i, i, i, i, i, i, i, i,
         (ARRAY['AIR', 'FOB', 'MAIL', 'RAIL', 'REG AIR', 'SHIP', 'TRUCK'])[1 + i % 7]
    FROM generate_series(1, 3000) i;
INSERT INTO walpage_heap SELECT * FROM walpage;
INSERT INTO walpage VALUES (0, 0, 0, 0, 0, 0, 'x', 'y', 0, 0, 0, 0, 0, 0, 0, 0, 'z');
SELECT '/tmp/pax_am_write_walpage_' || current_setting('port') || '.data' AS walpage_path \gset
COPY walpage_heap TO :'walpage_path';
COPY walpage FROM :'walpage_path';
UPDATE walpage SET a2 = a2 + 1 WHERE a1 % 2 = 0;
SELECT count(*) > 0 AS records_read,
       max(record_length) <= 8192 + 512 AS at_most_a_page
  FROM pg_get_wal_records_info(:'walpage_lsn', pg_current_wal_flush_lsn());
SELECT count(*), sum(a1), sum(a2), count(DISTINCT p), count(DISTINCT s) FROM walpage;
DROP TABLE walpage, walpage_heap;

DROP TABLE tx, cp, cpf, big, small, plain, events, events_2023, mig, vf, vac;
