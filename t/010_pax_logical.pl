# t/010_pax_logical.pl: logical decoding of pax tables (pax_logical.c).
#
# - pax_am preloaded, wal_level = logical: one scripted workload decodes
#   through test_decoding on a pax table exactly as on a heap table: INSERT
#   of one row and of many, COPY, UPDATE of key and non-key columns, DELETE,
#   TOASTed values (external, compressed inline, unchanged by an update),
#   subtransactions (committed, rolled back), INSERT ... ON CONFLICT (DO
#   UPDATE, DO NOTHING), REPLICA IDENTITY DEFAULT, FULL, USING INDEX and
#   NOTHING, a transaction larger than logical_decoding_work_mem (spilled
#   to disk; and streamed, with stream-changes), TRUNCATE, a rolled-back
#   transaction, two-phase commit; on a frozen table too (each change first
#   clears the page's all-visible flag); COPY of thousands of rows of many
#   types (encoded minipages, a dropped column, TOAST, NULLs), before and
#   after a column is added, whose new pages decode from their images
#   (XLOG_PAX_PAGE_ROWS); CREATE TABLE AS and INSERT ... SELECT, whose rows
#   pax keeps and places in batches, also when a subtransaction that rolls
#   back places them (their records name the rows' subtransaction); a COPY
#   into a table of no columns;
# - a streaming standby (pax_am preloaded) replays it all, every record
#   checked by wal_consistency_checking = 'all,pax' (pax's page changes are pax
#   records then, masked by PaxPageMask): the same rows, and index-only
#   scans see the cleared visibility map bits;
# - pg_walinspect describes the pax records;
#   CREATE PUBLICATION of pax tables does not warn;
# - without pax_am preloaded, under wal_level = logical: a write to a pax
#   table fails with an error naming shared_preload_libraries and changes
#   nothing (heap tables and unlogged pax tables are written as usual), and
#   CREATE / ALTER PUBLICATION of pax tables warns; under wal_level =
#   replica pax tables are written as usual; ALTER TABLE's rewrites, REFRESH
#   MATERIALIZED VIEW and VACUUM FULL of pax tables are allowed (decoding
#   skips their transient tables) and decode as heap's, and so does an
#   INSERT into the rewritten table once pax_am is preloaded.

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
wal_consistency_checking = 'all,pax'
logical_decoding_work_mem = 64kB
max_prepared_transactions = 5
});
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE EXTENSION pg_visibility;
	-- an index expression that lies about being immutable: with t.on set,
	-- its second call after t.n was reset returns 1, so that an INSERT ...
	-- ON CONFLICT whose check found no conflict meets one when it inserts
	-- its index entry, and kills its speculative row (then retries)
	CREATE FUNCTION flip(int) RETURNS int IMMUTABLE LANGUAGE plpgsql AS $$
	DECLARE n int := coalesce(nullif(current_setting('t.n', true), ''), '0')::int;
	BEGIN
		PERFORM set_config('t.n', (n + 1)::text, false);
		IF current_setting('t.on', true) = '1' AND n = 1 THEN RETURN 1; END IF;
		RETURN $1;
	END $$;
});

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('logical_standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

# The workload, on table t of access method AM.  Its VACUUMs do not
# truncate: truncating takes an xid (LogAccessExclusiveLock), an empty
# transaction in the output, and pax's pages empty where heap's do not.  Row counts above
# logical_decoding_work_mem make the big transaction spill (and stream).
my $workload = q{
CREATE TABLE t (id int PRIMARY KEY, k int NOT NULL, v text, n numeric, w text) USING AM;
CREATE UNIQUE INDEX t_k ON t (k);
ALTER TABLE t ALTER COLUMN w SET STORAGE EXTERNAL;
INSERT INTO t VALUES (1, 1, 'one', 1.5, NULL);
INSERT INTO t SELECT g, g, 'v' || g, g / 3.0, NULL FROM generate_series(2, 40) g;
COPY t FROM STDIN;
41	41	c41	41	\N
42	42	\N	\N	w42
43	43	c43	43.5	\N
\.
UPDATE t SET v = 'upd' WHERE id = 2;
UPDATE t SET id = 102 WHERE id = 3;
UPDATE t SET v = NULL, n = NULL WHERE id = 4;
DELETE FROM t WHERE id = 5;
INSERT INTO t VALUES (1000, 1000, repeat('compressible ', 800), 0, repeat(md5('a'), 300));
UPDATE t SET n = 1 WHERE id = 1000;
UPDATE t SET w = repeat(md5('b'), 300) WHERE id = 1000;
UPDATE t SET id = 1001 WHERE id = 1000;
BEGIN;
INSERT INTO t VALUES (50, 50, 'sub0', 0, NULL);
SAVEPOINT s1;
INSERT INTO t VALUES (51, 51, 'sub1', 0, NULL);
ROLLBACK TO s1;
SAVEPOINT s2;
UPDATE t SET v = 'sub2' WHERE id = 6;
DELETE FROM t WHERE id = 7;
RELEASE s2;
COMMIT;
BEGIN;
INSERT INTO t VALUES (60, 60, 'rolled back', 0, NULL);
ROLLBACK;
INSERT INTO t VALUES (6, 6, 'conflict', 0, NULL) ON CONFLICT (id) DO UPDATE SET v = 'upserted';
INSERT INTO t VALUES (61, 61, 'fresh', 0, NULL) ON CONFLICT (id) DO NOTHING;
INSERT INTO t VALUES (61, 61, 'again', 0, NULL) ON CONFLICT (id) DO NOTHING;
INSERT INTO t VALUES (62, 62, 'both', 0, NULL), (8, 8, 'dup', 0, NULL) ON CONFLICT (id) DO UPDATE SET n = excluded.n + 1;
CREATE TABLE sa (k int, v text) USING AM;
CREATE UNIQUE INDEX sa_k ON sa (flip(k));
INSERT INTO sa VALUES (1, 'one');
SELECT set_config('t.n', '0', false), set_config('t.on', '1', false);
INSERT INTO sa VALUES (2, 'two') ON CONFLICT DO NOTHING;
SELECT set_config('t.on', '0', false);
DROP TABLE sa;
ALTER TABLE t REPLICA IDENTITY FULL;
UPDATE t SET n = 7 WHERE id = 9;
DELETE FROM t WHERE id = 10;
DELETE FROM t WHERE id = 1001;
ALTER TABLE t REPLICA IDENTITY USING INDEX t_k;
UPDATE t SET k = 1011 WHERE id = 11;
UPDATE t SET v = 'not the key' WHERE id = 12;
DELETE FROM t WHERE id = 13;
ALTER TABLE t REPLICA IDENTITY NOTHING;
UPDATE t SET n = 8 WHERE id = 14;
DELETE FROM t WHERE id = 15;
ALTER TABLE t REPLICA IDENTITY DEFAULT;
BEGIN;
INSERT INTO t SELECT g, g, 'bulk' || g, g, NULL FROM generate_series(2000, 2800) g;
UPDATE t SET v = v || '!' WHERE id BETWEEN 2000 AND 2100;
DELETE FROM t WHERE id BETWEEN 2500 AND 2550;
COMMIT;
BEGIN;
INSERT INTO t VALUES (70, 70, 'prepared', 0, NULL);
PREPARE TRANSACTION 'p1';
COMMIT PREPARED 'p1';
VACUUM (FREEZE, TRUNCATE false) t;
UPDATE t SET v = 'on a frozen page' WHERE id = 16;
VACUUM (FREEZE, TRUNCATE false) t;
DELETE FROM t WHERE id = 17;
TRUNCATE t;
INSERT INTO t VALUES (1, 1, 'after truncate', 0, NULL);
CREATE TABLE b (id int, small int2, big int8, num numeric(12,3), f8 float8, f4 float4,
	tag text, pre text, d date, ts timestamptz, gone int, toasty text) USING AM;
ALTER TABLE b DROP COLUMN gone;
ALTER TABLE b ALTER COLUMN toasty SET STORAGE EXTERNAL;
COPY b FROM PROGRAM $$seq 1 3000 | awk -v OFS='	' '{ print $1, $1 % 7, sprintf("%d", $1 * 1000003), ($1 % 1000) / 8, $1 / 3, ($1 % 50) / 4, ($1 % 5 == 0) ? "\\N" : "tag" ($1 % 4), "https://example.com/a/long/path/" $1, "2024-01-" ($1 % 28 + 1), "2024-02-03 04:05:06+00", ($1 % 1000 == 7) ? sprintf("%4000d", $1) : "\\N" }'$$;
ALTER TABLE b ADD COLUMN extra numeric DEFAULT 2.50;
BEGIN;
COPY b FROM PROGRAM $$seq 3001 3600 | awk -v OFS='	' '{ print $1, $1 % 7, -$1, ($1 % 100) / 4, $1 / 7, $1 % 9, "tag", "pre" $1, "2024-03-01", "\\N", "\\N", ($1 % 3) ".10" }'$$;
SAVEPOINT c;
COPY b (id) FROM PROGRAM 'seq 3601 4000';
ROLLBACK TO c;
COMMIT;
CREATE TABLE c USING AM AS SELECT g AS id, g % 10 AS k, 'c' || g AS v FROM generate_series(1, 2500) g;
INSERT INTO c SELECT g, g % 10, 'ins' || g FROM generate_series(2501, 4000) g;
CREATE FUNCTION peek_c() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
	BEGIN
		PERFORM count(*) FROM c;
		RAISE EXCEPTION 'undone';
	EXCEPTION WHEN others THEN NULL;
	END;
	RETURN 7;
END $$;
BEGIN;
SAVEPOINT k;
INSERT INTO c SELECT g, peek_c(), 'peek' || g FROM generate_series(4001, 4300) g;
RELEASE k;
SAVEPOINT k2;
INSERT INTO c SELECT g, 0, 'gone' || g FROM generate_series(4301, 4600) g;
ROLLBACK TO k2;
COMMIT;
DROP FUNCTION peek_c();
CREATE TABLE z () USING AM;
COPY z FROM PROGRAM 'seq 1 1200 | sed "s/.*//"';
DROP TABLE z;
};

# decode(am, options): the workload's changes on AM through a new slot
sub decode
{
	my ($am, @options) = @_;
	my $opts = join('', map { ", '$_'" } @options);
	$primary->safe_psql('postgres', q{
		SELECT pg_create_logical_replication_slot('s', 'test_decoding')});
	(my $sql = $workload) =~ s/\bAM\b/$am/g;
	$primary->safe_psql('postgres', $sql);
	my $out = $primary->safe_psql('postgres', qq{
		SELECT string_agg(data, E'\\n' ORDER BY ord)
		  FROM (SELECT data, row_number() OVER () AS ord
		          FROM pg_logical_slot_get_changes('s', NULL, NULL,
		                 'include-xids', '0'$opts)) c});
	$primary->safe_psql('postgres', q{
		SELECT pg_drop_replication_slot('s')});
	return $out;
}

my $heap = decode('heap');
$primary->safe_psql('postgres', 'DROP TABLE t, b, c');
my $pax = decode('pax');
$primary->wait_for_catchup($standby);
my %pax_rows = (
	rows => $primary->safe_psql('postgres', 'SELECT * FROM t ORDER BY id'),
	standby => $standby->safe_psql('postgres', 'SELECT * FROM t ORDER BY id'),
	b_rows => $primary->safe_psql('postgres', 'SELECT * FROM b ORDER BY id'),
	b_standby => $standby->safe_psql('postgres', 'SELECT * FROM b ORDER BY id'),
	c_forms => $primary->safe_psql('postgres', q{
		SELECT form, count(*) > 1 FROM pax_page_stats('c') GROUP BY form ORDER BY form}));
$primary->safe_psql('postgres', 'DROP TABLE t, b, c');

# the workload touched what it is meant to
like($heap, qr/UPDATE: old-key: id\[integer\]:3 new-tuple: id\[integer\]:102 /,
	'heap: a key update decodes with the old key');
like($heap, qr/unchanged-toast-datum/, 'heap: an unchanged TOAST value');
like($heap, qr/compressible compressible/, 'heap: a compressed value');
like($heap, qr/INSERT: id\[integer\]:2800 /, 'heap: the big transaction');
like($heap, qr/TRUNCATE: \(no-flags\)/, 'heap: TRUNCATE');
like($heap, qr/DELETE: id\[integer\]:10 k\[integer\]:10 v\[text\]:'v10'/,
	'heap: REPLICA IDENTITY FULL logs the old row');
like($heap, qr/DELETE: k\[integer\]:13\n/, 'heap: REPLICA IDENTITY USING INDEX logs the index key');
like($heap, qr/DELETE: \(no-tuple-data\)/, 'heap: REPLICA IDENTITY NOTHING');
like($heap, qr/'prepared'/, 'heap: a prepared transaction');
like($heap, qr/table public.b: INSERT: id\[integer\]:3000 .*toasty\[text\]:null/,
	'heap: the bulk COPY');
like($heap, qr/table public.b: INSERT: id\[integer\]:3600 .*extra\[numeric\]:0.10/,
	'heap: the COPY after a column was added');
unlike($heap, qr/table public.b: INSERT: id\[integer\]:3601 /, 'heap: the rolled back COPY decodes as nothing');
like($heap, qr/table public.z: INSERT:\n/, 'heap: a COPY into a table of no columns');
like($heap, qr/table public.c: INSERT: id\[integer\]:2500 k\[integer\]:0 v\[text\]:'c2500'/,
	'heap: CREATE TABLE AS');
like($heap, qr/table public.c: INSERT: id\[integer\]:4300 k\[integer\]:7 v\[text\]:'peek4300'/,
	'heap: an INSERT whose rows a rolled back subtransaction read');
unlike($heap, qr/'gone4301'/, 'heap: a rolled back INSERT ... SELECT decodes as nothing');
like($heap, qr/table public.sa: INSERT: k\[integer\]:1 v\[text\]:'one'\n.*\n.*\ntable public.sa: INSERT: k\[integer\]:2 v\[text\]:'two'\n/,
	'heap: a speculative insertion killed and retried decodes as one INSERT');
is($pax, $heap, 'pax decodes as heap');

# the flip() index does kill a speculative insertion, on both
foreach my $am ('heap', 'pax')
{
	is($primary->safe_psql('postgres', qq{
		CREATE TABLE sa (k int, v text) USING $am;
		CREATE UNIQUE INDEX sa_k ON sa (flip(k));
		INSERT INTO sa VALUES (1, 'one');
		SELECT set_config('t.n', '0', false), set_config('t.on', '1', false) \\g /dev/null
		BEGIN;
		INSERT INTO sa VALUES (2, 'two') ON CONFLICT DO NOTHING;
		SELECT n_tup_del FROM pg_stat_xact_user_tables WHERE relname = 'sa';
		COMMIT;
		DROP TABLE sa;}),
		'1', "$am: the speculative insertion was killed (a delete) and retried");
}

my $heap_streamed = decode('heap', 'stream-changes', '1');
$primary->safe_psql('postgres', 'DROP TABLE t, b, c');
my $pax_streamed = decode('pax', 'stream-changes', '1');
$primary->safe_psql('postgres', 'DROP TABLE t, b, c');
$heap_streamed =~ s/transaction \d+/transaction X/g;
$pax_streamed =~ s/transaction \d+/transaction X/g;
like($heap_streamed, qr/streaming change for transaction/,
	'heap: the big transaction is streamed');
like($pax_streamed, qr/opening a streamed block for transaction/,
	'pax: the big transaction is streamed');
# The same changes, commits and aborts in the same order.  Where a streamed
# block closes follows the reorder buffer's memory as changes come, which
# is not the same on both since pax places the rows of INSERT ... SELECT
# and CREATE TABLE AS in batches under logical decoding too (17 blocks
# against heap's 24 when that came in).
(my $heap_changes = $heap_streamed) =~ s/^(opening|closing) a streamed block.*\n//mg;
(my $pax_changes = $pax_streamed) =~ s/^(opening|closing) a streamed block.*\n//mg;
is($pax_changes, $heap_changes, 'pax streams the changes heap streams');

is($pax_rows{standby}, $pax_rows{rows}, 'the standby has the same rows');
is($pax_rows{rows}, "1|1|after truncate|0|", 'the workload left one row');
is($pax_rows{b_standby}, $pax_rows{b_rows}, 'the standby has the bulk table\'s rows');
like($pax_rows{b_rows}, qr/^3600\|/m, 'the bulk table has its rows');
like($pax_rows{c_forms}, qr/^compact\|t$/m,
	'under logical decoding, CREATE TABLE AS and INSERT ... SELECT fill compact pages');

# a frozen table: each change first clears the page's all-visible bits,
# which the standby replays (index-only scans there must not see old rows)
$primary->safe_psql('postgres', q{
	CREATE TABLE p (id int PRIMARY KEY, v text) USING pax;
	ALTER TABLE p ALTER COLUMN v SET STORAGE EXTERNAL;
	INSERT INTO p SELECT g, 'v' || g FROM generate_series(1, 600) g;
	VACUUM (FREEZE, ANALYZE) p;
	SELECT pg_create_logical_replication_slot('f', 'test_decoding');
	UPDATE p SET v = 'changed' WHERE id = 5;
	VACUUM (FREEZE) p;
	DELETE FROM p WHERE id = 6;
	VACUUM (FREEZE) p;
	INSERT INTO p VALUES (1001, 'new');
	VACUUM (FREEZE) p;
	BEGIN;
	UPDATE p SET v = v || '!' WHERE id BETWEEN 300 AND 302;
	INSERT INTO p VALUES (1002, repeat(md5('x'), 500));
	UPDATE p SET v = repeat(md5('y'), 400) WHERE id = 8;
	DELETE FROM p WHERE id = 7;
	COMMIT;
});
my $frozen = $primary->safe_psql('postgres', q{
	SELECT string_agg(left(data, 70), E'\n' ORDER BY ord)
	  FROM (SELECT data, row_number() OVER () AS ord
	          FROM pg_logical_slot_get_changes('f', NULL, NULL,
	                 'include-xids', '0', 'skip-empty-xacts', '1')) c
	 WHERE data NOT LIKE 'BEGIN%' AND data NOT LIKE 'COMMIT%'});
is($frozen,
	join("\n",
		"table public.p: UPDATE: id[integer]:5 v[text]:'changed'",
		"table public.p: DELETE: id[integer]:6",
		"table public.p: INSERT: id[integer]:1001 v[text]:'new'",
		"table public.p: UPDATE: id[integer]:300 v[text]:'v300!'",
		"table public.p: UPDATE: id[integer]:301 v[text]:'v301!'",
		"table public.p: UPDATE: id[integer]:302 v[text]:'v302!'",
		"table public.p: INSERT: id[integer]:1002 v[text]:'9dd4e461268c8034f5c8",
		"table public.p: UPDATE: id[integer]:8 v[text]:'415290769594460e2e48592",
		"table public.p: DELETE: id[integer]:7"),
	'changes to a frozen table decode');
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
$primary->safe_psql('postgres', q{SELECT pg_drop_replication_slot('f')});

# preloaded, a publication of pax tables is fine
my ($pret, $pout, $perr) = $primary->psql('postgres',
	'CREATE PUBLICATION pub_all FOR ALL TABLES; CREATE PUBLICATION pub_p FOR TABLE p');
is($pret, 0, 'publications of pax tables');
unlike($perr, qr/WARNING/, 'no warning when pax_am is preloaded');

# pg_walinspect describes the records (pg_waldump, a client program, cannot
# load our descriptions: it shows them as custom138 records)
$primary->safe_psql('postgres', 'CREATE EXTENSION pg_walinspect');
my $lsn = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
$primary->safe_psql('postgres', q{
	INSERT INTO p VALUES (2000, 'walinspect');
	UPDATE p SET v = 'walinspect2' WHERE id = 2000;
	DELETE FROM p WHERE id = 2000;
});
my $end = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
is($primary->safe_psql('postgres', qq{
	SELECT string_agg(record_type || ' ' || regexp_replace(description, 'rel [0-9/]+', 'rel R'), E'\n' ORDER BY start_lsn)
	  FROM pg_get_wal_records_info('$lsn', '$end')
	 WHERE resource_manager = 'pax' AND record_type <> 'PAGE'}),
	"INSERT rel R ntuples 1 flags 0x02\nUPDATE rel R ntuples 1 flags 0x00\nDELETE rel R ntuples 0 flags 0x04",
	'pg_walinspect describes the pax logical records');
like($primary->safe_psql('postgres', qq{
	SELECT string_agg(description, E'\n' ORDER BY start_lsn)
	  FROM pg_get_wal_records_info('$lsn', '$end')
	 WHERE resource_manager = 'pax' AND record_type = 'PAGE'}),
	qr/^\d+ fragments, \d+ bytes$/m,
	'pg_walinspect describes the pax page records');

# a COPY's new pages are logged once, as images its rows decode from
$lsn = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
$primary->safe_psql('postgres', q{
	CREATE TABLE cp (id int, v text) USING pax;
	COPY cp (id) FROM PROGRAM 'seq 1 5000';
});
$end = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
# (each batch of 1,000 rows but the first tops up the page the last one
# left part full: those rows are logged as an INSERT record, as heap's)
is($primary->safe_psql('postgres', qq{
	SELECT sum(substring(description FROM 'ntuples ([0-9]+)')::int)
	         FILTER (WHERE record_type = 'PAGE_ROWS') > 4000,
	       sum(substring(description FROM 'ntuples ([0-9]+)')::int)
	         FILTER (WHERE record_type IN ('PAGE_ROWS', 'INSERT'))
	  FROM pg_get_wal_records_info('$lsn', '$end')
	 WHERE resource_manager = 'pax'}),
	't|5000', 'a COPY\'s new pages carry their rows (PAGE_ROWS), the rest are INSERT records');

$standby->stop;
$primary->stop;

# Without pax_am preloaded.
my $plain = PostgreSQL::Test::Cluster->new('logical_not_preloaded');
$plain->init(allows_streaming => 'logical');
$plain->append_conf('postgresql.conf',
	"autovacuum = off\nshared_preload_libraries = ''\nwal_consistency_checking = ''\n");
$plain->start;
$plain->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE TABLE h (a int) USING heap;
	CREATE TABLE q (a int) USING pax;
	CREATE UNLOGGED TABLE u (a int) USING pax;
});
my ($ret, $out, $err) = $plain->psql('postgres', 'INSERT INTO q VALUES (1)');
isnt($ret, 0, 'without the library preloaded, a pax write fails');
like($err,
	qr/ERROR:  cannot write to table "q" while wal_level is "logical"\nDETAIL:  .*shared_preload_libraries.*\nHINT:  Add pax_am to shared_preload_libraries/,
	'the error says what to do');
