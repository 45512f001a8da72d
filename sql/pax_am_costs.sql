--
-- The planner's costs of PaxScan: pages in memory (pax.cached_page_cost,
-- effective_cache_size) and pushed clauses evaluated inline or through
-- their operator's function.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE pc_pax (i int, c char(4), t text) USING pax WITH (autovacuum_enabled = off);
INSERT INTO pc_pax SELECT g % 100, (g % 100)::text, (g % 100)::text
  FROM generate_series(1, 20000) g;
VACUUM ANALYZE pc_pax;

-- the estimated total cost of a query's top plan node, or of its first child
CREATE FUNCTION pc_cost(q text, child bool DEFAULT false) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    node json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO node;
    node := node -> 0 -> 'Plan';
    IF child THEN
        node := node -> 'Plans' -> 0;
    END IF;
    RETURN (node ->> 'Total Cost')::float8;
END $$;

-- what pax.cached_page_cost = c adds to the cost of a query's top plan node
-- (or of its first child) over pax.cached_page_cost = 0, per page of pc_pax
CREATE FUNCTION pc_page_delta(q text, c float8, child bool DEFAULT false)
RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
    c0 float8;
BEGIN
    PERFORM set_config('pax.cached_page_cost', '0', true);
    c0 := pc_cost(q, child);
    PERFORM set_config('pax.cached_page_cost', c::text, true);
    RETURN round(((pc_cost(q, child) - c0) /
                  (SELECT relpages FROM pg_class WHERE relname = 'pc_pax'))::numeric, 4);
END $$;

-- every page in memory (the table is far smaller than effective_cache_size):
-- each costs pax.cached_page_cost, at most seq_page_cost
SELECT current_setting('pax.cached_page_cost') AS default_cached_page_cost;
SELECT pc_page_delta('SELECT i FROM pc_pax', 0.5) = 0.5 AS half_per_page,
       pc_page_delta('SELECT i FROM pc_pax', 7) =
         current_setting('seq_page_cost')::numeric AS capped_at_seq_page_cost;
-- the aggregate mode is charged alike
SELECT pc_page_delta('SELECT count(*) FROM pc_pax', 0.5) = 0.5 AS agg_half_per_page;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pc_pax;

-- a page in memory is CPU work, which parallel workers divide (a page read
-- from disk is I/O, which they do not, as cost_seqscan() has it): two
-- workers and the leader's share divide by 2.4
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT abs(pc_page_delta('SELECT i FROM pc_pax WHERE i < 50', 0.5, true) -
           0.5 / 2.4) < 0.001 AS divided_among_workers;
EXPLAIN (COSTS OFF) SELECT i FROM pc_pax WHERE i < 50;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- an effective_cache_size of one page: nearly every page is read from disk
SET pax.cached_page_cost = 0;
SELECT pc_cost('SELECT i FROM pc_pax') AS c0 \gset
SET effective_cache_size = 1;
SELECT round((pc_cost('SELECT i FROM pc_pax') - :c0)::numeric, 0) =
       round((relpages - 1)::numeric, 0) AS disk_pages
  FROM pg_class WHERE relname = 'pc_pax';
RESET effective_cache_size;
RESET pax.cached_page_cost;

-- a clause compared inline (integers; text bytewise under "C") costs a
-- quarter of an operator per row; a bpchar one, compared bytewise without
-- each value's trailing blanks, and one whose operator's function is
-- called per row (a range under an ICU collation) cost that function's
-- cost, as the executor's qual would
SELECT pc_cost('SELECT i FROM pc_pax WHERE i = 5') AS ci,
       pc_cost('SELECT i FROM pc_pax WHERE t = ''5'' COLLATE "C"') AS ct,
       pc_cost('SELECT i FROM pc_pax WHERE c = ''5''') AS cc,
       pc_cost('SELECT i FROM pc_pax WHERE c = ''5'' COLLATE "und-x-icu"') AS cce,
       pc_cost('SELECT i FROM pc_pax WHERE t < ''5'' COLLATE "und-x-icu"') AS ctr \gset
SELECT round(((:ct - :ci) / reltuples)::numeric, 4) AS text_minus_int_per_row,
       round(((:cc - :ci) / reltuples)::numeric, 4) AS bpchar_minus_int_per_row,
       round(((:cce - :ci) / reltuples)::numeric, 4) AS bpchar_icu_eq_minus_int_per_row,
       round(((:ctr - :ci) / reltuples / current_setting('cpu_operator_cost')::float8)::numeric, 2)
         AS icu_range_minus_int_per_row_in_operators
  FROM pg_class WHERE relname = 'pc_pax';
