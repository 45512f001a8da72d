#!/usr/bin/perl
# classify.pl EXPECTED KEY DIFF HEAP PAX: the verdict on one pax-vs-heap diff.
#
# EXPECTED is bin/test-core.d/expected-differences: blocks headed
# "== suite/test: reason", each followed by the diff hunks (unified diff
# bodies, every hunk starting with a line "@@") that are accepted for that
# reason.  A hunk of DIFF (diff -U2 HEAP PAX) is explained when
#   - the same body (line numbers and trailing blanks aside) is listed under
#     KEY in EXPECTED, or
#   - it differs only in the access method's name (pax where heap says heap), or
#   - it has the same lines on both sides in another order (row order of a
#     query without ORDER BY), or
#   - every line it changes is part of an EXPLAIN output ("QUERY PLAN" or an
#     explain_* function's column) on both sides, and the row counts of the
#     plan nodes it changes (actual rows=N loops=M, in order) are the same on
#     both sides: plan shape ("Rows Removed" lines are instrumentation).
# Prints "differs: expected (reasons)" or "DIFFERS: unexplained (...)";
# writes the unexplained hunks to DIFF.unexplained in the EXPECTED format,
# ready to be reviewed and added.
use strict;
use warnings;

my ($expected, $key, $diff, $heapf, $paxf) = @ARGV;

# plan_lines FILE: a set of the line numbers (1-based) inside EXPLAIN outputs:
# from a "QUERY PLAN" (or explain_* function) column header to the "(N rows)"
# footer, and, for the headerless output of \gexec, from the echo of an
# EXPLAIN statement to the next blank line
sub plan_lines {
	my %set;
	open(my $f, '<', $_[0]) or return \%set;
	my @l = <$f>;
	my $in = 0;
	for my $i (0 .. $#l) {
		my $n = $i + 1;
		if (!$in && $l[$i] =~ /^\s*(QUERY PLAN|explain_\w+)\s*$/) {
			$in = 'footer';
		} elsif (!$in && $l[$i] =~ /^explain\b/i && $i < $#l
				 && $l[$i + 1] =~ /^ \S/ && $l[$i + 1] !~ /^\s*QUERY PLAN\s*$/) {
			$in = 'blank';
			next;
		}
		next unless $in;
		if ($in eq 'blank' && $l[$i] =~ /^\s*$/) {
			$in = 0;
			next;
		}
		$set{$n} = 1;
		$in = 0 if $in eq 'footer' && $l[$i] =~ /^\(\d+ rows?\)$/;
	}
	return \%set;
}
my $heapplan = plan_lines($heapf);
my $paxplan = plan_lines($paxf);

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
my (@hunks, @nonplan, @rowsminus, @rowsplus, $cur, $hl, $pl);
while (my $l = <$d>) {
	chomp $l;
	next if !$cur && $l =~ /^(---|\+\+\+) /;
	if ($l =~ /^@@ -(\d+)(?:,\d+)? \+(\d+)/) {
		($hl, $pl) = ($1, $2);
		push @hunks, ($cur = []);
		push @nonplan, [];
		push @rowsminus, '';
		push @rowsplus, '';
		next;
	}
	next unless $cur;
	push @$cur, $l;
	if ($l =~ /^-/) {
		push @{$nonplan[-1]}, $l unless $heapplan->{$hl};
		if ($l =~ /\(actual rows=(\d+ loops=\d+)\)|\((never executed)\)/) { $rowsminus[-1] .= ($1 // $2) . ","; }
		$hl++;
	} elsif ($l =~ /^\+/) {
		push @{$nonplan[-1]}, $l unless $paxplan->{$pl};
		if ($l =~ /\(actual rows=(\d+ loops=\d+)\)|\((never executed)\)/) { $rowsplus[-1] .= ($1 // $2) . ","; }
		$pl++;
	} else {
		$hl++;
		$pl++;
	}
}

# plan_only I: the changed lines of hunk I outside EXPLAIN outputs are only
# lines removed and added again (diff's alignment), and its plan nodes
# count the same rows
sub plan_only {
	my $i = shift;
	my %seen;
	for my $l (map { substr($_, 1) } grep { /^-/ } @{$hunks[$i]}) { $seen{$l}++; }
	for my $l (map { substr($_, 1) } grep { /^\+/ } @{$hunks[$i]}) { $seen{$l}--; }
	for my $l (@{$nonplan[$i]}) {
		if ($seen{substr($l, 1)}) {
			print STDERR "outside a plan: $l\n" if $ENV{PAX_CORE_DEBUG};
			return 0;
		}
	}
	return $rowsminus[$i] eq $rowsplus[$i];
}

# the same lines on both sides, in another order
sub reordered {
	my @minus = sort map { substr($_, 1) } grep { /^-/ } @_;
	my @plus = sort map { substr($_, 1) } grep { /^\+/ } @_;
	return @minus && join("\n", @minus) eq join("\n", @plus);
}

# only the access method's name differs
sub am_name {
	my @minus = map { substr($_, 1) } grep { /^-/ } @_;
	my @plus = map { substr($_, 1) } grep { /^\+/ } @_;
	return 0 unless @minus == @plus && grep { /\bpax\b/ } @plus;
	for my $i (0 .. $#plus) {
		(my $p = $plus[$i]) =~ s/\bpax\b/heap/g;
		return 0 if $p ne $minus[$i];
	}
	return 1;
}

my (%reasons, @bad);
for my $i (0 .. $#hunks) {
	my $h = $hunks[$i];
	my $body = norm(@$h);
	if (exists $accepted{$body}) {
		$reasons{$accepted{$body}}++;
	} elsif (am_name(@$h)) {
		$reasons{'AM name'}++;
	} elsif (plan_only($i)) {
		$reasons{'plan shape'}++;
	} elsif (reordered(@$h)) {
		$reasons{'row order'}++;
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