($ret, $out, $err) = $plain->psql('postgres', q{COPY q FROM PROGRAM 'seq 1 3'});
like($err, qr/cannot write to table "q"/, 'COPY fails too');
is($plain->safe_psql('postgres', q{
	INSERT INTO h VALUES (1); INSERT INTO u VALUES (1);
	SELECT (SELECT count(*) FROM h), (SELECT count(*) FROM u), (SELECT count(*) FROM q)}),
	'1|1|0', 'heap and unlogged pax tables are written; the pax table is unchanged');

# (a backend warns once it has loaded pax_am: here by reading a pax table;
# one that has not touched pax yet has no hook to warn with, and its
# writes fail as above)
sub pub_warnings
{
	my ($sql) = @_;
	my ($r, $o, $e) = $plain->psql('postgres', "SELECT count(*) FROM q; $sql");
	is($r, 0, "succeeds: $sql");
	return join("\n", grep { /WARNING|DETAIL/ } split(/\n/, $e));
}
$plain->safe_psql('postgres', q{
	CREATE SCHEMA ps;
	CREATE TABLE ps.q2 (a int) USING pax;
	CREATE TABLE parted (a int) PARTITION BY RANGE (a);
	CREATE TABLE parted_1 PARTITION OF parted FOR VALUES FROM (0) TO (10) USING heap;
	CREATE TABLE parted_2 PARTITION OF parted FOR VALUES FROM (10) TO (20) USING pax;
});
is(pub_warnings('CREATE PUBLICATION pub_h FOR TABLE h'), '',
	'a publication of heap tables: no warning');
