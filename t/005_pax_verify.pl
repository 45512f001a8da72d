# t/005_pax_verify.pl: pax_verify() reports corrupted bytes of a page on
# disk as rows (block, row, column, message), one per problem, without an
# error or a crash, and still verifies the other pages.

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
# c's pages are laid out unencoded (the offsets below assume it); e's
# second page is encoded (pax_am/README, "Encoded minipages"); both are
# filled row by row (byte widths, the row form the offsets below assume),
# not in batches
$node->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	SET pax.batch_bulk_inserts = off;
	SET pax.encode_minipages = off;
	CREATE TABLE c (a int, t text) USING pax;
	INSERT INTO c SELECT i, 'text ' || i FROM generate_series(1, 2000) i;
	RESET pax.encode_minipages;
	CREATE TABLE e (a int) USING pax;
	INSERT INTO e SELECT i FROM generate_series(1, 2000) i;
	CHECKPOINT;
});
my $nblocks = $node->safe_psql('postgres',
	q{SELECT pg_relation_size('c') / current_setting('block_size')::int});
ok($nblocks >= 3, 'table has several pages');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pax_verify('c')}),
	'0', 'healthy table: nothing found');

my $file = $node->data_dir . '/'
  . $node->safe_psql('postgres', q{SELECT pg_relation_filepath('c')});

# Offsets within a page.  PageHeaderData is 24 bytes, PaxPageHeaderData 8;
# the column directory (5 bitmaps of 1 byte for 2 columns) is followed,
# MAXALIGN'd, by the zone maps: column a has one ({min, max} Datums), t
# has none.  Then capacity row headers of 24 bytes; t's value offsets
# (uint16) end the minipages at pd_lower.
my ($nrows, $capacity, $lower, $rowhdrs) = split /\|/,
  $node->safe_psql('postgres',
	q{SELECT nrows, capacity, lower, meta_bytes FROM pax_page_stats('c') WHERE blkno = 1});
my $zones = 40;
is($rowhdrs, $zones + 16, 'one zone map on the page');
my $special = 8192 - 8;
my $t_offsets = $lower - 2 * $capacity;
sub rowhdr { my ($row) = @_; return $rowhdrs + 24 * $row; }
my $future_xid = $node->safe_psql('postgres', 'SELECT txid_current() + 100000');

# corrupt(block, [offset, bytes], ...): write bytes into a block with the
# server stopped
sub corrupt
{
	my ($block, @writes) = @_;
	overwrite_blocks($node, $file, $block, @writes);
}

sub restore
{
	my ($copy) = @_;
	restore_file($node, $file, $copy);
}

# the problems found, one line "blkno|row|attnum|msg" each
sub verify
{
	return $node->safe_psql('postgres',
		q{SELECT blkno, "row", attnum, msg FROM pax_verify('c') ORDER BY 1, 2, 3, 4});
}

$node->stop;
my $orig = slurp_file($file);
$node->start;

# a value offset below pd_upper
corrupt(1, $t_offsets, pack('v', 32));
is(verify(), '1|1|2|value offset 32 is outside the value area '
	  . $node->safe_psql('postgres', q{SELECT upper FROM pax_page_stats('c') WHERE blkno = 1})
	  . " .. $special",
	'value offset out of range: one row naming block, row and column');
restore($orig);

# a zone map min above every value: each row of the page is outside it
corrupt(1, $zones, pack('q<', 2147483647));
my $zone_rows = $node->safe_psql('postgres', q{
	SELECT count(*), count(DISTINCT "row"), min(attnum), max(attnum), max(blkno)
	  FROM pax_verify('c') WHERE msg ~ '^value \d+ is outside the zone map \[2147483647, \d+\]$'});
is($zone_rows, "$nrows|$nrows|1|1|1", 'zone map min: one row per value outside it');
like($node->safe_psql('postgres',
	q{SELECT blkno, "row", attnum, msg FROM pax_verify('c') WHERE msg !~ 'outside the zone map'}),
	qr/^1\|\|1\|zone map min 2147483647 is greater than its max \d+$/,
	'zone map min: and the zone map itself, nothing else');
restore($orig);

