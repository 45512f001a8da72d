--
-- deform_cache_errors: a statement that fails leaves no instrumentation
-- behind; cursors and nested statements.
--
CREATE EXTENSION deform_cache;
LOAD 'deform_cache';

CREATE TABLE dc_err (a int, b text, c text);
INSERT INTO dc_err SELECT g, 'b' || g, CASE WHEN g = 700 THEN 'x' ELSE g::text END
FROM generate_series(1, 1000) g;
VACUUM ANALYZE dc_err;

SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET deform_cache.track = on;

SELECT count(b) FROM dc_err;
SELECT node_id, node_type, tuples_deformed, attributes_deformed
FROM deform_cache_last ORDER BY node_id;

-- fails at row 700, in the middle of the scan
SELECT sum(c::int) FROM dc_err;
-- the failed statement's counters are dropped, the previous ones stay
SELECT node_id, node_type, tuples_deformed, attributes_deformed
FROM deform_cache_last ORDER BY node_id;
-- nothing is left instrumented once tracking is off
SET deform_cache.track = off;
SELECT * FROM deform_cache_info();
SET deform_cache.track = on;
-- and the next statement is counted from zero
SELECT count(c) FROM dc_err;
SELECT node_id, node_type, deform_calls, tuples_deformed, attributes_deformed,
       context_resets, context_resets_empty
FROM deform_cache_last ORDER BY node_id;

-- the same inside a transaction block, and in a subtransaction
BEGIN;
SELECT sum(c::int) FROM dc_err;
ROLLBACK;
SET deform_cache.track = off;
SELECT * FROM deform_cache_info();
SET deform_cache.track = on;
BEGIN;
SAVEPOINT s;
DECLARE cur CURSOR FOR SELECT c::int FROM dc_err;
FETCH 10 FROM cur \g /dev/null
FETCH 1000 FROM cur;
ROLLBACK TO SAVEPOINT s;
SET LOCAL deform_cache.track = off;
SELECT * FROM deform_cache_info();
COMMIT;

-- an error caught inside the statement does not end its counting
CREATE FUNCTION dc_catch() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sum(c::int) FROM dc_err;
  RETURN 0;
EXCEPTION WHEN invalid_text_representation THEN
  RETURN 1;
END $$;
SELECT dc_catch(), count(c) FROM dc_err;
SELECT node_id, node_type, tuples_deformed, attributes_deformed
FROM deform_cache_last ORDER BY node_id;

-- only top-level statements are counted: the function's query is not
CREATE FUNCTION dc_nested() RETURNS bigint LANGUAGE sql VOLATILE
  AS 'SELECT count(c) FROM dc_err';
SELECT dc_nested();
SELECT node_id, node_type, tuples_deformed, attributes_deformed
FROM deform_cache_last ORDER BY node_id;

-- a cursor is counted over all its fetches, when it is closed
BEGIN;
DECLARE cur CURSOR FOR SELECT b FROM dc_err;
FETCH 10 FROM cur \g /dev/null
-- reading the counters meanwhile is not counted and does not disturb it
SELECT node_id, node_type FROM deform_cache_last;
SELECT * FROM deform_cache_info();
FETCH 5 FROM cur \g /dev/null
CLOSE cur;
COMMIT;
SELECT node_id, node_type, deform_calls, tuples_deformed, attributes_deformed
FROM deform_cache_last ORDER BY node_id;

RESET deform_cache.track;
DROP FUNCTION dc_catch();
DROP FUNCTION dc_nested();
DROP TABLE dc_err;
DROP EXTENSION deform_cache;