like(pub_warnings('CREATE PUBLICATION pub_p FOR TABLE h, q'),
	qr/WARNING:  publication "pub_p" includes 1 table using the pax access method, which cannot be replicated without pax_am in shared_preload_libraries\nDETAIL:  .*: public\.q\./,
	'FOR TABLE of a pax table warns');
like(pub_warnings('ALTER PUBLICATION pub_h ADD TABLE q'),
	qr/publication "pub_h" includes 1 table using the pax access method/,
	'ALTER PUBLICATION ADD TABLE warns');
like(pub_warnings('CREATE PUBLICATION pub_s FOR TABLES IN SCHEMA ps'),
	qr/publication "pub_s" includes 1 table/, 'FOR TABLES IN SCHEMA warns');
like(pub_warnings('CREATE PUBLICATION pub_part FOR TABLE parted WITH (publish_via_partition_root)'),
	qr/DETAIL:  .*: public\.parted_2\./,
	'a pax partition of a published partitioned table warns');

# wal_level = replica: pax tables are written as usual
$plain->append_conf('postgresql.conf', "wal_level = replica\n");
$plain->safe_psql('postgres', 'DROP PUBLICATION pub_h, pub_p, pub_s, pub_part');
$plain->restart;
is($plain->safe_psql('postgres', 'INSERT INTO q VALUES (1); SELECT count(*) FROM q'),
	'1', 'under wal_level = replica a pax write needs no preloading');

