# t/016_pax_verify_indexes.pl: pax_verify(..., heapallindexed => true)
# finds index entries whose keys are not their rows' keys, and rows without
# their entry, where the TID check of check_indexes alone finds nothing.
#
#  1. A block of the table zeroed on disk (no checksums), truncated away by
#     VACUUM and filled again by an INSERT: the old rows' entries now name
#     the new rows, index scans return wrong rows, and every TID is valid.
#  2. An index entry's key changed on disk (still in key order): the row
#     has no entry with its key, and a query on the key misses it.
#
# pax only: heap has no pax_verify (PAX_TEST_AM is not read).

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use PaxTAP;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [without_checksums($node)]);
$node->append_conf('postgresql.conf', 'max_prepared_transactions = 2');
$node->start;

# rows placed one by one (not in compact batches): the new rows of case 1
# are narrower than the old ones, so the refilled block has as many slots
$node->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	ALTER SYSTEM SET pax.batch_bulk_inserts = off;
	ALTER SYSTEM SET autovacuum = off;
	SELECT pg_reload_conf();
});
$node->safe_psql('postgres', q{
	CREATE TABLE t (id int PRIMARY KEY, b int, s text) USING pax;
	INSERT INTO t SELECT i, i * 10, 'row ' || i FROM generate_series(1, 1000) i;
	CREATE INDEX t_b ON t (b);
	CHECKPOINT;
});

sub problems
{
	my ($table, $heapallindexed) = @_;
	return $node->safe_psql('postgres',
		qq{SELECT blkno, "row", msg FROM pax_verify('$table', true, $heapallindexed) ORDER BY 3, 1, 2});
}

is(problems('t', 'true'), '', 'healthy table: nothing found');

my ($last, $nrows) = split /\|/, $node->safe_psql('postgres',
	q{SELECT blkno, nrows FROM pax_page_stats('t') ORDER BY blkno DESC LIMIT 1});
ok($last >= 3, "table has several pages ($last is the last)");
my ($first_id, $last_id) = split /\|/, $node->safe_psql('postgres',
	qq{SELECT min(id), max(id) FROM t WHERE (ctid::text::point)[0] = $last});
is($last_id - $first_id + 1, $nrows, "last page holds ids $first_id .. $last_id");

# 1. zero the last block; VACUUM truncates it (an all-zero page is what a
# crash after extension leaves); the INSERT extends the table into it
my $file = $node->data_dir . '/'
  . $node->safe_psql('postgres', q{SELECT pg_relation_filepath('t')});
overwrite_blocks($node, $file, $last, 0, "\0" x 8192);
$node->safe_psql('postgres', 'VACUUM t');
is($node->safe_psql('postgres',
	q{SELECT pg_relation_size('t') / current_setting('block_size')::int}),
	$last, 'VACUUM truncated the zeroed block');
$node->safe_psql('postgres', qq{
	INSERT INTO t SELECT i, i * 10, 'n'
	  FROM generate_series(100000 + $first_id, 100000 + $last_id) i;
});
is($node->safe_psql('postgres', qq{
	SELECT count(*) FROM t
	 WHERE id > 100000 AND (ctid::text::point)[0] = $last
	   AND (ctid::text::point)[1] = id - 100000 - $first_id + 1}),
	$nrows, 'the new rows took the old rows\' slots of the block');

# the old rows' entries name the new rows: an index scan returns a wrong row
is($node->safe_psql('postgres',
	qq{SET enable_seqscan = off; SET enable_bitmapscan = off;
	   SELECT id, s FROM t WHERE id = $first_id}),
	(100000 + $first_id) . '|n', 'index scan for a lost id returns a new row');

# check_indexes alone: every entry names a used slot, nothing found
is(problems('t', 'false'), '', 'TID check alone: the blind spot');

# heapallindexed: each old entry, in both indexes, at its slot
my $found = $node->safe_psql('postgres', q{
	SELECT count(*), count(DISTINCT "row"), min(blkno), max(blkno)
	  FROM pax_verify('t', true, true)});
is($found, (2 * $nrows) . "|$nrows|$last|$last",
	'heapallindexed: one row per old entry of each index');
my $k = 100000 + $first_id;
my $b_old = 10 * $first_id;
my $b_new = 10 * $k;
like(problems('t', 'true'),
	qr/^\Q$last|1|index "t_b" entry key ($b_old) does not equal the row's key ($b_new)\E$/m,
	'the message names the index and both keys (t_b)');
