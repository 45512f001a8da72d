--
-- pax_am_wal_begin: a replication slot keeps the WAL the pax regress files
-- write from here on, so that pax_am_wal_end decodes every record of it:
-- a record that cannot be decoded is where crash recovery and standbys stop.
--
DO $$
BEGIN
  PERFORM pg_drop_replication_slot(slot_name) FROM pg_replication_slots
   WHERE slot_name = 'pax_regress_wal';
  PERFORM pg_create_physical_replication_slot('pax_regress_wal', true);
END
$$;
SELECT count(*) AS slot FROM pg_replication_slots
 WHERE slot_name = 'pax_regress_wal' AND restart_lsn IS NOT NULL;
