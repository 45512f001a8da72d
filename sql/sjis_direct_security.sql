--
-- sjis_direct_security: CREATE EXTENSION refuses a schema sjis_direct that
-- it did not create and that a non-superuser could write to (the trojan of
-- issue 12: a role with CREATE on the database made schema sjis_direct
-- with a lower(text) that made it superuser once enable() had put the
-- schema ahead of pg_catalog); enable() changes no session's search_path,
-- so name lookup and the creation schema stay the usual ones; nobody but a
-- superuser may create objects in the extension's schema.
--
\set regdb :DBNAME
\set regsuper :USER
CREATE DATABASE regression_sjis_direct_sec ENCODING 'EUC_JP'
    LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c regression_sjis_direct_sec
CREATE ROLE regress_sjis_evil LOGIN;
GRANT CREATE ON DATABASE regression_sjis_direct_sec TO regress_sjis_evil;
GRANT CREATE ON SCHEMA public TO regress_sjis_evil;

-- the trojan: a schema named like the extension's, with a lower(text) that
-- makes its owner superuser when a superuser calls it
SET ROLE regress_sjis_evil;
CREATE SCHEMA sjis_direct;
GRANT USAGE ON SCHEMA sjis_direct TO PUBLIC;
CREATE FUNCTION sjis_direct.lower(text) RETURNS text LANGUAGE sql
    AS $$ ALTER ROLE regress_sjis_evil SUPERUSER; SELECT pg_catalog.lower($1) $$;
RESET ROLE;

-- refused, with nothing left behind.  The refusals' CONTEXT lines are not
-- shown: 18 adds the whole failing statement of the script to them.
\set SHOW_CONTEXT never
CREATE EXTENSION sjis_direct;
SELECT count(*) FROM pg_extension WHERE extname = 'sjis_direct';
SELECT count(*) FROM pg_conversion WHERE conname LIKE 'sjis_direct%';

-- emptied, still the role's
SET ROLE regress_sjis_evil;
DROP FUNCTION sjis_direct.lower(text);
RESET ROLE;
CREATE EXTENSION sjis_direct;

-- a superuser's schema in which another role may create: refused too
ALTER SCHEMA sjis_direct OWNER TO CURRENT_USER;
GRANT CREATE ON SCHEMA sjis_direct TO regress_sjis_evil;
CREATE EXTENSION sjis_direct;
REVOKE CREATE ON SCHEMA sjis_direct FROM regress_sjis_evil;
GRANT CREATE ON SCHEMA sjis_direct TO PUBLIC;
CREATE EXTENSION sjis_direct;
REVOKE CREATE ON SCHEMA sjis_direct FROM PUBLIC;

-- a superuser's schema with something in it: refused
CREATE TABLE sjis_direct.left_over (a int);
CREATE EXTENSION sjis_direct;
DROP TABLE sjis_direct.left_over;

-- an empty schema only superusers may create in, as pg_restore leaves it
-- before CREATE EXTENSION: accepted
CREATE EXTENSION sjis_direct;
SELECT n.nspname, r.rolsuper AS owner_is_superuser
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
       JOIN pg_roles r ON r.oid = n.nspowner
 WHERE e.extname = 'sjis_direct';
DROP EXTENSION sjis_direct;
DROP SCHEMA sjis_direct;

-- made by CREATE EXTENSION: owned by the superuser who ran it; other roles
-- may use what is in it but not create in it
CREATE EXTENSION sjis_direct;
SELECT r.rolsuper AS owner_is_superuser,
       has_schema_privilege('regress_sjis_evil', 'sjis_direct', 'USAGE') AS usage,
       has_schema_privilege('regress_sjis_evil', 'sjis_direct', 'CREATE') AS create
  FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner
 WHERE n.nspname = 'sjis_direct';
SET ROLE regress_sjis_evil;
CREATE FUNCTION sjis_direct.lower(text) RETURNS text LANGUAGE sql
    AS $$ ALTER ROLE regress_sjis_evil SUPERUSER; SELECT pg_catalog.lower($1) $$;
CREATE TABLE sjis_direct.t (a int);
CREATE SCHEMA sjis_direct;
-- and enable() is a superuser's
SELECT sjis_direct.enable();
RESET ROLE;

SELECT sjis_direct.enable();

-- a new superuser session, client encoding SJIS: our conversions, and the
-- search_path, name lookup and creation schema of any session
\c "dbname=regression_sjis_direct_sec client_encoding=SJIS"
SHOW search_path;
SELECT current_schemas(true);
SELECT source_encoding, uses_sjis_direct, calls > 0 AS used FROM sjis_direct.status();
SELECT lower('ABC');
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_sjis_evil';
CREATE TABLE created_unqualified (a int);
SELECT relnamespace::regnamespace FROM pg_class WHERE relname = 'created_unqualified';
CREATE FUNCTION created_unqualified_f() RETURNS int LANGUAGE sql AS 'SELECT 1';
SELECT pronamespace::regnamespace FROM pg_proc WHERE proname = 'created_unqualified_f';
-- the override lasts for the lookup only
SET client_encoding = SJIS;
SHOW search_path;
SELECT current_schemas(true);
SELECT source_encoding, uses_sjis_direct FROM sjis_direct.status();

-- the same for a non-superuser session
\c "dbname=regression_sjis_direct_sec user=regress_sjis_evil client_encoding=SJIS"
SHOW search_path;
SELECT source_encoding, uses_sjis_direct, calls > 0 AS used FROM sjis_direct.status();
SELECT lower('ABC');
CREATE TABLE created_by_role (a int);
SELECT relnamespace::regnamespace FROM pg_class WHERE relname = 'created_by_role';

\c :regdb :regsuper
DROP DATABASE regression_sjis_direct_sec;
DROP ROLE regress_sjis_evil;
