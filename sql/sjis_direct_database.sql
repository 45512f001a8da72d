--
-- sjis_direct_database: in an EUC_JP database, sjis_direct.enable() makes
-- new sessions use our conversions for client_encoding SJIS, whether set
-- by SET or in the startup packet; disable() undoes it.
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
SELECT sjis_direct.database_search_path(current_database());
SET client_encoding = SJIS;
SELECT id, t FROM jp ORDER BY id;
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls
  FROM sjis_direct.status();
RESET client_encoding;

-- the one step
SELECT sjis_direct.enable();

-- a new session: SET client_encoding picks our conversions
\c regression_sjis_direct_eucjp
SHOW search_path;
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls
  FROM sjis_direct.status();
SET client_encoding = SJIS;
SELECT id, t FROM jp ORDER BY id;
-- ours converted the results to SJIS and the query texts to EUC_JP
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls > 0 AS used,
       bytes_out > 0 AS wrote
  FROM sjis_direct.status();
-- convert_to() and convert_from() look conversions up the same way
SELECT sjis_direct.reset();
SELECT encode(convert_to(t, 'SJIS'), 'hex') FROM jp ORDER BY id;
SELECT convert_from('\x8365834c8358836720b6c5', 'SJIS') = convert_from('\xa5c6a5ada5b9a5c8208eb68ec5', 'EUC_JP') AS same;
SELECT source_encoding, calls > 0 AS used FROM sjis_direct.status();
RESET client_encoding;

-- client_encoding in the startup packet: settled after the database's
-- settings (search_path) are applied, so ours again
\c "dbname=regression_sjis_direct_eucjp client_encoding=SJIS"
SHOW client_encoding;
SELECT id, t FROM jp ORDER BY id;
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls > 0 AS used
  FROM sjis_direct.status();

-- a search_path setting with pg_catalog in it gets sjis_direct just before
-- it; enable() is idempotent
\c "dbname=regression_sjis_direct_eucjp client_encoding=EUC_JP"
ALTER DATABASE regression_sjis_direct_eucjp SET search_path = public, "My Schema", pg_catalog;
SELECT sjis_direct.enable();
SELECT sjis_direct.enable();
SELECT sjis_direct.disable();
ALTER DATABASE regression_sjis_direct_eucjp SET search_path = "$user", public;
SELECT sjis_direct.enable();

-- role settings take precedence: enable() says so
CREATE ROLE regress_sjis_direct_role;
ALTER ROLE regress_sjis_direct_role IN DATABASE regression_sjis_direct_eucjp
    SET search_path = public;
SELECT sjis_direct.enable();
DROP ROLE regress_sjis_direct_role;

-- the way back
SELECT sjis_direct.disable();
SELECT sjis_direct.database_search_path(current_database());
SELECT sjis_direct.disable();
\c regression_sjis_direct_eucjp
SET client_encoding = SJIS;
SELECT id, t FROM jp ORDER BY id;
SELECT source_encoding, conversion_proc, uses_sjis_direct, calls
  FROM sjis_direct.status();
RESET client_encoding;

SELECT sjis_direct.enable('no_such_database');

\c :regdb
DROP DATABASE regression_sjis_direct_eucjp;
