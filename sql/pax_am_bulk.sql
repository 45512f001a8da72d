--
-- pax_am_bulk: rows of CREATE TABLE AS, materialized views and ALTER TABLE
-- rewrites placed in batches (pax_bulk.c), against heap: the same rows, the
-- same visibility inside the transaction, subtransactions, errors, and
-- every way of looking at the new table before its last batch is placed.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pax_am;
RESET client_min_messages;
SET jit = off;

CREATE TABLE bk_src (id int, grp int, flag bool, price numeric(12,2),
					 day date, note text, big text);
INSERT INTO bk_src
SELECT i, i % 37, i % 3 = 0, (i * 7 % 100000) / 100.0,
	   date '2020-01-01' + i % 900,
	   CASE WHEN i % 11 = 0 THEN NULL ELSE 'note ' || (i % 50) END,
	   CASE WHEN i % 997 = 0 THEN repeat(md5(i::text), 400) END
FROM generate_series(1, 20000) i;

-- a table's rows as one line each, for comparisons that ignore order
CREATE FUNCTION bk_rows(rel regclass) RETURNS SETOF text
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT t::text FROM %s t', rel);
END $$;
CREATE FUNCTION bk_same(a regclass, b regclass) RETURNS bool
LANGUAGE sql AS $$
	SELECT NOT EXISTS (SELECT * FROM bk_rows(a) EXCEPT ALL SELECT * FROM bk_rows(b))
	   AND NOT EXISTS (SELECT * FROM bk_rows(b) EXCEPT ALL SELECT * FROM bk_rows(a))
$$;

-- CREATE TABLE AS and SELECT INTO: heap's rows, on encoded pages
CREATE TABLE bk_h USING heap AS SELECT * FROM bk_src;
CREATE TABLE bk_p USING pax AS SELECT * FROM bk_src;
SELECT bk_same('bk_h', 'bk_p') AS same, (SELECT count(*) FROM bk_p) AS n;
SELECT count(*) > 0 AS encoded_pages FROM pax_page_stats('bk_p') WHERE encoded > 0;
SELECT count(*) FROM pax_verify('bk_p');
SET default_table_access_method = pax;
SELECT * INTO bk_into FROM bk_src WHERE id % 2 = 0;
SET default_table_access_method = heap;
SELECT * INTO bk_into_h FROM bk_src WHERE id % 2 = 0;
RESET default_table_access_method;
SELECT bk_same('bk_into', 'bk_into_h') AS same,
	   (SELECT count(*) FROM bk_into) AS n;
-- a parallel plan feeds CREATE TABLE AS (the leader inserts)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) CREATE TABLE bk_par USING pax AS SELECT * FROM bk_src WHERE grp < 20;
CREATE TABLE bk_par USING pax AS SELECT * FROM bk_src WHERE grp < 20;
CREATE TABLE bk_par_h USING heap AS SELECT * FROM bk_src WHERE grp < 20;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
SELECT bk_same('bk_par', 'bk_par_h') AS same, (SELECT count(*) FROM bk_par) AS n;
-- one row at a time (the switch off) stores the same rows in more pages
SET pax.batch_bulk_inserts = off;
CREATE TABLE bk_p1 USING pax AS SELECT * FROM bk_src;
RESET pax.batch_bulk_inserts;
SELECT bk_same('bk_p1', 'bk_p') AS same,
	   pg_relation_size('bk_p') < pg_relation_size('bk_p1') AS batches_smaller;
-- system columns: the rows' xmin and cmin as heap's (each table made by
-- the third command of its transaction)
BEGIN;
SELECT 1 AS one;
CREATE TABLE bk_hx USING heap AS SELECT id FROM bk_src WHERE id <= 3000;
SELECT array_agg(DISTINCT cmin::text) AS heap_cmin,
	   count(DISTINCT xmin::text) AS xmins,
	   bool_and(xmin::text = txid_current()::text) AS own_xid FROM bk_hx;
COMMIT;
BEGIN;
SELECT 1 AS one;
CREATE TABLE bk_px USING pax AS SELECT id FROM bk_src WHERE id <= 3000;
SELECT array_agg(DISTINCT cmin::text) AS pax_cmin,
	   count(DISTINCT xmin::text) AS xmins,
	   bool_and(xmin::text = txid_current()::text) AS own_xid FROM bk_px;