# an xmin in the future; the same in a slot marked unused is not checked
corrupt(1,
	rowhdr(2), pack('V', $future_xid),
	rowhdr(3), pack('V', $future_xid),
	rowhdr(3) + 18, pack('v', 0x1000 | 2));	# PAX_ROW_UNUSED | natts
like(verify(), qr/^1\|3\|\|xmin $future_xid equals or exceeds next valid transaction ID 0:\d+$/,
	'xmin in the future: one row, unused slot skipped');
restore($orig);

# contradictory hint bits and a t_ctid past the end of the relation
corrupt(1,
	rowhdr(5) + 20, pack('v', 0x0100 | 0x0400 | 0x0800),	# XMIN_COMMITTED, XMAX_COMMITTED|INVALID
	rowhdr(6) + 12, pack('vvv', 0, 1000, 1));
is(verify(), "1|6||xmax is marked both committed and invalid\n"
	  . "1|7||t_ctid (1000,1) points past the end of the relation ($nblocks blocks)",
	'infomask and t_ctid');
restore($orig);

# pp_natts (issue 12, finding 10): reported, not taken for an orphan page
for my $natts (1, 3, 300)
{
	corrupt(1, 24 + 4, pack('v', $natts));
	my @rows = split /\n/, verify();
	ok(scalar(@rows) > 0 && !grep({ !/^1\|/ } @rows),
		"pp_natts $natts: reported on block 1 only");
	restore($orig);
}

# the magic number: one row for the page, the other pages still verified
corrupt(1, $special, "\xff\xff");
is(verify(), '1|||magic number 0xFFFF is not the pax magic number 0x5041',
	'wrong magic: one row for the page');
restore($orig);

# several pages broken at once, each in its own way; no crash, no error
corrupt(0, 26, pack('v', 32767));	# capacity
corrupt(1, 14, pack('v', 16));	# pd_upper below pd_lower
corrupt(2, $t_offsets + 2, pack('v', $special - 4),	# t value of row 2 runs past
	$special - 4, "\x7f");	# pd_special: 1-byte header, length 63
my @problems = split /\n/, verify();
is(scalar(@problems), 3, 'three broken pages: three rows');
like($problems[0], qr/^0\|\|\|capacity 32767 is not in the range 1 \.\. 291$/, 'capacity');
like($problems[1], qr/^1\|\|\|pd_lower \d+, pd_upper 16 and pd_special 8184 are out of order$/,
	'pd_upper');
like($problems[2], qr/^2\|2\|2\|value at offset 8180 with length 63 ends beyond pd_special 8184$/,
	'value length');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'server still up');
restore($orig);

# random bytes anywhere on a page: rows or nothing, never an error
my $fuzz_rounds = $ENV{PAX_VERIFY_FUZZ} // 20;
srand(5005);
my $fuzz_ok = 0;
for my $round (1 .. $fuzz_rounds)
{
	my $block = int(rand($nblocks));
	my @writes;
	for (1 .. 1 + int(rand(8)))
	{
		my $len = 1 + int(rand(4));
		push @writes, int(rand(8192 - $len)),
		  join('', map { chr(int(rand(256))) } 1 .. $len);
	}
	corrupt($block, @writes);
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		q{SELECT count(*) FROM pax_verify('c')});
	if ($ret == 0) { $fuzz_ok++; }
	else { diag("round $round, block $block: $stderr"); }
	restore($orig);
}
is($fuzz_ok, $fuzz_rounds, "$fuzz_rounds pages with random bytes: no error");

is(verify(), '', 'restored table verifies');
is($node->safe_psql('postgres', 'SELECT count(*), max(t) FROM c'), '2000|text 999',
	'restored table reads back');

# an encoded page: PageHeaderData 24, PaxPageHeaderData 8, 5 bitmaps of 1
# byte, a's encoded width (offset 37), MAXALIGN'd: a's zone map at 40, its
# base at 56, row headers at 64
my $efile = $node->data_dir . '/'
  . $node->safe_psql('postgres', q{SELECT pg_relation_filepath('e')});
my ($enrows, $encoded, $emeta) = split /\|/, $node->safe_psql('postgres',
	q{SELECT nrows, encoded, meta_bytes FROM pax_page_stats('e') WHERE blkno = 1});
