/* deform_cache/deform_cache--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION deform_cache" to load this file. \quit

-- Counters of the last statement counted, one row per plan node.
CREATE FUNCTION deform_cache_last(
    OUT node_id integer,
    OUT parent_id integer,
    OUT node_type text,
    OUT relid regclass,
    OUT access_method text,
    OUT slot_type text,
    OUT jit_deform boolean,
    OUT deform_calls bigint,
    OUT tuples_deformed bigint,
    OUT attributes_deformed bigint,
    OUT max_attribute integer,
    OUT bytes_walked bigint,
    OUT context_resets bigint,
    OUT context_resets_empty bigint,
    OUT context_allocs bigint,
    OUT context_alloc_bytes bigint,
    OUT context_peak_bytes bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'deform_cache_last_1_0'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

-- Totals per relation since the last reset (this backend only).
CREATE FUNCTION deform_cache_relations(
    OUT relid regclass,
    OUT access_method text,
    OUT statements bigint,
    OUT scans bigint,
    OUT deform_calls bigint,
    OUT tuples_deformed bigint,
    OUT attributes_deformed bigint,
    OUT max_attribute integer,
    OUT bytes_walked bigint,
    OUT context_resets bigint,
    OUT context_resets_empty bigint,
    OUT context_allocs bigint,
    OUT context_alloc_bytes bigint,
    OUT context_peak_bytes bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'deform_cache_relations_1_0'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE FUNCTION deform_cache_reset()
RETURNS void
AS 'MODULE_PATHNAME', 'deform_cache_reset_1_0'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE FUNCTION deform_cache_info(
    OUT tracking boolean,
    OUT instrumented_statements integer)
RETURNS record
AS 'MODULE_PATHNAME', 'deform_cache_info_1_0'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE VIEW deform_cache_last AS
  SELECT * FROM deform_cache_last();

CREATE VIEW deform_cache_relations AS
  SELECT * FROM deform_cache_relations();

-- The counters show the work done on any relation: superusers only by
-- default, as pg_stat_statements_reset.
REVOKE ALL ON FUNCTION deform_cache_reset() FROM PUBLIC;
