--
-- Index and bitmap paths of pax tables charged for pages in memory, as
-- PaxScan is (pax_pagecost.c), and the clauses implied by an OR that
-- PaxScan evaluates on the minipages (PaxImpliedOrClauses).
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;

-- TPC-H Q19's shape: a selective OR on a small table, joined to a large
-- one through an index on the join key.  Charged for cold pages, the index
-- fetches cost more than a full PaxScan of the large table under a hash
-- join (charged for pages in memory), which took 3.5 times heap's time.
CREATE TABLE ic_part (p_partkey int PRIMARY KEY, p_brand char(10),
                      p_size int, p_container char(10)) USING pax;
INSERT INTO ic_part
SELECT g, 'Brand#' || (g % 25), g / 125 % 50,
       (ARRAY['SM CASE', 'SM BOX', 'MED BAG', 'MED BOX', 'LG CASE'])[g / 25 % 5 + 1]
  FROM generate_series(1, 20000) g;
CREATE TABLE ic_line (l_orderkey int, l_partkey int, l_quantity numeric,
                      l_price numeric, l_shipmode char(10), l_comment text) USING pax;
INSERT INTO ic_line
SELECT g, (g::int8 * 7919 % 20000 + 1)::int, g % 50, g % 1000,
       (ARRAY['AIR', 'RAIL', 'SHIP', 'TRUCK'])[g % 4 + 1], repeat('x', g % 40)
  FROM generate_series(1, 300000) g;
CREATE INDEX ic_line_partkey ON ic_line (l_partkey);
CREATE INDEX ic_line_quantity ON ic_line (l_quantity);
CREATE TABLE ic_part_heap (LIKE ic_part) USING heap;
INSERT INTO ic_part_heap SELECT * FROM ic_part;
CREATE TABLE ic_line_heap (LIKE ic_line) USING heap;
INSERT INTO ic_line_heap SELECT * FROM ic_line;
CREATE INDEX ON ic_line_heap (l_partkey);
VACUUM ANALYZE ic_part, ic_line, ic_part_heap, ic_line_heap;

-- the query on pax (q as given) and on heap (table names suffixed), equal
CREATE FUNCTION ic_same(q text) RETURNS TABLE (rows bigint, same bool)
LANGUAGE plpgsql AS $$
DECLARE
    p text[]; h text[];
BEGIN
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO p;
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r',
                   replace(replace(q, 'ic_part', 'ic_part_heap'),
                           'ic_line', 'ic_line_heap')) INTO h;
    rows := coalesce(cardinality(p), 0);
    same := p IS NOT DISTINCT FROM h;
    RETURN NEXT;
END $$;

-- the nested loop of index fetches, as heap's plan
EXPLAIN (COSTS OFF)
SELECT sum(l_price) FROM ic_line, ic_part
 WHERE p_partkey = l_partkey
   AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND p_size BETWEEN 1 AND 2)
     OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND p_size BETWEEN 1 AND 2));
SELECT * FROM ic_same($$SELECT sum(l_price) FROM ic_line, ic_part
 WHERE p_partkey = l_partkey
   AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND p_size BETWEEN 1 AND 2)
     OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND p_size BETWEEN 1 AND 2))$$);

-- an index scan fetching a large share of the rows one at a time is
-- charged for each fetch (not only for the distinct pages): PaxScan wins
EXPLAIN (COSTS OFF) SELECT sum(l_price) FROM ic_line WHERE l_quantity < 20;
-- a few rows: the index wins
EXPLAIN (COSTS OFF) SELECT sum(l_price) FROM ic_line WHERE l_partkey = 77;
SELECT * FROM ic_same($$SELECT sum(l_price) FROM ic_line WHERE l_partkey = 77$$);
-- the cached share follows effective_cache_size: with almost nothing in
-- memory the index fetches cost random_page_cost again, as for heap
SET effective_cache_size = '8kB';
EXPLAIN (COSTS OFF)
SELECT sum(l_price) FROM ic_line, ic_part
 WHERE p_partkey = l_partkey
   AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND p_size BETWEEN 1 AND 2)
     OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND p_size BETWEEN 1 AND 2));