is("$encoded|$emeta", '1|64', 'e: block 1 has one encoded column, a base before its row headers');
my $ewidth = $node->safe_psql('postgres',
	q{SELECT value_width FROM pax_page_columns('e', 1) WHERE attname = 'a'});
ok($ewidth == 1 || $ewidth == 2, "e: a stored in $ewidth bytes a row");
is($node->safe_psql('postgres', q{SELECT count(*) FROM pax_verify('e')}), '0',
	'e: healthy table: nothing found');
$node->stop;
my $eorig = slurp_file($efile);
$node->start;

# verify_rows($table): pax_verify's rows for a table, in order
sub verify_rows
{
	my ($table) = @_;
	return $node->safe_psql('postgres',
		qq{SELECT blkno, "row", attnum, msg FROM pax_verify('$table') ORDER BY 1, 2, 3, 4});
}

sub everify { return verify_rows('e'); }

# an invalid width: the page's layout cannot be trusted; queries fail on it
for my $w (3, 4, 8)
{
	overwrite_blocks($node, $efile, 1, 37, pack('C', $w));
	my $want = $w == 4 ? 'column 1 has encoded width 4, which does not suit its length 4'
	  : "column 1 has the invalid encoded width $w";
	is(everify(), "1|||$want", "encoded width $w: one row for the page");
	my ($ret, $stdout, $stderr) = $node->psql('postgres', 'SELECT sum(a) FROM e');
	like($stderr, qr/invalid pax page in block 1 of relation "e"/,
		"encoded width $w: a scan fails with data_corrupted");
	restore_file($node, $efile, $eorig);
}

# a base moved: every value of the page leaves its zone map
overwrite_blocks($node, $efile, 1, 56, pack('q<', 1000000));
is($node->safe_psql('postgres', q{
	SELECT count(*), count(DISTINCT "row"), max(blkno) FROM pax_verify('e')
	 WHERE msg ~ '^value \d+ is outside the zone map \[\d+, \d+\]$'}),
	"$enrows|$enrows|1", 'encoded base: one row per value outside the zone map');
restore_file($node, $efile, $eorig);

# one stored offset changed to the width's largest: outside the zone map
my $elower = $node->safe_psql('postgres',
	q{SELECT lower FROM pax_page_stats('e') WHERE blkno = 1});
my $ecap = $node->safe_psql('postgres',
	q{SELECT capacity FROM pax_page_stats('e') WHERE blkno = 1});
overwrite_blocks($node, $efile, 1, $elower - $ewidth * $ecap + $ewidth * 4,
	"\xff" x $ewidth);
like(everify(), qr/^1\|5\|1\|value \d+ is outside the zone map \[\d+, \d+\]$/,
	'encoded offset: the row whose value left the zone map');
restore_file($node, $efile, $eorig);
is(everify(), '', 'e restored: nothing found');
is($node->safe_psql('postgres', 'SELECT count(*), sum(a) FROM e'), '2000|2001000',
	'e restored: reads back');
$node->stop;

# copied_table($name, $columns, $program): a table loaded by COPY from the
# program's output, checkpointed; returns its file
sub copied_table
{
	my ($name, $columns, $program) = @_;
	$node->safe_psql('postgres', qq{
		CREATE TABLE $name ($columns) USING pax;
		COPY $name FROM PROGRAM '$program';
		CHECKPOINT;
	});
	return $node->data_dir . '/'
	  . $node->safe_psql('postgres', qq{SELECT pg_relation_filepath('$name')});
}

# a bit-packed page (COPY's pages, a range of 2^20): an invalid bit count,
# and one row's bits turned to ones (its value leaves the zone map)
$node->start;
my $pfile = copied_table('p', 'a int',
	q{seq 1 5000 | awk ''{print ($1 * 7919) % 1000003}''});
my ($pbits, $pbytes) = split /\|/, $node->safe_psql('postgres', q{
	SELECT substring(encoding from ', (\d+) bits$'), minipage_bytes
	  FROM pax_page_columns('p', 0) WHERE attname = 'a'});
