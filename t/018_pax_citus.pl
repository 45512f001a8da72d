# t/018_pax_citus.pl: pax tables distributed by Citus over three nodes of
# one machine: a coordinator and two workers, each with Citus preloaded
# before pax_am and wal_level = logical (Citus's online shard moves use
# logical replication).  The tables are made USING pax: Citus's own
# catalog tables, made by CREATE EXTENSION citus, stay heap tables.
#
# Checks, with heap as the oracle everywhere:
#   - create_distributed_table makes every shard of a pax table a pax
#     table, on both workers;
#   - distributed aggregates, filters and a colocated join give what the
#     same query gives on local heap copies of the data on the coordinator;
#   - a join with a pax reference table (one copy on every node) likewise;
#   - online shard moves (citus_move_shard_placement, force_logical) while
#     pgbench writes the table and a heap control table in the same
#     transactions: afterwards the pax table's md5 equals the control's
#     (not colocated with it, so the control's shards stay where they are);
#   - rebalance_table_shards then evens the shards out again, and the md5
#     still holds.
#
# Skipped, saying so, when Citus is not installed in this PostgreSQL:
# bin/citus builds it from a source tarball (bin/test runs bin/citus on 15
# when a tarball is at hand).

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
if (!-f "$pkglibdir/citus.so")
{
	plan skip_all => "Citus is not installed in $pkglibdir (bin/citus builds it from a source tarball)";
}

my %nodes;
foreach my $name ('coordinator', 'worker1', 'worker2')
{
	my $node = PostgreSQL::Test::Cluster->new($name);
	my $host = $node->host;
	$node->init(allows_streaming => 'logical');
	# the nodes talk over the test's Unix socket directory, to the
	# others and (citus.local_hostname) to themselves
	$node->append_conf('postgresql.conf', qq{
citus.local_hostname = '$host'
shared_preload_libraries = 'citus,pax_am'
max_replication_slots = 20
max_wal_senders = 20
max_worker_processes = 20
max_connections = 60
citus.node_conninfo = 'sslmode=disable'
citus.shard_count = 8
});
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus; CREATE EXTENSION pax_am');
	$nodes{$name} = $node;
}
my $co = $nodes{coordinator};
my ($w1, $w2) = ($nodes{worker1}, $nodes{worker2});

$co->safe_psql('postgres', sprintf(
	q{SELECT citus_set_coordinator_host('%s', %d);
	  SELECT citus_add_node('%s', %d); SELECT citus_add_node('%s', %d)},
	$co->host, $co->port, $w1->host, $w1->port, $w2->host, $w2->port));
is($co->safe_psql('postgres', 'SELECT count(*) FROM citus_get_active_worker_nodes()'),
	'2', 'the coordinator has two workers');

# a distributed pax table, a second one colocated with it, a pax
# reference table, and heap copies of all three on the coordinator alone
$co->safe_psql('postgres', q{
CREATE TABLE acc (id int PRIMARY KEY, region int NOT NULL, v bigint NOT NULL, note text) USING pax;
CREATE TABLE hist (acc_id int NOT NULL, amount int NOT NULL, at date NOT NULL) USING pax;
CREATE TABLE regions (region int PRIMARY KEY, name text NOT NULL) USING pax;
SELECT create_distributed_table('acc', 'id');
SELECT create_distributed_table('hist', 'acc_id', colocate_with => 'acc');
SELECT create_reference_table('regions');
INSERT INTO acc SELECT g, g % 5, g * 3, CASE WHEN g % 7 = 0 THEN NULL ELSE md5(g::text) END
  FROM generate_series(1, 20000) g;
INSERT INTO hist SELECT 1 + (g * 7919) % 20000, g % 100 - 50, date '2024-01-01' + g % 300
  FROM generate_series(1, 50000) g;
INSERT INTO regions SELECT r, 'region ' || r FROM generate_series(0, 4) r;
CREATE TABLE acc_h USING heap AS SELECT * FROM acc;
CREATE TABLE hist_h USING heap AS SELECT * FROM hist;
CREATE TABLE regions_h USING heap AS SELECT * FROM regions;
});

my $shard_ams = q{
	SET citus.override_table_visibility = off;
	SELECT string_agg(DISTINCT a.amname, ',') || ' ' || count(*)
	  FROM pg_class c JOIN pg_am a ON a.oid = c.relam
	 WHERE c.relkind = 'r' AND c.relname ~ '^(acc|hist|regions)_[0-9]+$'};
foreach my $w ($w1, $w2)
{
	like($w->safe_psql('postgres', $shard_ams), qr/^pax \d+$/,
		'every shard on ' . $w->name . ' is a pax table');
}

# query and its heap twin (the same text over the _h tables)
sub same_as_heap
{
	my ($what, $query) = @_;
	(my $heap = $query) =~ s/\b(acc|hist|regions)\b/$1_h/g;
	my $got = $co->safe_psql('postgres', $query);
	my $want = $co->safe_psql('postgres', $heap);
	is($got, $want, "$what gives heap's answer");
	return;
}

