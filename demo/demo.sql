-- demo/demo.sql: what the bundle does, side by side with stock PostgreSQL.
-- Run by bin/demo in the database pax_demo; safe to run again.
\pset footer off
\set VERBOSITY terse
SET client_min_messages = warning;

\echo
\echo '=== The bundle: three extensions ==='
CREATE EXTENSION IF NOT EXISTS pax_am;
CREATE EXTENSION IF NOT EXISTS sjis_direct;
CREATE EXTENSION IF NOT EXISTS deform_cache;
CREATE EXTENSION IF NOT EXISTS pg_prewarm;
SELECT extname, extversion FROM pg_extension
 WHERE extname IN ('pax_am', 'sjis_direct', 'deform_cache') ORDER BY 1;

\echo
\echo '=== pax: a table access method beside heap ==='
SELECT amname, amhandler FROM pg_am WHERE amtype = 't' ORDER BY 1;

DROP TABLE IF EXISTS demo_heap, demo_pax;
CREATE TABLE demo_heap (id int, age int, name text) USING heap;
CREATE TABLE demo_pax (id int, age int, name text) USING pax;
SELECT c.relname, a.amname, pg_relation_size(c.oid) AS bytes
  FROM pg_class c JOIN pg_am a ON a.oid = c.relam
 WHERE c.relname IN ('demo_heap', 'demo_pax') ORDER BY 1;

\echo
\echo '--- loading 100,000 rows into each (pax rows land with the storage engine) ---'
INSERT INTO demo_heap SELECT i, i % 100, 'name ' || i FROM generate_series(1, 100000) i;
INSERT INTO demo_pax SELECT * FROM demo_heap;
SELECT count(*) AS heap_rows FROM demo_heap WHERE age = 20;
SELECT count(*) AS pax_rows FROM demo_pax WHERE age = 20;

\echo
\echo 'Connect with psql and try: CREATE TABLE t (a int) USING pax;'