COMMIT;

-- in the creating transaction: reads, changes, TRUNCATE, rollback
BEGIN;
CREATE TABLE bk_t1 USING pax AS SELECT id, note FROM bk_src WHERE id <= 2500;
SELECT count(*), min(id), max(id) FROM bk_t1;
UPDATE bk_t1 SET note = 'changed' WHERE id % 100 = 0;
DELETE FROM bk_t1 WHERE id > 2400;
SELECT count(*), count(*) FILTER (WHERE note = 'changed') FROM bk_t1;
TRUNCATE bk_t1;
SELECT count(*) FROM bk_t1;
INSERT INTO bk_t1 SELECT id, note FROM bk_src WHERE id <= 10;
SELECT count(*) FROM bk_t1;
ROLLBACK;
SELECT count(*) FROM pg_class WHERE relname = 'bk_t1';
-- an index built in the same transaction finds every row
BEGIN;
CREATE TABLE bk_t2 USING pax AS SELECT id, grp FROM bk_src;
CREATE INDEX ON bk_t2 (id);
SET LOCAL enable_seqscan = off;
SET LOCAL pax.enable_customscan = off;
SELECT grp FROM bk_t2 WHERE id = 12345;
SELECT count(*) FROM bk_t2 WHERE id BETWEEN 100 AND 1099;
COMMIT;

-- a volatile function of the query reads the table being filled: it sees
-- the rows inserted before it, as on heap
CREATE FUNCTION bk_count(rel text) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE n bigint;
BEGIN
	IF to_regclass(rel) IS NULL THEN RETURN -1; END IF;
	EXECUTE format('SELECT count(*) FROM %I', rel) INTO n;
	RETURN n;
END $$;
CREATE TABLE bk_seen_h USING heap AS
	SELECT id, CASE WHEN id % 500 = 0 THEN bk_count('bk_seen_h') END AS seen
	FROM generate_series(1, 3000) id;
CREATE TABLE bk_seen_p USING pax AS
	SELECT id, CASE WHEN id % 500 = 0 THEN bk_count('bk_seen_p') END AS seen
	FROM generate_series(1, 3000) id;
SELECT h.id, h.seen AS heap_seen, p.seen AS pax_seen
FROM bk_seen_h h JOIN bk_seen_p p USING (id)
WHERE h.seen IS NOT NULL OR p.seen IS NOT NULL ORDER BY id;
-- a function of the query reads the table in a subtransaction (a block with
-- an EXCEPTION clause) that then aborts: the rows kept before it, placed
-- when it read the table, stay
CREATE FUNCTION bk_safe_div(rel text, a int, b int) RETURNS int
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	BEGIN
		IF b = 0 THEN
			PERFORM bk_count(rel);
		END IF;
		RETURN a / b;
	EXCEPTION WHEN division_by_zero THEN
		RETURN NULL;
	END;
END $$;
CREATE TABLE bk_safe_h USING heap AS
	SELECT id, bk_safe_div('bk_safe_h', 1000, id % 700) AS q FROM generate_series(1, 5000) id;
CREATE TABLE bk_safe_p USING pax AS
	SELECT id, bk_safe_div('bk_safe_p', 1000, id % 700) AS q FROM generate_series(1, 5000) id;
SELECT bk_same('bk_safe_h', 'bk_safe_p') AS same,
	   (SELECT count(*) FROM bk_safe_p) AS n, (SELECT count(q) FROM bk_safe_p) AS with_q;
-- a row too big for a page fails its statement at its turn, as on heap (a
-- row of TOAST size is not kept: it goes in after the rows kept before it),
-- whatever a later subtransaction that reads the table would catch
CREATE FUNCTION bk_peek(rel text, i int) RETURNS int
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	BEGIN
		PERFORM bk_count(rel);
	EXCEPTION WHEN program_limit_exceeded THEN
		RETURN -i;
	END;
	RETURN i;
