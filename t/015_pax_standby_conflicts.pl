# t/015_pax_standby_conflicts.pl: a hot standby's queries are never shown
# rows that pruning or VACUUM removed, nor values that they moved, while
# they read (pax_am/README.wal, "Standby readers").
#
# Replay of a page change that removes or freezes rows first cancels, or
# waits for, the standby's queries whose snapshots could still see them,
# and replay of one that moves values takes the page's cleanup lock, as
# heap's prune records do:
# - a REPEATABLE READ transaction on the standby that read the table
#   before a DELETE, VACUUMed on the primary, reads the same rows again
#   while replay waits for it (max_standby_streaming_delay = -1);
# - a cursor on the standby positioned inside a page (holding its pin)
#   reads the rest of its rows unchanged while the primary's VACUUM
#   compacts that page, and replay waits for the pin;
# - with a short max_standby_streaming_delay, the cursor's transaction is
#   cancelled instead ("conflict with recovery"), never given other rows;
# - pruning on access that frees slots but moves no value (a counter's
#   HOT versions) still makes replay wait for an older snapshot, and
#   without pax's resource manager is logged without the page's image;
# - after each, the standby equals the primary;
# - changes clearing pages' all-visible bits leave the standby's visibility
#   map and PD_ALL_VISIBLE flags equal to the primary's.
# Both with pax_am preloaded (pax's own records) and without (generic
# records; removals that move values are heap's prune records carrying
# the page, others follow heap's conflict record).
#
# PAX_TEST_AM (default pax) names the access method under test; set it to
# heap to check the test itself against heap.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Digest::MD5 qw(md5_hex);

my $am = $ENV{PAX_TEST_AM} // 'pax';
my $content =
  q{SELECT count(*), md5(string_agg(id || ':' || v, ',' ORDER BY id)) FROM t};

# cursor_content($rows): the count and md5 $content gives for the psql
# output lines "id|v" of a cursor's fetches
sub cursor_content
{
	my ($rows) = @_;
	my @rows = sort { $a->[0] <=> $b->[0] }
	  map { [ split /\|/, $_, 2 ] } grep { $_ ne '' } split /\n/, $rows;
	return scalar(@rows) . '|'
	  . md5_hex(join(',', map { "$_->[0]:$_->[1]" } @rows));
}

foreach my $preload (1, 0)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $primary = PostgreSQL::Test::Cluster->new("primary_$preload");
	$primary->init(allows_streaming => 1, extra => ['--data-checksums']);
	$primary->append_conf('postgresql.conf', qq{
autovacuum = off
wal_keep_size = '1GB'
});
	$primary->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'pax_am'
