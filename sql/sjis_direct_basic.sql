--
-- sjis_direct_basic: the extension loads in its own schema.
--
CREATE EXTENSION sjis_direct;

SELECT e.extname, n.nspname, e.extrelocatable
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
 WHERE e.extname = 'sjis_direct';

SELECT p.oid::regprocedure
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = 'sjis_direct' ORDER BY 1::text;

DROP EXTENSION sjis_direct;
