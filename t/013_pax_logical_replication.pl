# t/013_pax_logical_replication.pl: built-in logical replication of pax
# tables.
#
# A publisher (pax_am preloaded, wal_level = logical) with pgbench's tables
# as pax tables publishes them all; one subscriber has them as heap tables,
# another as pax tables.  After the initial copy, pgbench's TPC-B-like
# workload runs with several clients (PAX_REPL_CLIENTS, default 4) for
# PAX_REPL_SECONDS (default 10; issue 17 asks for 8 clients and 60 s, which
# `PAX_REPL_CLIENTS=8 PAX_REPL_SECONDS=60` runs), then TRUNCATE, a large
# COPY, deletes and key updates.  Once both subscribers have caught up, each
# table is identical on all three.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $clients = $ENV{PAX_REPL_CLIENTS} || 4;
my $seconds = $ENV{PAX_REPL_SECONDS} || 10;

my $pub = PostgreSQL::Test::Cluster->new('publisher');
$pub->init(allows_streaming => 'logical');
$pub->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'pax_am'
default_table_access_method = pax
logical_decoding_work_mem = 64kB
max_wal_senders = 10
max_replication_slots = 10
});
$pub->start;

my %subs;
foreach my $am ('heap', 'pax')
{
	my $node = PostgreSQL::Test::Cluster->new("subscriber_$am");
	$node->init;
	$node->append_conf('postgresql.conf', qq{
default_table_access_method = $am
max_logical_replication_workers = 4
});
	$node->start;
	$subs{$am} = $node;
}

# pgbench_* tables: on the publisher with data, on the subscribers empty
$pub->safe_psql('postgres', 'CREATE EXTENSION pax_am');
$pub->command_ok([ 'pgbench', '-i', '-s', '2', '-q', '-h', $pub->host,
	'-p', $pub->port, 'postgres' ], 'pgbench -i on the publisher');
is($pub->safe_psql('postgres', q{
	SELECT string_agg(DISTINCT a.amname, ',') FROM pg_class c JOIN pg_am a ON a.oid = c.relam
	 WHERE c.relname LIKE 'pgbench%' AND c.relkind = 'r'}),
	'pax', 'the publisher\'s tables are pax tables');
$pub->safe_psql('postgres', 'CREATE PUBLICATION pub FOR ALL TABLES');

foreach my $am (sort keys %subs)
{
	my $node = $subs{$am};
	$node->safe_psql('postgres', 'CREATE EXTENSION pax_am') if $am eq 'pax';
	$node->command_ok([ 'pgbench', '-i', '-I', 'dtp', '-h', $node->host,
		'-p', $node->port, 'postgres' ], "the tables on the $am subscriber");
	is($node->safe_psql('postgres', q{
		SELECT string_agg(DISTINCT a.amname, ',') FROM pg_class c JOIN pg_am a ON a.oid = c.relam
		 WHERE c.relname LIKE 'pgbench%' AND c.relkind = 'r'}),
		$am, "the $am subscriber's tables are $am tables");
	my $conn = $pub->connstr . ' dbname=postgres';
	$node->safe_psql('postgres',
		"CREATE SUBSCRIPTION sub_$am CONNECTION '$conn' PUBLICATION pub");
	$node->wait_for_subscription_sync($pub, "sub_$am");
}

# the tables' contents, in an order that does not depend on the table's
my @tables = (
	[ 'pgbench_branches', 'bid' ],
	[ 'pgbench_tellers', 'tid' ],
	[ 'pgbench_accounts', 'aid' ],
	[ 'pgbench_history', 'tid, bid, aid, delta, mtime, filler' ],
);

sub compare
{
	my ($what) = @_;
	foreach my $am (sort keys %subs)
	{
		$pub->wait_for_catchup("sub_$am");
		foreach my $t (@tables)
		{
			my ($name, $order) = @$t;
			my $q = "SELECT count(*), md5(coalesce(string_agg(x::text, ',' ORDER BY $order), ''))
			           FROM $name x";
			is($subs{$am}->safe_psql('postgres', $q), $pub->safe_psql('postgres', $q),
				"$what: $name on the $am subscriber equals the publisher's");
		}
	}
	return;
}

compare('initial copy');

$pub->command_ok([ 'pgbench', '-n', '-c', $clients, '-j', '2', '-T', $seconds,
	'-h', $pub->host, '-p', $pub->port, 'postgres' ],
	"pgbench, $clients clients, $seconds s");
cmp_ok($pub->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history'), '>', 0,
	'the workload ran');
compare('pgbench');

$pub->safe_psql('postgres', q{
	TRUNCATE pgbench_history;
	COPY pgbench_history (tid, bid, aid, delta, mtime, filler)
	  FROM PROGRAM 'seq 1 200000 | awk ''{ printf "%d\t%d\t%d\t%d\t2026-01-01 00:00:00\t%s\n", $1 % 20 + 1, $1 % 2 + 1, $1, $1 % 1000 - 500, "f" $1 }''';
	DELETE FROM pgbench_accounts WHERE aid % 7 = 0;
	UPDATE pgbench_accounts SET aid = aid + 1000000 WHERE aid % 11 = 0;
	UPDATE pgbench_branches SET filler = repeat('x', 80);
});
compare('TRUNCATE, a large COPY, deletes and key updates');

foreach my $node (values %subs)
{
	$node->stop;
}
$pub->stop;
done_testing();
