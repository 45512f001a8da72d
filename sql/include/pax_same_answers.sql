\set ECHO none
--
-- pax_same_answers: the query comparison of the tests of encodings, read
-- with \i.  Not echoed.
--
-- pax_same_answers(queries, a, b) runs each query (a format() string whose
-- %s is the table) on a and on b and returns, in order, whether both gave
-- the same rows (as text, in the query's order) and a's.
--
CREATE OR REPLACE FUNCTION pax_same_answers(queries text[], a text, b text)
RETURNS TABLE (n int, same boolean, answer text) LANGUAGE plpgsql AS $$
DECLARE
    ra text;
    rb text;
BEGIN
    FOR i IN 1 .. array_length(queries, 1) LOOP
        EXECUTE format('SELECT string_agg(x::text, '';'') FROM (' || queries[i] || ') x', a) INTO ra;
        EXECUTE format('SELECT string_agg(x::text, '';'') FROM (' || queries[i] || ') x', b) INTO rb;
        n := i;
        same := ra IS NOT DISTINCT FROM rb;
        answer := ra;
        RETURN NEXT;
    END LOOP;
END $$;
\set ECHO all
