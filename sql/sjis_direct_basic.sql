--
-- sjis_direct_basic: the extension loads in its own schema, registers its
-- conversions, and reports its state.
--
CREATE EXTENSION sjis_direct;

SELECT e.extname, n.nspname, e.extrelocatable
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
 WHERE e.extname = 'sjis_direct';

SELECT p.oid::regprocedure
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = 'sjis_direct' ORDER BY p.oid::regprocedure::text;

-- the default conversions, next to the built-in ones
SELECT n.nspname, c.conname, pg_encoding_to_char(c.conforencoding) AS src,
       pg_encoding_to_char(c.contoencoding) AS dst, c.conproc, c.condefault
  FROM pg_conversion c JOIN pg_namespace n ON n.oid = c.connamespace
 WHERE c.conname IN ('euc_jp_to_sjis', 'sjis_to_euc_jp')
    OR n.nspname = 'sjis_direct'
 ORDER BY 1, 2;

-- every role may look into the schema (or its conversions would be skipped)
SELECT has_schema_privilege('public', 'sjis_direct', 'USAGE') AS usage,
       has_schema_privilege('public', 'sjis_direct', 'CREATE') AS create;

-- with the default search_path, pg_catalog's conversions are found
SELECT sjis_direct.reset();
SELECT * FROM sjis_direct.status();

-- with sjis_direct first, ours
SET search_path = sjis_direct, pg_catalog, public;
SELECT source_encoding, dest_encoding, conversion_proc, uses_sjis_direct
  FROM sjis_direct.status();
RESET search_path;

-- convert_with runs a conversion function on bytes, and counts for ours
SELECT * FROM sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis',
                                       'EUC_JP', 'SJIS', '\x41a4a2');
SELECT * FROM sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis',
                                       'EUC_JP', 'SJIS', '\x41a4a2');
SELECT * FROM sjis_direct.convert_with('sjis_direct.sjis_direct_sjis_to_euc_jp',
                                       'SJIS', 'EUC_JP', '\x4182a0b1', true);
SELECT source_encoding, calls, bytes_in, bytes_out FROM sjis_direct.status();
-- repeat runs the conversion again on the same buffers (for benchmarks)
SELECT * FROM sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis',
                                       'EUC_JP', 'SJIS', '\x41a4a2', false, 3);
SELECT source_encoding, calls, bytes_in, bytes_out FROM sjis_direct.status();
SELECT * FROM sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis',
                                       'EUC_JP', 'SJIS', '\x41a4a2', false, 0);

-- it checks what it calls
SELECT * FROM sjis_direct.convert_with('pg_catalog.timeofday', 'EUC_JP', 'SJIS', '\x41');
SELECT * FROM sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis', 'EUC-XX', 'SJIS', '\x41');
SELECT * FROM sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis', 'EUC_JP', 'SJIS-XX', '\x41');
-- and the conversion function checks the encodings it is given
SELECT * FROM sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis',
                                       'SJIS', 'EUC_JP', '\x41');
SELECT * FROM sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis',
                                       'EUC_JP', 'SJIS', '');

-- convert_with is not for everyone
CREATE ROLE regress_sjis_direct_user;
SET ROLE regress_sjis_direct_user;
SELECT * FROM sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis', 'EUC_JP', 'SJIS', '\x41');
-- but status is, and a role without privileges finds our conversions too
SET search_path = sjis_direct, pg_catalog, public;
SELECT source_encoding, conversion_proc, uses_sjis_direct FROM sjis_direct.status();
RESET search_path;
RESET ROLE;
DROP ROLE regress_sjis_direct_user;

DROP EXTENSION sjis_direct;
DROP SCHEMA sjis_direct;
