/* pax_am/pax_am--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION pax_am" to load this file. \quit

CREATE FUNCTION pax_tableam_handler(internal)
RETURNS table_am_handler
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE ACCESS METHOD pax TYPE TABLE HANDLER pax_tableam_handler;
COMMENT ON ACCESS METHOD pax IS 'PAX table access method: one minipage per column';