like(problems('t', 'true'),
	qr/^\Q$last|1|index "t_pkey" entry key ($first_id) does not equal the row's key ($k)\E$/m,
	'the message names the index and both keys (t_pkey)');
unlike(problems('t', 'true'), qr/has no entry/,
	'the new rows have their entries');

# 2. an entry's key changed on disk, in key order (5000 -> 5001): the row
# with b = 5000 has no entry, and its entry's key is not the row's
$node->safe_psql('postgres', q{
	CREATE TABLE u (id int PRIMARY KEY, b int) USING pax;
	INSERT INTO u SELECT i, i * 10 FROM generate_series(1, 1000) i;
	CREATE INDEX u_b ON u (b);
	CHECKPOINT;
});
is(problems('u', 'true'), '', 'second table: nothing found');
my ($ublk, $urow) = split /\|/, $node->safe_psql('postgres',
	q{SELECT (ctid::text::point)[0], (ctid::text::point)[1] FROM u WHERE id = 500});
my $ifile = $node->data_dir . '/'
  . $node->safe_psql('postgres', q{SELECT pg_relation_filepath('u_b')});
my $index = slurp_file($ifile);
my $key = pack('V', 5000);
my @at;
for (my $pos = index($index, $key); $pos >= 0; $pos = index($index, $key, $pos + 1))
{
	push @at, $pos;
}
is(scalar(@at), 1, 'the key 5000 occurs once in the index file');
overwrite_blocks($node, $ifile, int($at[0] / 8192), $at[0] % 8192, pack('V', 5001));

is($node->safe_psql('postgres',
	q{SET enable_seqscan = off; SELECT count(*) FROM u WHERE b = 5000}),
	'0', 'an index scan misses the row');
is(problems('u', 'false'), '', 'TID check alone: nothing found');
is(problems('u', 'true'),
	"$ublk|$urow|index \"u_b\" entry key (5001) does not equal the row's key (5000)\n"
	  . "$ublk|$urow|row has no entry in index \"u_b\" for its key (5000)",
	'heapallindexed: the entry\'s key and the row without its entry');

# the lock: heapallindexed takes ShareUpdateExclusiveLock (VACUUM's), so a
# prepared transaction holding it keeps heapallindexed out, not the rest
$node->safe_psql('postgres', q{
	BEGIN;
	LOCK TABLE u IN SHARE UPDATE EXCLUSIVE MODE;
	PREPARE TRANSACTION 'holds_vacuum_lock';
});
is($node->safe_psql('postgres', q{SELECT count(*) FROM pax_verify('u', true, false)}),
	'0', 'with VACUUM\'s lock held: the TID check runs');
my ($ret, $stdout, $stderr) = $node->psql('postgres',
	q{SET lock_timeout = '100ms'; SELECT count(*) FROM pax_verify('u', true, true)});
like($stderr, qr/canceling statement due to lock timeout/,
	'with VACUUM\'s lock held: heapallindexed waits for it');
$node->safe_psql('postgres', q{COMMIT PREPARED 'holds_vacuum_lock'});

# a page the page pass finds broken: its rows' values are not read, the
# table scan of the row -> entry pass (which would raise an error) is
# skipped with a NOTICE, and the rest is still checked
my $ufile = $node->data_dir . '/'
  . $node->safe_psql('postgres', q{SELECT pg_relation_filepath('u')});
overwrite_blocks($node, $ufile, 0, 8192 - 8, "\xff\xff");
($ret, $stdout, $stderr) = $node->psql('postgres',
	q{SELECT blkno, "row", msg FROM pax_verify('u', true, true) ORDER BY 3, 1, 2});
is($ret, 0, 'broken page: no error');
like($stderr, qr/NOTICE:  rows of "u" were not checked for missing index entries/,
	'broken page: the row -> entry pass is skipped, and says so');
isnt($ublk, 0, 'the changed entry names a row of another page');
is($stdout, "$ublk|$urow|index \"u_b\" entry key (5001) does not equal the row's key (5000)\n"
	  . "0||magic number 0xFFFF is not the pax magic number 0x5041",
	'broken page: reported; the entry on another page still compared');

$node->stop;
done_testing();