EXPLAIN (COSTS OFF) SELECT i FROM pc_pax WHERE c = '5';
EXPLAIN (COSTS OFF) SELECT i FROM pc_pax WHERE t < '5' COLLATE "und-x-icu";

-- under a join filter a PaxScan forms few rows: a page in memory costs a
-- fifth of pax.cached_page_cost and the rest in proportion to the share of
-- the row's bytes the scan reads (PAX_PAGE_FIXED_SHARE)
CREATE TABLE pw_pax (k int, pad text) USING pax WITH (autovacuum_enabled = off);
INSERT INTO pw_pax SELECT g % 1000, repeat('x', 200) FROM generate_series(1, 20000) g;
CREATE TABLE pw_dim (k int, g int);
INSERT INTO pw_dim SELECT g, g % 50 FROM generate_series(1, 1000) g;
VACUUM ANALYZE pw_pax, pw_dim;
-- the total cost of q's plan node whose field (Relation Name, Index Name)
-- is name
CREATE FUNCTION pc_node_cost(q text, field text, name text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    plan json;
    cost float8;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
    SELECT (n ->> 'Total Cost')::float8 INTO cost
      FROM jsonb_path_query(plan::jsonb, 'strict $.**') AS n
     WHERE jsonb_typeof(n) = 'object' AND n ->> field = name;
    RETURN cost;
END $$;
CREATE FUNCTION pw_page_delta(q text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
    c0 float8;
BEGIN
    PERFORM set_config('pax.cached_page_cost', '0', true);
    c0 := pc_node_cost(q, 'Relation Name', 'pw_pax');
    PERFORM set_config('pax.cached_page_cost', '0.5', true);
    RETURN round(((pc_node_cost(q, 'Relation Name', 'pw_pax') - c0) /
                  (SELECT relpages FROM pg_class WHERE relname = 'pw_pax'))::numeric, 2);
END $$;
SET enable_nestloop = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT f.k FROM pw_pax f JOIN pw_dim d ON f.k = d.k WHERE d.g = 1;
SELECT pw_page_delta('SELECT f.k FROM pw_pax f JOIN pw_dim d ON f.k = d.k WHERE d.g = 1') AS key_only,
       pw_page_delta('SELECT f.k, f.pad FROM pw_pax f JOIN pw_dim d ON f.k = d.k WHERE d.g = 1') AS all_columns,
       pw_page_delta('SELECT k FROM pw_pax') AS no_join_filter;
RESET enable_nestloop;
RESET enable_mergejoin;
DROP TABLE pw_pax, pw_dim;
DROP FUNCTION pw_page_delta;

-- a one-page table alone in its query (an UPDATE of pgbench's tellers):
-- its index paths are not costed a second time, as no index path reads
-- fewer of its pages than PaxScan; PaxScan reads it, as heap's Seq Scan
-- does.  Joined, its parameterized index path is costed for cached pages
-- (below one random page).
CREATE TABLE op_pax (id int PRIMARY KEY, bal int) USING pax;
INSERT INTO op_pax SELECT g, 0 FROM generate_series(1, 200) g;
CREATE TABLE op_heap (LIKE op_pax INCLUDING ALL) USING heap;
INSERT INTO op_heap SELECT * FROM op_pax;
CREATE TABLE op_big (id int, t int) USING pax;
INSERT INTO op_big SELECT g, g % 200 + 1 FROM generate_series(1, 10000) g;
VACUUM ANALYZE op_pax, op_heap, op_big;
SELECT relpages FROM pg_class WHERE relname = 'op_pax';
EXPLAIN (COSTS OFF) UPDATE op_pax SET bal = bal + 1 WHERE id = 7;
EXPLAIN (COSTS OFF) UPDATE op_heap SET bal = bal + 1 WHERE id = 7;
UPDATE op_pax SET bal = bal + 1 WHERE id = 7;
SELECT id, bal FROM op_pax WHERE id BETWEEN 6 AND 8 ORDER BY id;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT b.id, o.bal FROM op_big b JOIN op_pax o ON o.id = b.t WHERE b.id < 5;
SELECT pc_node_cost('SELECT b.id, o.bal FROM op_big b JOIN op_pax o ON o.id = b.t WHERE b.id < 5',
                    'Index Name', 'op_pax_pkey') < current_setting('random_page_cost')::float8 AS cached_cost;
RESET enable_hashjoin;
RESET enable_mergejoin;
DROP TABLE op_pax, op_heap, op_big;
DROP FUNCTION pc_node_cost;

-- bad settings
SET pax.cached_page_cost = -1;

DROP TABLE pc_pax;
DROP FUNCTION pc_page_delta, pc_cost;