wal_consistency_checking = 'all,pax'
}) if $preload;
	$primary->start;
	$primary->safe_psql('postgres', qq{
		CREATE EXTENSION pax_am;
		CREATE TABLE t (id int, v text) USING $am;
		INSERT INTO t SELECT i, repeat(md5(i::text), 4)
		  FROM generate_series(1, 3000) i;
	});
	$primary->backup('base');
	my $standby = PostgreSQL::Test::Cluster->new("standby_$preload");
	$standby->init_from_backup($primary, 'base', has_streaming => 1);
	$standby->append_conf('postgresql.conf', qq{
max_standby_streaming_delay = -1
hot_standby_feedback = off
});
	$standby->start;
	$primary->wait_for_catchup($standby);

	# replay_waits: the primary's WAL up to now has reached the standby,
	# which has not replayed it a second later
	my $replay_waits = sub {
		my ($what) = @_;
		my $target = $primary->lsn('insert');
		$standby->poll_query_until('postgres',
			qq{SELECT pg_last_wal_receive_lsn() >= '$target'})
		  or die "standby did not receive $target";
		sleep 1;
		is( $standby->safe_psql('postgres',
				qq{SELECT pg_last_wal_replay_lsn() < '$target'}),
			't', "$mode: $what: replay waits");
	};
	my $same = sub {
		my ($what) = @_;
		$primary->wait_for_catchup($standby);
		is( $standby->safe_psql('postgres', $content),
			$primary->safe_psql('postgres', $content),
			"$mode: standby equals primary after $what");
	};

	# 1. a snapshot older than the rows' removal
	my $s = $standby->background_psql('postgres', on_error_stop => 0);
	$s->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
	my $before = $s->query_safe($content);
	$primary->safe_psql('postgres', 'DELETE FROM t WHERE id % 3 = 0');
	$primary->safe_psql('postgres', 'VACUUM t');
	$replay_waits->('snapshot older than a removal');
	is($s->query_safe($content), $before,
		"$mode: the old snapshot reads its rows while replay waits");
	$s->query_safe('COMMIT');
	$same->('VACUUM under an old snapshot');

	# 2. a reader holding a page's pin, its snapshot newer than the removal
	$primary->safe_psql('postgres', 'DELETE FROM t WHERE id % 3 = 1');
	$primary->wait_for_catchup($standby);
	my $expected = $standby->safe_psql('postgres', $content);
	$s->query_safe('BEGIN');
	$s->query_safe('DECLARE c CURSOR FOR SELECT id, v FROM t');
	my $rows = $s->query_safe('FETCH 10 FROM c');
	$primary->safe_psql('postgres', 'VACUUM t');
	$replay_waits->('reader holding a pin');
	$rows .= "\n" . $s->query_safe('FETCH ALL FROM c');
	is(cursor_content($rows), $expected,
		"$mode: the cursor reads its page's rows unchanged");
	$s->query_safe('COMMIT');
	$same->('VACUUM under a pinned page');

	# 3. the same, cancelled instead of waited for
	$standby->append_conf('postgresql.conf',
		"max_standby_streaming_delay = '10ms'");
	$standby->reload;
	$s->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
	$s->query_safe('DECLARE c CURSOR FOR SELECT id, v FROM t');
	$rows = $s->query_safe('FETCH 10 FROM c');
	$primary->safe_psql('postgres', 'DELETE FROM t WHERE id % 7 = 2');
	$primary->safe_psql('postgres', 'VACUUM t');
	$same->('a conflict cancelled');
	# (the session idle in its transaction is terminated: psql ends)
	$s->{stderr} = '';
	my $more = eval { $s->query('FETCH ALL FROM c') } // '';
	like($s->{stderr}, qr/conflict with recovery/,
		"$mode: the reader is cancelled by the conflict, given no rows");
	is($more, '', "$mode: the cancelled cursor gave no rows");
	eval { $s->quit };

	# 4. changes that clear pages' all-visible bits (their records carry
	# no page image unless consistency checking or a checkpoint asks for
	# one): the standby's visibility map and page flags follow
	my $vis = q{SELECT string_agg(blkno || ':' || all_visible || all_frozen || pd_all_visible, ',' ORDER BY blkno)
		FROM pg_visibility('t')};
	$primary->safe_psql('postgres', 'CREATE EXTENSION pg_visibility');
	$primary->safe_psql('postgres', 'VACUUM (FREEZE) t');
	$primary->safe_psql('postgres', q{UPDATE t SET v = v || '!' WHERE id % 40 = 3});
	$primary->safe_psql('postgres', 'DELETE FROM t WHERE id % 40 = 9');
	$primary->safe_psql('postgres', 'INSERT INTO t VALUES (5, $$new$$)');
	$primary->wait_for_catchup($standby);
	is($standby->safe_psql('postgres', $vis), $primary->safe_psql('postgres', $vis),
		"$mode: the standby's visibility map and page flags after clearing");
	isnt($primary->safe_psql('postgres', $vis) =~ /:falsefalsefalse/ ? 1 : 0, 0,
		"$mode: some page's all-visible bit was cleared");
	$same->('clearing all-visible bits');

	# 5. pruning on access that frees slots but moves no value (HOT
	# updates of a counter: every version shares the row's text): without
	# pax's resource manager heap's conflict record, then the change's own
	# record, no page image; replay still waits for the old snapshot.  A
	# first round of updates gives the page its TID map and slots (those
	# prunings move values); the snapshot is taken before the second.
	$standby->append_conf('postgresql.conf', 'max_standby_streaming_delay = -1');
	$standby->reload;
	my $counters = q{SELECT count(*), md5(string_agg(id || ':' || n || ':' || v, ',' ORDER BY id)) FROM c};
	my $bump = q{
		SET enable_seqscan = off;
		SET enable_bitmapscan = off;
		DO $$
		BEGIN
		  FOR r IN 1 .. 300 LOOP
		    UPDATE c SET n = n + 1 WHERE id = r % 20 + 1;
		    COMMIT;
		    PERFORM n FROM c WHERE id = (r + 1) % 20 + 1;
		  END LOOP;
		END $$;
	};
	$primary->safe_psql('postgres', qq{
		CREATE TABLE c (id int PRIMARY KEY, n int, v text) USING $am
		  WITH (fillfactor = 60);
		INSERT INTO c SELECT i, 0, repeat(md5(i::text), 3)
		  FROM generate_series(1, 20) i;
	});
	$primary->safe_psql('postgres', $bump);
	$primary->wait_for_catchup($standby);
	$s = $standby->background_psql('postgres', on_error_stop => 0);
	$s->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
	$before = $s->query_safe($counters);
	my $start = $primary->lsn('insert');
	$primary->safe_psql('postgres', $bump);
	my $end = $primary->lsn('insert');
	$replay_waits->('pruning that moves no value');
	is($s->query_safe($counters), $before,
		"$mode: the old snapshot reads its counters while replay waits");
	$s->query_safe('COMMIT');
	eval { $s->quit };
	$primary->wait_for_catchup($standby);
	is( $standby->safe_psql('postgres', $counters),
		$primary->safe_psql('postgres', $counters),
		"$mode: standby equals primary after pruning counters' versions");
	if ($am eq 'pax' && !$preload)
	{
		$primary->safe_psql('postgres', 'CREATE EXTENSION IF NOT EXISTS pg_walinspect');
		is( $primary->safe_psql('postgres', qq{
				SELECT count(*) > 0, coalesce(sum(fpi_length), 0)
				  FROM pg_get_wal_records_info('$start', '$end')
				 WHERE resource_manager = 'Heap2'
				   AND (record_type LIKE 'PRUNE%' OR record_type LIKE 'FREEZE%')}),
			't|0',
			"$mode: the prunings' heap records carry no page image");
	}

	$standby->stop;
	$primary->stop;
}

done_testing();
