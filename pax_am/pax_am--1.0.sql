/* pax_am/pax_am--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION pax_am" to load this file. \quit

CREATE FUNCTION pax_tableam_handler(internal)
RETURNS table_am_handler
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE ACCESS METHOD pax TYPE TABLE HANDLER pax_tableam_handler;
COMMENT ON ACCESS METHOD pax IS 'PAX table access method: one minipage per column';

-- Layout of pax pages: one row per page
CREATE FUNCTION pax_page_stats(rel regclass,
    OUT blkno bigint, OUT nrows int, OUT capacity int, OUT natts int,
    OUT lower int, OUT upper int, OUT free_bytes int, OUT meta_bytes int,
    OUT value_bytes int, OUT nullmaps int, OUT zonemaps int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pax_page_stats'
LANGUAGE C STRICT PARALLEL SAFE;

-- Layout of one pax page: one row per column
CREATE FUNCTION pax_page_columns(rel regclass, blkno bigint,
    OUT attnum int, OUT attname name, OUT minipage_bytes int,
    OUT value_bytes int, OUT has_nullmap bool, OUT has_nulls bool,
    OUT zone_min text, OUT zone_max text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pax_page_columns'
LANGUAGE C STRICT PARALLEL SAFE;

-- Verification of a pax table (and its indexes): one row per problem found
CREATE FUNCTION pax_verify(rel regclass, check_indexes bool DEFAULT true,
    OUT blkno bigint, OUT "row" int, OUT attnum int, OUT msg text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pax_verify'
LANGUAGE C STRICT PARALLEL RESTRICTED;

REVOKE ALL ON FUNCTION pax_page_stats(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION pax_page_columns(regclass, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pax_verify(regclass, bool) FROM PUBLIC;
