# t/010_pax_logical.pl: logical decoding sees nothing of pax changes, and
# says so.
#
# - wal_level = logical, a test_decoding slot: INSERT, UPDATE and DELETE of
#   a frozen pax table (every page all-visible, so each change first clears
#   the page's all-visible flag and visibility map bits) decode as nothing
#   but their transactions' BEGIN and COMMIT, TOASTed values too, while a
#   heap table's changes in the same transactions decode as usual;
# - a streaming standby replays the clearing (wal_consistency_checking on):
#   its visibility map loses the bits, so index-only scans on the standby
#   see the deleted and updated rows as gone, as on the primary;
# - the first pax write of a session warns that the slot misses it;
# - CREATE PUBLICATION and ALTER PUBLICATION warn when the publication
#   includes pax tables (FOR TABLE, FOR TABLES IN SCHEMA, FOR ALL TABLES,
#   a pax partition of a published partitioned table), and only then.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use PaxTAP;

my $primary = PostgreSQL::Test::Cluster->new('logical_primary');
$primary->init(allows_streaming => 'logical');
$primary->append_conf('postgresql.conf', qq{
autovacuum = off
shared_preload_libraries = 'pax_am'
wal_consistency_checking = 'heap2,heap,generic'
});
$primary->start;

$primary->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE EXTENSION pg_visibility;
	CREATE TABLE p (id int PRIMARY KEY, v text) USING pax;
	ALTER TABLE p ALTER COLUMN v SET STORAGE EXTERNAL;
	INSERT INTO p SELECT g, 'v' || g FROM generate_series(1, 600) g;
	CREATE TABLE h (id int PRIMARY KEY, v text) USING heap;
	VACUUM (FREEZE, ANALYZE) p;
});

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('logical_standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

is($primary->safe_psql('postgres',
		q{SELECT bool_and(all_visible AND all_frozen) FROM pg_visibility_map('p')}),
	't', 'the frozen table is all-visible');

$primary->safe_psql('postgres',
	q{SELECT pg_create_logical_replication_slot('s', 'test_decoding')});

# each statement finds its page all-visible: VACUUM FREEZE in between
my ($ret, $out, $err) = $primary->psql('postgres', q{
	UPDATE p SET v = 'changed' WHERE id = 5;
	VACUUM (FREEZE) p;
	DELETE FROM p WHERE id = 6;
	VACUUM (FREEZE) p;
	INSERT INTO p VALUES (1001, 'new');
	VACUUM (FREEZE) p;
	BEGIN;
	INSERT INTO h VALUES (1, 'heap');
	UPDATE p SET v = v || '!' WHERE id BETWEEN 300 AND 310;
	INSERT INTO p VALUES (1002, repeat(md5('x'), 500));
	UPDATE p SET v = repeat(md5('y'), 400) WHERE id = 8;
	DELETE FROM p WHERE id = 7;
	UPDATE h SET v = 'heap2' WHERE id = 1;
	COMMIT;
});
is($ret, 0, 'the writes succeed');
is($primary->safe_psql('postgres', q{
	SELECT pg_relation_size(reltoastrelid) > 0 FROM pg_class WHERE relname = 'p'}),
	't', 'the long values are stored out of line, in the TOAST table');
like($err, qr/WARNING:  changes to table "p" are not decoded by logical decoding/,
	'the first pax write of the session warns about the slot');
is(scalar(() = $err =~ /are not decoded by logical decoding/g), 1,
	'once per session');

my $changes = $primary->safe_psql('postgres', q{
	SELECT string_agg(data, E'\n' ORDER BY ord)
	  FROM (SELECT data, row_number() OVER () AS ord
	          FROM pg_logical_slot_get_changes('s', NULL, NULL,
	                 'include-xids', '0', 'skip-empty-xacts', '0')) c
	 WHERE data NOT LIKE 'BEGIN%' AND data NOT LIKE 'COMMIT%'});
is($changes,
	qq{table public.h: INSERT: id[integer]:1 v[text]:'heap'\n}
	  . qq{table public.h: UPDATE: id[integer]:1 v[text]:'heap2'},
	'pax changes decode as nothing, heap changes as usual');

# the standby cleared the bits too: index-only scans there are right
my @checks = (
	q{SELECT count(*) FILTER (WHERE all_visible), count(*) FILTER (WHERE all_frozen)
	    FROM pg_visibility_map('p')},
	q{SET enable_seqscan = off; SET enable_bitmapscan = off;
	  SELECT count(*), sum(id) FROM p WHERE id BETWEEN 1 AND 400},
	q{SET enable_seqscan = off; SET enable_bitmapscan = off;
	  SELECT id FROM p WHERE id IN (5, 6, 7, 8, 1001, 1002) ORDER BY id},
	q{SELECT id, md5(v) FROM p WHERE id IN (5, 8, 1002) ORDER BY id},
);
standby_matches($primary, $standby, 'clearing all-visible', 40, @checks);
my $plan = $standby->safe_psql('postgres', q{
	SET enable_seqscan = off; SET enable_bitmapscan = off;
	EXPLAIN (COSTS OFF) SELECT count(*) FROM p WHERE id BETWEEN 1 AND 400});
like($plan, qr/Index Only Scan/, 'the standby check uses an index-only scan');
is($standby->safe_psql('postgres', q{
	SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT count(*) FROM p WHERE id IN (6, 7)}),
	'0', 'standby: index-only scans do not see the deleted rows');

# publications
$primary->safe_psql('postgres', q{
	CREATE TABLE h2 (a int) USING heap;
	CREATE SCHEMA ps;
	CREATE TABLE ps.q (a int) USING pax;
	CREATE TABLE parted (a int) PARTITION BY RANGE (a);
	CREATE TABLE parted_1 PARTITION OF parted FOR VALUES FROM (0) TO (10) USING heap;
	CREATE TABLE parted_2 PARTITION OF parted FOR VALUES FROM (10) TO (20) USING pax;
});

sub pub_warnings
{
	my ($sql) = @_;
	my ($r, $o, $e) = $primary->psql('postgres', $sql);
	is($r, 0, "succeeds: $sql");
	return join("\n", grep { /WARNING|DETAIL/ } split(/\n/, $e));
}

is(pub_warnings('CREATE PUBLICATION pub_h FOR TABLE h, h2'), '',
	'a publication of heap tables: no warning');
like(pub_warnings('CREATE PUBLICATION pub_p FOR TABLE h, p'),
	qr/WARNING:  publication "pub_p" includes 1 table using the pax access method, whose changes are not replicated\nDETAIL:  .*: public\.p\./,
	'FOR TABLE of a pax table warns');
like(pub_warnings('ALTER PUBLICATION pub_h ADD TABLE p'),
	qr/publication "pub_h" includes 1 table using the pax access method/,
	'ALTER PUBLICATION ADD TABLE warns');
is(pub_warnings('ALTER PUBLICATION pub_h DROP TABLE p'), '',
	'ALTER PUBLICATION DROP TABLE: no warning');
like(pub_warnings('ALTER PUBLICATION pub_h SET TABLE h, ps.q'),
	qr/publication "pub_h" includes 1 table .*\nDETAIL:  .*: ps\.q\./,
	'ALTER PUBLICATION SET TABLE warns');
like(pub_warnings('CREATE PUBLICATION pub_s FOR TABLES IN SCHEMA ps'),
	qr/publication "pub_s" includes 1 table/,
	'FOR TABLES IN SCHEMA warns');
like(pub_warnings('CREATE PUBLICATION pub_part FOR TABLE parted WITH (publish_via_partition_root)'),
	qr/publication "pub_part" includes 1 table .*\nDETAIL:  .*: public\.parted_2\./,
	'a pax partition of a published partitioned table warns');
like(pub_warnings('CREATE PUBLICATION pub_all FOR ALL TABLES'),
	qr/publication "pub_all" includes 3 tables .*\nDETAIL:  .*: /,
	'FOR ALL TABLES warns, naming the pax tables');

$standby->stop;
$primary->stop;
done_testing();