ok($pbits >= 17 && $pbits <= 24, "p: a bit-packed in $pbits bits a row");
my $plower = $node->safe_psql('postgres',
	q{SELECT lower FROM pax_page_stats('p') WHERE blkno = 0});
my $psum = $node->safe_psql('postgres', 'SELECT count(*), sum(a) FROM p');
is(verify_rows('p'), '', 'p: healthy table: nothing found');
$node->stop;
my $porig = slurp_file($pfile);
$node->start;

overwrite_blocks($node, $pfile, 0, 37, pack('C', 0x40 | 40));
is(verify_rows('p'), '0|||column 1 has the invalid encoded width 104',
	'packed width of 40 bits: one row for the page');
my ($pret, $pstdout, $pstderr) = $node->psql('postgres', 'SELECT sum(a) FROM p');
like($pstderr, qr/invalid pax page in block 0 of relation "p"/,
	'packed width of 40 bits: a scan fails with data_corrupted');
restore_file($node, $pfile, $porig);

# row 8's bits (bit 8 * bits onwards, whole bytes from there) set to ones
my $pbit = 8 * $pbits;
overwrite_blocks($node, $pfile, 0, $plower - $pbytes + int(($pbit + 7) / 8), "\xff" x 3);
like(verify_rows('p'), qr/^0\|(9|10)\|1\|value \d+ is outside the zone map \[\d+, \d+\]$/m,
	'packed bits: the row whose value left the zone map');
restore_file($node, $pfile, $porig);
is(verify_rows('p'), '', 'p restored: nothing found');
is($node->safe_psql('postgres', 'SELECT count(*), sum(a) FROM p'), $psum,
	'p restored: reads back');
$node->stop;

# a factored column (COPY's pages of multiples of 1000: pax.h,
# PAX_FACTOR_FLAG): a factor below 2 is reported, a factor changed makes
# the values leave their zone map
$node->start;
my $ffile = copied_table('f', 'a int8', q{seq 1 5000 | awk ''{print $1 * 1000}''});
like($node->safe_psql('postgres',
	q{SELECT encoding FROM pax_page_columns('f', 0)}),
	qr/^frame of reference, factor 1000, \d+ bits$/, 'f: a factored');
is(verify_rows('f'), '', 'f: healthy table: nothing found');
my $fsum = $node->safe_psql('postgres', 'SELECT count(*), sum(a) FROM f');
$node->stop;
my $forig = slurp_file($ffile);
$node->start;

# the factor: the second int64 of the base slot (after one zone map: 64)
overwrite_blocks($node, $ffile, 0, 64, pack('q<', 0));
# (the page is compact: its check word, over the base array, differs too)
like(verify_rows('f'),
	qr/^0\|\|1\|factor 0 of a factored column is below 2\n0\|\|\|check word [0-9A-F]{8} does not match the page's layout and encodings \([0-9A-F]{8}\)$/,
	'factor 0: one row for the page, one for its check word');
restore_file($node, $ffile, $forig);
overwrite_blocks($node, $ffile, 0, 64, pack('q<', 3000));
like(verify_rows('f'), qr/^0\|\d+\|1\|value \d+ is outside the zone map \[\d+, \d+\]$/m,
	'factor changed: values outside the zone map');
restore_file($node, $ffile, $forig);
is(verify_rows('f'), '', 'f restored: nothing found');
is($node->safe_psql('postgres', 'SELECT count(*), sum(a) FROM f'), $fsum,
	'f restored: reads back');
$node->stop;

# a decimal-scaled float column (the factor width byte on float8): a
# divisor that is not a power of ten is reported
$node->start;
my $dfile = copied_table('d', 'a float8', q{seq 1 5000 | awk ''{print $1 / 100}''});
like($node->safe_psql('postgres',
	q{SELECT encoding FROM pax_page_columns('d', 0)}),
	qr/^decimal-scaled, divisor 100, \d+ bits$/, 'd: a decimal-scaled');
is(verify_rows('d'), '', 'd: healthy table: nothing found');
overwrite_blocks($node, $dfile, 0, 64, pack('q<', 7));
like(verify_rows('d'), qr/^0\|\|1\|divisor 7 of a decimal-scaled column is not a power of ten up to 10\^15$/m,
	'divisor 7: reported');
