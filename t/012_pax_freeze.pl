# t/012_pax_freeze.pl: VACUUM's freezing of pax rows, and the relfrozenxid
# and relminmxid it leaves, against heap on the same workload.
#
# The workload writes the heap table and the pax table in the same
# transactions, so both hold the same xids and multixacts:
# - old rows, one transaction each, then updates, deletes, an aborted
#   insert, and row locks shared by two sessions (multixacts);
# - a few thousand transactions that touch neither table ("burn");
# - young rows, updates and shared locks again.
# Then, on both tables:
# - VACUUM with vacuum_freeze_min_age = 1000: every xid older than the freeze
#   limit must be frozen (the old rows), the young ones stay unfrozen, and
#   relfrozenxid / relminmxid become the oldest unfrozen xid / multixact
#   left: pax's must equal heap's;
# - more burnt xids, then an aggressive VACUUM (vacuum_freeze_table_age = 0)
#   with the same limits: equal again;
# - VACUUM (FREEZE): everything frozen; equal again, and relfrozenxid is
#   the VACUUM's OldestXmin (no xid of the workload left behind);
# - after each VACUUM: pax_verify finds nothing (it checks every xmin and
#   xmax against relfrozenxid and relminmxid), the rows equal heap's, and an
#   index scan returns them.
# Autovacuum is off and no checkpoint runs in between, so heap's
# opportunistic freezing (only when a full-page image is written anyway)
# never kicks in for either table: the results are deterministic.
#
# From PostgreSQL 16 on, heap (and pax, which follows it) decides freezing
# per page: a page with a row that must be frozen has every row it can
# freeze frozen, so relfrozenxid depends on which rows share a page.  The
# pax table is laid out unencoded (pax.encode_minipages = off), on which
# pages this workload's results equal heap's on 15 and 18; on encoded pages
# a row whose value leaves the page's range starts a new page, the young
# rows (ids from 2001) share pages with old ones differently, and on 16+
# relfrozenxid comes out newer than heap's (safe, not equal).  What must
# hold on any layout, that no unfrozen xid or multixact is older than
# relfrozenxid / relminmxid, pax_verify checks after each VACUUM.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('freeze');
$node->init;
$node->append_conf('postgresql.conf',
	"autovacuum = off\ncheckpoint_timeout = 1h\nmax_wal_size = 4GB\n"
	  . "pax.encode_minipages = off");
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE TABLE fh (id int, k int, t text) USING heap;
	CREATE TABLE fp (id int, k int, t text) USING pax;
	CREATE INDEX fh_id ON fh (id);
	CREATE INDEX fp_id ON fp (id);
	-- rows first .. first + n - 1, one transaction each, into both tables
	CREATE PROCEDURE load(first int, n int) LANGUAGE plpgsql AS $$
	BEGIN
		FOR i IN first .. first + n - 1 LOOP
			INSERT INTO fh VALUES (i, i % 10, 'row ' || i);
			INSERT INTO fp VALUES (i, i % 10, 'row ' || i);
			COMMIT;
		END LOOP;
	END $$;
	-- n transactions that touch neither table
	CREATE PROCEDURE burn(n int) LANGUAGE plpgsql AS $$
	BEGIN
		FOR i IN 1 .. n LOOP
			PERFORM pg_current_xact_id();
			COMMIT;
		END LOOP;
	END $$;
});

# change(sql naming the table TBL): run it on both tables, one transaction
sub change
{
	my ($sql) = @_;
	(my $h = $sql) =~ s/\bTBL\b/fh/g;
	(my $p = $sql) =~ s/\bTBL\b/fp/g;
	$node->safe_psql('postgres', "BEGIN; $h; $p; COMMIT;");
	return;
}

# shared_locks(where): two sessions share row locks on both tables and
# commit: the rows' xmax becomes a multixact
sub shared_locks
{
	my ($where) = @_;
	my @s = map { $node->background_psql('postgres') } 1 .. 2;
	for my $s (@s)
	{
		$s->query_safe('BEGIN');
		$s->query_safe("SELECT count(*) FROM (SELECT id FROM fh WHERE $where FOR SHARE) l");
		$s->query_safe("SELECT count(*) FROM (SELECT id FROM fp WHERE $where FOR SHARE) l");
	}
	for my $s (@s)
	{
		$s->query_safe('COMMIT');
		$s->quit;
	}
	return;
}

