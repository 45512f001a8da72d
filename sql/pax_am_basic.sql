--
-- pax_am_basic: the access method is registered; pax tables can be created
-- (permanent, unlogged, temporary), filled, read, truncated, moved and
-- dropped.
--
-- version 1.0, then the update to the current version: the layout
-- functions work under either declaration
CREATE EXTENSION pax_am VERSION '1.0';
CREATE TABLE pax_v (a int, b text) USING pax;
INSERT INTO pax_v SELECT i, 'v' || i FROM generate_series(1, 500) i;
SELECT count(*), sum(nrows) FROM pax_page_stats('pax_v');
SELECT attname, has_nullmap FROM pax_page_columns('pax_v', 0) ORDER BY attnum;
-- pax_verify as 1.0 declares it: two arguments
SELECT count(*) FROM pax_verify('pax_v');
ALTER EXTENSION pax_am UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pax_am';
SELECT count(*), sum(nrows), sum(encoded) > 0 AS encoded FROM pax_page_stats('pax_v');
-- each page's form (1.2): a bulk load's pages are compact
SELECT form, count(*) FROM pax_page_stats('pax_v') GROUP BY form;
SELECT attname, encoding, value_width FROM pax_page_columns('pax_v', 0) ORDER BY attnum;
-- and as 1.3 declares it (heapallindexed)
SELECT count(*) FROM pax_verify('pax_v', heapallindexed => true);
DROP TABLE pax_v;

SELECT amname, amtype, amhandler FROM pg_am WHERE amname = 'pax';

CREATE TABLE pax_t (a int, b text) USING pax;
SELECT c.relname, a.amname, c.relpersistence
  FROM pg_class c JOIN pg_am a ON a.oid = c.relam
 WHERE c.relname = 'pax_t';
SELECT pg_relation_size('pax_t');

-- default_table_access_method picks pax
SET default_table_access_method = pax;
CREATE TABLE pax_default (a int);
RESET default_table_access_method;
SELECT a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam
 WHERE c.relname = 'pax_default';

-- unlogged and temporary pax tables
CREATE UNLOGGED TABLE pax_unlogged (a int, b text) USING pax;
CREATE TEMP TABLE pax_temp (a int, b text) USING pax;
SELECT relname, relpersistence FROM pg_class
 WHERE relname IN ('pax_unlogged', 'pax_temp') ORDER BY relname;
INSERT INTO pax_unlogged SELECT i, 'u' || i FROM generate_series(1, 1000) i;
INSERT INTO pax_temp SELECT i, 't' || i FROM generate_series(1, 1000) i;
SELECT count(*), sum(a), max(b) FROM pax_unlogged;
SELECT count(*), sum(a), max(b) FROM pax_temp;

-- rows in, rows out
INSERT INTO pax_t VALUES (1, 'one'), (2, NULL), (NULL, 'three');
SELECT ctid, * FROM pax_t ORDER BY ctid;

-- TRUNCATE, also in the creating transaction, and rollback of it
TRUNCATE pax_t;
SELECT count(*) FROM pax_t;
INSERT INTO pax_t VALUES (1, 'kept');
BEGIN;
TRUNCATE pax_t;
INSERT INTO pax_t VALUES (2, 'rolled back');
ROLLBACK;
SELECT * FROM pax_t;
BEGIN;
CREATE TABLE pax_in_xact (a int) USING pax;
INSERT INTO pax_in_xact SELECT generate_series(1, 100);
TRUNCATE pax_in_xact;
INSERT INTO pax_in_xact SELECT generate_series(1, 10);
SELECT count(*) FROM pax_in_xact;
COMMIT;
SELECT count(*) FROM pax_in_xact;

-- SET TABLESPACE copies the files
ALTER TABLE pax_t SET TABLESPACE pg_default;
CREATE TABLE pax_moved (a int, b text) USING pax;
INSERT INTO pax_moved SELECT i, repeat('x', i % 50) FROM generate_series(1, 5000) i;
SELECT pg_relation_filenode('pax_moved') AS before \gset
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE pax_ts LOCATION '';
ALTER TABLE pax_moved SET TABLESPACE pax_ts;
SELECT pg_relation_filenode('pax_moved') <> :before AS new_file;
SELECT count(*), sum(a), sum(length(b)) FROM pax_moved;
ALTER TABLE pax_moved SET TABLESPACE pg_default;
DROP TABLESPACE pax_ts;
VACUUM (FULL) pax_moved;
SELECT count(*), sum(a), sum(length(b)) FROM pax_moved;

-- UPDATE, DELETE, row locks and indexes (pax_am_mvcc covers them in depth)
UPDATE pax_t SET a = a + 100 WHERE a <= 2;
DELETE FROM pax_t WHERE a = 3;
SELECT a FROM pax_t ORDER BY a FOR UPDATE;
SELECT a FROM pax_t ORDER BY a FOR KEY SHARE;
CREATE INDEX pax_t_a ON pax_t (a);
SET enable_seqscan = off;
SELECT a FROM pax_t WHERE a > 100 ORDER BY a;
RESET enable_seqscan;

-- layout functions refuse other relations
SELECT * FROM pax_page_stats('pg_class');
CREATE TABLE heap_t (a int);
SELECT * FROM pax_page_stats('heap_t');
SELECT * FROM pax_page_columns('pax_t', 100);

DROP TABLE pax_t, pax_default, pax_unlogged, pax_temp, pax_in_xact, pax_moved, heap_t;
DROP EXTENSION pax_am;