same_as_heap('a distributed aggregate with a filter', q{
	SELECT region, count(*), sum(v), count(note), min(note) FROM acc
	 WHERE v % 4 = 1 OR note LIKE 'a%' GROUP BY region ORDER BY region});
same_as_heap('a colocated join', q{
	SELECT a.region, count(*), sum(h.amount), max(h.at) FROM acc a JOIN hist h ON h.acc_id = a.id
	 WHERE h.amount > 10 GROUP BY a.region ORDER BY a.region});
same_as_heap('a join with a reference table', q{
	SELECT r.name, count(*), sum(a.v) FROM acc a JOIN regions r USING (region)
	 WHERE a.id BETWEEN 100 AND 15000 GROUP BY r.name ORDER BY r.name});
same_as_heap('a router query', q{SELECT * FROM acc WHERE id = 4242});

# the control of the moves: a distributed heap table of its own colocation
# group, whose shards stay where they are
$co->safe_psql('postgres', q{
CREATE TABLE ctl (id int PRIMARY KEY, region int NOT NULL, v bigint NOT NULL, note text) USING heap;
SELECT create_distributed_table('ctl', 'id', colocate_with => 'none');
INSERT INTO ctl SELECT * FROM acc;
});

my $md5 = q{SELECT md5(string_agg(id || ':' || v || ':' || coalesce(note, '-'), ',' ORDER BY id)) FROM %s};
is($co->safe_psql('postgres', sprintf($md5, 'acc')),
	$co->safe_psql('postgres', sprintf($md5, 'ctl')), 'before the moves: md5 equal to the control');

# pgbench writes both tables in each transaction during the moves
my $script = $co->basedir . '/writes.sql';
open(my $fh, '>', $script) or die "open $script: $!";
print $fh q{\set id random(1, 20000)
\set d random(1, 9)
BEGIN;
UPDATE acc SET v = v + :d, note = md5(note || :d) WHERE id = :id;
UPDATE ctl SET v = v + :d, note = md5(note || :d) WHERE id = :id;
COMMIT;
};
close $fh;
my ($out, $err) = ('', '');
my $bench = IPC::Run::start(
	[ 'pgbench', '-n', '-c', '2', '-T', '8', '-f', $script, '-h', $co->host,
	  '-p', $co->port, 'postgres' ],
	'>', \$out, '2>', \$err);

my $placements = q{
	SELECT string_agg(s.shardid::text, ' ' ORDER BY s.shardid)
	  FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid)
	  JOIN pg_dist_node n ON n.groupid = p.groupid
	 WHERE s.logicalrelid = 'acc'::regclass AND n.nodeport = %d};
my @on_w1 = split / /, $co->safe_psql('postgres', sprintf($placements, $w1->port));
ok(@on_w1 >= 2, 'worker1 holds shards of acc');
foreach my $shard (@on_w1[0 .. 1])
{
	$co->safe_psql('postgres', sprintf(
		q{SELECT citus_move_shard_placement(%d, '%s', %d, '%s', %d,
			shard_transfer_mode => 'force_logical')},
		$shard, $w1->host, $w1->port, $w2->host, $w2->port));
}
my @after = split / /, $co->safe_psql('postgres', sprintf($placements, $w1->port));
is(scalar(@after), scalar(@on_w1) - 2, 'two shards moved off worker1 under writes');
$bench->finish;
like($out, qr/number of failed transactions: 0/, 'pgbench wrote through the moves without a failure')
	or diag($err);
like($w2->safe_psql('postgres', $shard_ams), qr/^pax \d+$/,
	'the moved shards are pax tables on worker2');
is($co->safe_psql('postgres', sprintf($md5, 'acc')),
	$co->safe_psql('postgres', sprintf($md5, 'ctl')),
	'after the moves under writes: md5 equal to the control');

# rebalance: worker1 gets shards back
$co->safe_psql('postgres',
	q{SELECT rebalance_table_shards('acc', shard_transfer_mode => 'force_logical')});
my @w1 = split / /, $co->safe_psql('postgres', sprintf($placements, $w1->port));
my @w2 = split / /, $co->safe_psql('postgres', sprintf($placements, $w2->port));
ok(abs(@w1 - @w2) <= 1, 'after the rebalance the shards of acc are even: '
	. scalar(@w1) . ' and ' . scalar(@w2));
is($co->safe_psql('postgres', sprintf($md5, 'acc')),
	$co->safe_psql('postgres', sprintf($md5, 'ctl')),
	'after the rebalance: md5 equal to the control');
same_as_heap('after the rebalance, the colocated join', q{
	SELECT a.region, count(*), sum(h.amount) FROM acc a JOIN hist h ON h.acc_id = a.id
	 GROUP BY a.region ORDER BY a.region});
like($w1->safe_psql('postgres', $shard_ams), qr/^pax \d+$/,
	'the shards worker1 got back are pax tables');

$_->stop foreach values %nodes;
done_testing();
