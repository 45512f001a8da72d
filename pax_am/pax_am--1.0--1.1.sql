/* pax_am/pax_am--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pax_am UPDATE TO '1.1'" to load this file. \quit

-- 1.1: encoded minipages; the layout functions report them
DROP FUNCTION pax_page_stats(regclass);
CREATE FUNCTION pax_page_stats(rel regclass,
    OUT blkno bigint, OUT nrows int, OUT capacity int, OUT natts int,
    OUT lower int, OUT upper int, OUT free_bytes int, OUT meta_bytes int,
    OUT value_bytes int, OUT nullmaps int, OUT zonemaps int,
    OUT encoded int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pax_page_stats'
LANGUAGE C STRICT PARALLEL SAFE;

DROP FUNCTION pax_page_columns(regclass, bigint);
CREATE FUNCTION pax_page_columns(rel regclass, blkno bigint,
    OUT attnum int, OUT attname name, OUT minipage_bytes int,
    OUT value_bytes int, OUT has_nullmap bool, OUT has_nulls bool,
    OUT zone_min text, OUT zone_max text, OUT encoding text,
    OUT value_width int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pax_page_columns'
LANGUAGE C STRICT PARALLEL SAFE;

REVOKE ALL ON FUNCTION pax_page_stats(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION pax_page_columns(regclass, bigint) FROM PUBLIC;
