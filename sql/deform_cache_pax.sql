--
-- deform_cache_pax: the same counters for heap and pax.  On heap, reaching
-- column 50 of a 100-column row deforms 51 attributes; pax's plain scan
-- slot (PaxTuple) reads each column from its minipage, and PaxScan forms
-- rows with only the columns the plan needs.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
CREATE EXTENSION IF NOT EXISTS deform_cache;
RESET client_min_messages;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
-- PaxScan as a scan, reporting what it reads (not computing aggregates itself)
SET pax.enable_aggpushdown = off;

SELECT format('CREATE TABLE dc_wide_heap (%s) USING heap',
              string_agg(format('col%s text', k), ', ' ORDER BY k))
  FROM generate_series(0, 99) k \gexec
SELECT format('INSERT INTO dc_wide_heap SELECT %s FROM generate_series(1, 1000) i',
              string_agg(format('''v%s_'' || i', k), ', ' ORDER BY k))
  FROM generate_series(0, 99) k \gexec
CREATE TABLE dc_wide_pax (LIKE dc_wide_heap) USING pax;
INSERT INTO dc_wide_pax SELECT * FROM dc_wide_heap;
VACUUM (FREEZE) dc_wide_heap;
VACUUM (FREEZE) dc_wide_pax;

SET deform_cache.track = on;
SELECT count(x) FROM (SELECT col50 AS x FROM dc_wide_heap OFFSET 0) s;
SELECT node_type, access_method, slot_type, tuples_deformed, attributes_deformed, max_attribute
  FROM deform_cache_last WHERE relid IS NOT NULL;
SELECT count(x) FROM (SELECT col50 AS x FROM dc_wide_pax OFFSET 0) s;
SELECT node_type, access_method, slot_type, tuples_deformed, attributes_deformed, max_attribute
  FROM deform_cache_last WHERE relid IS NOT NULL;
SET pax.enable_customscan = off;
SELECT count(x) FROM (SELECT col50 AS x FROM dc_wide_pax OFFSET 0) s;
SELECT node_type, access_method, slot_type, tuples_deformed, attributes_deformed, max_attribute
  FROM deform_cache_last WHERE relid IS NOT NULL;
RESET pax.enable_customscan;
-- a pushed filter: only the one qualifying row is formed
SELECT count(col99) FROM dc_wide_pax WHERE col0 = 'v0_7';
SELECT node_type, tuples_deformed, attributes_deformed, max_attribute
  FROM deform_cache_last WHERE relid IS NOT NULL;
RESET deform_cache.track;

DROP TABLE dc_wide_heap, dc_wide_pax;
