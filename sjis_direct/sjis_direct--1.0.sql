/* sjis_direct/sjis_direct--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION sjis_direct" to load this file. \quit

-- The schema (created by CREATE EXTENSION from the control file) must be
-- visible to every role: a schema without USAGE is skipped in search_path,
-- and its conversions with it.  Nobody but its owner may create in it.
GRANT USAGE ON SCHEMA @extschema@ TO PUBLIC;

--
-- The conversion functions and the default conversions that use them.
--
CREATE FUNCTION sjis_direct_euc_jp_to_sjis(integer, integer, cstring, internal, integer, boolean)
RETURNS integer
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT PARALLEL SAFE;

CREATE FUNCTION sjis_direct_sjis_to_euc_jp(integer, integer, cstring, internal, integer, boolean)
RETURNS integer
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT PARALLEL SAFE;

CREATE DEFAULT CONVERSION sjis_direct_euc_jp_to_sjis
    FOR 'EUC_JP' TO 'SJIS' FROM sjis_direct_euc_jp_to_sjis;
CREATE DEFAULT CONVERSION sjis_direct_sjis_to_euc_jp
    FOR 'SJIS' TO 'EUC_JP' FROM sjis_direct_sjis_to_euc_jp;

COMMENT ON CONVERSION sjis_direct_euc_jp_to_sjis IS
    'direct EUC_JP to SJIS, byte-identical to pg_catalog.euc_jp_to_sjis';
COMMENT ON CONVERSION sjis_direct_sjis_to_euc_jp IS
    'direct SJIS to EUC_JP, byte-identical to pg_catalog.sjis_to_euc_jp';

--
-- Which conversion does this session use?
--
CREATE FUNCTION status(
    OUT source_encoding name,
    OUT dest_encoding name,
    OUT conversion_proc regproc,
    OUT uses_sjis_direct boolean,
    OUT calls bigint,
    OUT bytes_in bigint,
    OUT bytes_out bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'sjis_direct_status'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION status() IS
    'conversion found now along search_path, and this backend''s calls of sjis_direct per direction';

CREATE FUNCTION reset()
RETURNS void
AS 'MODULE_PATHNAME', 'sjis_direct_reset'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION reset() IS
    'zero this backend''s sjis_direct counters';

--
-- Run any conversion function on bytes (tests and benchmarks).
--
CREATE FUNCTION convert_with(
    proc regproc,
    src name,
    dst name,
    input bytea,
    noerror boolean DEFAULT false,
    repeat integer DEFAULT 1,
    OUT converted integer,
    OUT result bytea)
RETURNS record
AS 'MODULE_PATHNAME', 'sjis_direct_convert_with'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION convert_with(regproc, name, name, bytea, boolean, integer) IS
    'run a conversion function on bytes (repeat times): bytes converted and output';

REVOKE ALL ON FUNCTION convert_with(regproc, name, name, bytea, boolean, integer) FROM PUBLIC;

--
-- enable(db) / disable(db): make the sessions of a database find our
-- conversions first, or stop doing so.
--
-- Conversions are looked up along search_path, with pg_catalog searched
-- first unless the path names it.  enable() puts sjis_direct right before
-- pg_catalog in the database's search_path setting: "sjis_direct,
-- pg_catalog, <the previous setting>" (or "$user", public if there was
-- none), or, if the setting names pg_catalog, just before it.
--

-- search_path_names(setting): the schema names of a flattened search_path
-- setting, unquoted, empty names dropped.
CREATE FUNCTION search_path_names(setting text)
RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(array_agg(n ORDER BY o), '{}')
      FROM (SELECT CASE WHEN m[1] LIKE '"%'
                        THEN replace(substr(m[1], 2, length(m[1]) - 2), '""', '"')
                        ELSE m[1] END, o
              FROM regexp_matches(setting, '("(?:[^"]|"")*"|[^,[:space:]]+)', 'g')
                   WITH ORDINALITY AS t(m, o)) AS s(n, o)
     WHERE n <> ''
$$;

-- database_search_path(db): the search_path set for db by ALTER DATABASE
-- (for all roles), or NULL.
CREATE FUNCTION database_search_path(db name)
RETURNS text
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    dboid oid;
BEGIN
    SELECT oid INTO dboid FROM pg_database WHERE datname = db;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'database "%" does not exist', db
            USING ERRCODE = 'invalid_catalog_name';
    END IF;
    RETURN (SELECT substr(c, length('search_path=') + 1)
              FROM pg_db_role_setting s, unnest(s.setconfig) AS c
             WHERE s.setdatabase = dboid AND s.setrole = 0
               AND c LIKE 'search\_path=%');
END
$$;

-- set_database_search_path(db, names): ALTER DATABASE db SET search_path to
-- the schema names given, or RESET it if names is NULL; returns the setting.
CREATE FUNCTION set_database_search_path(db name, names text[])
RETURNS text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    setting text;
BEGIN
    IF names IS NULL THEN
        EXECUTE format('ALTER DATABASE %I RESET search_path', db);
        RETURN NULL;
    END IF;
    SELECT coalesce(string_agg(quote_ident(n), ', ' ORDER BY o), '""')
      INTO setting
      FROM unnest(names) WITH ORDINALITY AS t(n, o);
    EXECUTE format('ALTER DATABASE %I SET search_path = %s', db, setting);
    RETURN setting;
END
$$;

CREATE FUNCTION enable(db name DEFAULT current_database())
RETURNS text
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    prev text := @extschema@.database_search_path(db);
    names text[];
    pos int;
    overrides text;
BEGIN
    names := CASE WHEN prev IS NULL THEN ARRAY['$user', 'public']
                  ELSE @extschema@.search_path_names(prev) END;
    names := array_remove(names, '@extschema@');
    pos := array_position(names, 'pg_catalog');
    IF pos IS NULL THEN
        names := ARRAY['@extschema@', 'pg_catalog'] || names;
    ELSE
        names := names[1:pos - 1] || '@extschema@'::text || names[pos:];
    END IF;

    -- settings that take precedence over the database's
    SELECT string_agg(coalesce(r.rolname, 'every role') || ' in ' ||
                      coalesce(d.datname, 'every database'), ', ') INTO overrides
      FROM pg_db_role_setting s
           LEFT JOIN pg_roles r ON r.oid = s.setrole
           LEFT JOIN pg_database d ON d.oid = s.setdatabase,
           unnest(s.setconfig) AS c
     WHERE s.setrole <> 0 AND (d.datname = db OR s.setdatabase = 0)
       AND c LIKE 'search\_path=%';
    IF overrides IS NOT NULL THEN
        RAISE WARNING 'search_path is also set for %, which overrides the setting of database "%"',
            overrides, db
            USING HINT = 'Put @extschema@ before pg_catalog in those settings too, or reset them.';
    END IF;

    RETURN @extschema@.set_database_search_path(db, names);
END
$$;

COMMENT ON FUNCTION enable(name) IS
    'put sjis_direct before pg_catalog in the database''s search_path, for its new sessions';

CREATE FUNCTION disable(db name DEFAULT current_database())
RETURNS text
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    prev text := @extschema@.database_search_path(db);
    names text[] := @extschema@.search_path_names(prev);
    pos int := array_position(names, '@extschema@');
BEGIN
    IF pos IS NULL THEN
        RETURN prev;            -- not enabled: nothing to do
    END IF;

    -- remove what enable() added: the schema and, at the head, pg_catalog
    IF pos = 1 AND names[2] = 'pg_catalog' THEN
        names := names[3:];
    ELSE
        names := array_remove(names, '@extschema@');
    END IF;

    -- the default is what enable() assumed when nothing was set
    IF names = ARRAY['$user', 'public'] THEN
        names := NULL;
    END IF;
    RETURN @extschema@.set_database_search_path(db, names);
END
$$;

COMMENT ON FUNCTION disable(name) IS
    'undo enable(): take sjis_direct out of the database''s search_path';
