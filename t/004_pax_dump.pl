# t/004_pax_dump.pl: pg_dump and pg_restore of a database with pax tables
# round-trip: the dump names the access method, the restored tables are pax
# and hold the same rows.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE DATABASE src;
	CREATE DATABASE dst;
});
$node->safe_psql('src', q{
	CREATE EXTENSION pax_am;
	CREATE TABLE p (id int, t text, f float8, big text) USING pax;
	INSERT INTO p SELECT i, 'row ' || i, i / 3.0,
		CASE WHEN i % 100 = 0 THEN repeat(md5(i::text), 200) END
	  FROM generate_series(1, 5000) i;
	INSERT INTO p VALUES (NULL, NULL, NULL, NULL);
	CREATE TABLE parent (id int, k int) PARTITION BY RANGE (id);
	CREATE TABLE part1 PARTITION OF parent FOR VALUES FROM (0) TO (100) USING pax;
	CREATE TABLE part2 PARTITION OF parent FOR VALUES FROM (100) TO (200) USING heap;
	INSERT INTO parent SELECT i, i % 7 FROM generate_series(0, 199) i;
	CREATE MATERIALIZED VIEW mv USING pax AS SELECT id, t FROM p WHERE id % 10 = 0;
});

my $dump = PostgreSQL::Test::Utils::tempdir() . '/src.dump';
$node->command_ok(
	[ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('src') ],
	'pg_dump of a database with pax tables');
my $sql = `pg_restore -f - $dump`;
like($sql, qr/(USING pax|SET default_table_access_method = pax)/,
	'the dump names the pax access method');
$node->command_ok(
	[ 'pg_restore', '-d', $node->connstr('dst'), $dump ],
	'pg_restore into another database');

my $ams = q{SELECT c.relname || ':' || a.amname FROM pg_class c
	JOIN pg_am a ON a.oid = c.relam
	WHERE c.relname IN ('p', 'part1', 'part2', 'mv') ORDER BY 1};
is($node->safe_psql('dst', $ams), "mv:pax\np:pax\npart1:pax\npart2:heap",
	'restored relations keep their access methods');
foreach my $q (
	q{SELECT count(*), sum(id), md5(string_agg(t || coalesce(big, ''), ',' ORDER BY id)) FROM p},
	q{SELECT count(*), sum(id * k) FROM parent},
	q{SELECT count(*), sum(id) FROM mv})
{
	is($node->safe_psql('dst', $q), $node->safe_psql('src', $q),
		'same rows after restore: ' . substr($q, 0, 40));
}

$node->stop;
done_testing();
