# t/008_pax_vacuum_recovery.pl: VACUUM's space reclaim replicates and
# survives crashes.
#
# - aborted inserts interleaved with committed rows, then VACUUM: the dead
#   rows become UNUSED slots, the value area is compacted, the tail pages
#   are truncated; a streaming standby returns the same rows and the same
#   page layout (pax_page_stats) as the primary;
# - inserts then reuse the freed slots (the relation does not grow), again
#   equal on the standby;
# - kill -9 of the primary right after VACUUM and the slot-reusing inserts:
#   after crash recovery the table reads back exactly as before the crash,
#   and the standby still equals the primary;
# - data checksums on; pax_am preloaded, page changes in pax's own WAL
#   records, each checked on replay by wal_consistency_checking = all
#   (PaxPageMask), and the visibility map records checked too
#   (PaxVisibilityMapSet forces our page's image into heap's record).

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use PaxTAP;

my $primary = PostgreSQL::Test::Cluster->new('vac_primary');
$primary->init(allows_streaming => 1, extra => ['--data-checksums']);
$primary->append_conf('postgresql.conf', "autovacuum = off\nwal_log_hints = off\n"
	  . "shared_preload_libraries = 'pax_am'\nwal_consistency_checking = 'all,pax'\n"
	  . "wal_keep_size = '1GB'\n");
$primary->start;

$primary->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE TABLE rv (a int, b text NOT NULL, c float8, d text) USING pax;
	DO $$
	BEGIN
	  FOR i IN 1..3000 LOOP
	    IF i % 3 = 0 THEN
	      BEGIN
	        INSERT INTO rv VALUES (100000 + i, repeat('dead', 30), -i, NULL);
	        RAISE EXCEPTION 'abort';
	      EXCEPTION WHEN raise_exception THEN NULL;
	      END;
	    ELSE
	      INSERT INTO rv VALUES (i, 'live ' || i, i / 4.0,
	                             CASE WHEN i % 7 = 0 THEN NULL ELSE 'd' || i END);
	    END IF;
	  END LOOP;
	END $$;
	BEGIN;
	INSERT INTO rv SELECT i, repeat('tail', 50), 0, 't' FROM generate_series(1, 5000) i;
	ROLLBACK;
});

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('vac_standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

my @checks = (
	q{SELECT count(*), sum(a), sum(c), md5(string_agg(rv::text, ',' ORDER BY a)) FROM rv},
	q{SELECT * FROM pax_page_stats('rv') ORDER BY blkno},
	q{SELECT string_agg(zone_min || '..' || zone_max, ' ' ORDER BY blkno)
	    FROM pax_page_stats('rv') s, pax_page_columns('rv', s.blkno) c
	   WHERE c.attname = 'a'},
	q{SELECT pg_relation_size('rv')},
	q{SELECT count(*) FROM rv WHERE b LIKE 'dead%' OR a > 100000},
);

sub same_on_standby
{
	my ($what) = @_;
	standby_matches($primary, $standby, $what, 50, @checks);
}

my $contents = $primary->safe_psql('postgres', $checks[0]);
my $size_before = $primary->safe_psql('postgres', q{SELECT pg_relation_size('rv')});
same_on_standby('aborted inserts');

$primary->safe_psql('postgres', 'VACUUM rv');
is($primary->safe_psql('postgres', $checks[0]), $contents,
	'VACUUM leaves the contents unchanged');
my $size_vacuumed = $primary->safe_psql('postgres', q{SELECT pg_relation_size('rv')});
cmp_ok($size_vacuumed, '<', $size_before, 'VACUUM truncated the empty tail pages');
is($primary->safe_psql('postgres',
		q{SELECT sum(nrows) < 3000 FROM pax_page_stats('rv')}),
	't', 'VACUUM made dead rows UNUSED slots');
same_on_standby('VACUUM');

# inserts reuse the freed slots
$primary->safe_psql('postgres', q{
	INSERT INTO rv SELECT 5000 + i, 'new ' || i, i, CASE WHEN i % 2 = 0 THEN 'n' || i END
	  FROM generate_series(1, 900) i;
});
is($primary->safe_psql('postgres', q{SELECT pg_relation_size('rv')}),
	$size_vacuumed, 'inserts reuse the freed slots: the relation does not grow');
same_on_standby('inserts into freed slots');

# more dead rows, VACUUM, reuse, then a crash right away
$primary->safe_psql('postgres', q{
	BEGIN;
	INSERT INTO rv SELECT 9000 + i, 'gone', 0, 'gone' FROM generate_series(1, 300) i;
	ROLLBACK;
	VACUUM rv;
	INSERT INTO rv SELECT 7000 + i, 'after ' || i, -i, NULL FROM generate_series(1, 200) i;
});
$contents = $primary->safe_psql('postgres', $checks[0]);
my $stats = $primary->safe_psql('postgres', $checks[1]);
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', $checks[0]), $contents,
	'after a crash following VACUUM and slot reuse: the same rows');
