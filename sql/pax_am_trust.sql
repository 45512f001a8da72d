--
-- pax_am_trust: differences from heap that held-out tests found, one
-- section per class, each query run on a heap and a pax table side by side
-- (issue 12).  Heap is the oracle: same rows, same errors.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
\getenv abs_srcdir PG_ABS_SRCDIR
\set pg_versions :abs_srcdir '/sql/include/pg_versions.sql'
\i :pg_versions
SET max_parallel_workers_per_gather = 0;
SET jit = off;

--
-- 1. Inheritance parents: PaxScan must not scan a parent's own relation in
-- place of the Append of the parent and its children.
--
CREATE TABLE inh_h (a int, b text) USING heap;
CREATE TABLE inh_h_c (c int) INHERITS (inh_h) USING heap;
CREATE TABLE inh_p (a int, b text) USING pax WITH (autovacuum_enabled = off);
CREATE TABLE inh_p_c (c int) INHERITS (inh_p) USING pax;
INSERT INTO inh_h VALUES (1, 'parent');
INSERT INTO inh_h_c VALUES (2, 'child', 20), (3, 'child', 30);
INSERT INTO inh_p VALUES (1, 'parent');
INSERT INTO inh_p_c VALUES (2, 'child', 20), (3, 'child', 30);
SELECT count(*), sum(a) FROM inh_h;
SELECT count(*), sum(a) FROM inh_p;
SELECT count(*), sum(a) FROM inh_p WHERE a >= 1;
EXPLAIN (COSTS OFF) SELECT * FROM inh_p WHERE a = 2;
DELETE FROM inh_h WHERE a = 2;
DELETE FROM inh_p WHERE a = 2;
UPDATE inh_h SET b = b || '!';
UPDATE inh_p SET b = b || '!';
SELECT tableoid::regclass, * FROM inh_h ORDER BY a;
SELECT tableoid::regclass, * FROM inh_p ORDER BY a;
-- a heap table joined with a pax parent
CREATE TABLE other_h (a int) USING heap;
INSERT INTO other_h VALUES (1), (3), (4);
DELETE FROM other_h USING inh_p WHERE other_h.a = inh_p.a;
SELECT * FROM other_h;
-- a parent whose last child is gone keeps relhassubclass until ANALYZE
DROP TABLE inh_p_c;
UPDATE inh_p SET b = 'only' RETURNING a, b;
DELETE FROM inh_p WHERE a = 1;
SELECT count(*) FROM inh_p;
DROP TABLE inh_h, inh_h_c, inh_p, other_h;
-- a member of a partition or inheritance tree asked for system columns
-- PaxScan's virtual rows cannot give: the plain scan of it
CREATE TABLE sc_part (id int, c text) PARTITION BY RANGE (id);
CREATE TABLE sc_part_1 PARTITION OF sc_part FOR VALUES FROM (100) TO (300) USING pax;
INSERT INTO sc_part VALUES (150, 'a');
SELECT id, xmin IS NOT NULL, cmin FROM sc_part;
SELECT id, xmin IS NOT NULL FROM sc_part WHERE id = 150 FOR SHARE;
CREATE TABLE sc_inh (id int, c text) USING pax;
CREATE TABLE sc_inh_c () INHERITS (sc_inh) USING pax;
INSERT INTO sc_inh_c VALUES (5, 'x');
SELECT id, xmin IS NOT NULL, xmax FROM sc_inh WHERE id = 5;
DROP TABLE sc_part, sc_inh, sc_inh_c;

