# t/PaxTAP.pm: helpers the pax_am TAP tests share.
#
#   use FindBin;
#   use lib $FindBin::RealBin;
#   use PaxTAP;

package PaxTAP;

use strict;
use warnings;
use Exporter 'import';
use Test::More;

our @EXPORT = qw(standby_matches overwrite_blocks restore_file without_checksums);

# standby_matches($primary, $standby, $what, $width, @queries): once the
# standby has caught up, each query returns on it what it returns on the
# primary (test names show the query's first $width characters).
sub standby_matches
{
	my ($primary, $standby, $what, $width, @queries) = @_;
	$primary->wait_for_catchup($standby);
	foreach my $q (@queries)
	{
		my $p = $primary->safe_psql('postgres', $q);
		my $s = $standby->safe_psql('postgres', $q);
		is($s, $p, "standby equals primary after $what: " . substr($q, 0, $width));
	}
	return;
}

# without_checksums($node): initdb options for a cluster without data
# checksums, which 18's initdb turns on by default: tests of pax's own page
# verification corrupt pages on purpose, and with checksums on the buffer
# manager would refuse them first.
sub without_checksums
{
	my ($node) = @_;
	return $node->pg_version >= 18 ? ('--no-data-checksums') : ();
}

# overwrite_blocks($node, $file, $block, [$offset, $bytes], ...): with the
# server stopped, write bytes at offsets of one 8 kB block of a file.
sub overwrite_blocks
{
	my ($node, $file, $block, @writes) = @_;
	$node->stop;
	open(my $fh, '+<', $file) or die "open $file: $!";
	binmode $fh;
	while (my ($offset, $bytes) = splice(@writes, 0, 2))
	{
		seek($fh, 8192 * $block + $offset, 0) or die;
		syswrite($fh, $bytes) or die;
	}
	close $fh;
	$node->start;
	return;
}

# restore_file($node, $file, $contents): with the server stopped, put a
# file's saved contents back.
sub restore_file
{
	my ($node, $file, $copy) = @_;
	$node->stop;
	open(my $fh, '>', $file) or die;
	binmode $fh;
	print $fh $copy;
	close $fh;
	$node->start;
	return;
}

1;
