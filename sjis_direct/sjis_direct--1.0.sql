/* sjis_direct/sjis_direct--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION sjis_direct" to load this file. \quit

CREATE FUNCTION sjis_direct_euc_jp_to_sjis(integer, integer, cstring, internal, integer, boolean)
RETURNS integer
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT PARALLEL SAFE;

CREATE FUNCTION sjis_direct_sjis_to_euc_jp(integer, integer, cstring, internal, integer, boolean)
RETURNS integer
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT PARALLEL SAFE;