$node->stop;

# a prefix-encoded column (COPY's pages of values that share their first
# bytes: pax.h, "Prefix encoding"): a prefix longer than its area, and a
# value's rest that is not a short varlena, are reported; queries that read
# the values fail with data_corrupted
$node->start;
my $xfile = copied_table('x', 't text',
	q{seq 1000 3000 | sed ''s/^/prefixed value /; s/$/ and a rest too long for fixed rests/''});
is($node->safe_psql('postgres',
	q{SELECT encoding FROM pax_page_columns('x', 0)}), 'prefix',
	'x: t prefix-encoded');
is(verify_rows('x'), '', 'x: healthy table: nothing found');
my $xupper = $node->safe_psql('postgres',
	q{SELECT upper FROM pax_page_stats('x') WHERE blkno = 0});
my $xsum = $node->safe_psql('postgres', 'SELECT count(*), max(t), min(t) FROM x');
$node->stop;
my $xorig = slurp_file($xfile);
$node->start;

# the prefix's length byte (the base array's first slot: offset 40 for one
# column) beyond its area
overwrite_blocks($node, $xfile, 0, 40, pack('C', 255));
like(verify_rows('x'), qr/^0\|\|1\|prefix of 255 bytes is longer than its area holds \(\d+\)\n0\|\|\|check word /,
	'prefix length: one row for the page, one for its check word');
my ($xret, $xstdout, $xstderr) = $node->psql('postgres', 'SELECT max(t) FROM x');
like($xstderr, qr/invalid prefix-encoded value in pax page: column 1, row \d+/,
	'prefix length: a scan fails with data_corrupted');
restore_file($node, $xfile, $xorig);

# the lowest value's header turned into a 4-byte header's first byte
overwrite_blocks($node, $xfile, 0, $xupper, pack('C', 0));
like(verify_rows('x'),
	qr/^0\|\d+\|1\|value at offset $xupper of a prefix-encoded column is not a short varlena$/,
	'prefix rest: one row naming it');
($xret, $xstdout, $xstderr) = $node->psql('postgres', 'SELECT max(t) FROM x');
like($xstderr, qr/invalid (prefix-encoded value|value offset) in pax page: column 1, row \d+/,
	'prefix rest: a scan fails with data_corrupted');
restore_file($node, $xfile, $xorig);
is(verify_rows('x'), '', 'x restored: nothing found');
is($node->safe_psql('postgres', 'SELECT count(*), max(t), min(t) FROM x'), $xsum,
	'x restored: reads back');
$node->stop;

# fixed-width rests (pax.h, "Prefix encoding with fixed-width rests"): any
# rest's bytes make a value, so a prefix longer than its area is what is
# corrupted: reported, and queries that read the values fail
$node->start;
my $yfile = copied_table('y', 't text',
	q{seq 1000 3000 | awk ''{printf "v%c%c%d\\n", 97 + $1 % 26, 65 + int($1 / 26) % 26, $1}''});
is($node->safe_psql('postgres',
	q{SELECT encoding FROM pax_page_columns('y', 0)}), 'prefix, fixed-width rests',
	'y: t prefix-encoded, fixed-width rests');
my $ysum = $node->safe_psql('postgres', 'SELECT count(*), max(t), min(t) FROM y');
$node->stop;
my $yorig = slurp_file($yfile);
$node->start;
overwrite_blocks($node, $yfile, 0, 40, pack('C', 16));
like(verify_rows('y'), qr/^0\|\|1\|prefix of 16 bytes is longer than its area holds \(15\)\n0\|\|\|check word /,
	'fixed rests, prefix length: one row for the page, one for its check word');
my ($yret, $ystdout, $ystderr) = $node->psql('postgres', 'SELECT max(t) FROM y');
like($ystderr, qr/invalid prefix-encoded value in pax page: column 1, row \d+/,
	'fixed rests, prefix length: a scan fails with data_corrupted');
restore_file($node, $yfile, $yorig);
is($node->safe_psql('postgres', 'SELECT count(*), max(t), min(t) FROM y'), $ysum,
	'y restored: reads back');