END $$;
CREATE TABLE bk_fail USING pax AS
	SELECT i, CASE WHEN i = 50 THEN
			(SELECT string_agg(g::text, ' ') FROM generate_series(1, 3000) g)::oidvector
		END AS big_plain,
		CASE WHEN i = 60 THEN bk_peek('bk_fail', i) END AS peek
	FROM generate_series(1, 200) i;
SELECT count(*) FROM pg_class WHERE relname = 'bk_fail';
-- a CREATE TABLE AS inside the query of another
CREATE FUNCTION bk_nested(i int) RETURNS int
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	EXECUTE format('CREATE TABLE bk_inner_%s USING pax AS SELECT g FROM generate_series(1, %s) g', i, i);
	RETURN i;
END $$;
CREATE TABLE bk_outer USING pax AS
	SELECT g, CASE WHEN g IN (1500, 2500) THEN bk_nested(g) END AS nested
	FROM generate_series(1, 4000) g;
SELECT (SELECT count(*) FROM bk_outer) AS outer_rows,
	   (SELECT count(*) FROM bk_outer WHERE nested IS NOT NULL) AS nested_calls,
	   (SELECT count(*) FROM bk_inner_1500) AS inner_1500,
	   (SELECT count(*) FROM bk_inner_2500) AS inner_2500;

-- errors: a failing query leaves no table, a failing subtransaction no rows
CREATE TABLE bk_err USING pax AS
	SELECT id, 100 / (2500 - id) AS q FROM generate_series(1, 3000) id;
SELECT count(*) FROM pg_class WHERE relname = 'bk_err';
BEGIN;
CREATE TABLE bk_sub (id int, r float8 DEFAULT random()) USING pax;
-- COPY goes row by row for a volatile default: rows kept as CTAS's
SAVEPOINT s1;
COPY bk_sub (id) FROM PROGRAM 'seq 1 2500';
SELECT count(*) FROM bk_sub;
ROLLBACK TO SAVEPOINT s1;
SELECT count(*) FROM bk_sub;
SAVEPOINT s2;
COPY bk_sub (id) FROM PROGRAM 'seq 1 1800';
RELEASE SAVEPOINT s2;
COPY bk_sub (id) FROM PROGRAM 'seq 1 700';
COMMIT;
SELECT count(*), count(DISTINCT id), count(r) FROM bk_sub;
DO $$
BEGIN
	BEGIN
		COPY bk_sub (id) FROM PROGRAM 'seq 1 1200';
		RAISE EXCEPTION 'undo the copy';
	EXCEPTION WHEN raise_exception THEN
		NULL;
	END;
END $$;
SELECT count(*) FROM bk_sub;
BEGIN;
CREATE TABLE bk_sub2 (id int, r float8 DEFAULT random()) USING pax;
DO $$
BEGIN
	COPY bk_sub2 (id) FROM PROGRAM 'seq 1 1500';
	BEGIN
		COPY bk_sub2 (id) FROM PROGRAM 'seq 1 900';
		PERFORM 1 / 0;
	EXCEPTION WHEN division_by_zero THEN
		NULL;
	END;
	COPY bk_sub2 (id) FROM PROGRAM 'seq 1 300';
END $$;
SELECT count(*) FROM bk_sub2;
COMMIT;
SELECT count(*) FROM bk_sub2;

