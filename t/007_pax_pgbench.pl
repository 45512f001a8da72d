# t/007_pax_pgbench.pl: pgbench on pax tables.
#
# pgbench -i -s 1 creates its tables as pax (default_table_access_method of
# the database); then 8 clients run, for PAX_PGBENCH_SECONDS (default 60)
# seconds, the built-in TPC-B-like script (READ COMMITTED: concurrent
# updates of one row go through EvalPlanQual) mixed with a transfer script
# between hot accounts under REPEATABLE READ (serialization failures,
# retried by pgbench).  pgbench must end without failed transactions, and
# the books must balance: every account's balance is the sum of its history
# deltas, and likewise for tellers and branches; each row has one visible
# version, and index scans agree with sequential scans, also after VACUUM.
#
# PAX_TEST_AM (default pax) names the access method under test; set it to
# heap to check the test itself against heap.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $am = $ENV{PAX_TEST_AM} // 'pax';
my $seconds = $ENV{PAX_PGBENCH_SECONDS} // 60;

my $node = PostgreSQL::Test::Cluster->new('pgbench');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_connections = 40
shared_buffers = 128MB
});
$node->start;
$node->safe_psql('postgres', qq{
	CREATE EXTENSION pax_am;
	ALTER DATABASE postgres SET default_table_access_method = $am;
});

$node->pgbench('-i -s 1', 0, [qr{^$}], [qr{done in}], 'pgbench -i -s 1');
is($node->safe_psql('postgres', q{
	SELECT string_agg(c.relname || ':' || a.amname, ',' ORDER BY c.relname)
	  FROM pg_class c JOIN pg_am a ON a.oid = c.relam
	 WHERE c.relname LIKE 'pgbench\_%' AND c.relkind = 'r'}),
	"pgbench_accounts:$am,pgbench_branches:$am,pgbench_history:$am,pgbench_tellers:$am",
	"pgbench's tables are $am tables");

# transfers between the first 100 accounts, lower account first (no
# deadlocks), logged in the history without teller and branch
my $transfer = q{
\set a1 random(1, 100)
\set a2 random(1, 100)
\set lo least(:a1, :a2)
\set hi greatest(:a1, :a2)
\set amount random(1, 1000)
BEGIN ISOLATION LEVEL REPEATABLE READ;
UPDATE pgbench_accounts SET abalance = abalance - :amount WHERE aid = :lo;
UPDATE pgbench_accounts SET abalance = abalance + :amount WHERE aid = :hi;
INSERT INTO pgbench_history (aid, delta, mtime) VALUES (:lo, -:amount, now()), (:hi, :amount, now());
END;
};

$node->pgbench(
	"--client=8 --jobs=4 --time=$seconds --max-tries=0 --builtin=tpcb-like\@3",
	0,
	[
		qr{number of failed transactions: 0 \(0\.000%\)},
		qr{number of transactions actually processed: [1-9][0-9]*},
	],
	[qr{^(?:(?!ERROR|aborted|FATAL|PANIC|error).)*$}s],
	"pgbench: $seconds seconds of tpcb-like and transfers, 8 clients, no failures",
	{ 'pax_transfer@1' => $transfer });

# the books balance
my %invariants = (
	'accounts: balance = sum of its deltas' => q{
		SELECT count(*) FROM pgbench_accounts a
		  LEFT JOIN (SELECT aid, sum(delta) AS s FROM pgbench_history GROUP BY aid) h USING (aid)
		 WHERE a.abalance <> coalesce(h.s, 0)},
	'tellers: balance = sum of their deltas' => q{
		SELECT count(*) FROM pgbench_tellers t
		  LEFT JOIN (SELECT tid, sum(delta) AS s FROM pgbench_history WHERE tid IS NOT NULL GROUP BY tid) h USING (tid)
		 WHERE t.tbalance <> coalesce(h.s, 0)},
	'branches: balance = sum of their deltas' => q{
		SELECT count(*) FROM pgbench_branches b
		  LEFT JOIN (SELECT bid, sum(delta) AS s FROM pgbench_history WHERE bid IS NOT NULL GROUP BY bid) h USING (bid)
		 WHERE b.bbalance <> coalesce(h.s, 0)},
	'sum(abalance) = sum(delta) = sum(tbalance) = sum(bbalance)' => q{
		SELECT count(*) FROM (SELECT (SELECT sum(abalance) FROM pgbench_accounts) AS a,
		                             (SELECT coalesce(sum(delta), 0) FROM pgbench_history) AS h,
		                             (SELECT sum(tbalance) FROM pgbench_tellers) AS t,
		                             (SELECT sum(bbalance) FROM pgbench_branches) AS b) s
		 WHERE a <> h OR t <> h OR b <> h},
	'one visible version of every account, teller and branch' => q{
		SELECT (SELECT count(*) - 100000 + count(*) - count(DISTINCT aid) FROM pgbench_accounts)
		     + (SELECT count(*) - 10 + count(*) - count(DISTINCT tid) FROM pgbench_tellers)
		     + (SELECT count(*) - 1 + count(*) - count(DISTINCT bid) FROM pgbench_branches)},
);

my $index_scan = q{SET enable_seqscan = off; SET pax.enable_customscan = off; SET enable_bitmapscan = off;};
my $sums = q{SELECT count(*), sum(abalance), sum(aid::bigint * abalance) FROM pgbench_accounts WHERE aid BETWEEN 1 AND 100000};

sub books_balance
{
	my ($what) = @_;
	foreach my $name (sort keys %invariants)
	{
		is($node->safe_psql('postgres', $invariants{$name}), '0', "$what: $name");
	}
	like($node->safe_psql('postgres', "$index_scan EXPLAIN (COSTS OFF) $sums"),
		qr/Index (Only )?Scan using pgbench_accounts_pkey/, "$what: accounts read through the primary key");
	is($node->safe_psql('postgres', "$index_scan $sums"),
		$node->safe_psql('postgres', $sums),
		"$what: index scan of the accounts equals a sequential scan");
}

ok($node->safe_psql('postgres', q{SELECT count(*) FROM pgbench_history}) > 0,
	'pgbench wrote history');
ok($node->safe_psql('postgres',
		q{SELECT count(*) FROM pgbench_history WHERE tid IS NULL}) > 0,
	'transfers committed');
books_balance('after pgbench');
$node->safe_psql('postgres', q{VACUUM pgbench_accounts, pgbench_tellers, pgbench_branches, pgbench_history});
books_balance('after VACUUM');

if ($am eq 'pax')
{
	is( $node->safe_psql(
			'postgres',
			q{SELECT count(*) FROM pg_class c CROSS JOIN LATERAL pax_verify(c.oid) v
			  WHERE c.relname LIKE 'pgbench%' AND c.relkind = 'r'}),
		'0',
		'pax_verify finds nothing in the pgbench tables');
}

$node->stop;
done_testing();
