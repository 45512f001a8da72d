#!/usr/bin/perl
# classify.pl EXPECTED KEY DIFF: the verdict on one pax-vs-heap diff.
#
# EXPECTED is bin/test-core.d/expected-differences: blocks headed
# "== suite/test: reason", each followed by the diff hunks (unified diff
# bodies, every hunk starting with a line "@@") that are accepted for that
# reason.  A hunk of DIFF is explained when the same body (line numbers and
# trailing blanks aside) is listed under KEY, or when it differs only in the
# access method's name (pax where heap says heap).  Prints "differs: expected
# (reasons)" or "DIFFERS: unexplained (...)"; writes the unexplained hunks to
# DIFF.unexplained in the EXPECTED format, ready to be reviewed and added.
use strict;
use warnings;

my ($expected, $key, $diff) = @ARGV;

sub norm { my @l = map { (my $x = $_) =~ s/\s+$//; $x } @_; return join("\n", @l); }

# the accepted hunks of KEY: body -> reason
my %accepted;
if (open(my $f, '<', $expected)) {
	my ($reason, @hunk, $mine);
	my $flush = sub { $accepted{norm(@hunk)} = $reason if $mine && @hunk; @hunk = (); };
	while (my $l = <$f>) {
		chomp $l;
		if ($l =~ /^== (\S+): (.*)$/) {
			$flush->();
			$mine = $1 eq $key;
			$reason = $2;
		} elsif ($l =~ /^@@/) {
			$flush->();
		} elsif ($l =~ /^[ +\-\\]/ || $l eq '') {
			push @hunk, $l if defined $reason;
		}
	}
	$flush->();
}

# the hunks of DIFF
open(my $d, '<', $diff) or die "$diff: $!\n";
my (@hunks, $cur);
while (my $l = <$d>) {
	chomp $l;
	next if !$cur && $l =~ /^(---|\+\+\+) /;
	if ($l =~ /^@@/) { push @hunks, ($cur = []); next; }
	push @$cur, $l if $cur;
}

# only the access method's name differs
sub am_name {
	my @minus = map { substr($_, 1) } grep { /^-/ } @_;
	my @plus = map { substr($_, 1) } grep { /^\+/ } @_;
	return 0 unless @minus == @plus;
	for my $i (0 .. $#plus) {
		(my $p = $plus[$i]) =~ s/\bpax\b/heap/g;
		return 0 if $p ne $minus[$i];
	}
	return 1;
}

my (%reasons, @bad);
for my $h (@hunks) {
	my $body = norm(@$h);
	if (exists $accepted{$body}) {
		$reasons{$accepted{$body}}++;
	} elsif (am_name(@$h)) {
		$reasons{'AM name'}++;
	} else {
		push @bad, $h;
	}
}
unlink("$diff.unexplained");
if (@bad) {
	open(my $u, '>', "$diff.unexplained") or die;
	print $u "== $key: TODO\n";
	print $u "@@\n", join("\n", @$_), "\n" for @bad;
	close $u;
	printf "DIFFERS: unexplained (%d of %d hunks: %s.unexplained)\n", scalar @bad, scalar @hunks, $diff;
} else {
	printf "differs: expected (%s)\n", join('; ', sort keys %reasons);
}