--
-- 2. Pages left by a rolled-back ADD COLUMN: their rows are all dead, and a
-- later ADD COLUMN of another type at the same attribute number must
-- neither read them nor put new rows on them.
--
CREATE TABLE ac1 (a int, b text) USING pax;
INSERT INTO ac1 SELECT g, 'x' || g FROM generate_series(1, 1000) g;
BEGIN;
ALTER TABLE ac1 ADD COLUMN c text;
INSERT INTO ac1 SELECT g, 'y', '{"a": ' || g || '}' FROM generate_series(1, 500) g;
ROLLBACK;
ALTER TABLE ac1 ADD COLUMN d jsonb;
SELECT count(*) FROM ac1 WHERE d = '{"a":1}'::jsonb;
SELECT count(*), count(d) FROM ac1;
SET pax.enable_customscan = off;
SELECT count(*), count(d) FROM ac1;
RESET pax.enable_customscan;
INSERT INTO ac1 VALUES (1001, 'z', '{"a": 1}');
SELECT a, d FROM ac1 WHERE d = '{"a":1}'::jsonb;
-- the same with a savepoint, and a column of another width
CREATE TABLE ac2 (a int, b text) USING pax;
INSERT INTO ac2 SELECT g, 'x' || g FROM generate_series(1, 1000) g;
BEGIN;
SAVEPOINT s;
ALTER TABLE ac2 ADD COLUMN c text;
INSERT INTO ac2 SELECT g, 'y', 'v' || g FROM generate_series(1, 500) g;
ROLLBACK TO s;
INSERT INTO ac2 VALUES (0, 'in the same transaction');
COMMIT;
ALTER TABLE ac2 ADD COLUMN d int8;
SELECT count(*), count(d) FROM ac2;
INSERT INTO ac2 SELECT g, 'z', g FROM generate_series(1, 600) g;
SELECT count(*), count(d), sum(d) FROM ac2;
SELECT count(*) FROM ac2 WHERE d > 300;
SET pax.enable_customscan = off;
SELECT count(*), count(d), sum(d) FROM ac2;
RESET pax.enable_customscan;
CREATE INDEX ON ac2 (d);
SET enable_seqscan = off;
SELECT count(*) FROM ac2 WHERE d = 7;
RESET enable_seqscan;
VACUUM ac2;
SELECT count(*), count(d), sum(d) FROM ac2;
INSERT INTO ac2 SELECT g, 'w', g FROM generate_series(1, 300) g;
VACUUM FULL ac2;
SELECT count(*), count(d), sum(d) FROM ac2;
-- a transaction's own ADD COLUMN: its pages are usable to it, and to all
-- once it commits
BEGIN;
ALTER TABLE ac2 ADD COLUMN e text;
INSERT INTO ac2 SELECT g, 'e', g, 'e' || g FROM generate_series(1, 300) g;
SELECT count(*), count(e) FROM ac2;
COMMIT;
INSERT INTO ac2 SELECT g, 'f', g, 'f' || g FROM generate_series(1, 300) g;
SELECT count(*), count(e) FROM ac2;
VACUUM ac2;
SELECT count(*), count(e) FROM ac2;
DROP TABLE ac1, ac2;

--
-- 3. Text values stored out of line: their TOAST pointer is not the string.
--
CREATE TABLE tx_h (id int, c text COLLATE "C", d text) USING heap;
CREATE TABLE tx_p (id int, c text COLLATE "C", d text) USING pax;
ALTER TABLE tx_h ALTER c SET STORAGE EXTERNAL, ALTER d SET STORAGE EXTERNAL;
ALTER TABLE tx_p ALTER c SET STORAGE EXTERNAL, ALTER d SET STORAGE EXTERNAL;
INSERT INTO tx_h VALUES (1, 'b' || repeat('x', 3200), repeat('y', 3200)), (2, 'b', 'y');
INSERT INTO tx_p SELECT * FROM tx_h;
SELECT id FROM tx_h WHERE c > 'a' ORDER BY id;
SELECT id FROM tx_p WHERE c > 'a' ORDER BY id;
SELECT id FROM tx_p WHERE c < 'c' ORDER BY id;
SELECT id FROM tx_p WHERE d = repeat('y', 3200) ORDER BY id;
SELECT id FROM tx_p WHERE d <> repeat('y', 3200) ORDER BY id;
SELECT id FROM tx_p WHERE d IN ('y', repeat('y', 3200)) ORDER BY id;
UPDATE tx_p SET id = id + 10 WHERE c > 'a' RETURNING id;
DELETE FROM tx_p WHERE d = repeat('y', 3200) RETURNING id;
DROP TABLE tx_h, tx_p;