-- INSERT statements of 100 rows or more (by the plan's estimate) into a
-- table without indexes or triggers keep their rows too, until the
-- statement's plan has run; shorter ones go one row at a time, so that a
-- VALUES list failing on its second row has written its first, as on heap
CREATE TABLE bk_short (i int NOT NULL) USING pax;
INSERT INTO bk_short VALUES (1), (NULL);
SELECT pg_relation_size('bk_short') > 0 AS first_row_written;
CREATE TABLE bk_ins_h (LIKE bk_src) USING heap;
CREATE TABLE bk_ins_p (LIKE bk_src) USING pax;
INSERT INTO bk_ins_h SELECT * FROM bk_src WHERE id <= 8000;
INSERT INTO bk_ins_p SELECT * FROM bk_src WHERE id <= 8000;
SELECT bk_same('bk_ins_h', 'bk_ins_p') AS same,
	   (SELECT count(*) FROM pax_page_stats('bk_ins_p') WHERE encoded > 0) > 0 AS encoded_pages;
INSERT INTO bk_ins_h VALUES (-1, 1, true, 1.5, '2020-01-01', 'a', NULL),
	(-2, 2, false, 2.5, '2020-01-02', NULL, NULL);
INSERT INTO bk_ins_p VALUES (-1, 1, true, 1.5, '2020-01-01', 'a', NULL),
	(-2, 2, false, 2.5, '2020-01-02', NULL, NULL);
-- RETURNING reads the rows as inserted: they go one at a time
INSERT INTO bk_ins_p SELECT -id, grp, flag, price, day, note, big
FROM bk_src WHERE id BETWEEN 3 AND 5
RETURNING id, xmin::text = txid_current()::text AS own_xmin, ctid IS NOT NULL AS has_ctid;
INSERT INTO bk_ins_h SELECT -id, grp, flag, price, day, note, big
FROM bk_src WHERE id BETWEEN 3 AND 5;
-- the statement reads its own table: before its rows, as on heap
INSERT INTO bk_ins_h SELECT id + 100000, grp, flag, price, day, note, big FROM bk_ins_h;
INSERT INTO bk_ins_p SELECT id + 100000, grp, flag, price, day, note, big FROM bk_ins_p;
SELECT bk_same('bk_ins_h', 'bk_ins_p') AS same, (SELECT count(*) FROM bk_ins_p) AS n;
-- a volatile function of the statement reads the table: the rows so far
CREATE TABLE bk_iseen_h (id int, seen bigint) USING heap;
CREATE TABLE bk_iseen_p (id int, seen bigint) USING pax;
INSERT INTO bk_iseen_h SELECT id, CASE WHEN id % 700 = 0 THEN bk_count('bk_iseen_h') END
FROM generate_series(1, 3000) id;
INSERT INTO bk_iseen_p SELECT id, CASE WHEN id % 700 = 0 THEN bk_count('bk_iseen_p') END
FROM generate_series(1, 3000) id;
SELECT bk_same('bk_iseen_h', 'bk_iseen_p') AS same,
	   (SELECT array_agg(seen ORDER BY id) FROM bk_iseen_p WHERE seen IS NOT NULL) AS seen;
-- a failing INSERT, in a savepoint and in a function's EXCEPTION block
ALTER TABLE bk_ins_p ADD CONSTRAINT bk_small CHECK (id < 200000);
BEGIN;
INSERT INTO bk_ins_p SELECT id + 150000, grp, flag, price, day, note, big FROM bk_src;
SAVEPOINT s;
INSERT INTO bk_ins_p SELECT id + 190000, grp, flag, price, day, note, big FROM bk_src;
ROLLBACK TO SAVEPOINT s;
SELECT count(*) FROM bk_ins_p WHERE id > 150000;
UPDATE bk_ins_p SET note = 'updated' WHERE id BETWEEN 150001 AND 150100;
DELETE FROM bk_ins_p WHERE id BETWEEN 150101 AND 150200;
SELECT count(*), count(*) FILTER (WHERE note = 'updated') FROM bk_ins_p WHERE id > 150000;
ROLLBACK;
DO $$
BEGIN
	INSERT INTO bk_ins_p SELECT id + 160000, grp, flag, price, day, note, big
	FROM bk_src WHERE id <= 1500;
	BEGIN
		INSERT INTO bk_ins_p SELECT id + 170000, grp, flag, price, day, note, big
		FROM bk_src WHERE id <= 2500;
		INSERT INTO bk_ins_p SELECT id + 190000, grp, flag, price, day, note, big
		FROM bk_src;
	EXCEPTION WHEN check_violation THEN
		NULL;
	END;
	INSERT INTO bk_ins_p SELECT id + 180000, grp, flag, price, day, note, big
	FROM bk_src WHERE id <= 500;
END $$;
SELECT (id - 1) / 10000 * 10000 AS range, count(*) FROM bk_ins_p
WHERE id > 150000 GROUP BY 1 ORDER BY 1;
-- kept rows count as inserted when kept, as heap counts rows inserted before
-- a statement's error (here a partition's constraint, from row 11 on)
CREATE TABLE bk_part_h (id int, v int) PARTITION BY RANGE (id);
CREATE TABLE bk_part_h1 PARTITION OF bk_part_h FOR VALUES FROM (MINVALUE) TO (100) USING heap;
CREATE TABLE bk_part_p (id int, v int) PARTITION BY RANGE (id);
CREATE TABLE bk_part_p1 PARTITION OF bk_part_p FOR VALUES FROM (MINVALUE) TO (100) USING pax;
INSERT INTO bk_part_h1 SELECT g, g FROM generate_series(90, 389) g;
INSERT INTO bk_part_p1 SELECT g, g FROM generate_series(90, 389) g;
INSERT INTO bk_part_h1 SELECT g, g FROM generate_series(1, 80) g;
INSERT INTO bk_part_p1 SELECT g, g FROM generate_series(1, 80) g;
SELECT pg_stat_force_next_flush();
SELECT relname, n_tup_ins FROM pg_stat_user_tables
WHERE relname IN ('bk_part_h1', 'bk_part_p1') ORDER BY relname;
-- a table with an index keeps its rows too, the statement making their
-- index entries as each batch is placed (pax_am_bulk_index)
CREATE INDEX ON bk_ins_p (id);
INSERT INTO bk_ins_p SELECT id + 185000, grp, flag, price, day, note, big
FROM bk_src WHERE id <= 1000;
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT count(*) FROM bk_ins_p WHERE id BETWEEN 185001 AND 186000;
RESET enable_seqscan;
RESET pax.enable_customscan;
SELECT count(*) FROM pax_verify('bk_ins_p');
-- a table whose index was dropped keeps its rows again (relhasindex stays
-- set until VACUUM): the same pages as a table that never had one
CREATE TABLE bk_dropidx (LIKE bk_src) USING pax;
CREATE TABLE bk_noidx (LIKE bk_src) USING pax;
CREATE INDEX bk_dropidx_id ON bk_dropidx (id);
DROP INDEX bk_dropidx_id;
SELECT relhasindex FROM pg_class WHERE relname = 'bk_dropidx';
INSERT INTO bk_dropidx SELECT * FROM bk_src WHERE id <= 8000;
INSERT INTO bk_noidx SELECT * FROM bk_src WHERE id <= 8000;
SELECT bk_same('bk_dropidx', 'bk_noidx') AS same,
	   pg_relation_size('bk_dropidx') = pg_relation_size('bk_noidx') AS same_size;
