/* pax_am/pax_am--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pax_am UPDATE TO '1.3'" to load this file. \quit

-- 1.3: pax_page_regions, the byte ranges of a page and what each holds
CREATE FUNCTION pax_page_regions(rel regclass, blkno bigint,
    OUT off int, OUT len int, OUT attnum int, OUT region text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pax_page_regions'
LANGUAGE C STRICT PARALLEL SAFE;

REVOKE ALL ON FUNCTION pax_page_regions(regclass, bigint) FROM PUBLIC;

-- 1.3: pax_verify(..., heapallindexed) compares btree indexes' entries
-- with the rows' keys, both ways
DROP FUNCTION pax_verify(regclass, bool);
CREATE FUNCTION pax_verify(rel regclass, check_indexes bool DEFAULT true,
    heapallindexed bool DEFAULT false,
    OUT blkno bigint, OUT "row" int, OUT attnum int, OUT msg text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pax_verify'
LANGUAGE C STRICT PARALLEL RESTRICTED;

REVOKE ALL ON FUNCTION pax_verify(regclass, bool, bool) FROM PUBLIC;
