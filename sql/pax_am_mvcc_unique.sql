--
-- pax_am_mvcc_unique: unique and primary keys, exclusion constraints and
-- INSERT ... ON CONFLICT on pax tables.
--
-- Heap is the oracle: see sql/include/pax_am_oracle.sql.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set oracle :abs_srcdir '/sql/include/pax_am_oracle.sql'
\i :oracle
CREATE TABLE pk_pax (id int PRIMARY KEY, v text) USING pax;
CREATE TABLE pk_heap (id int PRIMARY KEY, v text) USING heap;
INSERT INTO pk_pax SELECT i, 'k' || i FROM generate_series(1, 1000) i;
INSERT INTO pk_heap SELECT i, 'k' || i FROM generate_series(1, 1000) i;
INSERT INTO pk_pax VALUES (5, 'dup');
INSERT INTO pk_heap VALUES (5, 'dup');
UPDATE pk_pax SET id = 6 WHERE id = 7;
UPDATE pk_heap SET id = 6 WHERE id = 7;
INSERT INTO pk_pax VALUES (NULL, 'null key');
-- a key freed by DELETE or UPDATE can be used again, also in the same transaction
BEGIN;
DELETE FROM pk_pax WHERE id = 10;
DELETE FROM pk_heap WHERE id = 10;
INSERT INTO pk_pax VALUES (10, 'again');
INSERT INTO pk_heap VALUES (10, 'again');
UPDATE pk_pax SET id = 2000 WHERE id = 11;
UPDATE pk_heap SET id = 2000 WHERE id = 11;
INSERT INTO pk_pax VALUES (11, 'again');
INSERT INTO pk_heap VALUES (11, 'again');
COMMIT;
-- a failed statement leaves no rows and no index entries behind
INSERT INTO pk_pax SELECT i, 'batch' FROM generate_series(1001, 1100) i UNION ALL SELECT 1050, 'dup';
INSERT INTO pk_pax SELECT i, 'batch' FROM generate_series(1001, 1100) i;
INSERT INTO pk_heap SELECT i, 'batch' FROM generate_series(1001, 1100) i;
SELECT * FROM same('pk');
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT * FROM q('SELECT * FROM pk{t} WHERE id BETWEEN 1 AND 12 OR id >= 1095');
RESET pax.enable_customscan;
RESET enable_seqscan;
-- a unique constraint on a key updated by a whole statement: checked at
-- its end when deferrable, row by row otherwise (heap scans in order)
CREATE TABLE uq_pax (id int, n int UNIQUE DEFERRABLE INITIALLY IMMEDIATE, m int UNIQUE) USING pax;
CREATE TABLE uq_heap (id int, n int UNIQUE DEFERRABLE INITIALLY IMMEDIATE, m int UNIQUE) USING heap;
INSERT INTO uq_pax SELECT i, i, i FROM generate_series(1, 100) i;
INSERT INTO uq_heap SELECT i, i, i FROM generate_series(1, 100) i;
SELECT * FROM dml('uq', 'UPDATE {t} SET n = n + 1');
UPDATE uq_pax SET n = 3 WHERE n = 2;
UPDATE uq_heap SET n = 3 WHERE n = 2;
UPDATE uq_pax SET m = 5 WHERE id = 6;
-- deferred: a swap of two keys within a transaction, a duplicate at COMMIT
BEGIN;
SET CONSTRAINTS ALL DEFERRED;
UPDATE uq_pax SET n = 3 WHERE n = 2;
UPDATE uq_heap SET n = 3 WHERE n = 2;
UPDATE uq_pax SET n = 2 WHERE id = 2;
UPDATE uq_heap SET n = 2 WHERE id = 2;
COMMIT;
BEGIN;
SET CONSTRAINTS ALL DEFERRED;
UPDATE uq_pax SET n = 3 WHERE n = 2;
COMMIT;
SELECT * FROM same('uq');
-- NULLS NOT DISTINCT (PostgreSQL 15)
CREATE TABLE nn_pax (a int, b int, UNIQUE NULLS NOT DISTINCT (a, b)) USING pax;
INSERT INTO nn_pax VALUES (1, NULL), (NULL, NULL);
INSERT INTO nn_pax VALUES (1, NULL);
-- exclusion constraints on a range (gist) and on equality (hash)
CREATE TABLE ex_pax (id int, r int4range, c int, EXCLUDE USING gist (r WITH &&), EXCLUDE USING hash (c WITH =)) USING pax;
CREATE TABLE ex_heap (id int, r int4range, c int, EXCLUDE USING gist (r WITH &&), EXCLUDE USING hash (c WITH =)) USING heap;
INSERT INTO ex_pax SELECT i, int4range(i * 10, i * 10 + 5), i FROM generate_series(1, 200) i;
INSERT INTO ex_heap SELECT i, int4range(i * 10, i * 10 + 5), i FROM generate_series(1, 200) i;
INSERT INTO ex_pax VALUES (1000, int4range(52, 58), 1000);
INSERT INTO ex_heap VALUES (1000, int4range(52, 58), 1000);
INSERT INTO ex_pax VALUES (1001, int4range(1, 3), 7);
UPDATE ex_pax SET r = int4range(20, 35) WHERE id = 2;
SELECT * FROM dml('ex', 'UPDATE {t} SET r = int4range(lower(r), lower(r) + 9) WHERE id % 2 = 0 RETURNING id, r');
DELETE FROM ex_pax WHERE id = 5;
DELETE FROM ex_heap WHERE id = 5;
SELECT * FROM dml('ex', 'INSERT INTO {t} VALUES (5000, int4range(50, 60), 5) RETURNING *');
SELECT * FROM same('ex');

