# t/006_pax_mvcc_recovery.pl: UPDATE, DELETE, VACUUM and indexes of pax
# tables replicate and survive crashes.
#
# - a streaming standby returns the same answers as the primary after
#   UPDATE, DELETE, UPDATE moving rows to new pages, VACUUM, CREATE INDEX,
#   and through index scans;
# - the primary is killed (immediate stop) with a transaction of updates and
#   deletes in progress (its pages written by a checkpoint) and after
#   committed ones; after recovery the table equals a heap mirror that got
#   only the committed statements, index scans agree with sequential scans,
#   and the standby agrees too;
# - everything runs with data checksums on, and with pax_am preloaded, so
#   that page changes are pax's own WAL records, each checked on replay by
#   wal_consistency_checking = all (PaxPageMask).
#
# PAX_TEST_AM (default pax) names the access method under test; set it to
# heap to check the test itself against heap.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use PaxTAP;

my $am = $ENV{PAX_TEST_AM} // 'pax';

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1, extra => ['--data-checksums']);
$primary->append_conf('postgresql.conf', qq{
autovacuum = off
wal_log_hints = off
shared_preload_libraries = 'pax_am'
wal_consistency_checking = 'all,pax'
wal_keep_size = '1GB'
});
$primary->start;

# t is the table under test, m its heap mirror: every committed change is
# made to both, so after a crash t must equal m
$primary->safe_psql('postgres', qq{
	CREATE EXTENSION pax_am;
	CREATE TABLE t (id int, k int, v text, pad text) USING $am;
	CREATE TABLE m (id int, k int, v text, pad text) USING heap;
	INSERT INTO t SELECT i, i % 100, 'v' || i, NULL FROM generate_series(1, 20000) i;
	INSERT INTO m SELECT * FROM t;
});

# both: run a statement with {t} replaced by t, then by m
sub both
{
	my ($node, $sql) = @_;
	(my $on_t = $sql) =~ s/\{t\}/t/g;
	(my $on_m = $sql) =~ s/\{t\}/m/g;
	$node->safe_psql('postgres', "$on_t; $on_m;");
}

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

my $index_scan = q{SET enable_seqscan = off; SET pax.enable_customscan = off;
SET enable_bitmapscan = off;};
my @checks = (
	q{SELECT count(*), sum(id), sum(k), md5(string_agg(v || coalesce(pad, ''), ',' ORDER BY id, v)) FROM t},
	q{SELECT count(*) FROM (SELECT * FROM t EXCEPT ALL SELECT * FROM m) d},
	q{SELECT count(*) FROM (SELECT * FROM m EXCEPT ALL SELECT * FROM t) d},
	q{SELECT pg_relation_size('t')},
);

sub same_on_standby
{
	my ($what) = @_;
	standby_matches($primary, $standby, $what, 50, @checks);
	is($primary->safe_psql('postgres', $checks[1]) . '/'
		  . $primary->safe_psql('postgres', $checks[2]),
		'0/0', "primary: t equals its heap mirror after $what");
}

same_on_standby('inserts');

both($primary, q{UPDATE {t} SET k = k + 1, v = v || 'u' WHERE id % 3 = 0});
same_on_standby('UPDATE');

both($primary, q{DELETE FROM {t} WHERE id % 5 = 0});
same_on_standby('DELETE');

# wide new versions do not fit their old pages
both($primary, q{UPDATE {t} SET pad = repeat(md5(id::text), 30) WHERE id % 7 = 0});
same_on_standby('UPDATE to new pages');

# several versions of one row in one transaction, and a rolled back update
$primary->safe_psql('postgres', q{
	BEGIN;
	UPDATE t SET k = k + 1 WHERE id BETWEEN 100 AND 200;
	UPDATE m SET k = k + 1 WHERE id BETWEEN 100 AND 200;
	UPDATE t SET k = k + 1 WHERE id BETWEEN 150 AND 250;
	UPDATE m SET k = k + 1 WHERE id BETWEEN 150 AND 250;
	SAVEPOINT s;
	DELETE FROM t WHERE id < 1000;
	UPDATE t SET v = 'rolled back';
	ROLLBACK TO s;
	COMMIT;
	BEGIN;
	UPDATE t SET v = 'aborted' WHERE id % 2 = 0;
	ROLLBACK;
});
same_on_standby('repeated updates and rollbacks');

both($primary, q{VACUUM {t}});
same_on_standby('VACUUM');
both($primary, q{INSERT INTO {t} SELECT i, i % 100, 'after vacuum', NULL FROM generate_series(30001, 32000) i});
same_on_standby('inserts after VACUUM');

# indexes, and changes made through them
$primary->safe_psql('postgres', q{
	CREATE INDEX t_id ON t (id);
	CREATE INDEX t_k ON t USING hash (k);
	CREATE INDEX m_id ON m (id);
});
both($primary, q{UPDATE {t} SET k = -k WHERE id BETWEEN 5000 AND 6000});
both($primary, q{DELETE FROM {t} WHERE id BETWEEN 6000 AND 6500});
same_on_standby('CREATE INDEX');