$node->stop;

# fixed-width rests in symbols (pax.h, PAX_SYMREST_BASE): an alphabet too
# large for its area, and codes past the alphabet's symbols, are reported;
# queries that read the values fail
$node->start;
my $zfile = copied_table('z', 't text', q{seq 1000 3000 | sed ''s/^/v/''});
is($node->safe_psql('postgres',
	q{SELECT encoding FROM pax_page_columns('z', 0)}),
	'prefix, fixed-width rests in 4-bit codes (10 symbols)',
	'z: t prefix-encoded, fixed-width rests in symbols');
is(verify_rows('z'), '', 'z: healthy table: nothing found');
my $zsum = $node->safe_psql('postgres', 'SELECT count(*), max(t), min(t) FROM z');
$node->stop;
my $zorig = slurp_file($zfile);
$node->start;
# the alphabet's count: after the 16-byte prefix area (offset 40)
overwrite_blocks($node, $zfile, 0, 56, pack('C', 16));
like(verify_rows('z'), qr/^0\|\|1\|alphabet of 16 symbols is larger than its area holds \(15\)$/m,
	'alphabet count: reported for the page');
restore_file($node, $zfile, $zorig);
overwrite_blocks($node, $zfile, 0, 56, pack('C', 2));
like(verify_rows('z'), qr/^0\|\d+\|1\|code \d+ of a rest's byte \d is past the alphabet's 2 symbols$/m,
	'alphabet cut short: the rows whose codes are past it');
my ($zret, $zstdout, $zstderr) = $node->psql('postgres', 'SELECT max(t) FROM z');
like($zstderr, qr/invalid prefix-encoded value in pax page: column 1, row \d+/,
	'alphabet cut short: a scan fails with data_corrupted');
restore_file($node, $zfile, $zorig);
is($node->safe_psql('postgres', 'SELECT count(*), max(t), min(t) FROM z'), $zsum,
	'z restored: reads back');
$node->stop;

# a decimal-scaled numeric column (pax.h, PAX_NUMSCALE_BASE): a factor
# below 1 and a display scale out of range are reported; queries that read
# the values fail with data_corrupted
$node->start;
my $nfile = copied_table('n', 'a numeric',
	q{seq 1 5000 | awk ''{printf "%.2f\\n", $1 / 100}''});
like($node->safe_psql('postgres',
	q{SELECT encoding FROM pax_page_columns('n', 0)}),
	qr/^decimal-scaled, scale 2, factor 1, \d+ bits$/, 'n: a decimal-scaled');
is(verify_rows('n'), '', 'n: healthy table: nothing found');
my $nsum = $node->safe_psql('postgres', 'SELECT count(*), sum(a), max(a::text) FROM n');
$node->stop;
my $norig = slurp_file($nfile);
$node->start;
# the slot after the directory (offset 40): base, factor, display scale
overwrite_blocks($node, $nfile, 0, 48, pack('q<', 0));
like(verify_rows('n'), qr/^0\|\|1\|factor 0 of a decimal-scaled numeric column is below 1$/m,
	'numeric factor 0: reported for the page');
my ($nret, $nstdout, $nstderr) = $node->psql('postgres', 'SELECT sum(a) FROM n');
like($nstderr, qr/invalid decimal-scaled value in pax page: column 1, row \d+/,
	'numeric factor 0: a scan fails with data_corrupted');
restore_file($node, $nfile, $norig);
overwrite_blocks($node, $nfile, 0, 56, pack('q<', 99));
like(verify_rows('n'), qr/^0\|\|1\|display scale 99 of a decimal-scaled numeric column is outside 0 \.\. 63$/m,
	'numeric display scale 99: reported for the page');
restore_file($node, $nfile, $norig);
is($node->safe_psql('postgres', 'SELECT count(*), sum(a), max(a::text) FROM n'), $nsum,
	'n restored: reads back');
$node->stop;

# a constant column (pax_encoding.h, PAX_CONST_WIDTH: no minipage, the
# base is every row's value): a base outside the column's type is
# reported, and the page reads back once restored
$node->start;
my $kfile = copied_table('k', 'a int4, b int4',
	q{seq 1 5000 | awk ''{print 42 "\t" $1}''});