--
-- 4. x <> ALL of an empty array is true for every row, NULL included;
-- x = ANY of one is false for every row.
--
CREATE TABLE ea_h (a int, t text) USING heap;
CREATE TABLE ea_p (a int, t text) USING pax;
INSERT INTO ea_h VALUES (1, 'a'), (NULL, NULL);
INSERT INTO ea_p VALUES (1, 'a'), (NULL, NULL);
-- a page of NULLs only, which zone maps must not skip
INSERT INTO ea_p SELECT NULL, NULL FROM generate_series(1, 2000);
INSERT INTO ea_h SELECT NULL, NULL FROM generate_series(1, 2000);
SELECT count(*) FROM ea_h WHERE a <> ALL ('{}'::int[]);
SELECT count(*) FROM ea_p WHERE a <> ALL ('{}'::int[]);
SELECT count(*) FROM ea_p WHERE NOT (a = ANY ('{}'));
SELECT count(*) FROM ea_p WHERE t <> ALL ('{}'::text[]);
SELECT count(*) FROM ea_p WHERE a = ANY ('{}'::int[]);
SELECT count(*) FROM ea_p WHERE a <> ALL ('{}'::int[]) OR a = 5;
SELECT count(*) FROM ea_p WHERE a <> ALL ('{NULL}'::int[]);
SELECT count(*) FROM ea_p WHERE a <> ALL ('{2}'::int[]);
PREPARE ea(int[]) AS SELECT count(*) FROM ea_p WHERE a <> ALL ($1);
SET plan_cache_mode = force_generic_plan;
EXECUTE ea('{}');
EXECUTE ea('{1}');
RESET plan_cache_mode;
DEALLOCATE ea;
-- PaxScan's own aggregates, and DML
SELECT count(*), count(a), sum(a) FROM ea_p WHERE a <> ALL ('{}'::int[]);
UPDATE ea_h SET t = 'u' WHERE a <> ALL ('{}'::int[]);
UPDATE ea_p SET t = 'u' WHERE a <> ALL ('{}'::int[]);
SET pax.enable_zonemaps = off;
SELECT count(*) FROM ea_p WHERE a <> ALL ('{}'::int[]);
RESET pax.enable_zonemaps;
DROP TABLE ea_h, ea_p;

--
-- 5. Pushed predicates never run on rows the snapshot cannot see: a dead
-- row's out-of-line value may be gone from the TOAST table already.
--
CREATE TABLE dt_p (id int, t text COLLATE "und-x-icu") USING pax;
ALTER TABLE dt_p ALTER t SET STORAGE EXTERNAL;
INSERT INTO dt_p VALUES (1, repeat('a', 5000)), (2, 'b');
DELETE FROM dt_p WHERE id = 1;
SELECT reltoastrelid::regclass AS dt_toast FROM pg_class WHERE oid = 'dt_p'::regclass \gset
VACUUM :dt_toast;
SELECT id FROM dt_p WHERE t < 'zzz';
SELECT id FROM dt_p WHERE t = 'b';
SELECT id FROM dt_p WHERE t IN ('b', 'c');
DROP TABLE dt_p;

--
-- 6. Row-level security: a pushed clause that is not leakproof must not
-- run before the policy's quals, and EXPLAIN ANALYZE's counters must not
-- count rows the policy hides.
--
CREATE FUNCTION pax_leak_eq(int, int) RETURNS bool LANGUAGE plpgsql IMMUTABLE STRICT
  AS $$ BEGIN RAISE NOTICE 'saw %', $1; RETURN $1 = $2; END $$;
CREATE OPERATOR === (LEFTARG = int, RIGHTARG = int, PROCEDURE = pax_leak_eq);
CREATE OPERATOR FAMILY pax_leak_ops USING btree;
CREATE OPERATOR CLASS pax_leak_int_ops FOR TYPE int USING btree FAMILY pax_leak_ops AS
  OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 ===, OPERATOR 4 >=, OPERATOR 5 >,
  FUNCTION 1 btint4cmp(int, int);
CREATE ROLE regress_pax_rls;
CREATE TABLE rls_p (owner text, secret int, p1 text, p2 text, p3 text, p4 text) USING pax
	WITH (autovacuum_enabled = off);
INSERT INTO rls_p SELECT CASE WHEN g = 3 THEN 'regress_pax_rls' ELSE 'someone' END, g
  FROM generate_series(1, 5) g;