# Back under wal_level = logical, still not preloaded: ALTER TABLE's
# rewrite of a pax table writes a transient table (relrewrite set), whose
# changes decoding skips, as heap's: it is allowed, as VACUUM FULL is, and
# decodes as heap's does (nothing); the rewritten table's changes decode as
# heap's once pax_am is preloaded.  Each table of AM gets its rows (a
# TOASTed one too) under wal_level = replica.
my $ct_rows = q{
	CREATE TABLE ct_AM (id int, v int4, w text) USING AM;
	ALTER TABLE ct_AM ALTER COLUMN w SET STORAGE EXTERNAL;
	INSERT INTO ct_AM SELECT g, g * 10, 'w' || g FROM generate_series(1, 100) g;
	INSERT INTO ct_AM VALUES (101, 1010, repeat(md5('x'), 200));
	CREATE MATERIALIZED VIEW cm_AM USING AM AS
		SELECT g AS id, g * 10 AS v FROM generate_series(1, 101) g;
};
(my $ct_pax = $ct_rows) =~ s/AM/pax/g;
(my $ct_heap = $ct_rows) =~ s/AM/heap/g;
$plain->safe_psql('postgres', $ct_pax . $ct_heap);
$plain->append_conf('postgresql.conf', "wal_level = logical\n");
$plain->restart;
$plain->safe_psql('postgres',
	q{SELECT pg_create_logical_replication_slot('rw', 'test_decoding')});

