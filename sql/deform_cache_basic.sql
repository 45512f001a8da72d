--
-- deform_cache_basic: exact deform and per-tuple context counters of known
-- queries on a 100-column heap table of 1,000 rows.
--
CREATE EXTENSION deform_cache;
LOAD 'deform_cache';

-- col0 .. col99 text, value 'v<column>_<row>'
SELECT format('CREATE TABLE dc_wide (%s)',
              string_agg(format('col%s text', i), ', ' ORDER BY i))
FROM generate_series(0, 99) i \gexec
SELECT format('INSERT INTO dc_wide SELECT %s FROM generate_series(1, 1000) g',
              string_agg(format('''v%s_'' || g', i), ', ' ORDER BY i))
FROM generate_series(0, 99) i \gexec
VACUUM ANALYZE dc_wide;

SET jit = off;
SET max_parallel_workers_per_gather = 0;

-- off by default: nothing is counted
SHOW deform_cache.track;
SELECT col50 FROM dc_wide WHERE false;
SELECT count(*) FROM deform_cache_last;

SET deform_cache.track = on;
SELECT tracking FROM deform_cache_info();

-- the projection deforms col0 .. col50 of every tuple: 1,000 x 51
SELECT count(col50) FROM (SELECT col50 FROM dc_wide OFFSET 0) s;
SELECT node_id, parent_id, node_type, relid, access_method, slot_type,
       jit_deform, deform_calls, tuples_deformed, attributes_deformed,
       max_attribute, bytes_walked
FROM deform_cache_last ORDER BY node_id;

-- the same through the client: the scan projects, the output reads the
-- virtual result slot (no deform)
SELECT col50 FROM dc_wide \g /dev/null
SELECT node_id, node_type, slot_type, deform_calls, tuples_deformed,
       attributes_deformed, max_attribute, bytes_walked
FROM deform_cache_last ORDER BY node_id;

-- WHERE on the first column then the last column of the one match:
-- 1,000 x 1 for the qual, then 99 more for the projection of one tuple
SELECT col99 FROM dc_wide WHERE col0 = 'v0_500';
SELECT node_id, node_type, deform_calls, tuples_deformed,
       attributes_deformed, max_attribute
FROM deform_cache_last ORDER BY node_id;

-- no projection: the scan slot goes to the client, which deforms it all
SELECT * FROM dc_wide \g /dev/null
SELECT node_id, node_type, slot_type, deform_calls, tuples_deformed,
       attributes_deformed, max_attribute
FROM deform_cache_last ORDER BY node_id;

-- a per-tuple context that never allocates: every reset (one per tuple
-- plus one per call that ends the scan) finds nothing to free
SELECT col50 FROM dc_wide \g /dev/null
SELECT node_id, context_resets, context_resets_empty, context_allocs,
       context_alloc_bytes, context_peak_bytes
FROM deform_cache_last ORDER BY node_id;

-- a qual that allocates (upper() returns a new text) in every tuple
SELECT count(*) FROM dc_wide WHERE upper(col2) = 'V2_7';
SELECT node_id, node_type, context_resets, context_resets_empty,
       context_allocs, context_alloc_bytes, context_peak_bytes
FROM deform_cache_last ORDER BY node_id;

-- joins: deforms are charged to the node that owns the slot
SELECT count(*) FROM dc_wide a JOIN dc_wide b USING (col3);
SELECT node_id, parent_id, node_type, relid, slot_type, deform_calls,
       tuples_deformed, attributes_deformed, max_attribute
FROM deform_cache_last ORDER BY node_id;

-- per-relation totals since the last reset
SELECT relid, access_method, statements, scans, deform_calls,
       tuples_deformed, attributes_deformed, max_attribute
FROM deform_cache_relations;

-- reading the counters does not replace them
SELECT count(*) FROM deform_cache_last;
SELECT count(*) FROM deform_cache_last;

-- reset
SELECT deform_cache_reset();
SELECT count(*) FROM deform_cache_last;
SELECT count(*) FROM deform_cache_relations;

-- EXPLAIN without ANALYZE runs nothing and is not counted
EXPLAIN (COSTS OFF) SELECT col9 FROM dc_wide;
SELECT count(*) FROM deform_cache_last;
-- EXPLAIN ANALYZE is (its plan is not shown: 18 prints rows with decimals)
\o /dev/null
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  SELECT col9 FROM dc_wide WHERE col1 = 'v1_7';
\o
SELECT node_id, node_type, deform_calls, tuples_deformed, attributes_deformed
FROM deform_cache_last ORDER BY node_id;

RESET deform_cache.track;
DROP TABLE dc_wide;
DROP EXTENSION deform_cache;
