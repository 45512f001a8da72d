/* pax_am/pax_am--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pax_am UPDATE TO '1.2'" to load this file. \quit

-- 1.2: compact pages, header pages and prefix-encoded minipages; each
-- page's form is reported
DROP FUNCTION pax_page_stats(regclass);
CREATE FUNCTION pax_page_stats(rel regclass,
    OUT blkno bigint, OUT nrows int, OUT capacity int, OUT natts int,
    OUT lower int, OUT upper int, OUT free_bytes int, OUT meta_bytes int,
    OUT value_bytes int, OUT nullmaps int, OUT zonemaps int,
    OUT encoded int, OUT form text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pax_page_stats'
LANGUAGE C STRICT PARALLEL SAFE;

REVOKE ALL ON FUNCTION pax_page_stats(regclass) FROM PUBLIC;
