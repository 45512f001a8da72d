--
-- deform_cache_pax_order: pax_am and deform_cache find each other through
-- pax_am's rendezvous struct (pax_am/pax_am_hooks.h) whichever of the two
-- libraries a backend loads first: in both orders PaxScan's rows are
-- counted and pax's plain scan slot is named PaxTuple.  Each \c starts a
-- backend that has loaded neither library (their GUCs are not defined yet).
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
CREATE EXTENSION IF NOT EXISTS deform_cache;
RESET client_min_messages;
CREATE TABLE dc_order_pax (a int, b text, c int) USING pax;
INSERT INTO dc_order_pax SELECT i, 'b' || i, i FROM generate_series(1, 100) i;
VACUUM (FREEZE) dc_order_pax;

-- pax_am first, then deform_cache
\c
SELECT count(*) AS loaded FROM pg_settings
  WHERE name LIKE 'pax.%' OR name LIKE 'deform_cache.%';
LOAD 'pax_am';
LOAD 'deform_cache';
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET pax.enable_aggpushdown = off;
SET deform_cache.track = on;
SELECT count(x) FROM (SELECT c AS x FROM dc_order_pax OFFSET 0) s;
SELECT node_type, slot_type, tuples_deformed, attributes_deformed, max_attribute
  FROM deform_cache_last WHERE relid IS NOT NULL;
SET pax.enable_customscan = off;
SELECT count(x) FROM (SELECT c AS x FROM dc_order_pax OFFSET 0) s;
SELECT node_type, slot_type, tuples_deformed, attributes_deformed, max_attribute
  FROM deform_cache_last WHERE relid IS NOT NULL;

-- deform_cache first, then pax_am
\c
SELECT count(*) AS loaded FROM pg_settings
  WHERE name LIKE 'pax.%' OR name LIKE 'deform_cache.%';
LOAD 'deform_cache';
LOAD 'pax_am';
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET pax.enable_aggpushdown = off;
SET deform_cache.track = on;
SELECT count(x) FROM (SELECT c AS x FROM dc_order_pax OFFSET 0) s;
SELECT node_type, slot_type, tuples_deformed, attributes_deformed, max_attribute
  FROM deform_cache_last WHERE relid IS NOT NULL;
SET pax.enable_customscan = off;
SELECT count(x) FROM (SELECT c AS x FROM dc_order_pax OFFSET 0) s;
SELECT node_type, slot_type, tuples_deformed, attributes_deformed, max_attribute
  FROM deform_cache_last WHERE relid IS NOT NULL;
RESET deform_cache.track;

DROP TABLE dc_order_pax;