DROP TABLE bk_dropidx, bk_noidx;

-- INSERT into a partitioned table: each pax partition keeps the rows
-- routed to it, one partition at a time; rows that keep alternating
-- between partitions go one at a time after a few short batches; a
-- partition with an index or an AFTER ROW trigger takes its rows one at a
-- time
CREATE FUNCTION bk_parted(name text, am text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE TABLE %I (id int, grp int, note text) PARTITION BY RANGE (id)', name);
	EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (MINVALUE) TO (5000) USING %s',
				   name || '_1', name, am);
	EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (5000) TO (10000) PARTITION BY HASH (id)',
				   name || '_2', name);
	EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES WITH (MODULUS 2, REMAINDER 0) USING %s',
				   name || '_2a', name || '_2', am);
	EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES WITH (MODULUS 2, REMAINDER 1) USING %s',
				   name || '_2b', name || '_2', am);
	EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (10000) TO (15000) USING heap',
				   name || '_3', name);
	EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT USING %s', name || '_d', name, am);
	EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (grp < 1000)', name, name || '_grp');
END $$;
SELECT bk_parted('bk_pt_h', 'heap'), bk_parted('bk_pt_p', 'pax');
INSERT INTO bk_pt_h SELECT id, grp, note FROM bk_src;
INSERT INTO bk_pt_p SELECT id, grp, note FROM bk_src;
SELECT bk_same('bk_pt_h', 'bk_pt_p') AS same, (SELECT count(*) FROM bk_pt_p) AS n,
	   (SELECT count(*) FROM pax_page_stats('bk_pt_p_1') WHERE encoded > 0) > 0 AS encoded_1,
	   (SELECT count(*) FROM pax_page_stats('bk_pt_p_d') WHERE encoded > 0) > 0 AS encoded_d;