is($node->safe_psql('postgres',
	q{SELECT encoding FROM pax_page_columns('k', 0) WHERE attname = 'a'}),
	'constant', 'k: a constant column');
is(verify_rows('k'), '', 'k: healthy table: nothing found');
my $ksum = $node->safe_psql('postgres', 'SELECT count(*), sum(a), sum(b) FROM k');
$node->stop;
my $korig = slurp_file($kfile);
# the base array follows the zone maps (from offset 40): a's base is the
# int64 42 that is not half of a's zone map (min 42, max 42)
my $kbase;
for (my $off = 40; $off <= 120; $off += 8)
{
	my @q = map { unpack('q<', substr($korig, $_, 8)) } ($off - 8, $off, $off + 8);
	if ($q[1] == 42 && $q[0] != 42 && $q[2] != 42)
	{
		$kbase = $off;
		last;
	}
}
ok(defined $kbase, 'k: the constant base found on block 0');
$node->start;
overwrite_blocks($node, $kfile, 0, $kbase, pack('q<', 1 << 40));
like(verify_rows('k'),
	qr/^0\|\|1\|base 1099511627776 is outside the range of the column's 4-byte type$/m,
	'constant base out of range: reported for the page');
restore_file($node, $kfile, $korig);
is(verify_rows('k'), '', 'k restored: nothing found');
is($node->safe_psql('postgres', 'SELECT count(*), sum(a), sum(b) FROM k'), $ksum,
	'k restored: reads back');
$node->stop;

# with data checksums, a changed byte the pax checks cannot see (a text
# character) is reported from the checksum; the page is never read through
# the buffer manager, which would raise "invalid page"
my $cnode = PostgreSQL::Test::Cluster->new('checksums');
$cnode->init(extra => ['--data-checksums']);
$cnode->start;
$cnode->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE TABLE c (a int, t text) USING pax;
	INSERT INTO c SELECT i, 'text ' || i FROM generate_series(1, 2000) i;
	CHECKPOINT;
});
my $cfile = $cnode->data_dir . '/'
  . $cnode->safe_psql('postgres', q{SELECT pg_relation_filepath('c')});
$cnode->stop;
open(my $cfh, '+<', $cfile) or die "open $cfile: $!";
binmode $cfh;
seek($cfh, 8192 + $special - 1, 0) or die;	# last character of a value
syswrite($cfh, 'X') or die;
close $cfh;
$cnode->start;
like($cnode->safe_psql('postgres', q{SELECT blkno, "row", attnum, msg FROM pax_verify('c')}),
	qr/^1\|\|\|page checksum \d+ does not match its computed checksum \d+$/,
	'checksum failure: one row, no error');

# a query that read the page failed, leaving the block's buffer marked as
# a failed read: pax_verify still reports the page rather than failing
# on it in turn (issue 12, finding 10)
for my $sql ('SELECT count(*) FROM c', 'SET pax.enable_customscan = off; SELECT count(*) FROM c',
	'SELECT * FROM c WHERE ctid = \'(1,1)\'')
{
	my ($ret, $stdout, $stderr) = $cnode->psql('postgres', $sql);
	like($stderr, qr/invalid page in block 1/, "checksum failure: \"$sql\" fails");
	($ret, $stdout, $stderr) = $cnode->psql('postgres',
		q{SELECT blkno, "row", attnum, msg FROM pax_verify('c')});
	is($ret, 0, "checksum failure after \"$sql\": pax_verify does not fail");
	like($stdout, qr/^1\|\|\|page checksum \d+ does not match its computed checksum \d+$/,
		"checksum failure after \"$sql\": one row");
}
# the same with a second connection's view of it
$cnode->psql('postgres', 'SELECT count(*) FROM c; SELECT count(*) FROM c');
like($cnode->safe_psql('postgres', q{SELECT count(*) FROM c WHERE false; SELECT blkno, msg FROM pax_verify('c', false)}),
	qr/^1\|page checksum/m, 'checksum failure: pax_verify without indexes');
$cnode->stop;
done_testing();