RESET effective_cache_size;
-- a tablespace's own page costs are left alone (none here); the core's
-- variables are restored after planning
SHOW random_page_cost;
SHOW seq_page_cost;

-- Implied clauses of an OR: for each column that every arm constrains, the
-- OR of one pushable conjunct per arm, on the minipages; the OR itself
-- stays in the executor's Filter
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ic_part
 WHERE (p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND p_size <= 5)
    OR (p_brand = 'Brand#23' AND p_container = 'MED BAG' AND p_size <= 10);
SELECT * FROM ic_same($$SELECT p_partkey FROM ic_part
 WHERE (p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND p_size <= 5)
    OR (p_brand = 'Brand#23' AND p_container = 'MED BAG' AND p_size <= 10)$$);
-- a column not in every arm implies nothing
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ic_part WHERE (p_brand = 'Brand#12' AND p_size < 3) OR p_container = 'SM BOX';
-- NULLs: an arm that is NULL for a row does not pass it, nor the implied clause
INSERT INTO ic_part VALUES (20001, NULL, 3, 'SM BOX'), (20002, 'Brand#12', NULL, 'SM BOX'),
                           (20003, 'Brand#12', 3, NULL);
INSERT INTO ic_part_heap VALUES (20001, NULL, 3, 'SM BOX'), (20002, 'Brand#12', NULL, 'SM BOX'),
                                (20003, 'Brand#12', 3, NULL);
SELECT * FROM ic_same($$SELECT p_partkey FROM ic_part
 WHERE (p_brand = 'Brand#12' AND p_container = 'SM BOX') OR (p_brand IS NULL AND p_size = 3)$$);
SELECT * FROM ic_same($$SELECT p_partkey FROM ic_part
 WHERE (p_brand = 'Brand#12' AND p_size = 3) OR (p_brand = 'Brand#13' AND p_size IS NULL)$$);
-- an OR that can raise an error implies nothing: its error must come from
-- the rows heap's would (a numeric division here)
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ic_line
 WHERE (l_shipmode = 'AIR' AND l_price / (l_quantity - 8) > 1) OR (l_shipmode = 'RAIL' AND l_quantity = 3);
SELECT count(*) FROM ic_line
 WHERE (l_shipmode = 'AIR' AND l_price / (l_quantity - 8) > 1) OR (l_shipmode = 'RAIL' AND l_quantity = 3);
SELECT count(*) FROM ic_line_heap
 WHERE (l_shipmode = 'AIR' AND l_price / (l_quantity - 8) > 1) OR (l_shipmode = 'RAIL' AND l_quantity = 3);
-- nor an OR after a clause left to the executor that can raise one: that
-- clause meets every row the pushed clauses pass, as in heap's plan
CREATE FUNCTION ic_check(x int) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
    IF x = 9999 THEN
        RAISE EXCEPTION 'row % reached', x;
    END IF;
    RETURN true;
END $$ COST 1;
SELECT count(*) FROM ic_part
 WHERE ic_check(p_partkey)
   AND ((p_brand = 'Brand#12' AND p_size < 3) OR (p_brand = 'Brand#23' AND p_size < 4));
SELECT count(*) FROM ic_part_heap
 WHERE ic_check(p_partkey)
   AND ((p_brand = 'Brand#12' AND p_size < 3) OR (p_brand = 'Brand#23' AND p_size < 4));
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ic_part
 WHERE ic_check(p_partkey)
   AND ((p_brand = 'Brand#12' AND p_size < 3) OR (p_brand = 'Brand#23' AND p_size < 4));
-- a security barrier view: the implied clauses are leakproof and run
-- first, at the OR's level; the rows are the view's
CREATE VIEW ic_sb WITH (security_barrier) AS
  SELECT * FROM ic_part WHERE p_size < 10;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ic_sb
 WHERE (p_brand = 'Brand#12' AND p_container = 'SM BOX') OR (p_brand = 'Brand#1' AND p_container = 'SM CASE');
SELECT count(*) FROM ic_sb
 WHERE (p_brand = 'Brand#12' AND p_container = 'SM BOX') OR (p_brand = 'Brand#1' AND p_container = 'SM CASE');