SELECT tableoid::regclass AS part, count(*) FROM bk_pt_p GROUP BY 1 ORDER BY 1;
-- alternating partitions (the hash pair): the same rows
INSERT INTO bk_pt_h SELECT 5000 + id % 5000, grp, 'alt' FROM bk_src WHERE id <= 3000;
INSERT INTO bk_pt_p SELECT 5000 + id % 5000, grp, 'alt' FROM bk_src WHERE id <= 3000;
SELECT bk_same('bk_pt_h', 'bk_pt_p') AS same;
-- a volatile function reads the partitioned table while rows are kept
INSERT INTO bk_pt_h SELECT 20000 + id, 0, CASE WHEN id % 700 = 0 THEN bk_count('bk_pt_h')::text ELSE 'seen' END
FROM generate_series(1, 3000) id;
INSERT INTO bk_pt_p SELECT 20000 + id, 0, CASE WHEN id % 700 = 0 THEN bk_count('bk_pt_p')::text ELSE 'seen' END
FROM generate_series(1, 3000) id;
SELECT bk_same('bk_pt_h', 'bk_pt_p') AS same,
	   (SELECT array_agg(note ORDER BY id) FROM bk_pt_p WHERE id > 20000 AND note <> 'seen') AS seen;
-- the statement reads its own partitions: before its rows, as on heap
INSERT INTO bk_pt_h SELECT id + 30000, grp, 'self' FROM bk_pt_h WHERE id < 5000;
INSERT INTO bk_pt_p SELECT id + 30000, grp, 'self' FROM bk_pt_p WHERE id < 5000;
SELECT bk_same('bk_pt_h', 'bk_pt_p') AS same, (SELECT count(*) FROM bk_pt_p WHERE note = 'self') AS n;
-- a constraint failing in a later partition, in a savepoint: nothing stays
BEGIN;
SAVEPOINT s;
INSERT INTO bk_pt_h SELECT id, CASE WHEN id = 17000 THEN 5000 ELSE grp END, 'fails' FROM bk_src;
ROLLBACK TO SAVEPOINT s;
INSERT INTO bk_pt_h SELECT id, grp, 'kept' FROM bk_src WHERE id <= 4000;
ROLLBACK;
BEGIN;
SAVEPOINT s;
INSERT INTO bk_pt_p SELECT id, CASE WHEN id = 17000 THEN 5000 ELSE grp END, 'fails' FROM bk_src;
ROLLBACK TO SAVEPOINT s;
SELECT count(*) FROM bk_pt_p WHERE note = 'fails';
INSERT INTO bk_pt_p SELECT id, grp, 'kept' FROM bk_src WHERE id <= 4000;
SELECT count(*) FROM bk_pt_p_1 WHERE note = 'kept';
ROLLBACK;
SELECT count(*) FROM bk_pt_p WHERE note IN ('fails', 'kept');
-- a partition with an index goes one row at a time; one with a BEFORE ROW
-- trigger keeps its rows (the trigger runs before they are handed over)
CREATE INDEX ON bk_pt_p_1 (id);
CREATE FUNCTION bk_pt_trig() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.note := NEW.note || '+t';
	RETURN NEW;
END $$;
CREATE TRIGGER bk_pt_trig BEFORE INSERT ON bk_pt_p_d FOR EACH ROW EXECUTE FUNCTION bk_pt_trig();
CREATE TRIGGER bk_pt_trig BEFORE INSERT ON bk_pt_h_d FOR EACH ROW EXECUTE FUNCTION bk_pt_trig();
INSERT INTO bk_pt_h SELECT id + 40000, grp, 'late' FROM bk_src WHERE id <= 2000;
INSERT INTO bk_pt_p SELECT id + 40000, grp, 'late' FROM bk_src WHERE id <= 2000;
INSERT INTO bk_pt_h SELECT -id, grp, 'late' FROM bk_src WHERE id <= 2000;
INSERT INTO bk_pt_p SELECT -id, grp, 'late' FROM bk_src WHERE id <= 2000;
SELECT bk_same('bk_pt_h', 'bk_pt_p') AS same;
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT count(*) FROM bk_pt_p_1 WHERE id BETWEEN -1500 AND -1001;
RESET enable_seqscan;
RESET pax.enable_customscan;
SELECT count(*) FROM pax_verify('bk_pt_p_1');
SELECT pg_stat_force_next_flush();
SELECT relname, n_tup_ins FROM pg_stat_user_tables
WHERE relname IN ('bk_pt_h_1', 'bk_pt_p_1', 'bk_pt_h_2a', 'bk_pt_p_2a', 'bk_pt_h_d', 'bk_pt_p_d')
ORDER BY relname;
DROP TABLE bk_pt_h, bk_pt_p;
DROP FUNCTION bk_parted, bk_pt_trig;

