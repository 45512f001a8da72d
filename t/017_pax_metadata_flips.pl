# t/017_pax_metadata_flips.pl: a changed byte of a page's metadata never
# gives a silent wrong answer.
#
# On a cluster without data checksums, one page of a table (a bulk load's
# compact page, or a page filled row by row) is copied into many clone
# tables, each with one metadata byte changed (three values per byte).  Every clone then answers a set of queries (whole rows, filters and
# aggregates, with and without PaxScan) and is verified by pax_verify.  Each
# change must either leave every answer as it was, or be found by
# pax_verify, or make the reads that differ fail with ERRCODE_DATA_CORRUPTED;
# none may crash the server.  Metadata are the bytes that describe many rows
# of the page: the page and pax headers, the column directory, zone maps,
# the encodings' slots (bases, factors, display scales, prefixes, dictionary
# counts), a compact page's shared row header and row states, dictionaries,
# padding and the special space (pax_page_regions names them).  The bytes of
# the values themselves, row headers of their own, null bitmaps and value
# offsets are each one row's data, as a heap tuple's bytes are: a change
# there gives that row another value, which no check can tell from a true
# one without checksums (pax_am/README, "Verification").

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use PaxTAP;

my $node = PostgreSQL::Test::Cluster->new('flips');
$node->init(extra => [without_checksums($node)]);
$node->append_conf('postgresql.conf',
	"autovacuum = off\nmax_locks_per_transaction = 2048\nrestart_after_crash = on\n");
$node->start;

# Each table: its columns and the rows of its source; page 0 of the pax copy
# (made by CREATE TABLE AS, so compact and encoded) is full.
# (the integer table twice: as a bulk load's page and filled row by row)
my @ints = (
	'id int, k int4, big int8, small int4, d date, ts timestamp, g int2',
	q{SELECT i, 7, (i % 13) * 1000000::int8, (i % 100) * 7,
	         date '2026-01-01' + i % 50,
	         timestamp '2026-01-01' + i * interval '1 hour', (i % 9)::int2
	    FROM generate_series(1, 600) i});
my @tables = (
	[ 'f_int', @ints ],
	[ 'f_int_rows', @ints ],
	[
		'f_text_rows',
		'id int, brand text, url text, n numeric(12,2)',
		q{SELECT i, 'Brand#' || (i * 13) % 5, 'https://example.com/item/' || md5(i::text),
		         (hashint4(i) % 10000000) / 100.0
		    FROM generate_series(1, 600) i}
	],
	[
		'f_num',
		'id int, price numeric(12,2), r float4, f float8, q numeric',
		q{SELECT i, (hashint4(i) % 10000000) / 100.0, ((i % 400) * 0.25)::float4,
		         i * 0.5, (i % 10000) / 100.0
		    FROM generate_series(1, 600) i}
	],
	[
		'f_dict',
		'id int, brand text, cat char(12), n int4',
		q{SELECT i, 'Brand#' || (i * 13) % 5,
		         CASE WHEN i % 11 = 0 THEN NULL ELSE 'cat' || (i * 3) % 6 END,
		         CASE WHEN i % 7 = 0 THEN NULL ELSE i % 50 END
		    FROM generate_series(1, 600) i}
	],
	[
		'f_pfx',
		'id int, url text, inv varchar(40), note text',
		q{SELECT i, 'https://example.com/item/' || md5(i::text),
		         'INV-2026-' || lpad((i * 7)::text, 6, '0'),
		         CASE WHEN i % 5 = 0 THEN NULL ELSE md5((i * 3)::text) END
		    FROM generate_series(1, 600) i}
	],
	[
		'f_sym',
		'id int, sku text, s text, b bytea',
		q{SELECT i, 'SKU-' || lpad(i::text, 5, '0'), 'n-' || (i * 37 % 1000),
		         decode('0a0' || (i % 7 + 1) || '000' || (i / 7 % 7 + 1) || '0' ||
		                (i / 49 % 7 + 1), 'hex')
		    FROM generate_series(1, 600) i}
	]);

# the region kinds that are one row's data (a heap tuple's class)
my %data_region = map { $_ => 1 } ('values', 'value offsets', 'null bitmap',
	'row headers', 'row header slots', 'free', 'value area');