INSERT INTO rls_p SELECT 'someone', 42 FROM generate_series(1, 3000);
ALTER TABLE rls_p ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON rls_p USING (lower(owner) = current_user);
GRANT SELECT ON rls_p TO regress_pax_rls;
CREATE TABLE rls_h (LIKE rls_p) USING heap WITH (autovacuum_enabled = off);
INSERT INTO rls_h SELECT * FROM rls_p;
ALTER TABLE rls_h ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON rls_h USING (lower(owner) = current_user);
GRANT SELECT ON rls_h TO regress_pax_rls;
ANALYZE rls_p, rls_h;
SET ROLE regress_pax_rls;
-- the operator sees the policy's rows only (one NOTICE, for secret 3)
EXPLAIN (COSTS OFF) SELECT owner, secret FROM rls_p WHERE secret === 3;
SELECT owner, secret FROM rls_p WHERE secret === 3;
SELECT owner, secret FROM rls_h WHERE secret === 3;
-- leakproof int4 comparisons are pushed, but count with the other quals
SELECT explain_analyze($$SELECT owner, secret FROM rls_p WHERE secret = 42$$);
SELECT explain_analyze($$SELECT owner, secret FROM rls_h WHERE secret = 42$$);
SELECT explain_analyze($$SELECT owner, secret FROM rls_p WHERE secret < 4$$);
SELECT count(*) FROM rls_p WHERE secret < 100;
RESET ROLE;
-- deleted rows are not counted either
CREATE TABLE del_p (a int) USING pax WITH (autovacuum_enabled = off);
INSERT INTO del_p SELECT g FROM generate_series(1, 1000) g;
DELETE FROM del_p WHERE a > 10;
SELECT explain_analyze($$SELECT * FROM del_p WHERE a > 5$$);
-- whether an operator is pushed follows its function's volatility (the
-- verdicts are cached per backend, emptied when pg_proc changes)
EXPLAIN (COSTS OFF) SELECT a FROM del_p WHERE a === 7;
ALTER FUNCTION pax_leak_eq(int, int) VOLATILE;
EXPLAIN (COSTS OFF) SELECT a FROM del_p WHERE a === 7;
ALTER FUNCTION pax_leak_eq(int, int) IMMUTABLE;
EXPLAIN (COSTS OFF) SELECT a FROM del_p WHERE a === 7;
DROP TABLE rls_p, rls_h, del_p;
DROP ROLE regress_pax_rls;
DROP OPERATOR CLASS pax_leak_int_ops USING btree;
DROP OPERATOR FAMILY pax_leak_ops USING btree;
DROP OPERATOR === (int, int);
DROP FUNCTION pax_leak_eq(int, int);

--
-- 7. A pushed clause's value is computed when a row first reaches the
-- clause, as heap computes a qual's arguments: a domain check or an
-- InitPlan that would fail must not fail for an empty table, or when the
-- clauses before it leave no row.
--
CREATE DOMAIN pax_dint AS int4 CHECK (VALUE > -100000);
CREATE TABLE ev_p (a int, b pax_dint) USING pax;
CREATE TABLE ev_e (x int) USING pax;
SELECT count(*) FROM ev_p WHERE b <> ALL (ARRAY[-2147483648]::pax_dint[]);
INSERT INTO ev_p SELECT g, g FROM generate_series(1, 100) g;
SELECT count(*) FROM ev_p WHERE a = 0 AND b <> ALL (ARRAY[-2147483648]::pax_dint[]);
SELECT count(*) FROM ev_p WHERE a = 1 AND b <> ALL (ARRAY[-2147483648]::pax_dint[]);
SELECT count(*) FROM ev_p WHERE a > 1000 AND a = (SELECT 1 / count(*) FROM ev_e)::int;
SELECT count(*) FROM ev_p WHERE a > 10 AND a = (SELECT count(*) FROM ev_p)::int;
SET pax.enable_zonemaps = off;
SELECT count(*) FROM ev_p WHERE a > 10 AND a = (SELECT count(*) FROM ev_p)::int;
RESET pax.enable_zonemaps;
-- the same for an OR of comparisons on one column with such a value
SELECT count(*) FROM ev_p WHERE a = 1 OR a = (SELECT count(*) FROM ev_p)::int;
SELECT count(*) FROM ev_p WHERE a > 1000 AND (a = 0 OR a = (SELECT 1 / count(*) FROM ev_e)::int);
DROP TABLE ev_p, ev_e;
DROP DOMAIN pax_dint;

--
-- 8. VACUUM FULL and CLUSTER freeze the rows they keep as heap's rewrite
-- does: a locker's xmax older than the new relfrozenxid must not stay.
--
SET vacuum_freeze_min_age = 0;
CREATE TABLE rw_p (id int, c varchar COLLATE "C") USING pax;
INSERT INTO rw_p SELECT g, 'v' || g FROM generate_series(1, 300) g;
SELECT count(*) FROM (SELECT id FROM rw_p WHERE c IS DISTINCT FROM '8' FOR UPDATE) s;
VACUUM FULL rw_p;
VACUUM (FREEZE) rw_p;
CREATE INDEX rw_p_idx ON rw_p (id);
BEGIN;
SELECT count(*) FROM (SELECT id FROM rw_p FOR SHARE) s;
COMMIT;
CLUSTER rw_p USING rw_p_idx;
VACUUM (FREEZE) rw_p;
SELECT count(*), sum(id) FROM rw_p;
DROP TABLE rw_p;
RESET vacuum_freeze_min_age;
