\set ECHO none
--
-- pax_same: the row comparison of the tests that check that values read
-- back as heap stores them, read with \i.  Not echoed.
--
-- pax_same(a, b) compares two tables (or parenthesised subqueries) row for
-- row, as multisets of their text form, which every type has (json, point,
-- xid have no equality).
--
CREATE OR REPLACE FUNCTION pax_same(a text, b text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    na bigint; nb bigint; d1 bigint; d2 bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM %s x', a) INTO na;
    EXECUTE format('SELECT count(*) FROM %s x', b) INTO nb;
    EXECUTE format('SELECT count(*) FROM (SELECT x::text FROM %s x EXCEPT ALL SELECT y::text FROM %s y) d', a, b) INTO d1;
    EXECUTE format('SELECT count(*) FROM (SELECT y::text FROM %s y EXCEPT ALL SELECT x::text FROM %s x) d', b, a) INTO d2;
    RETURN format('%s rows, %s rows, %s missing, %s extra', na, nb, d1, d2);
END $$;
\set ECHO all
