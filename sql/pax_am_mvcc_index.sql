--
-- pax_am_mvcc_index: indexes of every kind (btree, hash, gist, spgist, gin,
-- brin, bloom, expression and partial) maintained by INSERT, UPDATE and
-- DELETE, used by index scans, bitmap scans and index-only scans, before and
-- after VACUUM.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloom;
RESET client_min_messages;
\set pg_versions :abs_srcdir '/sql/include/pg_versions.sql'
\i :pg_versions
CREATE TABLE ix_pax (id int, k int, r int4range, p point, a int[], ts tsvector, t text)
	USING pax WITH (autovacuum_enabled = off);
CREATE TABLE ix_heap (id int, k int, r int4range, p point, a int[], ts tsvector, t text)
	USING heap WITH (autovacuum_enabled = off);
CREATE FUNCTION ix_fill(tbl regclass, lo int, hi int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$INSERT INTO %s SELECT i, i %% 50, int4range(i, i + i %% 10 + 1),
		point(i %% 100, i / 100), ARRAY[i %% 7, i %% 11, i %% 13],
		to_tsvector('simple', 'w' || i %% 17 || ' x' || i %% 19),
		'text ' || (i %% 1000) FROM generate_series($1, $2) i$q$, tbl) USING lo, hi;
END $$;
SELECT ix_fill('ix_pax', 1, 5000), ix_fill('ix_heap', 1, 5000);
CREATE INDEX ix_pax_id ON ix_pax USING btree (id);
CREATE INDEX ix_heap_id ON ix_heap USING btree (id);
CREATE INDEX ix_pax_k ON ix_pax USING hash (k);
CREATE INDEX ix_heap_k ON ix_heap USING hash (k);
CREATE INDEX ix_pax_r ON ix_pax USING gist (r);
CREATE INDEX ix_heap_r ON ix_heap USING gist (r);
CREATE INDEX ix_pax_p ON ix_pax USING spgist (p);
CREATE INDEX ix_heap_p ON ix_heap USING spgist (p);
CREATE INDEX ix_pax_a ON ix_pax USING gin (a);
CREATE INDEX ix_heap_a ON ix_heap USING gin (a);
CREATE INDEX ix_pax_ts ON ix_pax USING gin (ts);
CREATE INDEX ix_heap_ts ON ix_heap USING gin (ts);
CREATE INDEX ix_pax_brin ON ix_pax USING brin (id) WITH (pages_per_range = 2);
CREATE INDEX ix_heap_brin ON ix_heap USING brin (id) WITH (pages_per_range = 2);
CREATE INDEX ix_pax_bloom ON ix_pax USING bloom (t);
CREATE INDEX ix_heap_bloom ON ix_heap USING bloom (t);
CREATE INDEX ix_pax_lower ON ix_pax USING btree (lower(t)) WHERE k < 10;
CREATE INDEX ix_heap_lower ON ix_heap USING btree (lower(t)) WHERE k < 10;
-- changes after the indexes were built: every index must follow them
SELECT * FROM dml('ix', 'UPDATE {t} SET k = k + 1, t = upper(t) WHERE id % 10 = 1');
SELECT * FROM dml('ix', 'UPDATE {t} SET id = id + 10000, r = int4range(id + 10000, id + 10005) WHERE id % 10 = 2');
SELECT * FROM dml('ix', 'UPDATE {t} SET a = a || 99, ts = ts || to_tsvector(''simple'', ''new''), p = point(-1, -1) WHERE id % 10 = 3');
SELECT * FROM dml('ix', 'UPDATE {t} SET t = t WHERE id % 10 = 4');
SELECT * FROM dml('ix', 'DELETE FROM {t} WHERE id % 10 = 5');
SELECT ix_fill('ix_pax', 5001, 6000), ix_fill('ix_heap', 5001, 6000);
SELECT * FROM same('ix');
ANALYZE ix_pax, ix_heap;

