--
-- sjis_direct_database: in an EUC_JP database, sjis_direct.enable() makes
-- new sessions use our conversions for client_encoding SJIS, whether set
-- by SET or in the startup packet, without touching their search_path;
-- disable() undoes it.
--
\set regdb :DBNAME
CREATE DATABASE regression_sjis_direct_eucjp ENCODING 'EUC_JP'
    LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c regression_sjis_direct_eucjp
CREATE EXTENSION sjis_direct;
-- (CREATE CONVERSION tries each function once: start counting afresh)
SELECT sjis_direct.reset();

-- ASCII, JIS X 0208, half-width katakana, NEC row 13, JIS X 0212 (IBM)
CREATE TABLE jp (id int, t text);
INSERT INTO jp VALUES
    (1, 'plain ASCII'),
    (2, convert_from('\x414243c6fccbdcb8eca5c6a5ada5b9a5c8', 'EUC_JP')),
    (3, convert_from('\x8eb68ec5ada18ff4af', 'EUC_JP'));

-- the built-in conversion, before enable()
SELECT sjis_direct.database_setting(current_database(), 'session_preload_libraries');
SET client_encoding = SJIS;
SELECT id, t FROM jp ORDER BY id;
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls
  FROM sjis_direct.status();
RESET client_encoding;

-- the one step
SELECT sjis_direct.enable();

-- a new session: its search_path is the usual one, and SET client_encoding
-- picks our conversions
\c regression_sjis_direct_eucjp
SHOW search_path;
SHOW session_preload_libraries;
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls
  FROM sjis_direct.status();
SET client_encoding = SJIS;
SELECT id, t FROM jp ORDER BY id;
-- ours converted the results to SJIS and the query texts to EUC_JP
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls > 0 AS used,
       bytes_out > 0 AS wrote
  FROM sjis_direct.status();
-- whatever the session's search_path
SET search_path = public;
RESET client_encoding;
SELECT sjis_direct.reset();
SET client_encoding = SJIS;
SELECT id, t FROM jp ORDER BY id;
SELECT source_encoding, uses_sjis_direct, calls > 0 AS used FROM sjis_direct.status();
RESET search_path;
RESET client_encoding;
-- convert_to() and convert_from() look conversions up along search_path,
-- which enable() leaves alone: the built-in, with the same bytes (no SJIS
-- client here, so nothing else calls ours)
SELECT sjis_direct.reset();
SELECT encode(convert_to(t, 'SJIS'), 'hex') FROM jp ORDER BY id;
SELECT convert_from('\x8365834c8358836720b6c5', 'SJIS') = convert_from('\xa5c6a5ada5b9a5c8208eb68ec5', 'EUC_JP') AS same;
SELECT source_encoding, calls FROM sjis_direct.status();
-- they use ours where the session's own search_path puts it first
SET search_path = sjis_direct, pg_catalog, public;
SELECT encode(convert_to(t, 'SJIS'), 'hex') FROM jp ORDER BY id;
SELECT source_encoding, calls > 0 AS used FROM sjis_direct.status();
RESET search_path;

-- client_encoding in the startup packet: looked up again when the library
-- is loaded at session start, so ours again
\c "dbname=regression_sjis_direct_eucjp client_encoding=SJIS"
SHOW client_encoding;
SELECT id, t FROM jp ORDER BY id;
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls > 0 AS used
  FROM sjis_direct.status();

-- a server encoding or a client encoding that is not ours: untouched
\c "dbname=regression_sjis_direct_eucjp client_encoding=UTF8"
SELECT id, t FROM jp ORDER BY id;
SELECT source_encoding, calls FROM sjis_direct.status();

-- libraries already set for the database are kept; enable() is idempotent
\c "dbname=regression_sjis_direct_eucjp client_encoding=EUC_JP"
ALTER DATABASE regression_sjis_direct_eucjp SET session_preload_libraries = '$libdir/some lib', other;
SELECT sjis_direct.enable();
SELECT sjis_direct.enable();
SELECT sjis_direct.disable();
ALTER DATABASE regression_sjis_direct_eucjp SET session_preload_libraries = '$libdir/sjis_direct';
SELECT sjis_direct.enable();
SELECT sjis_direct.disable();
SELECT sjis_direct.enable();

-- role settings take precedence: enable() says so
CREATE ROLE regress_sjis_direct_role;
ALTER ROLE regress_sjis_direct_role IN DATABASE regression_sjis_direct_eucjp
    SET session_preload_libraries = '';
SELECT sjis_direct.enable();
DROP ROLE regress_sjis_direct_role;

-- the way back
SELECT sjis_direct.disable();
SELECT sjis_direct.database_setting(current_database(), 'session_preload_libraries');
SELECT sjis_direct.disable();
\c regression_sjis_direct_eucjp
SET client_encoding = SJIS;
SELECT id, t FROM jp ORDER BY id;
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls
  FROM sjis_direct.status();
RESET client_encoding;

SELECT sjis_direct.enable('no_such_database');

-- enabled in a database without the extension: sessions load the library
-- and carry on with the built-in conversion
SELECT sjis_direct.enable();
DROP EXTENSION sjis_direct;
\c "dbname=regression_sjis_direct_eucjp client_encoding=SJIS"
SHOW session_preload_libraries;
SELECT id, t FROM jp ORDER BY id;
SET client_encoding = EUC_JP;
SET client_encoding = SJIS;
RESET client_encoding;
CREATE EXTENSION sjis_direct;
-- created in this session: SET client_encoding finds it
SET client_encoding = SJIS;
SELECT source_encoding, uses_sjis_direct, calls > 0 AS used FROM sjis_direct.status();
RESET client_encoding;

\c :regdb
DROP DATABASE regression_sjis_direct_eucjp;
