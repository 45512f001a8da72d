# t/014_pax_hot.pl: HOT updates and pruning of pax tables replicate and
# survive crashes (pax_am/README.update).
#
# - many single-row updates of non-indexed columns, a transaction each, so
#   that the new versions stay on their pages (heap-only) and readers prune
#   the dead ones (REDIRECTs, DEAD items, UNUSED slots), interleaved with
#   updates of an indexed column and deletes that end chains;
# - the same on c, loaded before its index (compact pages): pruning turns
#   its pages back into row-form pages with more row slots
#   (pax_am/pax_regrow.c), in records replayed on the standby;
# - pages of t whose chains' roots pruning redirects get TID maps
#   (pax_am/pax_tidmap.h), in place or laid out again;
# - a streaming standby returns the same answers as the primary, through
#   index, bitmap and sequential scans, and pax_verify finds nothing;
# - the primary is killed (immediate stop) with HOT updates in progress and
#   after committed ones; after recovery the table equals a heap mirror that
#   got only the committed statements, and index scans agree with
#   sequential scans;
# - everything runs with data checksums on and pax_am preloaded, each page
#   record checked on replay by wal_consistency_checking = 'all,pax'.
#
# PAX_TEST_AM (default pax) names the access method under test.

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
shared_preload_libraries = 'pax_am'
wal_consistency_checking = 'all,pax'
wal_keep_size = '1GB'
});
$primary->start;

# t is the table under test, m its heap mirror
$primary->safe_psql('postgres', qq{
	CREATE EXTENSION pax_am;
	CREATE TABLE t (id int PRIMARY KEY, k int, v int, note text) USING $am;
	CREATE INDEX t_k ON t (k);
	CREATE TABLE m (id int PRIMARY KEY, k int, v int, note text) USING heap;
	INSERT INTO t SELECT i, i % 50, 0, 'n' || i FROM generate_series(1, 3000) i;
	INSERT INTO m SELECT * FROM t;
	CREATE TABLE c (id int, v int, note text, pad text) USING $am;
	INSERT INTO c SELECT i, 0, 'n' || i, repeat(md5(i::text), 4)
	  FROM generate_series(1, 1500) i;
	ALTER TABLE c ADD PRIMARY KEY (id);
	CREATE TABLE cm (id int PRIMARY KEY, v int, note text, pad text) USING heap;
	INSERT INTO cm SELECT * FROM c;
});

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

# updates: a transaction each, through the primary key, as OLTP does
sub updates
{
	my ($n, $seed) = @_;
	$primary->safe_psql('postgres', qq{
		SELECT setseed($seed);
		DO \$\$
		DECLARE r int;
		BEGIN
			FOR i IN 1 .. $n LOOP
				r := 1 + floor(random() * 300)::int * 10;
				UPDATE t SET v = v + 1, note = 'u' || i WHERE id = r;
				UPDATE m SET v = v + 1, note = 'u' || i WHERE id = r;
				UPDATE c SET v = v + 1, note = 'u' || i WHERE id = r / 2;
				UPDATE cm SET v = v + 1, note = 'u' || i WHERE id = r / 2;
				IF i % 97 = 0 THEN
					UPDATE t SET k = k + 1 WHERE id = r + 1;
					UPDATE m SET k = k + 1 WHERE id = r + 1;
				END IF;
				IF i % 131 = 0 THEN
					DELETE FROM t WHERE id = r + 2;
					DELETE FROM m WHERE id = r + 2;
				END IF;
				COMMIT;
			END LOOP;
		END \$\$;
	});
}

my $index_scan = q{SET enable_seqscan = off; SET enable_bitmapscan = off; SET pax.enable_customscan = off;};
my $bitmap_scan = q{SET enable_seqscan = off; SET enable_indexscan = off; SET pax.enable_customscan = off;};
my @checks = (
	q{SELECT count(*), sum(id), sum(k), sum(v), md5(string_agg(note, ',' ORDER BY id)) FROM t},
	q{SELECT count(*) FROM ((SELECT * FROM t EXCEPT ALL SELECT * FROM m) UNION ALL (SELECT * FROM m EXCEPT ALL SELECT * FROM t)) d},
	q{SELECT pg_relation_size('t')},
	q{SELECT count(*), sum(v), md5(string_agg(note || pad, ',' ORDER BY id)) FROM c},
	q{SELECT count(*) FROM ((SELECT * FROM c EXCEPT ALL SELECT * FROM cm) UNION ALL (SELECT * FROM cm EXCEPT ALL SELECT * FROM c)) d},
);
my $by_key = q{SELECT count(*), sum(v), md5(string_agg(note, ',' ORDER BY id)) FROM t WHERE id BETWEEN 1 AND 3000 AND id % 10 = 1};
my $by_k = q{SELECT count(*), sum(v) FROM t WHERE k BETWEEN 10 AND 20};

