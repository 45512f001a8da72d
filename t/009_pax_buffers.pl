# t/009_pax_buffers.pl: how pax scans find their buffers after a restart.
#
# A scan pins a block through the buffer its last scan used, or, for a
# block it has not seen, the buffer after its predecessor's (ReadRecentBuffer
# checks either guess).  This test checks that such scans give the right
# rows whether the table's blocks sit in consecutive buffers or not, and
# that scans still raise the usage count of the buffers they pin, which
# ReadRecentBuffer alone does not do in PostgreSQL 15.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('buffers');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_buffers = 32MB
max_parallel_workers_per_gather = 0
});
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE EXTENSION pg_prewarm;
	CREATE EXTENSION pg_buffercache;
	CREATE TABLE t (a int, b text) USING pax;
	INSERT INTO t SELECT i, i || repeat('x', 200) FROM generate_series(1, 20000) i;	-- distinct: no dictionary
	VACUUM (FREEZE) t;
});
my $nblocks = $node->safe_psql('postgres',
	q{SELECT pg_relation_size('t') / current_setting('block_size')::int});
cmp_ok($nblocks, '>', 100, "the table has $nblocks blocks");

my $expect = '20000|200010000|10000';
my $scan = q{SELECT count(*), sum(a), count(*) FILTER (WHERE a % 2 = 0)
  FROM t WHERE b IS NOT NULL};

# min_usage: the lowest usage count among the table's buffers, and how many
# of its blocks are in shared buffers
my $min_usage = q{SELECT min(usagecount) || '|' || count(*)
  FROM pg_buffercache
 WHERE relfilenode = pg_relation_filenode('t') AND relforknumber = 0
   AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())};

# blocks read in order: consecutive buffers, so the guesses hold
$node->restart;
$node->safe_psql('postgres', q{SELECT pg_prewarm('t')});
is($node->safe_psql('postgres', $min_usage), "1|$nblocks",
	'after pg_prewarm every block is cached with usage count 1');
is($node->safe_psql('postgres', $scan), $expect,
	'first scan after pg_prewarm (consecutive buffers)');
# one session: after its first scan it pins every block through the buffer
# its last scan used; one block in 16 per scan goes through the mapping
# table and so raises its buffer's usage count
$node->safe_psql('postgres', join('', map { "$scan;\n" } 1 .. 40));
my ($usage, $cached) = split /\|/, $node->safe_psql('postgres', $min_usage);
is($cached, $nblocks, 'every block is still cached');
cmp_ok($usage, '>=', 2,
	'40 scans in one session raise the usage count of every block of the table');

# blocks read in random order: scattered buffers, the guesses fail
$node->restart;
$node->safe_psql('postgres', q{
	SELECT count(pg_prewarm('t', 'buffer', 'main', b, b))
	  FROM (SELECT b FROM generate_series(0, pg_relation_size('t') / 8192 - 1) b
			 ORDER BY random() OFFSET 0) s});
is($node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE c.bufferid = p.bufferid + 1) < count(*) / 2
	  FROM pg_buffercache c JOIN pg_buffercache p
		ON p.relfilenode = c.relfilenode AND p.relblocknumber = c.relblocknumber - 1
	 WHERE c.relfilenode = pg_relation_filenode('t') AND c.relforknumber = 0
	   AND p.relforknumber = 0}), 't',
	'prewarmed in random order, most blocks are not in the buffer after their predecessor\'s');
is($node->safe_psql('postgres', "$scan;\n$scan;\n$scan"), "$expect\n$expect\n$expect",
	'scans after a prewarm in random order (scattered buffers)');
is($node->safe_psql('postgres',
	"SET pax.enable_customscan = off;\n$scan"), $expect,
	'the plain sequential scan too');

# a session's remembered buffers go stale: scan, let another table take
# over every buffer, scan again in the same session
$node->safe_psql('postgres', q{
	CREATE TABLE big (a int, b text) USING heap;
	INSERT INTO big SELECT i, repeat('y', 500) FROM generate_series(1, 100000) i});
is($node->safe_psql('postgres', qq{$scan;
	SELECT pg_prewarm('big') > 0;
	$scan;}), "$expect\nt\n$expect",
	'a scan in a session whose remembered buffers now hold another table');

$node->stop;
done_testing();
