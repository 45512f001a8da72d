/* deform_cache/deform_cache--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION deform_cache" to load this file. \quit

CREATE FUNCTION deform_cache_stats(
    OUT relid oid,
    OUT tuples_deformed bigint,
    OUT attributes_deformed bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'deform_cache_stats_1_0'
LANGUAGE C STRICT VOLATILE;