sub scans_agree
{
	my ($node, $what) = @_;
	foreach my $q ($by_key, $by_k)
	{
		my $seq = $node->safe_psql('postgres', $q);
		is($node->safe_psql('postgres', "$index_scan $q"), $seq,
			"$what: index scan equals sequential scan: " . substr($q, 0, 50));
		is($node->safe_psql('postgres', "$bitmap_scan $q"), $seq,
			"$what: bitmap scan equals sequential scan: " . substr($q, 0, 50));
	}
}

sub check_all
{
	my ($what) = @_;
	standby_matches($primary, $standby, $what, 40, @checks);
	is($primary->safe_psql('postgres', $checks[1]), '0',
		"primary: t equals its heap mirror after $what");
	is($primary->safe_psql('postgres', $checks[4]), '0',
		"primary: c equals its heap mirror after $what");
	is($primary->safe_psql('postgres', "$index_scan SELECT sum(v) FROM c WHERE id BETWEEN 1 AND 1500"),
		$primary->safe_psql('postgres', 'SELECT sum(v) FROM cm'),
		"primary: c's index scan after $what");
	scans_agree($primary, "primary after $what");
	scans_agree($standby, "standby after $what");
	is($primary->safe_psql('postgres', q{SELECT count(*) FROM pax_verify('t', true)}),
		'0', "pax_verify finds nothing after $what") if $am eq 'pax';
	is($primary->safe_psql('postgres', q{SELECT count(*) FROM pax_verify('c', true)}),
		'0', "pax_verify finds nothing in c after $what") if $am eq 'pax';
}

updates(3000, 0.1);
check_all('HOT updates');
$primary->safe_psql('postgres', q{SELECT pg_stat_force_next_flush()});
my ($upd, $hot) = split /\|/, $primary->safe_psql('postgres',
	q{SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 't'});
ok($hot > $upd / 2, "most updates are HOT ($hot of $upd)") if $am eq 'pax';
cmp_ok($primary->safe_psql('postgres', q{SELECT pg_relation_size('t') / pg_relation_size('m')::float}),
	'<=', 1.5, 'pruning keeps the table near its heap mirror\'s size');
is($primary->safe_psql('postgres', q{SELECT count(*) > 0 FROM pax_page_stats('c') WHERE form = 'row' AND nrows > 0}),
	't', 'pruning turned compact pages of c into row-form pages') if $am eq 'pax';
is($primary->safe_psql('postgres', q{SELECT count(*) > 0 FROM pax_page_stats('t') s
	WHERE EXISTS (SELECT FROM pax_page_regions('t', s.blkno) WHERE region = 'TID map')}),
	't', 'pruning gave pages of t TID maps (their REDIRECTs take no slots)') if $am eq 'pax';

$primary->safe_psql('postgres', 'VACUUM t; VACUUM m; VACUUM c; VACUUM cm;');
check_all('VACUUM');
updates(1500, 0.2);
check_all('HOT updates after VACUUM');

# a crash: committed HOT updates before and after a checkpoint, and a
# transaction of HOT updates that never commits
updates(500, 0.3);
my $open = $primary->background_psql('postgres', on_error_stop => 0);
$open->query_safe(q{BEGIN});
$open->query_safe(q{UPDATE t SET v = -1, note = 'uncommitted' WHERE id % 10 = 5});
$primary->safe_psql('postgres', 'CHECKPOINT');
updates(500, 0.4);
$primary->stop('immediate');
$open->{run}->kill_kill;
$primary->start;

is($primary->safe_psql('postgres', $checks[1]), '0',
	'after the crash: t holds exactly the committed rows');
is($primary->safe_psql('postgres', $checks[4]), '0',
	'after the crash: c holds exactly the committed rows');
is($primary->safe_psql('postgres', q{SELECT count(*) FROM t WHERE note = 'uncommitted'}),
	'0', 'after the crash: no uncommitted version is visible');
updates(500, 0.5);
check_all('the crash and more HOT updates');

$standby->stop;
$primary->stop;
done_testing();
