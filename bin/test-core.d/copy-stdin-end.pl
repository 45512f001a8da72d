#!/usr/bin/perl
# copy-stdin-end.pl REGRESS_DIR: add a "\." line after every COPY ... FROM
# STDIN of the regression tests that fails before the server asks for data.
#
# psql 15.19 and later (upstream commit 5c51ae4556f) skip the in-line data
# that follows a COPY FROM STDIN that failed, up to the next "\." line; the
# 15.18 tests have no data (and no "\.") after such statements, so a newer
# psql would swallow the statements that follow.  A statement fails that way
# when the expected output shows an ERROR right after its echo and then the
# echo of the very lines that follow it in the .sql file (the data of a COPY
# that got as far as reading data is never echoed).  Prints one line per
# patched file and the total.
use strict;
use warnings;

my $dir = shift or die "usage: $0 REGRESS_DIR\n";
my $total = 0;

sub slurp { open(my $f, '<', $_[0]) or die "$_[0]: $!\n"; my @l = <$f>; chomp @l; return @l; }

for my $sqlf (sort glob("$dir/sql/*.sql")) {
	(my $name = $sqlf) =~ s{.*/(.*)\.sql$}{$1};
	my $outf = "$dir/expected/$name.out";
	next unless -f $outf;
	my @sql = slurp($sqlf);
	my @out = slurp($outf);
	my (%after, $pos);
	$pos = 0;
	for (my $i = 0; $i < @sql; $i++) {
		next unless $sql[$i] =~ /^\s*copy\b/i;
		# the statement: up to the line that ends with ";" (before a comment)
		my $j = $i;
		$j++ while $j < $#sql && $sql[$j] !~ /;\s*(--.*)?$/;
		my @stmt = @sql[$i .. $j];
		next unless join(' ', @stmt) =~ /\bfrom\s+stdin\b/i;
		my $n = $j + 1;
		$i = $j;
		next if $n > $#sql || $sql[$n] =~ /^\\\./;
		# find the statement's echo in the expected output
		my $k;
		for (my $o = $pos; $o + $#stmt <= $#out; $o++) {
			my $ok = 1;
			for my $s (0 .. $#stmt) {
				if ($out[$o + $s] ne $stmt[$s]) { $ok = 0; last; }
			}
			if ($ok) { $k = $o + @stmt; last; }
		}
		next unless defined $k;
		$pos = $k;
		next unless $k <= $#out && $out[$k] =~ /^ERROR:/;
		# skip the error report (at most 12 lines) and look for the echo of
		# the .sql lines that follow, up to the first one that is not a
		# comment (psql echoes comments as they are, blank lines not at all)
		my $last = $n;
		$last++ while $last < $#sql && $sql[$last] =~ /^\s*(--.*)?$/;
		my @next = grep { /\S/ } @sql[$n .. $last];
		next unless @next;
		for my $o ($k + 1 .. $k + 12) {
			last if $o + $#next > $#out;
			my $ok = 1;
			for my $s (0 .. $#next) {
				if ($out[$o + $s] ne $next[$s]) { $ok = 0; last; }
			}
			if ($ok) { $after{$j} = 1; last; }
			last if $out[$o] !~ /^(ERROR|DETAIL|HINT|CONTEXT|LINE \d+|QUERY|NOTICE|WARNING):|^\s+\^$|^\S.*\bfunction\b/;
		}
	}
	next unless %after;
	open(my $f, '>', $sqlf) or die "$sqlf: $!\n";
	for my $i (0 .. $#sql) {
		print $f "$sql[$i]\n";
		print $f "\\.\n" if $after{$i};
	}
	close $f;
	printf "%s: %d\n", $name, scalar keys %after;
	$total += keys %after;
}
print "total: $total\n";
