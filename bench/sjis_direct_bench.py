#!/usr/bin/python3
"""sjis_direct_bench.py: what EUC_JP -> SJIS conversion adds to COPY TO, with
the built-in conversion and with sjis_direct, and raw conversion throughput.

Usage: bench/sjis_direct_bench.py [--runs N] [--scale S] [--out FILE]

Uses the private cluster of bin/lib.sh (PAX_HOME, PAX_PORT; it is started if
needed and left running), and an EUC_JP database "sjis_bench" that it
creates once and reuses:

  pgbench_accounts  pgbench -i -s 10: ASCII only (1,000,000 rows)
  jp_text           500,000 rows of about 100 JIS X 0208 characters
  jp_mixed          500,000 rows: ASCII columns, a short Japanese column,
                    half-width katakana

Every table is prewarmed with pg_prewarm.  Then, alternating the order in
each round, N runs (7) of `COPY t TO STDOUT` read by psql into /dev/null,
timed by psql's \\timing, with

  no conversion     client_encoding EUC_JP
  built-in          client_encoding SJIS
  sjis_direct       client_encoding SJIS, in a session started with
                    session_preload_libraries = sjis_direct (what
                    sjis_direct.enable() sets for a database)
  copy-only floor   client_encoding SJIS, search_path sjis_bench_floor, ...

and sjis_direct.status() checked after each run to be sure which conversion
ran.  Raw throughput: the same bytes (about 32 MB of each table's text)
converted by pg_catalog.euc_jp_to_sjis and by sjis_direct through
sjis_direct.convert_with(), and by glibc iconv (EUC-JP -> SHIFT_JIS) from a
file; and the reverse direction.

Writes a markdown report to bench/results/sjis_direct.md (or --out).
Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from benchlib import (PAX_HOME, RESULTS, Cluster, md_table, median, prewarm_sql,
                      ratio, summary, timings, write_report)

DB = "sjis_bench"
TABLES = ["pgbench_accounts", "jp_text", "jp_mixed"]
# (name, client_encoding, search_path, session_preload_libraries)
VARIANTS = [
    ("no conversion", "EUC_JP", '"$user", public', ""),
    ("built-in", "SJIS", '"$user", public', ""),
    ("sjis_direct", "SJIS", '"$user", public', "sjis_direct"),
    ("copy-only floor", "SJIS", 'sjis_bench_floor, pg_catalog, "$user", public', ""),
]

# A "conversion" that only copies its input: what any conversion function
# costs at the least in COPY (the call, the output buffer PostgreSQL
# allocates per value, COPY's per-character loop for an encoding like SJIS
# whose trail bytes can look like ASCII).  Its output is not SJIS; it only
# measures.  Built into PAX_HOME, never installed.
FLOOR_C = r"""
#include "postgres.h"
#include "fmgr.h"
PG_MODULE_MAGIC;
PG_FUNCTION_INFO_V1(copy_only);
Datum
copy_only(PG_FUNCTION_ARGS)
{
	int			len = PG_GETARG_INT32(4);

	memcpy(PG_GETARG_POINTER(3), PG_GETARG_CSTRING(2), len);
	((char *) PG_GETARG_POINTER(3))[len] = '\0';
	PG_RETURN_INT32(len);
}
"""
RAW_BYTES = 32 * 1024 * 1024


def setup(scale):
    """Start the cluster, create and load the database once, build the
    copy-only floor; return the cluster."""
    cl = Cluster(DB)
    if not cl.has_db(DB):
        print("== creating database %s (EUC_JP) and loading it" % DB, file=sys.stderr)
        cl.create_db(DB, "ENCODING 'EUC_JP' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
        cl.run(["pgbench", "-i", "-q", "-s", str(scale), DB])
        cl.psql(LOAD_SQL)
    cl.psql("CREATE EXTENSION IF NOT EXISTS sjis_direct; "
            "CREATE EXTENSION IF NOT EXISTS pg_prewarm;")
    floor_dir = os.path.join(PAX_HOME, "bench_floor")
    os.makedirs(floor_dir, exist_ok=True)
    with open(os.path.join(floor_dir, "copy_only.c"), "w") as f:
        f.write(FLOOR_C)
    inc = subprocess.run(["pg_config", "--includedir-server"], check=True,
                         capture_output=True, text=True).stdout.strip()
    subprocess.run(["cc", "-O2", "-fPIC", "-shared", "-I" + inc, "-o",
                    os.path.join(floor_dir, "copy_only.so"),
                    os.path.join(floor_dir, "copy_only.c")], check=True)
    os.chmod(PAX_HOME, 0o755)
    os.chmod(floor_dir, 0o755)
    cl.psql("""DROP SCHEMA IF EXISTS sjis_bench_floor CASCADE;
