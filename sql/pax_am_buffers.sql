--
-- pax_am_buffers: pax.enable_buffer_guessing.  Scans of pax tables pin a
-- block through the buffer that last held it, or the buffer after the
-- previous block's, before looking it up (pax_buffers.c).  Turned off,
-- every block goes through the buffer mapping table.  Results must not
-- depend on it.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;

CREATE TABLE bg (a int, b text) USING pax;
SHOW pax.enable_buffer_guessing;
INSERT INTO bg SELECT g, repeat('x', g % 50) FROM generate_series(1, 30000) g;

-- each step's results, with guessing on and then off
CREATE TEMP TABLE bg_results (guessing text, step text, result text);

CREATE FUNCTION bg_record(step text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO bg_results
	SELECT current_setting('pax.enable_buffer_guessing'), step || ', PaxScan',
		   format('%s %s %s', count(*), sum(a), sum(length(b))) FROM bg;
	INSERT INTO bg_results
	SELECT current_setting('pax.enable_buffer_guessing'), step || ', pushdown',
		   format('%s %s', count(*), sum(a)) FROM bg WHERE a % 7 = 3;
	SET LOCAL pax.enable_customscan = off;
	INSERT INTO bg_results
	SELECT current_setting('pax.enable_buffer_guessing'), step || ', table AM scan',
		   format('%s %s %s', count(*), sum(a), sum(length(b))) FROM bg;
	RESET pax.enable_customscan;
END
$$;

-- a fresh table, then again with the buffers remembered
SELECT bg_record('fresh');
SELECT bg_record('remembered');
SET pax.enable_buffer_guessing = off;
SELECT bg_record('fresh');
SELECT bg_record('remembered');
RESET pax.enable_buffer_guessing;

-- reclaimed slots, a new relfilenode and a truncation leave stale buffers
DELETE FROM bg WHERE a % 3 = 0;
VACUUM bg;
SELECT bg_record('vacuumed');
SET pax.enable_buffer_guessing = off;
SELECT bg_record('vacuumed');
RESET pax.enable_buffer_guessing;
VACUUM FULL bg;
SELECT bg_record('rewritten');
SET pax.enable_buffer_guessing = off;
SELECT bg_record('rewritten');
RESET pax.enable_buffer_guessing;
TRUNCATE bg;
INSERT INTO bg SELECT g, repeat('y', g % 30) FROM generate_series(1, 20000) g;
SELECT bg_record('truncated');
SET pax.enable_buffer_guessing = off;
SELECT bg_record('truncated');
RESET pax.enable_buffer_guessing;

-- every step gives the same results either way
SELECT on_.step, on_.result, on_.result = off.result AS same
FROM bg_results on_ JOIN bg_results off USING (step)
WHERE on_.guessing = 'on' AND off.guessing = 'off'
ORDER BY on_.step;

-- parallel scans share the buffers they find; the same answers either way
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT count(*), sum(a), sum(length(b)) FROM bg;
SELECT count(*), sum(a) FROM bg WHERE a % 7 = 3;
SET pax.enable_buffer_guessing = off;
SELECT count(*), sum(a), sum(length(b)) FROM bg;
SELECT count(*), sum(a) FROM bg WHERE a % 7 = 3;
RESET pax.enable_buffer_guessing;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

DROP FUNCTION bg_record(text);
DROP TABLE bg;
