/* sjis_direct/sjis_direct--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION sjis_direct" to load this file. \quit

--
-- The schema.  CREATE EXTENSION creates schema sjis_direct (control file)
-- unless one of that name exists, and then installs into the existing one,
-- whoever made it.  Our conversions are looked up in this schema ahead of
-- pg_catalog's, and its owner could drop or add objects in it (overloads of
-- enable(), say, called by a superuser): refuse a schema that is not
-- exactly what CREATE EXTENSION would have made, that is one owned by a
-- superuser, empty, and in which no other role may CREATE.  (pg_restore
-- recreates the schema, owned by its superuser, before CREATE EXTENSION:
-- that passes.)  Until this check is done the schema may hold anything, and
-- the search_path of this script names it: every name below is qualified
-- and every operator spelled OPERATOR(pg_catalog.=).
--
DO $check$
DECLARE
    ext pg_catalog.oid;
    nsp pg_catalog.oid;
    owner_name pg_catalog.name;
    owner_super pg_catalog.bool;
    contents pg_catalog.text;
    creators pg_catalog.text;
BEGIN
    SELECT e.oid, e.extnamespace, r.rolname, r.rolsuper
      INTO ext, nsp, owner_name, owner_super
      FROM pg_catalog.pg_extension e
           JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
           JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) n.nspowner
     WHERE e.extname OPERATOR(pg_catalog.=) 'sjis_direct'::pg_catalog.name;

    IF NOT owner_super THEN
        RAISE EXCEPTION 'schema "@extschema@" already exists and is owned by role "%", which is not a superuser',
            owner_name
            USING ERRCODE = 'duplicate_schema',
                  DETAIL = 'sjis_direct installs into schema "@extschema@" and looks its conversions up there ahead of pg_catalog, so only a superuser may own that schema.',
                  HINT = 'Drop or rename schema "@extschema@" and run CREATE EXTENSION again: it then creates the schema itself.';
    END IF;

    -- every object in a schema depends on it; the extension itself does too
    SELECT pg_catalog.string_agg(pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid),
                                 ', ' ORDER BY d.classid, d.objid)
      INTO contents
      FROM pg_catalog.pg_depend d
     WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass
       AND d.refobjid OPERATOR(pg_catalog.=) nsp
       AND NOT (d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                AND d.objid OPERATOR(pg_catalog.=) ext);
    IF contents IS NOT NULL THEN
        RAISE EXCEPTION 'schema "@extschema@" already exists and is not empty'
            USING ERRCODE = 'duplicate_schema',
                  DETAIL = pg_catalog.format('It contains %s.', contents),
                  HINT = 'Drop or rename schema "@extschema@" and run CREATE EXTENSION again: it then creates the schema itself.';
    END IF;

    SELECT pg_catalog.string_agg(CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid
                                      THEN 'PUBLIC'
                                      ELSE pg_catalog.quote_ident(r.rolname) END,
                                 ', ' ORDER BY r.rolname)
      INTO creators
      FROM pg_catalog.pg_namespace n,
           pg_catalog.aclexplode(n.nspacl) a
           LEFT JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) a.grantee
     WHERE n.oid OPERATOR(pg_catalog.=) nsp
       AND a.privilege_type OPERATOR(pg_catalog.=) 'CREATE'::pg_catalog.text
       AND NOT coalesce(r.rolsuper, false);
    IF creators IS NOT NULL THEN
        RAISE EXCEPTION 'schema "@extschema@" already exists and grants CREATE to %', creators
            USING ERRCODE = 'duplicate_schema',
                  DETAIL = 'sjis_direct looks its conversions up in schema "@extschema@" ahead of pg_catalog, so only superusers may create objects in it.',
                  HINT = 'Revoke CREATE on schema "@extschema@" from those roles, or drop the schema, and run CREATE EXTENSION again.';
    END IF;
END
$check$;

-- Every role may use what is in the schema (status(), say); nobody but its
-- superuser owner may create in it.  Nothing ever puts the schema in a
-- search_path: see enable().
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
    'conversion SET client_encoding would pick now, and this backend''s calls of sjis_direct per direction';

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
-- enable(db) / disable(db): make the new sessions of a database use our
-- conversions, or stop doing so.
--
-- Conversions are looked up along the search path, with pg_catalog (which
-- has default conversions for EUC_JP <-> SJIS) searched first unless the
-- path names it.  Putting this schema ahead of pg_catalog in search_path
-- would also put it ahead of pg_catalog for every function, operator and
-- type name, and make it the schema unqualified CREATEs go to.  So enable()
-- leaves search_path alone and adds the library to the database's
-- session_preload_libraries: loaded at session start, it makes the session
-- look up the conversions of an SJIS client (and only those) in this
-- schema first, at connection and at every SET client_encoding, without
-- changing the session's search_path (see sjis_direct.c).
--

-- setting_names(setting): the names of a flattened list setting
-- (session_preload_libraries, search_path), unquoted, empty names dropped.
CREATE FUNCTION setting_names(setting text)
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

-- database_setting(db, setting): the value ALTER DATABASE db SET setting
-- gave (for all roles), or NULL.
CREATE FUNCTION database_setting(db name, setting text)
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
    RETURN (SELECT substr(c, length(setting) + 2)
              FROM pg_db_role_setting s, unnest(s.setconfig) AS c
             WHERE s.setdatabase = dboid AND s.setrole = 0
               AND starts_with(c, setting || '='));
END
$$;

-- server_libraries(): the names in session_preload_libraries as the
-- server's configuration files set it (what a database without its own
-- setting gets, and what a database setting replaces).
CREATE FUNCTION server_libraries()
RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(@extschema@.setting_names(
               (SELECT setting FROM pg_file_settings
                 WHERE name = 'session_preload_libraries' AND applied
                 ORDER BY seqno DESC LIMIT 1)), '{}')
$$;

-- set_database_libraries(db, names): ALTER DATABASE db SET
-- session_preload_libraries to names, or RESET it if names is NULL; returns
-- the setting.
CREATE FUNCTION set_database_libraries(db name, names text[])
RETURNS text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    setting text;
BEGIN
    IF names IS NULL THEN
        EXECUTE format('ALTER DATABASE %I RESET session_preload_libraries', db);
        RETURN NULL;
    END IF;
    SELECT coalesce(string_agg(quote_ident(n), ', ' ORDER BY o), '''''')
      INTO setting
      FROM unnest(names) WITH ORDINALITY AS t(n, o);
    EXECUTE format('ALTER DATABASE %I SET session_preload_libraries = %s', db, setting);
    RETURN setting;
END
$$;

CREATE FUNCTION enable(db name DEFAULT current_database())
RETURNS text
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    prev text := @extschema@.database_setting(db, 'session_preload_libraries');
    names text[];
    overrides text;
BEGIN
    names := CASE WHEN prev IS NULL THEN @extschema@.server_libraries()
                  ELSE @extschema@.setting_names(prev) END;
    IF NOT names && ARRAY['sjis_direct', '$libdir/sjis_direct'] THEN
        names := names || 'sjis_direct'::text;
    END IF;

    -- settings that take precedence over the database's
    SELECT string_agg(coalesce(r.rolname, 'every role') || ' in ' ||
                      coalesce(d.datname, 'every database'), ', ') INTO overrides
      FROM pg_db_role_setting s
           LEFT JOIN pg_roles r ON r.oid = s.setrole
           LEFT JOIN pg_database d ON d.oid = s.setdatabase,
           unnest(s.setconfig) AS c
     WHERE s.setrole <> 0 AND (d.datname = db OR s.setdatabase = 0)
       AND starts_with(c, 'session_preload_libraries=');
    IF overrides IS NOT NULL THEN
        RAISE WARNING 'session_preload_libraries is also set for %, which overrides the setting of database "%"',
            overrides, db
            USING HINT = 'Add sjis_direct to those settings too, or reset them.';
    END IF;

    RETURN @extschema@.set_database_libraries(db, names);
END
$$;

COMMENT ON FUNCTION enable(name) IS
    'add sjis_direct to the database''s session_preload_libraries: its new sessions use our conversions';

CREATE FUNCTION disable(db name DEFAULT current_database())
RETURNS text
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    prev text := @extschema@.database_setting(db, 'session_preload_libraries');
    names text[] := @extschema@.setting_names(prev);
BEGIN
    IF NOT names && ARRAY['sjis_direct', '$libdir/sjis_direct'] THEN
        RETURN prev;            -- not enabled: nothing to do
    END IF;
    names := array_remove(array_remove(names, 'sjis_direct'), '$libdir/sjis_direct');

    -- what the server sets anyway needs no database setting
    IF names = @extschema@.server_libraries() THEN
        names := NULL;
    END IF;
    RETURN @extschema@.set_database_libraries(db, names);
END
$$;

COMMENT ON FUNCTION disable(name) IS
    'undo enable(): take sjis_direct out of the database''s session_preload_libraries';

-- ALTER DATABASE ... SET session_preload_libraries takes a superuser anyway
REVOKE ALL ON FUNCTION enable(name) FROM PUBLIC;
REVOKE ALL ON FUNCTION disable(name) FROM PUBLIC;
REVOKE ALL ON FUNCTION set_database_libraries(name, text[]) FROM PUBLIC;
