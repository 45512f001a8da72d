# t/002_pax_recovery.pl: pax tables survive crashes and replicate.
#
# - kill -9 of the postmaster during a long COPY and after commits: after
#   restart, committed rows are all there and uncommitted ones are not;
# - a streaming standby returns the same answers as the primary after
#   inserts, COPY, TRUNCATE, VACUUM FULL, VACUUM, SET ACCESS METHOD,
#   CREATE TABLE AS, materialized views and their refresh;
# - kill -9 after a CREATE TABLE AS commits and during one that has not;
# - everything runs with data checksums on.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use PaxTAP;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1, extra => ['--data-checksums']);
$primary->append_conf('postgresql.conf', 'wal_log_hints = off');
$primary->start;
is($primary->safe_psql('postgres', 'SHOW data_checksums'), 'on',
	'data checksums are on');

$primary->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE TABLE committed (id int, v text, f float8) USING pax;
	INSERT INTO committed SELECT i, 'row ' || i, i / 3.0 FROM generate_series(1, 20000) i;
	CREATE TABLE copied (id int, v text) USING pax;
	COPY copied FROM PROGRAM 'seq 1 50000 | sed "s/$/\tcopied/"';
});

# A long COPY in progress when the postmaster dies.
my $copy = $primary->background_psql('postgres', on_error_stop => 0);
$copy->query_until(qr/started/, q{
	\echo started
	BEGIN;
	COPY copied FROM PROGRAM 'seq 100001 2000000 | sed "s/$/\tuncommitted/"';
	SELECT pg_sleep(60);
});
# wait until the COPY has written pages
$primary->poll_query_until('postgres',
	q{SELECT pg_relation_size('copied') > 4000000}) or die 'COPY did not grow the table';

my $sums = q{SELECT count(*), sum(id), count(*) FILTER (WHERE v = 'uncommitted') FROM copied};
$primary->stop('immediate');
$copy->{run}->kill_kill;
$primary->start;

is($primary->safe_psql('postgres', $sums), '50000|1250025000|0',
	'after a crash during COPY: committed rows all there, uncommitted ones not');
is($primary->safe_psql('postgres',
		q{SELECT count(*), sum(id), sum(length(v)), sum(f)::numeric(20,2) FROM committed}),
	'20000|200010000|168894|66670000.00',
	'rows committed before the crash read back exactly');

# the table takes rows again after recovery, on pages the crash left behind
$primary->safe_psql('postgres',
	q{INSERT INTO copied SELECT i, 'after crash' FROM generate_series(1, 1000) i});
is($primary->safe_psql('postgres',
		q{SELECT count(*) FROM copied WHERE v = 'after crash'}),
	'1000', 'inserts after crash recovery');

# A streaming standby.
$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

my @checks = (
	q{SELECT count(*), sum(id), md5(string_agg(v, ',' ORDER BY id, v)) FROM committed},
	q{SELECT count(*), sum(id), md5(string_agg(v, ',' ORDER BY id, v)) FROM copied},
	q{SELECT count(*), sum(a), md5(string_agg(t, ',' ORDER BY a)) FROM more},
	q{SELECT * FROM pax_page_stats('committed') ORDER BY blkno},
);

sub same_on_standby
{
	my ($what) = @_;
	standby_matches($primary, $standby, $what, 40, @checks);
}

$primary->safe_psql('postgres', q{
	CREATE TABLE more (a int, t text) USING pax;
	INSERT INTO more SELECT i, repeat(md5(i::text), i % 100) FROM generate_series(1, 5000) i;
});
same_on_standby('inserts');

$primary->safe_psql('postgres', q{
	COPY more FROM PROGRAM 'seq 5001 30000 | sed "s/$/\tcopy/"';
	INSERT INTO committed VALUES (NULL, NULL, NULL);
});
same_on_standby('COPY');

# Many narrow rows placed at once on a page that already holds rows: the
# page's record once carried more than a block may (a record PostgreSQL 15
# could not read back, where recovery and the standby stopped; a PANIC on
# 16 and later).  The standby replays it, and so does crash recovery below.
$primary->safe_psql('postgres', q{
	CREATE TABLE narrow (a1 int4, a2 int4, a3 int4, a4 int4, a5 int4, a6 int4,
	  p char(15), q char(1), a9 int4, a10 int4, a11 int4, a12 int4, a13 int4,
	  a14 int4, a15 int4, a16 int4, s char(10)) USING pax;
	INSERT INTO narrow VALUES (0, 0, 0, 0, 0, 0, 'x', 'y', 0, 0, 0, 0, 0, 0, 0, 0, 'z');
	INSERT INTO narrow
	  SELECT i, i * 7, i * 13, i % 5, i, i, (ARRAY['1-URGENT', '2-HIGH',
	         '3-MEDIUM', '4-NOT SPECI', '5-LOW'])[1 + i % 5], '0', i, i, i, i,
	         i, i, i, i, (ARRAY['AIR', 'FOB', 'MAIL', 'RAIL'])[1 + i % 4]
	    FROM generate_series(1, 3000) i;
	INSERT INTO committed VALUES (-2, 'after narrow', -2);
});
push @checks,
  q{SELECT count(*), sum(a1), sum(a2), md5(string_agg(p || q || s, ',' ORDER BY a1, a2)) FROM narrow};
same_on_standby('many rows onto a page holding one');

$primary->safe_psql('postgres', q{
	TRUNCATE more;
	INSERT INTO more SELECT i, 'again' || i FROM generate_series(1, 300) i;
});
same_on_standby('TRUNCATE');