SELECT count(*) FROM ic_part WHERE p_size < 10 AND
 ((p_brand = 'Brand#12' AND p_container = 'SM BOX') OR (p_brand = 'Brand#1' AND p_container = 'SM CASE'));
-- a correlated subquery's OR whose arms all compare a column with the
-- outer row (TPC-DS Q41's shape): the planner takes the common conjunct
-- out of the OR, and as a reference to the outer row, set before each scan
-- of the subquery (PaxOuterParam), it runs on the minipages although a
-- clause stays with the executor
EXPLAIN (COSTS OFF)
SELECT p.p_partkey FROM ic_part p
 WHERE p.p_partkey % 1000 = 7 AND
       (SELECT count(*) FROM ic_part q
         WHERE (q.p_brand = p.p_brand AND q.p_size < 3)
            OR (q.p_brand = p.p_brand AND q.p_container = 'SM BOX')) > 10;
SELECT * FROM ic_same($$SELECT p.p_partkey, (SELECT count(*) FROM ic_part q
         WHERE (q.p_brand = p.p_brand AND q.p_size < 3)
            OR (q.p_brand = p.p_brand AND q.p_container = 'SM BOX')) FROM ic_part p
 WHERE p.p_partkey % 1000 = 7$$);
-- arms comparing the column with the outer row differently: their OR is
-- implied, on the minipages
EXPLAIN (COSTS OFF)
SELECT p.p_partkey FROM ic_part p
 WHERE p.p_partkey % 1000 = 7 AND
       (SELECT count(*) FROM ic_part q
         WHERE (q.p_brand = p.p_brand AND q.p_size < 3)
            OR (q.p_brand < p.p_brand AND q.p_container = 'SM BOX')) > 10;
SELECT * FROM ic_same($$SELECT p.p_partkey, (SELECT count(*) FROM ic_part q
         WHERE (q.p_brand = p.p_brand AND q.p_size < 3)
            OR (q.p_brand < p.p_brand AND q.p_container = 'SM BOX')) FROM ic_part p
 WHERE p.p_partkey % 1000 = 7$$);
-- with a NULL outer value the arms are NULL or false, as the pushed clause
SELECT * FROM ic_same($$SELECT p.p_partkey, (SELECT count(*) FROM ic_part q
         WHERE (q.p_brand = p.p_brand AND q.p_size < 3)
            OR (q.p_brand = p.p_brand AND q.p_container = 'SM BOX')) FROM ic_part p
 WHERE p.p_partkey > 20000$$);
-- an InitPlan's value is computed on first use, and may fail: it is not
-- pushed while a clause stays with the executor, nor implied (EXPLAIN's
-- display of InitPlan values differs between versions: a count of the
-- plan's Pax Filters)
CREATE FUNCTION ic_pax_filters(q text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    j jsonb;
BEGIN
    EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || q INTO j;
    RETURN (SELECT count(*) FROM jsonb_path_query(j, 'strict $.**') n
             WHERE jsonb_typeof(n) = 'object' AND n ? 'Pax Filter');
END $$;
SELECT ic_pax_filters($$SELECT count(*) FROM ic_part q
 WHERE (q.p_brand = (SELECT max(p_brand) FROM ic_part) AND q.p_size < 3)
    OR (q.p_brand = (SELECT max(p_brand) FROM ic_part) AND q.p_container = 'SM BOX')$$);
SELECT * FROM ic_same($$SELECT p_partkey FROM ic_part q
 WHERE (q.p_brand = (SELECT min(p_brand) FROM ic_part) AND q.p_size < 3)
    OR (q.p_brand = (SELECT min(p_brand) FROM ic_part) AND q.p_container = 'SM BOX')$$);
-- pax.enable_pushdown = off: heap's plan, nothing implied
SET pax.enable_pushdown = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ic_part
 WHERE (p_brand = 'Brand#12' AND p_size <= 5) OR (p_brand = 'Brand#23' AND p_size <= 10);
RESET pax.enable_pushdown;

DROP VIEW ic_sb;
DROP FUNCTION ic_check(int);
DROP FUNCTION ic_same(text);
DROP FUNCTION ic_pax_filters(text);
DROP TABLE ic_part, ic_line, ic_part_heap, ic_line_heap;
