\set ECHO none
--
-- pax_am_oracle: the heap oracle of the pax_am_mvcc_* tests, read by each
-- of them with \i (the tests stay runnable alone and in any order).
--
-- Every statement of those tests runs on a pax table (name_pax) and on a
-- heap table (name_heap) holding the same data; the results are compared in
-- SQL, heap being the oracle.  Their expected output was produced by running
-- them with every "USING pax" replaced by "USING heap" and the replacement
-- undone in the output: pax must behave exactly as heap does.
--
-- This file creates the pax_am extension and the helpers below; a test drops
-- the helpers at its end with
--   DROP FUNCTION same, dml, q, block, verify_all;
-- It is not echoed (the \set ECHO lines at its ends): a test's output shows
-- its own statements only.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;

-- same(t): t_pax and t_heap as multisets of rows (compared as text).  The
-- helpers turn whole rows into text as (alias.*)::text: a bare alias would
-- name a column of the same name instead (a table with a column x would
-- have only x compared).
CREATE FUNCTION same(t text, OUT pax bigint, OUT heap bigint,
					 OUT only_pax bigint, OUT only_heap bigint)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$
		SELECT (SELECT count(*) FROM %1$I), (SELECT count(*) FROM %2$I),
		  (SELECT count(*) FROM (SELECT (x.*)::text FROM %1$I x
								 EXCEPT ALL SELECT (y.*)::text FROM %2$I y) d),
		  (SELECT count(*) FROM (SELECT (y.*)::text FROM %2$I y
								 EXCEPT ALL SELECT (x.*)::text FROM %1$I x) d)$q$,
		t || '_pax', t || '_heap') INTO pax, heap, only_pax, only_heap;
END $$;

-- dml(t, stmt): runs stmt with {t} replaced by t_pax, then by t_heap; the
-- rows each affected (or returned, with RETURNING), whether the RETURNING
-- rows are the same multiset, and whether the tables are equal afterwards
CREATE FUNCTION dml(t text, stmt text, OUT pax bigint, OUT heap bigint,
					OUT same_returning bool, OUT same_table bool)
LANGUAGE plpgsql AS $$
DECLARE
	rp text[];
	rh text[];
	s record;
BEGIN
	IF stmt ~* 'returning' THEN
		EXECUTE 'WITH r AS (' || replace(stmt, '{t}', t || '_pax') ||
			') SELECT count(*), array_agg((r.*)::text ORDER BY (r.*)::text) FROM r' INTO pax, rp;
		EXECUTE 'WITH r AS (' || replace(stmt, '{t}', t || '_heap') ||
			') SELECT count(*), array_agg((r.*)::text ORDER BY (r.*)::text) FROM r' INTO heap, rh;
		same_returning := rp IS NOT DISTINCT FROM rh;
	ELSE
		EXECUTE replace(stmt, '{t}', t || '_pax');
		GET DIAGNOSTICS pax = ROW_COUNT;
		EXECUTE replace(stmt, '{t}', t || '_heap');
		GET DIAGNOSTICS heap = ROW_COUNT;
	END IF;
	SELECT * INTO s FROM same(t);
	same_table := s.pax = s.heap AND s.only_pax = 0 AND s.only_heap = 0;
END $$;

-- q(query): runs query with {t} replaced by pax, then heap table names;
-- row counts and whether both return the same multiset of rows
CREATE FUNCTION q(query text, OUT pax bigint, OUT heap bigint, OUT same bool)
LANGUAGE plpgsql AS $$
DECLARE
	rp text[];
	rh text[];
BEGIN
	EXECUTE 'SELECT count(*), array_agg((r.*)::text ORDER BY (r.*)::text) FROM (' ||
		replace(query, '{t}', '_pax') || ') r' INTO pax, rp;
	EXECUTE 'SELECT count(*), array_agg((r.*)::text ORDER BY (r.*)::text) FROM (' ||
		replace(query, '{t}', '_heap') || ') r' INTO heap, rh;
	same := rp IS NOT DISTINCT FROM rh;
END $$;

-- block(tid): the block number of a ctid
CREATE FUNCTION block(tid) RETURNS bigint LANGUAGE sql IMMUTABLE
	AS $$ SELECT ($1::text::point)[0]::bigint $$;

-- verify_all(): what pax_verify finds wrong in any pax table (and index) of
-- the public schema; a test ends with it, expecting no rows
CREATE FUNCTION verify_all() RETURNS TABLE (relname name, blkno bigint, "row" int,
											attnum int, msg text)
LANGUAGE sql AS $$
	SELECT c.relname, v.blkno, v.row, v.attnum, v.msg
	  FROM pg_class c JOIN pg_am a ON a.oid = c.relam AND a.amname = 'pax'
	  CROSS JOIN LATERAL pax_verify(c.oid) v
	 WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1, 2, 3, 4
$$;
\set ECHO all
