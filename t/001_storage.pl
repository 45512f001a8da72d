# t/001_storage.pl: pax relations' files survive crash recovery and reach a
# streaming standby; an unlogged pax table is reset from its init fork.

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->start;
$primary->backup('base');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

$primary->safe_psql('postgres', q{
	CREATE EXTENSION pax_am;
	CREATE TABLE pax_logged (a int, b text) USING pax;
	CREATE UNLOGGED TABLE pax_unlogged (a int) USING pax;
});
$primary->wait_for_catchup($standby);

my $query = q{SELECT c.relname || ':' || a.amname || ':' || c.relpersistence::text
  FROM pg_class c JOIN pg_am a ON a.oid = c.relam
 WHERE c.relname LIKE 'pax\_%' ORDER BY 1};
is($standby->safe_psql('postgres', $query),
	$primary->safe_psql('postgres', $query),
	'standby sees the pax tables of the primary');

my $path = $primary->safe_psql('postgres',
	q{SELECT pg_relation_filepath('pax_unlogged')});
ok(-f $primary->data_dir . "/${path}_init",
	'unlogged pax table has an init fork');

$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', $query),
	"pax_logged:pax:p\npax_unlogged:pax:u",
	'pax tables are there after crash recovery');
ok(-f $primary->data_dir . "/$path",
	'unlogged pax table main fork reset from its init fork after a crash');

$standby->stop;
$primary->stop;
done_testing();
