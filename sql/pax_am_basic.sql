--
-- pax_am_basic: the access method is registered and pax tables can be
-- created, truncated and dropped; row operations not built yet raise
-- feature_not_supported (0A000).
--
CREATE EXTENSION pax_am;

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

-- unlogged and temporary pax tables get their storage (and init fork)
CREATE UNLOGGED TABLE pax_unlogged (a int) USING pax;
CREATE TEMP TABLE pax_temp (a int) USING pax;
SELECT relname, relpersistence FROM pg_class
 WHERE relname IN ('pax_unlogged', 'pax_temp') ORDER BY relname;

-- storage management works on an empty table
TRUNCATE pax_t;
BEGIN;
CREATE TABLE pax_in_xact (a int) USING pax;
TRUNCATE pax_in_xact;
ROLLBACK;
ALTER TABLE pax_t SET TABLESPACE pg_default;
ALTER TABLE pax_t ADD COLUMN c int;

-- what is not built yet says so, with SQLSTATE 0A000
\set VERBOSITY terse
INSERT INTO pax_t VALUES (1, 'one');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM pax_t;
\echo :LAST_ERROR_SQLSTATE
COPY pax_t FROM stdin;
1	one	1
\.
\echo :LAST_ERROR_SQLSTATE
CREATE TABLE pax_ctas USING pax AS SELECT 1 AS a;
\echo :LAST_ERROR_SQLSTATE
VACUUM pax_t;
\echo :LAST_ERROR_SQLSTATE
ANALYZE pax_t;
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX ON pax_t (a);
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default

DROP TABLE pax_t, pax_default, pax_unlogged, pax_temp;
DROP EXTENSION pax_am;
