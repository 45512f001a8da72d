--
-- lz4 compression of a pax table's large values, which PostgreSQL's TOAST
-- code compresses for pax as for heap: the column's compression method is
-- kept and reported.  A server built without lz4 refuses the method with
-- heap's error, and the value is compressed with pglz instead
-- (expected/pax_am_lz4_1.out).
--
CREATE TABLE lz (id int, t text) USING pax;
CREATE TABLE lz_heap (id int, t text) USING heap;
ALTER TABLE lz ALTER COLUMN t SET COMPRESSION lz4;
ALTER TABLE lz_heap ALTER COLUMN t SET COMPRESSION lz4;
INSERT INTO lz VALUES (300, repeat('pq', 5000));
INSERT INTO lz_heap VALUES (300, repeat('pq', 5000));
SELECT id, pg_column_compression(t), length(t), md5(t) FROM lz;
SELECT (SELECT pg_column_compression(t) FROM lz) =
       (SELECT pg_column_compression(t) FROM lz_heap) AS same_method;
DROP TABLE lz, lz_heap;