$node->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	-- answers: each query's result or its SQLSTATE, with and without PaxScan
	CREATE FUNCTION flip_answers(t regclass, qs text[]) RETURNS text[]
	LANGUAGE plpgsql AS $$
	DECLARE
		q text;
		r text;
		acc text[] := '{}';
	BEGIN
		FOR pass IN 1 .. 2 LOOP
			PERFORM set_config('pax.enable_customscan',
							   CASE pass WHEN 1 THEN 'on' ELSE 'off' END, true);
			FOREACH q IN ARRAY qs LOOP
				BEGIN
					EXECUTE format(q, t) INTO r;
				EXCEPTION WHEN OTHERS THEN
					r := 'ERROR ' || SQLSTATE;
				END;
				acc := acc || coalesce(r, 'NULL');
			END LOOP;
		END LOOP;
		RETURN acc;
	END $$;
	-- verdict: same answers, found by pax_verify, a clean data_corrupted
	-- error, or silent
	CREATE FUNCTION flip_verdict(t regclass, qs text[], expected text[])
	RETURNS text LANGUAGE plpgsql AS $$
	DECLARE
		got text[] := flip_answers(t, qs);
		found bigint;
		clean bool := true;
	BEGIN
		IF got = expected THEN
			RETURN 'same';
		END IF;
		BEGIN
			SELECT count(*) INTO found FROM pax_verify(t, false);
		EXCEPTION WHEN OTHERS THEN
			RETURN 'verify failed: ' || SQLSTATE || ' ' || SQLERRM;
		END;
		IF found > 0 THEN
			RETURN 'detected';
		END IF;
		FOR i IN 1 .. array_length(got, 1) LOOP
			IF got[i] IS DISTINCT FROM expected[i] AND got[i] <> 'ERROR XX001' THEN
				clean := false;
			END IF;
		END LOOP;
		IF clean THEN
			RETURN 'clean error';
		END IF;
		RETURN 'SILENT: ' || array_to_string(got, ' | ');
	END $$;
});

