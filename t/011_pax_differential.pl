# t/011_pax_differential.pl: a fixed-seed short run of the randomized
# differential test (bench/pax_diff.py): the same generated statements in a
# heap database and a pax database, rows, statuses and errors compared.
#
# The long run is `bench/run differential --minutes N`.  Bug classes of
# issue 12 that are not fixed yet are skipped (--skip-known, KNOWN in
# bench/pax_diff.py); a mismatch prints its shrunk repro script here.  Every
# WAL record the run wrote is decoded at its end (a replication slot keeps
# them, hence wal_level replica).

use strict;
use warnings;
use FindBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $script = "$FindBin::RealBin/../bench/pax_diff.py";
my $python = '/usr/bin/python3';
plan skip_all => 'psycopg2 is not installed (apt-get install python3-psycopg2)'
  unless system($python, '-c', 'import psycopg2') == 0;

my $node = PostgreSQL::Test::Cluster->new('differential');
$node->init(allows_streaming => 1);
$node->append_conf('postgresql.conf', q{
max_parallel_workers_per_gather = 2
max_worker_processes = 8
});
$node->start;

my $findings = "$PostgreSQL::Test::Utils::tmp_check/pax_diff_findings";
my $summary = "$PostgreSQL::Test::Utils::tmp_check/pax_diff_summary.json";
my ($stdout, $stderr);
my $ok = IPC::Run::run(
	[
		$python, $script, '--seed', '12', '--cases', '60', '--skip-known',
		'--findings', $findings, '--summary', $summary,
		'--shrink-seconds', '60',
		# restart_after_crash is off here: a crash is final, not waited out
		'--connect-wait', '5',
		'--host', $node->host, '--port', $node->port,
		'--user', scalar(getpwuid($<))
	],
	'>', \$stdout, '2>', \$stderr);
note $stderr;
ok($ok, 'fixed-seed differential run: pax gives heap\'s rows, statuses and errors')
  or diag $stderr;
like($stderr, qr/pax_diff: seed 12, 60 cases, \d+ statements run on each side/,
	'all 60 cases ran');
like($stderr, qr/pax_diff: every WAL record of the run decoded \(\d+\)/,
	'every WAL record of the run decodes (pg_walinspect)');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'the server is still up');
unlike(slurp_file($node->logfile), qr/terminated by signal|TRAP:|PANIC:/,
	'no crash or failed assertion in the server log');

$node->stop;
done_testing();