CREATE SCHEMA sjis_bench_floor;
CREATE FUNCTION sjis_bench_floor.copy_only(integer, integer, cstring, internal, integer, boolean)
RETURNS integer AS '%s', 'copy_only' LANGUAGE C STRICT;
CREATE DEFAULT CONVERSION sjis_bench_floor.e2s FOR 'EUC_JP' TO 'SJIS' FROM sjis_bench_floor.copy_only;
CREATE DEFAULT CONVERSION sjis_bench_floor.s2e FOR 'SJIS' TO 'EUC_JP' FROM sjis_bench_floor.copy_only;
""" % os.path.join(floor_dir, "copy_only.so"))
    # the raw-throughput inputs: ~32 MB of each table's text, as bytes
    cl.psql(RAW_SQL % {"bytes": RAW_BYTES})
    return cl


LOAD_SQL = r"""
-- characters to draw from: hiragana, katakana, JIS level 1 kanji (EUC_JP)
CREATE TEMP TABLE jp_chars AS
SELECT row_number() OVER () AS n, c FROM (
    SELECT convert_from(decode(to_hex(x), 'hex'), 'EUC_JP') AS c
      FROM (SELECT generate_series(x'a4a1'::int, x'a4f3'::int)
            UNION ALL SELECT generate_series(x'a5a1'::int, x'a5f6'::int)
            UNION ALL SELECT r * 256 + c FROM generate_series(x'b0'::int, x'cf'::int) r,
                                              generate_series(x'a1'::int, x'fe'::int) c
                      WHERE NOT (r = x'cf'::int AND c > x'd3'::int)) AS g(x)) AS s;
SELECT setseed(0.42);
CREATE TEMP TABLE jp_pool AS
SELECT r.k, string_agg(c.c, '' ORDER BY r.i) AS s
  FROM (SELECT k, i, 1 + floor(random() * (SELECT count(*) FROM jp_chars))::int AS n
          FROM generate_series(0, 999) AS k, generate_series(1, 100) AS i) AS r
  JOIN jp_chars AS c USING (n)
 GROUP BY r.k;
CREATE TABLE jp_text (id int PRIMARY KEY, t text);
INSERT INTO jp_text SELECT i, p.s FROM generate_series(1, 500000) AS i
  JOIN jp_pool AS p ON p.k = i % 1000;
CREATE TABLE jp_mixed (id int PRIMARY KEY, code text, name text, note text, kana text);
INSERT INTO jp_mixed
SELECT i, 'ITEM-' || lpad(i::text, 8, '0'), substr(p.s, 1 + i % 50, 20),
       md5(i::text) || ' qty=' || (i % 97) || ' price=' || (i % 1000) * 10,
       convert_from('\x8eb68ec08eb68ec5208ebc8ed8ecad', 'EUC_JP')
  FROM generate_series(1, 500000) AS i JOIN jp_pool AS p ON p.k = i % 1000;
VACUUM ANALYZE jp_text, jp_mixed, pgbench_accounts;
"""

RAW_SQL = r"""
CREATE TABLE IF NOT EXISTS raw_input (name text PRIMARY KEY, euc bytea, sjis bytea);
ALTER TABLE raw_input ALTER euc SET STORAGE EXTERNAL, ALTER sjis SET STORAGE EXTERNAL;
INSERT INTO raw_input (name, euc)
SELECT 'pgbench_accounts', substr(string_agg(convert_to(a::text, 'EUC_JP'), '\x0a'), 1, %(bytes)s)
  FROM (SELECT a FROM pgbench_accounts a ORDER BY aid LIMIT 400000) s
ON CONFLICT DO NOTHING;
INSERT INTO raw_input (name, euc)
SELECT 'jp_text', substr(string_agg(convert_to(t, 'EUC_JP'), '\x0a'), 1, %(bytes)s)
  FROM (SELECT t FROM jp_text ORDER BY id LIMIT 200000) s
ON CONFLICT DO NOTHING;
INSERT INTO raw_input (name, euc)
SELECT 'jp_mixed', substr(string_agg(convert_to(m::text, 'EUC_JP'), '\x0a'), 1, %(bytes)s)
  FROM (SELECT m FROM jp_mixed m ORDER BY id LIMIT 400000) s
ON CONFLICT DO NOTHING;
-- cut at a character boundary (noError stops before a split character)
UPDATE raw_input
   SET euc = substr(euc, 1, (sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis',
                                                      'EUC_JP', 'SJIS', euc, true)).converted)
 WHERE sjis IS NULL;
UPDATE raw_input SET sjis = (sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis',
                                                      'EUC_JP', 'SJIS', euc)).result
 WHERE sjis IS NULL;
