--
-- pax_am_wal_end: decode every WAL record written since pax_am_wal_begin
-- (pg_walinspect reads them as recovery does, and fails on the first it
-- cannot decode), then drop the slot that kept them.  Run alone, it reads
-- nothing (and says f).
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pg_walinspect;
RESET client_min_messages;
SELECT coalesce((SELECT restart_lsn FROM pg_replication_slots
                  WHERE slot_name = 'pax_regress_wal'),
                pg_current_wal_flush_lsn()) AS wal_start \gset
SELECT sum("count") > 10000 AS every_record_decoded
  FROM pg_get_wal_stats(:'wal_start', pg_current_wal_flush_lsn());
SELECT count(pg_drop_replication_slot(slot_name)) >= 0 AS slot_dropped
  FROM pg_replication_slots WHERE slot_name = 'pax_regress_wal';