# rewrite(am, sql): the changes decoded after sql on AM's tables, with the
# tables' names and the rewrite's transient table's number made alike
sub rewrite
{
	my ($am, $sql) = @_;
	$sql =~ s/AM/$am/g;
	my ($r, $o, $e) = $plain->psql('postgres', $sql);
	is($r, 0, "succeeds on $am: $sql") or diag($e);
	my $changes = $plain->safe_psql('postgres', q{
		SELECT string_agg(data, E'\n' ORDER BY lsn)
		  FROM pg_logical_slot_get_changes('rw', NULL, NULL,
			'include-xids', '0', 'skip-empty-xacts', '1')});
	$changes =~ s/_$am\b/_AM/g;
	return $changes;
}
foreach my $sql (
	'ALTER TABLE ct_AM ALTER COLUMN v TYPE int8',
	'BEGIN; ALTER TABLE ct_AM ALTER COLUMN id TYPE int8; INSERT INTO h VALUES (2); COMMIT',
	'REFRESH MATERIALIZED VIEW cm_AM',
	'VACUUM FULL ct_AM')
{
	is(rewrite('pax', $sql), rewrite('heap', $sql),
		"decodes as heap's: $sql");
}
is($plain->safe_psql('postgres', q{
	SELECT format_type(atttypid, atttypmod) FROM pg_attribute
	 WHERE attrelid = 'ct_pax'::regclass AND attname = 'v'}),
	'bigint', 'the pax table was rewritten');
is($plain->safe_psql('postgres', q{
	SELECT (SELECT md5(string_agg(x::text, ',' ORDER BY id)) FROM ct_pax x) =
	       (SELECT md5(string_agg(x::text, ',' ORDER BY id)) FROM ct_heap x),
	       (SELECT count(*) FROM cm_pax)}),
	't|101', "the rewritten pax table holds heap's rows");
($ret, $out, $err) = $plain->psql('postgres', 'INSERT INTO ct_pax VALUES (102, 1020)');
like($err, qr/cannot write to table "ct_pax" while wal_level is "logical"/,
	'a write to the rewritten table is still refused');

$plain->append_conf('postgresql.conf', "shared_preload_libraries = 'pax_am'\n");
$plain->restart;
is(rewrite('pax', "INSERT INTO ct_AM VALUES (102, 1020, repeat(md5('y'), 200))"),
	rewrite('heap', "INSERT INTO ct_AM VALUES (102, 1020, repeat(md5('y'), 200))"),
	'preloaded, an INSERT into the rewritten table decodes as heap\'s');
$plain->stop;

done_testing();
