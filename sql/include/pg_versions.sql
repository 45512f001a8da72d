\set ECHO none
--
-- pg_versions: what makes a test's output the same on every supported
-- PostgreSQL (15 to 18), read with \i by the tests whose output depends on
-- it.  Not echoed.
--
-- explain_analyze(query) runs EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF,
-- SUMMARY OFF, BUFFERS OFF) and prints the plan as 15 does: 18 prints the
-- mean rows per loop with two decimals (15 rounds them; so do we, half to
-- even as printf's %.0f does) and counts the searches of index scans
-- ("Index Searches: N", left out).  BUFFERS OFF because 18 reports buffers
-- by default.
--
CREATE OR REPLACE FUNCTION explain_analyze(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
	ln text;
	m text[];
BEGIN
	FOR ln IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || query
	LOOP
		CONTINUE WHEN ln ~ '^\s*Index Searches: \d+$';
		LOOP
			m := regexp_match(ln, 'rows=(\d+\.\d+)');
			EXIT WHEN m IS NULL;
			ln := regexp_replace(ln, 'rows=\d+\.\d+',
								 'rows=' || round(m[1]::float8)::bigint);
		END LOOP;
		RETURN NEXT ln;
	END LOOP;
END
$$;
--
-- From 16 on the planner sorts the input of an aggregate with ORDER BY or
-- DISTINCT below the Aggregate node (enable_presorted_aggregate), which
-- changes plans and the order in which float sums add up; the tests were
-- written for 15's plans.
--
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 160000 THEN
		SET enable_presorted_aggregate = off;
	END IF;
END
$$;
\set ECHO all
