--
-- deform_cache_jit: JIT-compiled deform is counted the same way (it moves
-- tts_nvalid too), and reported in jit_deform.
--
CREATE EXTENSION deform_cache;
LOAD 'deform_cache';

SELECT format('CREATE TABLE dc_jit (%s)',
              string_agg(format('col%s text', i), ', ' ORDER BY i))
FROM generate_series(0, 99) i \gexec
SELECT format('INSERT INTO dc_jit SELECT %s FROM generate_series(1, 1000) g',
              string_agg(format('''v%s_'' || g', i), ', ' ORDER BY i))
FROM generate_series(0, 99) i \gexec
VACUUM ANALYZE dc_jit;

SET max_parallel_workers_per_gather = 0;
SET deform_cache.track = on;

SET jit = on;
SET jit_above_cost = 0;
SET jit_inline_above_cost = -1;
SET jit_optimize_above_cost = -1;
SELECT col50 FROM dc_jit \g /dev/null
SELECT node_id, node_type, jit_deform, deform_calls, tuples_deformed,
       attributes_deformed, max_attribute, bytes_walked
FROM deform_cache_last ORDER BY node_id;

-- tuple deforming not compiled: the expressions are, getsomeattrs deforms
SET jit_tuple_deforming = off;
SELECT col50 FROM dc_jit \g /dev/null
SELECT node_id, node_type, jit_deform, deform_calls, tuples_deformed,
       attributes_deformed, max_attribute, bytes_walked
FROM deform_cache_last ORDER BY node_id;
RESET jit_tuple_deforming;

SET jit = off;
SELECT col50 FROM dc_jit \g /dev/null
SELECT node_id, node_type, jit_deform, deform_calls, tuples_deformed,
       attributes_deformed, max_attribute, bytes_walked
FROM deform_cache_last ORDER BY node_id;

RESET deform_cache.track;
DROP TABLE dc_jit;
DROP EXTENSION deform_cache;