-- a data-modifying WITH shares the statement's command id and may return
-- its rows' TIDs: nothing is kept, for the WITH or for the statement
CREATE TABLE bk_cte (a int, b text) PARTITION BY RANGE (a);
CREATE TABLE bk_cte_1 PARTITION OF bk_cte FOR VALUES FROM (0) TO (100000) USING pax;
WITH i AS (INSERT INTO bk_cte SELECT g, 'x' FROM generate_series(1, 300) g RETURNING a, ctid)
INSERT INTO bk_cte SELECT a + 1000, ctid::text FROM i;
WITH i AS (INSERT INTO bk_cte_1 SELECT g, 'y' FROM generate_series(301, 600) g RETURNING a, ctid)
INSERT INTO bk_cte_1 SELECT a + 1000, ctid::text FROM i;
SELECT count(*) AS rows, count(p.a) AS fetched
FROM bk_cte_1 r LEFT JOIN bk_cte_1 p ON p.ctid = r.b::tid AND p.a = r.a - 1000
WHERE r.a > 1000;
DROP TABLE bk_cte;

-- TOAST values, NULLs and wide rows go through the batches
SELECT count(*) FILTER (WHERE big IS NOT NULL) AS toasted,
	   sum(length(big)) AS toasted_bytes,
	   count(*) FILTER (WHERE note IS NULL) AS null_notes
FROM bk_p;

-- ALTER TABLE rewrites: another access method, another column type
CREATE TABLE bk_alt USING heap AS SELECT * FROM bk_src;
ALTER TABLE bk_alt SET ACCESS METHOD pax;
SELECT bk_same('bk_alt', 'bk_h') AS same;
SELECT count(*) > 0 AS encoded_pages FROM pax_page_stats('bk_alt') WHERE encoded > 0;
ALTER TABLE bk_alt ALTER COLUMN grp TYPE bigint, ADD COLUMN extra float8 DEFAULT random();
SELECT count(*), count(extra), sum(grp) FROM bk_alt;
CREATE INDEX ON bk_alt (id);
ALTER TABLE bk_alt ALTER COLUMN grp TYPE int;
SELECT count(*), sum(grp) FROM bk_alt;
SET enable_seqscan = off;
SET pax.enable_customscan = off;
SELECT id, grp, note FROM bk_alt WHERE id = 777;
RESET enable_seqscan;
RESET pax.enable_customscan;
SELECT count(*) FROM pax_verify('bk_alt');

-- materialized views: created, refreshed, refreshed concurrently
CREATE MATERIALIZED VIEW bk_mv USING pax AS
	SELECT grp, count(*) AS n, sum(price) AS s FROM bk_src GROUP BY grp;
CREATE MATERIALIZED VIEW bk_mvh USING heap AS
	SELECT grp, count(*) AS n, sum(price) AS s FROM bk_src GROUP BY grp;