"""


def timed_copy(cl, table, client_encoding, search_path, preload=""):
    """One COPY table TO STDOUT into /dev/null; returns (seconds, calls of sjis_direct)."""
    script = """SET search_path = %s;
SET client_encoding = %s;
SELECT sjis_direct.reset();
\\o /dev/null
\\timing on
COPY %s TO STDOUT;
\\timing off
\\o
SELECT 'calls=' || calls FROM sjis_direct.status() WHERE source_encoding = 'EUC_JP';
""" % (search_path, client_encoding, table)
    out = cl.psql(script, gucs={"session_preload_libraries": preload} if preload else None)
    ms = timings(out)[0]
    calls = int(re.search(r"calls=(\d+)", out).group(1))
    return ms / 1000.0, calls


def timed_sql(cl, sql):
    return cl.timed("\\timing on\n" + sql) / 1000.0


RAW_REPEAT = 11


def raw_conversion(cl, name, proc, src, dst, column):
    """Seconds one conversion of the input takes: (time of RAW_REPEAT
    conversions in one call - time of 1) / (RAW_REPEAT - 1), which leaves
    out fetching the input and allocating the output."""
    sql = ("SELECT (sjis_direct.convert_with('%s', '%s', '%s', %s, false, %%d)).converted "
           "FROM raw_input WHERE name = '%s';" % (proc, src, dst, column, name))
    one = timed_sql(cl, sql % 1)
    many = timed_sql(cl, sql % RAW_REPEAT)
    return (many - one) / (RAW_REPEAT - 1)


def iconv_time(path, src, dst):
    t0 = time.perf_counter()
    subprocess.run(["iconv", "-f", src, "-t", dst, path, "-o", "/dev/null"], check=True)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--scale", type=int, default=10)
    ap.add_argument("--out", default=os.path.join(RESULTS, "sjis_direct.md"))
    args = ap.parse_args()

    cl = setup(args.scale)
    cl.psql(prewarm_sql(TABLES + ["raw_input"]))
    sizes = dict(line.split("|") for line in cl.psql(
        "SELECT relname, pg_size_pretty(pg_table_size(oid)) FROM pg_class "
        "WHERE relname IN ('pgbench_accounts', 'jp_text', 'jp_mixed');").splitlines())
    rows = dict(line.split("|") for line in cl.psql(
        "SELECT 'pgbench_accounts', count(*) FROM pgbench_accounts UNION ALL "
        "SELECT 'jp_text', count(*) FROM jp_text UNION ALL "
        "SELECT 'jp_mixed', count(*) FROM jp_mixed;").splitlines())

    # COPY TO STDOUT, variants alternating in rotated order
    copy = {(t, v[0]): [] for t in TABLES for v in VARIANTS}
    for t in TABLES:
        timed_copy(cl, t, "EUC_JP", '"$user", public')      # warm-up
        for r in range(args.runs):
            order = VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)]
            for name, enc, path, preload in order:
                secs, calls = timed_copy(cl, t, enc, path, preload)
                if (name == "sjis_direct") != (calls > 0):
                    sys.exit("%s on %s: sjis_direct calls = %d" % (name, t, calls))
                copy[(t, name)].append(secs)
            print("== %s run %d done" % (t, r + 1), file=sys.stderr)

    # raw throughput, same bytes for all three
    nbytes = dict(line.split("|") for line in cl.psql(
        "SELECT name, length(euc) || ',' || length(sjis) FROM raw_input;").splitlines())
    raw = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in TABLES:
            files = {}
            for col in ("euc", "sjis"):
                hexdata = cl.psql("SELECT encode(%s, 'hex') FROM raw_input WHERE name = '%s';"
                                  % (col, name)).strip()
                files[col] = os.path.join(tmp, "%s.%s" % (name, col))
                with open(files[col], "wb") as f:
                    f.write(bytes.fromhex(hexdata))
            for key in ("builtin e2s", "direct e2s", "iconv e2s",
                        "builtin s2e", "direct s2e", "iconv s2e"):
                raw[(name, key)] = []
            for r in range(args.runs):
                raw[(name, "builtin e2s")].append(raw_conversion(
                    cl, name, "pg_catalog.euc_jp_to_sjis", "EUC_JP", "SJIS", "euc"))
                raw[(name, "direct e2s")].append(raw_conversion(
                    cl, name, "sjis_direct.sjis_direct_euc_jp_to_sjis", "EUC_JP", "SJIS", "euc"))
                raw[(name, "iconv e2s")].append(iconv_time(files["euc"], "EUC-JP", "SHIFT_JIS"))
                raw[(name, "builtin s2e")].append(raw_conversion(
                    cl, name, "pg_catalog.sjis_to_euc_jp", "SJIS", "EUC_JP", "sjis"))
                raw[(name, "direct s2e")].append(raw_conversion(
                    cl, name, "sjis_direct.sjis_direct_sjis_to_euc_jp", "SJIS", "EUC_JP", "sjis"))
                raw[(name, "iconv s2e")].append(iconv_time(files["sjis"], "SHIFT_JIS", "EUC-JP"))
            print("== raw %s done" % name, file=sys.stderr)

    report(cl, args, copy, raw, sizes, rows, nbytes)


def report(cl, args, copy, raw, sizes, rows, nbytes):
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = re.search(r"model name\s*:\s*(.*)", f.read()).group(1)
    except (OSError, AttributeError):
        pass
    version = cl.psql("SHOW server_version;").strip()
    out = []
    out.append("# sjis_direct benchmark\n")
    out.append("`bench/sjis_direct_bench.py --runs %d --scale %d`, %s, %s, %d CPUs, "
               "PostgreSQL %s, shared_buffers %s.  Times are psql's `\\timing` of "
               "`COPY t TO STDOUT` into /dev/null (median of %d alternating runs, "
               "min-max in brackets); \"added\" is the median minus the median "
               "without conversion.  \"copy-only floor\" is a conversion function "
               "that only copies its input (wrong output, for measuring): what "
               "PostgreSQL's per-value conversion call, output buffer and COPY's "
               "SJIS escaping loop cost whatever the conversion does.\n"
               % (args.runs, args.scale, time.strftime("%Y-%m-%d"), cpu, os.cpu_count(),
                  version, cl.psql("SHOW shared_buffers;").strip(), args.runs))
    copy_rows = []
    verdicts = []
    for t in TABLES:
        med = {}
        cells = []
        for name, _, _, _ in VARIANTS:
            m, lo, hi = summary(copy[(t, name)])
            med[name] = m
            cells.append("%.3f [%.3f-%.3f]" % (m, lo, hi))
        base = med["no conversion"]
        b_add = med["built-in"] - base
        d_add = med["sjis_direct"] - base
        share = d_add / b_add if b_add > 0 else float("nan")
        f_add = med["copy-only floor"] - base
        copy_rows.append([t, rows[t], sizes[t]] + cells + [
            "%+.1f%%" % (100 * b_add / base), "%+.1f%%" % (100 * d_add / base),
            "%+.1f%%" % (100 * f_add / base), "%.2f" % share])
        if t == "pgbench_accounts":
            verdicts.append("pgbench_accounts: sjis_direct adds %+.1f%% over no conversion "
                            "(target at most 3%%): %s"
                            % (100 * d_add / base, "met" if d_add / base <= 0.03 else "NOT met"))
        if t == "jp_text":
            verdicts.append("jp_text: sjis_direct adds %.2f of the built-in's added time "
                            "(target at most 0.33): %s"
                            % (share, "met" if share <= 1 / 3 else "NOT met"))
    out += md_table(["table", "rows", "size", "no conversion s", "built-in s",
                     "sjis_direct s", "copy-only floor s", "built-in added",
                     "sjis_direct added", "floor added", "direct / built-in added"],
                    "lrrrrrrrrrr", copy_rows)
    out.append("")
    for v in verdicts:
        out.append("- " + v)
    out.append("")
    out.append("## Raw conversion throughput\n")
    out.append("The same bytes (the first ~32 MB of each table's text) converted by "
               "each conversion function through `sjis_direct.convert_with()`, timed as "
               "(%d conversions in one call - 1) / %d so that fetching the input and "
               "allocating the output do not count, and by `iconv` from a file "
               "(including its process start and reading the file).  MB/s of input, "
               "median of %d runs.\n" % (RAW_REPEAT, RAW_REPEAT - 1, args.runs))
    raw_rows = []
    for t in TABLES:
        euc_len, sjis_len = (int(x) for x in nbytes[t].split(","))
        for d, label, n in (("e2s", "EUC_JP -> SJIS", euc_len), ("s2e", "SJIS -> EUC_JP", sjis_len)):
            mbs = {k: n / 1e6 / median(raw[(t, "%s %s" % (k, d))])
                   for k in ("builtin", "direct", "iconv")}
            raw_rows.append([t, label, "%d" % n] +
                            ["%.0f" % mbs[k] for k in ("builtin", "direct", "iconv")] +
                            ["%.1fx" % ratio(mbs["direct"], mbs["builtin"])])
    out += md_table(["input", "direction", "bytes", "built-in MB/s", "sjis_direct MB/s",
                     "iconv MB/s", "sjis_direct / built-in"], "llrrrrr", raw_rows)
    out.append("")
    write_report(args.out, out)


if __name__ == "__main__":
    main()