-- enable_seqscan does not disable PaxScan (a custom scan), so it is turned
-- off too wherever an index must be used
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SET enable_bitmapscan = off;
-- btree: index scan, index-only scan, backward, expression and partial index
EXPLAIN (COSTS OFF) SELECT * FROM ix_pax WHERE id BETWEEN 100 AND 200;
SELECT * FROM q('SELECT * FROM ix{t} WHERE id BETWEEN 100 AND 200');
SELECT * FROM q('SELECT * FROM ix{t} WHERE id > 10000');
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE id BETWEEN 100 AND 2000;
SELECT * FROM q('SELECT id FROM ix{t} WHERE id BETWEEN 100 AND 2000');
EXPLAIN (COSTS OFF) SELECT id, k FROM ix_pax WHERE id < 300 ORDER BY id DESC LIMIT 10;
SELECT * FROM q('SELECT id, k FROM ix{t} WHERE id < 300 ORDER BY id DESC LIMIT 10');
SELECT id, k, t FROM ix_pax WHERE id < 300 ORDER BY id DESC LIMIT 5;
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE lower(t) = 'text 8' AND k < 10;
SELECT * FROM q('SELECT id, t FROM ix{t} WHERE lower(t) = ''text 8'' AND k < 10');
-- hash
EXPLAIN (COSTS OFF) SELECT * FROM ix_pax WHERE k = 12;
SELECT * FROM q('SELECT * FROM ix{t} WHERE k = 12');
SELECT * FROM q('SELECT * FROM ix{t} WHERE k = 42');
-- gist on a range
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE r && int4range(1000, 1010);
SELECT * FROM q('SELECT * FROM ix{t} WHERE r && int4range(1000, 1010)');
SELECT * FROM q('SELECT id FROM ix{t} WHERE r @> 10503');
-- spgist on points: nearest neighbours by distance
EXPLAIN (COSTS OFF) SELECT id, p <-> point(50, 25) AS dist FROM ix_pax ORDER BY p <-> point(50, 25) LIMIT 5;
SELECT * FROM q('SELECT id, p <-> point(50, 25) AS dist FROM ix{t} ORDER BY p <-> point(50, 25), id LIMIT 5');
-- bitmap scans: spgist, gin on an array and on a tsvector, btree, bloom,
-- brin, and two indexes at once
SET enable_indexscan = off;
SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE p <@ box '(10,10),(20,20)';
SELECT * FROM q('SELECT id, p FROM ix{t} WHERE p <@ box ''(10,10),(20,20)''');
SELECT * FROM q('SELECT id FROM ix{t} WHERE p ~= point(-1, -1)');
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE a @> ARRAY[3, 5];
SELECT * FROM q('SELECT id, a FROM ix{t} WHERE a @> ARRAY[3, 5]');
SELECT * FROM q('SELECT id FROM ix{t} WHERE a @> ARRAY[99]');
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE ts @@ 'w3 & x4'::tsquery;
SELECT * FROM q('SELECT id, ts FROM ix{t} WHERE ts @@ ''w3 & x4''::tsquery');
SELECT * FROM q('SELECT id FROM ix{t} WHERE ts @@ ''new''::tsquery');
SELECT * FROM q('SELECT * FROM ix{t} WHERE id BETWEEN 2000 AND 2100');
SELECT * FROM q('SELECT * FROM ix{t} WHERE id < 1000 AND k = 3');
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE t = 'text 777';
SELECT * FROM q('SELECT * FROM ix{t} WHERE t = ''text 777''');
SELECT * FROM q('SELECT * FROM ix{t} WHERE t = ''TEXT 771''');
DROP INDEX ix_pax_id, ix_heap_id;
EXPLAIN (COSTS OFF) SELECT id FROM ix_pax WHERE id BETWEEN 4000 AND 4400;
SELECT * FROM q('SELECT * FROM ix{t} WHERE id BETWEEN 4000 AND 4400');
SELECT * FROM q('SELECT * FROM ix{t} WHERE id > 6000');
CREATE INDEX ix_pax_id ON ix_pax (id);
CREATE INDEX ix_heap_id ON ix_heap (id);
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET pax.enable_customscan;
RESET enable_seqscan;

-- VACUUM removes the dead rows and their index entries; rows inserted
-- after it (perhaps into freed space) are found through every index, and
-- index-only scans need no table fetches on all-visible pages
VACUUM ix_pax;
VACUUM ix_heap;
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SET enable_bitmapscan = off;
SELECT explain_analyze($$SELECT id FROM ix_pax WHERE id BETWEEN 1 AND 1000$$);
SELECT explain_analyze($$SELECT id FROM ix_heap WHERE id BETWEEN 1 AND 1000$$);
RESET enable_bitmapscan;
RESET pax.enable_customscan;
RESET enable_seqscan;
SELECT * FROM dml('ix', 'DELETE FROM {t} WHERE id % 10 = 6');
VACUUM ix_pax;
VACUUM ix_heap;
SELECT ix_fill('ix_pax', 7001, 8000), ix_fill('ix_heap', 7001, 8000);
SELECT * FROM dml('ix', 'UPDATE {t} SET k = -k, a = ARRAY[-1] WHERE id % 10 = 7');
SELECT * FROM same('ix');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SET enable_bitmapscan = off;
SELECT * FROM q('SELECT * FROM ix{t} WHERE id BETWEEN 1 AND 8000 AND id % 10 IN (5, 6, 7)');
SELECT * FROM q('SELECT id FROM ix{t} WHERE id BETWEEN 1 AND 8000');
SELECT * FROM q('SELECT * FROM ix{t} WHERE k = -7');
SELECT * FROM q('SELECT * FROM ix{t} WHERE k = 36');
SELECT * FROM q('SELECT id FROM ix{t} WHERE r && int4range(7000, 7100)');
SELECT * FROM q('SELECT id FROM ix{t} WHERE lower(t) = ''text 108'' AND k < 10');
SET enable_indexscan = off;
SET enable_bitmapscan = on;
SELECT * FROM q('SELECT id FROM ix{t} WHERE p <@ box ''(0,0),(99,99)''');
SELECT * FROM q('SELECT id FROM ix{t} WHERE a @> ARRAY[-1]');
SELECT * FROM q('SELECT id FROM ix{t} WHERE a @> ARRAY[6]');
SELECT * FROM q('SELECT id FROM ix{t} WHERE ts @@ ''w16''::tsquery');
SELECT * FROM q('SELECT id FROM ix{t} WHERE t = ''text 7''');
SELECT * FROM q('SELECT id FROM ix{t} WHERE id BETWEEN 7100 AND 7500 AND k = 8');
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET pax.enable_customscan;
RESET enable_seqscan;

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE ix_pax, ix_heap;
DROP FUNCTION same, dml, q, block, verify_all, ix_fill;