# checks of a slot against the column's type that find a change without
# the check word (pages filled row by row have none): table, column, byte
# of its encoding slot, change, and what pax_verify must say
my @named = (
	[ 'f_num', 2, 16, 0x01, qr/display scale 3 of a decimal-scaled column exceeds the scale 2 of its type/ ],
	[ 'f_pfx', 2, 2, 0xFF, qr/prefix byte 2 is not valid in encoding/ ],
	[ 'f_int_rows', 2, 4, 0x01, qr/base -?\d+ is outside the range of the column's 4-byte type/ ]);

my %total;
my $rng = 17;

# next_random: a deterministic byte 1 .. 255
sub next_random
{
	$rng = ($rng * 1103515245 + 12345) % 2147483648;
	return 1 + ($rng >> 8) % 255;
}

# check_clones(name, queries, expected, from, to): the verdicts of clones
# from .. to, as k => verdict; a clone that ends its session (a crash) is
# found by halving the range, and its verdict is CRASH
sub check_clones
{
	my ($name, $qarray, $expected, $from, $to) = @_;
	my ($out, $err);
	my $rc = $node->psql('postgres', qq{
		SELECT k, flip_verdict(format('%I', '${name}_' || k)::regclass, $qarray, '$expected')
		  FROM generate_series($from, $to) k ORDER BY k},
		stdout => \$out, stderr => \$err, on_error_die => 0);
	return map { split /\|/, $_, 2 } split /\n/, $out if $rc == 0;
	$node->poll_query_until('postgres', 'SELECT true')
	  or die "server did not come back";
	return ($from => "CRASH: $err") if $from == $to;
	my $mid = int(($from + $to) / 2);
	return (check_clones($name, $qarray, $expected, $from, $mid),
		check_clones($name, $qarray, $expected, $mid + 1, $to));
}

foreach my $t (@tables)
{
	my ($name, $cols, $rows) = @$t;
	# a bulk load's compact page, or a page filled row by row
	# (the first page filled row by row is not encoded: its second is)
	my $form = $name =~ /_rows$/ ? 'row' : 'compact';
	my $blk = $form eq 'row' ? 1 : 0;
	my $load = $form eq 'compact'
	  ? "CREATE TABLE $name USING pax AS SELECT * FROM s_$name ORDER BY id;"
	  : "CREATE TABLE $name (LIKE s_$name) USING pax;
		 SET pax.batch_bulk_inserts = off;
		 INSERT INTO $name SELECT * FROM s_$name ORDER BY id;
		 RESET pax.batch_bulk_inserts;";

	# a probe with the page of the table to come gives the regions; the
	# clones are created before the table, so that their relfrozenxid does
	# not follow its rows' xmin
	$node->safe_psql('postgres', qq{
		CREATE TABLE s_$name ($cols);
		INSERT INTO s_$name $rows;
		$load
	});
	is($node->safe_psql('postgres', qq{SELECT form FROM pax_page_stats('$name') WHERE blkno = $blk}),
		$form, "$name: page $blk is $form");
	note("$name encodings: "
		  . $node->safe_psql('postgres',
			qq{SELECT string_agg(attname || ' ' || encoding, ', ' ORDER BY attnum)
			     FROM pax_page_columns('$name', $blk)}));

	# the metadata bytes of page 0, and the bytes no region names
	my %region;
	foreach my $line (split /\n/,
		$node->safe_psql('postgres', qq{SELECT off, len, region FROM pax_page_regions('$name', $blk)}))
	{
		my ($off, $len, $kind) = split /\|/, $line;
		$region{$_} = $kind for ($off .. $off + $len - 1);
	}
	my (@targets, %kinds);
	foreach my $off (0 .. 8191)
	{
		my $kind = $region{$off} // 'padding';
		next if $data_region{$kind};
		$kinds{$kind}++;
		push @targets, $off;
	}
	note("$name: " . join(', ', map { "$_ $kinds{$_}" } sort keys %kinds));

	# the queries: whole rows, and per column a count, min and max, and a
	# filter against a value of row 17
	my @cols = map { (split / /, $_)[0] } split /, /, $cols;
	my @qs = (q{SELECT count(*) || ' ' || md5(string_agg(t::text, '|' ORDER BY id)) FROM %s t});
	foreach my $c (@cols)
	{
		my $v = $node->safe_psql('postgres',
			qq{SELECT quote_nullable($c) FROM s_$name WHERE id = 17});
		push @qs, "SELECT count($c) || ' ' || min(${c}::text) || ' ' || max(${c}::text) FROM %s";
		push @qs, "SELECT count(*) || ' ' || coalesce(sum(id), 0) FROM %s WHERE $c = $v"
		  unless $v eq 'NULL';
		push @qs, "SELECT count(*) FROM %s WHERE $c IS NULL";
	}
	my $qarray = 'ARRAY[' . join(', ', map { "\$q\$$_\$q\$" } @qs) . ']';

	# the clones: changes of each target byte to three other values
	my @changes;
	foreach my $off (@targets)
	{
		push @changes, [ $off, 0x01 ], [ $off, 0xFF ], [ $off, next_random() ];
	}
	my $n = scalar @changes;
	my $regions = $node->safe_psql('postgres', qq{SELECT * FROM pax_page_regions('$name', $blk)});
	$node->safe_psql('postgres', qq{
		DROP TABLE $name;
		DO \$\$ BEGIN
			FOR k IN 0 .. $n LOOP
				EXECUTE format('CREATE TABLE %I (LIKE s_$name) USING pax', '${name}_' || k);
			END LOOP;
		END \$\$;
		$load
		SELECT count(*) FROM $name;
		CHECKPOINT;
	});
	is($node->safe_psql('postgres', qq{SELECT * FROM pax_page_regions('$name', $blk)}),
		$regions, "$name: the table's page has its probe's regions");
	my $dir = $node->data_dir;
	my %file = map { split /\|/ } split /\n/, $node->safe_psql('postgres',
		qq{SELECT k, pg_relation_filepath(format('%I', '${name}_' || k))
		     FROM generate_series(0, $n) k});
	my $base = $node->safe_psql('postgres', qq{SELECT pg_relation_filepath('$name')});
	$node->stop;
	my $page = substr(slurp_file("$dir/$base"), 0, 8192 * ($blk + 1));
	foreach my $k (0 .. $n)
	{
		my $copy = $page;
		if ($k > 0)
		{
			my ($off, $xor) = @{ $changes[ $k - 1 ] };
			my $at = 8192 * $blk + $off;
			substr($copy, $at, 1) = chr(ord(substr($copy, $at, 1)) ^ $xor);
		}
		open(my $fh, '>', "$dir/$file{$k}") or die "open $file{$k}: $!";
		binmode $fh;
		print $fh $copy;
		close $fh;
	}
	$node->start;

	my $expected = $node->safe_psql('postgres',
		qq{SELECT flip_answers('${name}_0', $qarray)});
	unlike($expected, qr/ERROR/, "$name: the unchanged page answers every query");
	my %verdict = check_clones($name, $qarray, $expected, 1, $n);
	my (%verdicts, @silent);
	foreach my $k (sort { $a <=> $b } keys %verdict)
	{
		my $verdict = $verdict{$k};
		my ($off, $xor) = @{ $changes[ $k - 1 ] };
		my $kind = $region{$off} // 'padding';
		(my $v = $verdict) =~ s/:.*//;
		$verdicts{$v}++;
		$total{$v}++;
		push @silent, sprintf("byte %d (%s) ^ 0x%02X: %s", $off, $kind, $xor, $verdict)
		  if $verdict =~ /^(SILENT|verify failed|CRASH)/;
	}
	is(scalar(keys %verdict), $n, "$name: every clone was checked");
	foreach my $want (grep { $_->[0] eq $name } @named)
	{
		my (undef, $attnum, $delta, $xor, $re) = @$want;
		my $slot = $node->safe_psql('postgres', qq{
			SELECT off FROM pax_page_regions('$name', $blk)
			 WHERE region = 'encoding slot' AND attnum = $attnum});
		my ($k) = grep { $changes[ $_ - 1 ][0] == $slot + $delta &&
			  $changes[ $_ - 1 ][1] == $xor } 1 .. $n;
		like($node->safe_psql('postgres', qq{SELECT string_agg(msg, '; ') FROM pax_verify('${name}_$k', false)}),
			$re, sprintf("$name: byte %d of column %d's slot ^ 0x%02X is named", $delta, $attnum, $xor));
	}
	note("$name: " . join(', ', map { "$_ $verdicts{$_}" } sort keys %verdicts));
	is(scalar @silent, 0, "$name: no crash and no silent wrong answer among $n changes")
	  or diag(join("\n", @silent));
	$node->safe_psql('postgres', qq{
		DO \$\$ BEGIN
			FOR k IN 0 .. $n LOOP
				EXECUTE format('DROP TABLE %I', '${name}_' || k);
			END LOOP;
		END \$\$;
	});
}
note('all tables: ' . join(', ', map { "$_ $total{$_}" } sort keys %total));

$node->stop;
done_testing();