SELECT bk_same('bk_mv', 'bk_mvh') AS same;
INSERT INTO bk_src SELECT i, i % 41, false, 1.5, date '2021-01-01', 'new', NULL
FROM generate_series(20001, 22000) i;
REFRESH MATERIALIZED VIEW bk_mv;
REFRESH MATERIALIZED VIEW bk_mvh;
SELECT bk_same('bk_mv', 'bk_mvh') AS same, (SELECT count(*) FROM bk_mv) AS groups;
CREATE UNIQUE INDEX ON bk_mv (grp);
DELETE FROM bk_src WHERE grp > 36;
REFRESH MATERIALIZED VIEW CONCURRENTLY bk_mv;
REFRESH MATERIALIZED VIEW bk_mvh;
SELECT bk_same('bk_mv', 'bk_mvh') AS same, (SELECT count(*) FROM bk_mv) AS groups;
CREATE MATERIALIZED VIEW bk_mv_empty USING pax AS SELECT * FROM bk_src WITH NO DATA;
REFRESH MATERIALIZED VIEW bk_mv_empty;
SELECT count(*) FROM bk_mv_empty;

-- temporary and unlogged tables; ON COMMIT DELETE ROWS
BEGIN;
CREATE TEMP TABLE bk_tmp USING pax ON COMMIT DELETE ROWS AS
	SELECT id FROM bk_src WHERE id <= 3000;
SELECT count(*) FROM bk_tmp;
COMMIT;
SELECT count(*) FROM bk_tmp;
CREATE UNLOGGED TABLE bk_unl USING pax AS SELECT id, note FROM bk_src;
SELECT count(*), count(note) FROM bk_unl;
CREATE TABLE bk_nodata USING pax AS SELECT * FROM bk_src WITH NO DATA;
SELECT count(*) FROM bk_nodata;

-- COPY into a partitioned table whose partitions got a column by ALTER TABLE:
-- 16 and 17 then hand the table AM an empty batch (table_multi_insert with
-- no rows), which must insert nothing, as heap's does
CREATE TABLE bk_cp_p (id int4, a timestamptz, b int8, c int8, d timestamptz, e bpchar(6))
	PARTITION BY RANGE (id);
CREATE TABLE bk_cp_p1 PARTITION OF bk_cp_p FOR VALUES FROM (MINVALUE) TO (100);
CREATE TABLE bk_cp_p2 PARTITION OF bk_cp_p FOR VALUES FROM (100) TO (300);
CREATE TABLE bk_cp_p3 PARTITION OF bk_cp_p FOR VALUES FROM (300) TO (MAXVALUE);
ALTER TABLE bk_cp_p ADD COLUMN f float4;
CREATE TABLE bk_cp_h (LIKE bk_cp_p) USING heap;
COPY bk_cp_p FROM PROGRAM $$seq 90 1589 | awk '{ t = ($1 % 7 == 0) ? "\\N" : "2020-01-10"; v = ($1 % 2 == 0) ? "\\N" : "4"; printf "%d\t%s\t\\N\t%s\t%s\t\\N\t%s\n", $1, t, v, t, v }'$$;
COPY bk_cp_h FROM PROGRAM $$seq 90 1589 | awk '{ t = ($1 % 7 == 0) ? "\\N" : "2020-01-10"; v = ($1 % 2 == 0) ? "\\N" : "4"; printf "%d\t%s\t\\N\t%s\t%s\t\\N\t%s\n", $1, t, v, t, v }'$$;
SELECT tableoid::regclass, count(*), count(a), count(c), sum(c), count(f), sum(f)
	FROM bk_cp_p GROUP BY 1 ORDER BY 1;
SELECT count(*) AS rows_not_heaps FROM ((TABLE bk_cp_p EXCEPT ALL TABLE bk_cp_h)
	UNION ALL (TABLE bk_cp_h EXCEPT ALL TABLE bk_cp_p)) d;
DROP TABLE bk_cp_p, bk_cp_h;

DROP TABLE bk_h, bk_p, bk_par, bk_par_h, bk_p1, bk_into, bk_into_h, bk_hx, bk_px, bk_t2, bk_seen_h,
	bk_seen_p, bk_safe_h, bk_safe_p, bk_outer, bk_inner_1500, bk_inner_2500, bk_sub, bk_sub2,
	bk_alt, bk_unl, bk_nodata, bk_short, bk_part_h, bk_part_p, bk_ins_h, bk_ins_p, bk_iseen_h, bk_iseen_p,
	bk_src CASCADE;
DROP FUNCTION bk_rows, bk_same, bk_count, bk_nested, bk_safe_div, bk_peek;