--
-- INSERT ... ON CONFLICT
--
CREATE TABLE oc_pax (id int PRIMARY KEY, v text, n int DEFAULT 0, u int UNIQUE) USING pax;
CREATE TABLE oc_heap (id int PRIMARY KEY, v text, n int DEFAULT 0, u int UNIQUE) USING heap;
INSERT INTO oc_pax SELECT i, 'o' || i, 0, i + 1000 FROM generate_series(1, 500) i;
INSERT INTO oc_heap SELECT i, 'o' || i, 0, i + 1000 FROM generate_series(1, 500) i;
SELECT * FROM dml('oc', 'INSERT INTO {t} SELECT i, ''new'', 1, i + 2000 FROM generate_series(490, 510) i ON CONFLICT DO NOTHING RETURNING *');
SELECT * FROM dml('oc', 'INSERT INTO {t} SELECT i, ''new'', 1, i + 3000 FROM generate_series(505, 520) i ON CONFLICT (id) DO NOTHING RETURNING id');
SELECT * FROM dml('oc', 'INSERT INTO {t} SELECT i, ''upd'', 1, i + 4000 FROM generate_series(1, 30) i ON CONFLICT (id) DO UPDATE SET v = {t}.v || ''/'' || EXCLUDED.v, n = {t}.n + EXCLUDED.n RETURNING *');
SELECT * FROM dml('oc', 'INSERT INTO {t} SELECT i, ''upd2'', 5, i + 5000 FROM generate_series(20, 40) i ON CONFLICT (id) DO UPDATE SET n = {t}.n + EXCLUDED.n WHERE {t}.n > 0 RETURNING id, v, n');
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (9999, ''by u'', 0, 1100) ON CONFLICT (u) DO UPDATE SET v = EXCLUDED.v RETURNING *');
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (100, ''x'', 0, 7777) ON CONFLICT ON CONSTRAINT {t}_pkey DO UPDATE SET u = EXCLUDED.u RETURNING *');
-- the updated row is updated again by a later command of the same transaction
BEGIN;
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (1, ''t1'') ON CONFLICT (id) DO UPDATE SET n = {t}.n + 100 RETURNING id, n');
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (1, ''t2'') ON CONFLICT (id) DO UPDATE SET n = {t}.n + 100 RETURNING id, n');
COMMIT;
SELECT id, v, n, u FROM oc_pax WHERE id IN (1, 25, 100, 505, 9999) ORDER BY id;
SELECT * FROM same('oc');
-- errors: one command affecting a row twice, a conflict on the other unique index
INSERT INTO oc_pax VALUES (1, 'a'), (1, 'b') ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;
INSERT INTO oc_pax VALUES (1, 'a', 0, 1002) ON CONFLICT (id) DO UPDATE SET u = EXCLUDED.u;
INSERT INTO oc_pax VALUES (3000, 'a', 0, 1002) ON CONFLICT (id) DO NOTHING;
SELECT * FROM same('oc');
-- a conflict with a row deleted in the same transaction is no conflict
BEGIN;
DELETE FROM oc_pax WHERE id = 2;
DELETE FROM oc_heap WHERE id = 2;
SELECT * FROM dml('oc', 'INSERT INTO {t} VALUES (2, ''reborn'', 0, 1002) ON CONFLICT (id) DO UPDATE SET v = ''wrong'' RETURNING *');
COMMIT;
SELECT * FROM same('oc');

-- pax_verify finds nothing wrong in any pax table (and index) built above
SELECT * FROM verify_all();

DROP TABLE pk_pax, pk_heap, uq_pax, uq_heap, nn_pax,
	ex_pax, ex_heap, oc_pax, oc_heap;
DROP FUNCTION same, dml, q, block, verify_all;