is($primary->safe_psql('postgres', $checks[1]), $stats,
	'after the crash: the same page layout');
$primary->safe_psql('postgres', q{
	INSERT INTO rv SELECT 8000 + i, 'post crash', 1, 'p' FROM generate_series(1, 100) i;
	VACUUM rv;
});
is($primary->safe_psql('postgres', q{SELECT count(*) FROM rv WHERE a BETWEEN 8001 AND 8100}),
	'100', 'inserts and VACUUM work after crash recovery');
same_on_standby('crash recovery');

# bit-packed pages (COPY's pages, wide integer ranges): rows into the freed
# slots store their bits among their neighbours'; each change is checked
# on replay (wal_consistency_checking), and the standby reads the same
$primary->safe_psql('postgres', q{
	CREATE TABLE pk (id int, k int, v bigint) USING pax;
	COPY pk FROM PROGRAM 'seq 1 20000 | awk ''{print $1 "\t" ($1 * 7919) % 1000003 "\t" ($1 * 104729) % 2000003}''';
	DELETE FROM pk WHERE id % 3 = 0;
	VACUUM pk;
	INSERT INTO pk SELECT 30000 + i, (i * 7919) % 1000003, (i * 104729) % 2000003
	  FROM generate_series(1, 3000) i;
	UPDATE pk SET k = k + 1 WHERE id % 7 = 1;
	VACUUM pk;
	INSERT INTO pk SELECT 40000 + i, (i * 31) % 1000003, -i FROM generate_series(1, 2000) i;
});
is($primary->safe_psql('postgres', q{
	SELECT count(*) > 0 FROM pax_page_stats('pk') s, pax_page_columns('pk', s.blkno) c
	 WHERE c.encoding ~ 'bits$'}), 't', 'pk: COPY bit-packed some columns');
standby_matches($primary, $standby, 'bit-packed pages', 50,
	q{SELECT count(*), sum(k), sum(v), md5(string_agg(pk::text, ',' ORDER BY id)) FROM pk},
	q{SELECT * FROM pax_page_stats('pk') ORDER BY blkno});
is($primary->safe_psql('postgres', q{SELECT count(*) FROM pax_verify('pk')}), '0',
	'pk: pax_verify finds nothing');

# the standby, promoted, reads the same and takes inserts
$standby->promote;
is($standby->safe_psql('postgres', $checks[0]),
	$primary->safe_psql('postgres', $checks[0]), 'promoted standby: the same rows');
$standby->safe_psql('postgres', q{
	BEGIN;
	INSERT INTO rv SELECT i, 'x', 0, NULL FROM generate_series(1, 50) i;
	ROLLBACK;
	VACUUM rv;
	INSERT INTO rv SELECT 20000 + i, 'promoted', 0, NULL FROM generate_series(1, 50) i;
});
is($standby->safe_psql('postgres', q{SELECT count(*) FROM rv WHERE b = 'promoted'}),
	'50', 'promoted standby: VACUUM and inserts');

$standby->stop;
$primary->stop;
done_testing();
