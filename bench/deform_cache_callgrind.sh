#!/usr/bin/env bash
# bench/deform_cache_callgrind.sh: instructions per row with deform_cache
# tracking off and on, counted by valgrind's callgrind (SEEDS.md section 5:
# valgrind is our perf).  Unlike wall-clock times these counts do not depend
# on what else the machine runs.
#
# A single-user backend needs its data directory to itself, so this uses a
# scratch cluster of its own in $PAX_HOME/callgrind (not the private cluster),
# with test_tbl: 100 text columns col0..col99 and ROWS rows.  Each query runs
# 3 times in `postgres --single` under callgrind, with tracking off, then on;
# a run without queries gives the start-up cost to subtract.
#
# Usage: bench/deform_cache_callgrind.sh [ROWS]      (default 100000)
# Writes bench/results/deform_cache_callgrind.md.  Needs valgrind.

source "$(dirname "$0")/../bin/lib.sh"
select_pg
PG_BINDIR=$("$PG_CONFIG" --bindir)

rows=${1:-100000}
runs=3
dir=$PAX_HOME/callgrind
out=$PAX_ROOT/bench/results/deform_cache_callgrind.md

command -v valgrind >/dev/null || die "valgrind is not installed"

# the scratch cluster, created and loaded once per ROWS
if [ "$(cat "$dir/rows" 2>/dev/null)" != "$rows" ]; then
	say "creating the scratch cluster in $dir ($rows rows)"
	rm -rf "$dir"
	mkdir -p "$dir/run"
	[ "$(id -un)" = "$(pg_user)" ] || as_root chown -R "$(pg_user)" "$dir"
	as_pg initdb -D "$dir/data" -E UTF8 --locale=C -A trust >/dev/null
	as_pg pg_ctl -D "$dir/data" -l "$dir/log" -w \
		-o "-p 5599 -c listen_addresses='' -c unix_socket_directories='$dir/run'" \
		start >/dev/null
	as_pg psql -X -q -h "$dir/run" -p 5599 -d postgres <<SQL
SELECT format('CREATE TABLE test_tbl (%s)',
              string_agg(format('col%s text', i), ', ' ORDER BY i))
FROM generate_series(0, 99) i \gexec
SELECT format('INSERT INTO test_tbl SELECT %s FROM generate_series(1, $rows) g',
              string_agg(format('''v%s_'' || g', i), ', ' ORDER BY i))
FROM generate_series(0, 99) i \gexec
VACUUM ANALYZE test_tbl;
SQL
	as_pg pg_ctl -D "$dir/data" -w stop >/dev/null
	echo "$rows" | as_pg tee "$dir/rows" >/dev/null
fi

# instructions TRACK QUERY: total instructions of a single-user backend that
# runs QUERY $runs times (no QUERY: start-up only)
instructions() {
	local track=$1 query=${2:-} i
	{
		echo "LOAD 'deform_cache'"
		echo "SET jit = off"
		echo "SET deform_cache.track = $track"
		if [ -n "$query" ]; then
			for i in $(seq "$runs"); do echo "$query"; done
		fi
	} | as_pg valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$PG_BINDIR/postgres" --single -D "$dir/data" -c shared_buffers=256MB \
		postgres 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

cols=$(seq -s ', ' -f 'col%g' 0 99)
queries=(
	"COPY (SELECT col0 FROM test_tbl) TO '/dev/null'"
	"COPY (SELECT col99 FROM test_tbl) TO '/dev/null'"
	"COPY (SELECT $cols FROM test_tbl) TO '/dev/null'"
	"SELECT count(*) FROM test_tbl"
	"SELECT count(*) FROM test_tbl WHERE col0 = 'none'"
)
labels=(
	"Test 1, K = 0: COPY (SELECT col0) TO '/dev/null'"
	"Test 1, K = 99: COPY (SELECT col99) TO '/dev/null'"
	"Test 2, K = 99: COPY (SELECT col0, ..., col99) TO '/dev/null'"
	"SELECT count(*) (no deform)"
	"SELECT count(*) WHERE col0 = 'none' (qual deforms col0)"
)

say "start-up cost"
base=$(instructions off)
{
	echo "# deform_cache: instructions per row, tracking off and on (callgrind)"
	echo
	echo "test_tbl: 100 text columns, $rows rows; jit = off; each query run $runs"
	echo "times in a single-user backend under callgrind, start-up subtracted."
	echo
	echo "| query | off instr/row | on instr/row | added/row | on/off |"
	echo "|---|---:|---:|---:|---:|"
} >"$out.tmp"
for i in "${!queries[@]}"; do
	say "${labels[$i]}"
	off=$(instructions off "${queries[$i]}")
	on=$(instructions on "${queries[$i]}")
	awk -v l="${labels[$i]}" -v b="$base" -v off="$off" -v on="$on" \
		-v n="$((rows * runs))" 'BEGIN {
			o = (off - b) / n; t = (on - b) / n;
			printf "| %s | %.0f | %.0f | %.0f | %.3f |\n", l, o, t, t - o, t / o }' \
		>>"$out.tmp"
done
mv "$out.tmp" "$out"
cat "$out"
say "wrote $out"