$primary->safe_psql('postgres', q{
	BEGIN;
	INSERT INTO committed SELECT i, 'aborted', 0 FROM generate_series(1, 5000) i;
	ROLLBACK;
	VACUUM FULL committed;
});
same_on_standby('VACUUM FULL');

$primary->safe_psql('postgres', q{
	BEGIN;
	INSERT INTO more SELECT i, 'aborted' FROM generate_series(1, 100) i;
	ROLLBACK;
	VACUUM (FREEZE) committed;
	VACUUM more;
});
push @checks, q{SELECT relallvisible FROM pg_class WHERE relname = 'committed'};
same_on_standby('VACUUM');
is($standby->safe_psql('postgres',
		q{SELECT count(*) FROM pax_page_stats('committed')}),
	$standby->safe_psql('postgres', q{SELECT relallvisible FROM pg_class WHERE relname = 'committed'}),
	'standby: every page of the frozen table is all-visible');

# Compact pages (a bulk load's rows share one row header): deleting,
# updating and locking more rows of a page than its 12 header slots hold
# puts their headers on a header page, which VACUUM frees once no row needs
# it.  The standby replays each step, and so does crash recovery.
my $compact_sums =
  q{SELECT count(*), sum(id), md5(string_agg(v, ',' ORDER BY id, v)) FROM compact};
$primary->safe_psql('postgres', q{
	CREATE TABLE compact (id int, v text) USING pax;
	INSERT INTO compact SELECT i, 'c' || i FROM generate_series(1, 3000) i;
	DELETE FROM compact WHERE id BETWEEN 1 AND 100;
	UPDATE compact SET v = v || '!' WHERE id BETWEEN 300 AND 500;
	BEGIN;
	DELETE FROM compact WHERE id BETWEEN 600 AND 900;
	ROLLBACK;
	SELECT count(*) FROM (SELECT 1 FROM compact WHERE id BETWEEN 1000 AND 1100 FOR UPDATE) l;
});
push @checks, $compact_sums,
  q{SELECT count(*), sum(nrows) FROM pax_page_stats('compact')};
same_on_standby('compact pages and header pages');
$primary->safe_psql('postgres', q{
	DELETE FROM compact WHERE id BETWEEN 2000 AND 2100;
	VACUUM compact;
});
same_on_standby('VACUUM of compact pages');
my $compact_before = $primary->safe_psql('postgres', $compact_sums);
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', $compact_sums), $compact_before,
	'compact pages and header pages after crash recovery');
is($primary->safe_psql('postgres', q{SELECT count(*) FROM pax_verify('compact')}),
	'0', 'pax_verify finds nothing wrong with the compact pages after recovery');

$primary->safe_psql('postgres', q{
	ALTER TABLE copied SET ACCESS METHOD heap;
	ALTER TABLE copied SET ACCESS METHOD pax;
});
same_on_standby('SET ACCESS METHOD');

# CREATE TABLE AS, a materialized view and a rewrite place their rows in
# batches (pax_bulk.c): whole pages, one record each
$primary->safe_psql('postgres', q{
	CREATE TABLE made USING pax AS
		SELECT id, v || '/made' AS v FROM copied WHERE id % 3 = 0;
	CREATE MATERIALIZED VIEW made_mv USING pax AS
		SELECT id % 100 AS g, count(*) AS n, max(v) AS v FROM copied GROUP BY 1;
	ALTER TABLE more ALTER COLUMN a TYPE bigint;
});
push @checks,
	q{SELECT count(*), sum(id), md5(string_agg(v, ',' ORDER BY id, v)) FROM made},
	q{SELECT count(*), sum(n), md5(string_agg(v, ',' ORDER BY g)) FROM made_mv};
same_on_standby('CREATE TABLE AS');
$primary->safe_psql('postgres', q{
	INSERT INTO copied SELECT i, 'for the view' FROM generate_series(1, 3000) i;
	REFRESH MATERIALIZED VIEW made_mv;
	BEGIN;
	CREATE TABLE made2 USING pax AS SELECT * FROM made;
	DROP TABLE made;
	ALTER TABLE made2 RENAME TO made;
	COMMIT;
});
same_on_standby('REFRESH MATERIALIZED VIEW');

# a crash after CREATE TABLE AS commits, and during one that has not
my $ctas = $primary->background_psql('postgres', on_error_stop => 0);
$ctas->query_until(qr/started/, q{
	\echo started
	BEGIN;
	CREATE TABLE unmade USING pax AS SELECT i AS id FROM generate_series(1, 300000) i;
	SELECT pg_sleep(60);
});
$primary->poll_query_until('postgres',
	q{SELECT count(*) > 0 FROM pg_locks WHERE locktype = 'relation' AND mode = 'AccessExclusiveLock' AND granted AND pid <> pg_backend_pid()})
	or die 'CREATE TABLE AS did not start';
my $made_before = $primary->safe_psql('postgres', $checks[-2]);
$primary->stop('immediate');
$ctas->{run}->kill_kill;
$primary->start;
is($primary->safe_psql('postgres', $checks[-2]), $made_before,
	'after a crash: the committed CREATE TABLE AS reads back the same');
is($primary->safe_psql('postgres',
		q{SELECT count(*) FROM pg_class WHERE relname = 'unmade'}),
	'0', 'after a crash: the uncommitted CREATE TABLE AS left no table');
is($primary->safe_psql('postgres', q{SELECT count(*) FROM pax_verify('made')}),
	'0', 'after a crash: the table CREATE TABLE AS made verifies');
same_on_standby('crash after CREATE TABLE AS');

# a crash on the standby, too: it replays pax WAL again from a restartpoint
$standby->stop('immediate');
$standby->start;
same_on_standby('standby crash');

$standby->stop;
$primary->stop;
done_testing();