# the old rows
$node->safe_psql('postgres', 'CALL load(1, 1500)');
change('UPDATE TBL SET t = t || \' u\' WHERE id % 5 = 0');
change('DELETE FROM TBL WHERE id % 7 = 0');
$node->safe_psql('postgres', q{
	BEGIN;
	INSERT INTO fh SELECT i, 0, 'aborted' FROM generate_series(90001, 90100) i;
	INSERT INTO fp SELECT i, 0, 'aborted' FROM generate_series(90001, 90100) i;
	ROLLBACK;
});
shared_locks('id BETWEEN 100 AND 160');

$node->safe_psql('postgres', 'CALL burn(3000)');

# the young rows
$node->safe_psql('postgres', 'CALL load(2001, 300)');
change('UPDATE TBL SET k = k + 1 WHERE id BETWEEN 2001 AND 2100');
shared_locks('id BETWEEN 2200 AND 2250');

# checks(what): after VACUUM of both tables, with their pg_class values
sub checks
{
	my ($what) = @_;
	my ($h, $p) = map {
		$node->safe_psql('postgres',
			"SELECT relfrozenxid, relminmxid FROM pg_class WHERE relname = '$_'")
	} qw(fh fp);
	is($p, $h, "$what: pax relfrozenxid and relminmxid equal heap's ($h)");
	is($node->safe_psql('postgres', q{SELECT count(*) FROM pax_verify('fp')}),
		'0', "$what: pax_verify finds nothing");
	is( $node->safe_psql(
			'postgres', q{
		SELECT (SELECT count(*) FROM (SELECT * FROM fp EXCEPT ALL SELECT * FROM fh) a)
		     + (SELECT count(*) FROM (SELECT * FROM fh EXCEPT ALL SELECT * FROM fp) b)}),
		'0', "$what: the pax rows equal heap's");
	is( $node->safe_psql(
			'postgres', q{
		SET enable_seqscan = off; SET enable_bitmapscan = off;
		SET pax.enable_customscan = off;
		SELECT sum(id), count(*) FROM fp WHERE id BETWEEN 1 AND 3000}),
		$node->safe_psql(
			'postgres', q{SELECT sum(id), count(*) FROM fh WHERE id BETWEEN 1 AND 3000}),
		"$what: an index scan of pax returns heap's rows");
	return ($h, $p);
}

# 1. the old rows must be frozen, the young ones stay
my $settings = q{SET vacuum_freeze_min_age = 1000;
	SET vacuum_multixact_freeze_min_age = 0;};
my $before = $node->safe_psql('postgres',
	q{SELECT relfrozenxid FROM pg_class WHERE relname = 'fp'});
$node->safe_psql('postgres', "$settings VACUUM fh; VACUUM fp;");
my ($h) = checks('VACUUM, freeze_min_age 1000');
my $young = $node->safe_psql('postgres',
	q{SELECT min(xmin::text::bigint) FROM fh WHERE id > 2000});
my ($frozenxid) = split /\|/, $h;
cmp_ok($frozenxid, '>', $before, 'relfrozenxid advanced past the old rows');
cmp_ok($frozenxid, '<=', $young,
	'relfrozenxid is at or before the oldest young row (not frozen)');

# 2. an aggressive VACUUM, later
$node->safe_psql('postgres', 'CALL burn(500)');
$node->safe_psql('postgres',
	"$settings SET vacuum_freeze_table_age = 0; VACUUM fh; VACUUM fp;");
checks('aggressive VACUUM');

# 3. VACUUM (FREEZE): nothing of the workload left unfrozen
my $next = $node->safe_psql('postgres', q{SELECT pg_current_xact_id()::text});
$node->safe_psql('postgres', 'VACUUM (FREEZE) fh; VACUUM (FREEZE) fp;');
($h) = checks('VACUUM (FREEZE)');
($frozenxid) = split /\|/, $h;
cmp_ok($frozenxid, '>', $next, 'VACUUM (FREEZE) leaves no workload xid behind');

# 4. the frozen table still works: update, lock, delete, vacuum again
change('UPDATE TBL SET t = \'after freeze\' WHERE id % 11 = 0');
shared_locks('id BETWEEN 300 AND 320');
change('DELETE FROM TBL WHERE id % 13 = 0');
$node->safe_psql('postgres', "$settings VACUUM fh; VACUUM fp;");
checks('VACUUM after changes to frozen rows');

$node->stop;
done_testing();
