--
-- deform_cache_basic: the extension loads; counters are not collected yet.
--
CREATE EXTENSION deform_cache;

\set VERBOSITY terse
SELECT * FROM deform_cache_stats();
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default

DROP EXTENSION deform_cache;