my @index_checks = (
	[ q{SELECT count(*), sum(k), md5(string_agg(v, ',' ORDER BY id, v)) FROM t WHERE id BETWEEN 4000 AND 7000},
	  'Index Scan using t_id' ],
	[ q{SELECT count(*), sum(id) FROM t WHERE k = -50}, 'Index Scan using t_k' ],
	[ q{SELECT count(*), sum(id) FROM t WHERE id > 30000}, 'Index' ],
);

sub index_scans_agree
{
	my ($node, $what) = @_;
	foreach my $c (@index_checks)
	{
		my ($q, $plan) = @$c;
		my $seq = $node->safe_psql('postgres', $q);
		my $explain = $node->safe_psql('postgres', "$index_scan EXPLAIN (COSTS OFF) $q");
		like($explain, qr/\Q$plan\E/, "$what: the index is used: " . substr($q, 0, 40));
		my $idx = $node->safe_psql('postgres', "$index_scan $q");
		is($idx, $seq, "$what: index scan equals sequential scan: " . substr($q, 0, 40));
	}
}

index_scans_agree($primary, 'primary');
$primary->wait_for_catchup($standby);
index_scans_agree($standby, 'standby');

both($primary, q{VACUUM {t}});
same_on_standby('VACUUM with indexes');
index_scans_agree($standby, 'standby after VACUUM');

# A crash.  Committed changes before a checkpoint, a transaction of updates
# and deletes that never commits (its pages are written by the checkpoint),
# and committed changes after the checkpoint, which recovery replays onto
# pages holding the uncommitted versions.  The open transaction touches the
# odd ids and the multiples of 4 and 6; the committed changes after it touch
# only ids = 2 or 10 (mod 12), so they do not wait for it.
both($primary, q{UPDATE {t} SET v = 'committed before' WHERE id % 11 = 0});
both($primary, q{DELETE FROM {t} WHERE id % 13 = 0});

my $open = $primary->background_psql('postgres', on_error_stop => 0);
$open->query_safe(q{BEGIN});
$open->query_safe(q{UPDATE t SET v = 'uncommitted', k = 0 WHERE id % 2 = 1});
$open->query_safe(q{DELETE FROM t WHERE id % 4 = 0});
$open->query_safe(q{UPDATE t SET pad = repeat('u', 500) WHERE id % 6 = 0});
$open->query_safe(q{INSERT INTO t SELECT i, 0, 'uncommitted insert', NULL FROM generate_series(40001, 41000) i});

$primary->safe_psql('postgres', 'CHECKPOINT');

both($primary, q{UPDATE {t} SET v = 'committed after' WHERE id % 12 = 2});
both($primary, q{DELETE FROM {t} WHERE id % 12 = 10 AND id % 7 = 3});
both($primary, q{INSERT INTO {t} SELECT i, i % 100, 'committed after', NULL FROM generate_series(50001, 50500) i});
# and one that committed just before the crash, not yet in any checkpoint
both($primary, q{UPDATE {t} SET k = k + 1000 WHERE id BETWEEN 10000 AND 10100 AND id % 12 = 10});

$primary->stop('immediate');
$open->{run}->kill_kill;
$primary->start;

is($primary->safe_psql('postgres', $checks[1]) . '/'
	  . $primary->safe_psql('postgres', $checks[2]),
	'0/0', 'after the crash: t holds exactly the committed rows');
is($primary->safe_psql('postgres',
		q{SELECT count(*) FROM t WHERE v LIKE 'uncommitted%' OR pad LIKE 'uuu%'}),
	'0', 'after the crash: no uncommitted version is visible');
is($primary->safe_psql('postgres', q{SELECT count(*), count(DISTINCT id) FROM t}),
	$primary->safe_psql('postgres', q{SELECT count(*), count(DISTINCT id) FROM m}),
	'after the crash: one version of each row');
index_scans_agree($primary, 'primary after the crash');
same_on_standby('the crash');
index_scans_agree($standby, 'standby after the crash');

# the table works after recovery: updates and deletes of rows whose last
# versions the crash aborted, VACUUM of them
both($primary, q{UPDATE {t} SET v = 'after crash' WHERE id % 2 = 1 AND id < 3000});
both($primary, q{DELETE FROM {t} WHERE id % 4 = 0 AND id < 3000});
both($primary, q{VACUUM {t}});
same_on_standby('changes and VACUUM after the crash');
index_scans_agree($primary, 'primary after changes following the crash');

# a crash of the standby, too: it replays updates and deletes again
$standby->stop('immediate');
$standby->start;
both($primary, q{UPDATE {t} SET k = k + 1 WHERE id < 1000});
same_on_standby('standby crash');
index_scans_agree($standby, 'standby after its crash');

$standby->stop;
$primary->stop;
done_testing();
