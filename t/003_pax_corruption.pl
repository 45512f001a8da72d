# t/003_pax_corruption.pl: a corrupted pax page raises data_corrupted
# (XX001) naming the block, never a crash or a wrong answer.

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
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE TABLE c (a int, t text) USING pax;
	-- (values too long for fixed-width rests: the offsets of the value area)
	INSERT INTO c SELECT i, 'text ' || i || repeat('.', 40) FROM generate_series(1, 2000) i;
	CREATE INDEX c_a ON c (a);
	CHECKPOINT;
});
my $nblocks = $node->safe_psql('postgres',
	q{SELECT pg_relation_size('c') / current_setting('block_size')::int});
ok($nblocks >= 3, 'table has several pages');
my $file = $node->data_dir . '/'
  . $node->safe_psql('postgres', q{SELECT pg_relation_filepath('c')});

# offsets within page 1: the special space holds the magic number
my $special = 8192 - 8;
my $pax_header = 24;	# after PageHeaderData

sub corrupt
{
	my ($offset, $bytes) = @_;
	overwrite_blocks($node, $file, 1, $offset, $bytes);
}

sub restore
{
	my ($copy) = @_;
	restore_file($node, $file, $copy);
}

sub query_error
{
	my ($sql) = @_;
	my ($ret, $stdout, $stderr) = $node->psql('postgres', $sql,
		extra_params => ['-v', 'VERBOSITY=verbose']);
	return $stderr;
}

$node->stop;
my $orig = slurp_file($file);
$node->start;

corrupt($special, "\xff\xff");
my $err = query_error('SELECT count(*) FROM c');
like($err, qr/XX001/, 'wrong magic: data_corrupted');
like($err, qr/invalid pax page in block 1 of relation "c"/, 'wrong magic: block named');
restore($orig);

corrupt($pax_header + 2, "\xff\x7f");	# capacity 32767
$err = query_error('SELECT count(*) FROM c');
like($err, qr/XX001.*block 1/s, 'capacity out of range: data_corrupted');
restore($orig);

corrupt(12, "\x10\x00");	# pd_upper = 16, below pd_lower
$err = query_error('SELECT count(*) FROM c');
like($err, qr/XX001/, 'pd_upper below pd_lower: data_corrupted');
restore($orig);

# a value offset pointing outside the value area
my $lower = $node->safe_psql('postgres', q{SELECT lower FROM pax_page_stats('c') WHERE blkno = 1});
my $offsets = $node->safe_psql('postgres', q{
	SELECT l.lower - 2 * s.capacity FROM pax_page_stats('c') l, pax_page_stats('c') s
	 WHERE l.blkno = 1 AND s.blkno = 1});
corrupt($offsets, "\x20\x00");	# first row's t offset = 32
$err = query_error('SELECT max(t) FROM c');
like($err, qr/XX001/, 'value offset out of range: data_corrupted');
restore($orig);

# pp_natts (issue 12, finding 10): one page laid out for fewer or more
# columns than it says places its row headers elsewhere; every reader
# raises data_corrupted instead of reading the page's rows as absent
my @readers = (
	['PaxScan aggregate', 'SELECT count(*) FROM c'],
	['PaxScan rows', 'SELECT count(t) FROM c WHERE a > 0'],
	['PaxScan, pushed clause', 'SELECT sum(a) FROM c WHERE a > 0'],
	['plain scan', 'SET pax.enable_customscan = off; SELECT count(*) FROM c'],
	['plain scan, values', 'SET pax.enable_customscan = off; SELECT max(t) FROM c'],
	['index fetch',
	 'SET enable_seqscan = off; SET enable_bitmapscan = off; SET pax.enable_customscan = off; '
	   . 'SELECT count(t) FROM c WHERE a BETWEEN 1 AND 2000'],
	['bitmap fetch',
	 'SET enable_seqscan = off; SET enable_indexscan = off; SET pax.enable_customscan = off; '
	   . 'SELECT count(*) FROM c WHERE a BETWEEN 1 AND 2000'],
	['pax_page_stats', 'SELECT count(*) FROM pax_page_stats(\'c\')'],
	['pax_page_stats of the page', 'SELECT count(*) FROM pax_page_columns(\'c\', 1)'],
	['VACUUM', 'VACUUM c']);
for my $natts (1, 3, 5, 300)
{
	corrupt($pax_header + 4, pack('v', $natts));
	for my $reader (@readers)
	{
		my ($what, $sql) = @$reader;
		$err = query_error($sql);
		like($err, qr/XX001.*block 1 of relation "c"/s,
			"pp_natts $natts: $what raises data_corrupted");
	}
	restore($orig);
}

is($node->safe_psql('postgres', 'SELECT count(*), max(t) FROM c'), '2000|text 999' . ('.' x 40),
	'restored page reads back');
$node->stop;
done_testing();
