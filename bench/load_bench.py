#!/usr/bin/python3
"""bench/load_bench.py (bench/run load): loads into indexed tables, heap vs
pax side by side.

The load items of the transaction-speed issue, on the private cluster of
bin/lib.sh:

  bulk      INSERT ... SELECT and COPY of --rows rows (int, int, md5 text,
            numeric) into a table with a primary key and one more btree
            index (on a column in random order), created afresh (empty)
            before each run; each access method in turn, --runs times;
            medians of the statement's time.
  rows      a client-loaded insert-only table: --singles rows inserted one
            INSERT a transaction by pgbench (bigserial primary key, an
            int, an int8, a float8, a short text), then VACUUM; the table's
            size after VACUUM, and the inserts' tps.

Writes bench/results/load.md (and .json).

Usage: bench/run load [--am heap,pax] [--rows 1000000] [--runs 3]
           [--singles 200000] [--only bulk,rows] [--out DIR]
Environment: PAX_HOME, PAX_PORT (the private cluster), as bin/lib.sh.
"""

import argparse
import json
import os
import re
import sys

from benchlib import (RESULTS, Cluster, am_extensions, md_table, median,
                      ratio, write_report)

DB = "pax_load"
TPS_RE = re.compile(r"^tps = ([0-9.]+)", re.M)

SOURCE = """DROP TABLE IF EXISTS load_src;
CREATE TABLE load_src AS
  SELECT i AS id, ((i::int8 * 7919) % 1000003)::int AS k, md5(i::text) AS s,
         i * 0.5 AS n
    FROM generate_series(1, {rows}) i;
COPY load_src TO '{copy}';
"""

TARGET = """DROP TABLE IF EXISTS load_t;
CREATE TABLE load_t (id int PRIMARY KEY, k int, s text, n numeric) USING {am};
CREATE INDEX ON load_t (k);
CHECKPOINT;
"""

SINGLES_TABLE = """DROP TABLE IF EXISTS ins_t;
CREATE TABLE ins_t (id bigserial PRIMARY KEY, a int, b int8, c float8, d text)
  USING {am};
"""

SINGLES_SCRIPT = """\\set x random(1, 1000000)
INSERT INTO ins_t (a, b, c, d) VALUES (:x, :x * 7, :x / 3.0, 'row ' || :x);
"""


def bulk(cl, ams, rows, runs):
    """bulk times INSERT ... SELECT and COPY into load_t for each AM"""
    copy = os.path.join(cl.home, "load_src.copy")
    cl.psql(SOURCE.format(rows=rows, copy=copy), DB)
    res = {am: {"insert_select": [], "copy": []} for am in ams}
    for _ in range(runs):
        for am in ams:
            for kind, stmt in (("insert_select", "INSERT INTO load_t SELECT * FROM load_src;"),
                               ("copy", "COPY load_t FROM '%s';" % copy)):
                cl.psql(TARGET.format(am=am), DB)
                ms = cl.timed("\\timing on\n" + stmt, DB)
                res[am][kind].append(ms)
                res[am]["size"] = int(cl.psql("SELECT pg_relation_size('load_t');", DB))
                print("bulk %s %s %.0f ms" % (am, kind, ms), file=sys.stderr)
    return res


def singles(cl, ams, n):
    """singles inserts n rows one a transaction, VACUUMs, and sizes ins_t"""
    res = {}
    script = os.path.join(cl.home, "load_singles.sql")
    with open(script, "w") as f:
        f.write(SINGLES_SCRIPT)
    os.chmod(script, 0o644)
    for am in ams:
        cl.psql(SINGLES_TABLE.format(am=am), DB)
        out = cl.run(["pgbench", "-n", "-c", "1", "-t", str(n), "-f", script, DB])
        tps = float(TPS_RE.search(out).group(1))
        before = int(cl.psql("SELECT pg_relation_size('ins_t');", DB))
        cl.psql("VACUUM ins_t;", DB)
        after = int(cl.psql("SELECT pg_relation_size('ins_t');", DB))
        res[am] = {"tps": tps, "size_before_vacuum": before, "size_after_vacuum": after}
        print("rows %s %s" % (am, res[am]), file=sys.stderr)
    return res


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/run load")
    ap.add_argument("--am", default="heap,pax")
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--singles", type=int, default=200000)
    ap.add_argument("--only", default="bulk,rows")
    ap.add_argument("--out", default=RESULTS)
    args = ap.parse_args(argv)
    ams = args.am.split(",")
    only = set(args.only.split(","))
    cl = Cluster()
    cl.create_db(DB, drop=True)
    cl.psql(am_extensions(ams), DB)
    res = {"args": vars(args), "load_before": os.getloadavg()}
    if "bulk" in only:
        res["bulk"] = bulk(cl, ams, args.rows, args.runs)
    if "rows" in only:
        res["rows"] = singles(cl, ams, args.singles)
    res["load_after"] = os.getloadavg()
    write(res, ams, args.out)


def write(res, ams, out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "load.json"), "w") as f:
        json.dump(res, f, indent=1)
    a = res["args"]
    versus = "%s / %s" % (ams[-1], ams[0])
    align = "l" + "r" * (len(ams) + 1)
    lines = ["# Loads into indexed tables: heap vs pax", "",
             "`bench/run load --am %s --rows %d --runs %d --singles %d`"
             % (",".join(ams), a["rows"], a["runs"], a["singles"]), "",
             "Load average before/after: %.2f / %.2f (2 vCPU VM: wall-clock "
             "numbers are noisy)." % (res["load_before"][0], res["load_after"][0]), ""]

    def row(label, values, fmt):
        return [label] + [fmt % v for v in values] + ["%.2f" % ratio(values[-1], values[0])]

    if "bulk" in res:
        b = res["bulk"]
        lines += ["## %d rows into a table with a primary key and one more btree index"
                  % a["rows"], "",
                  "Each statement into the empty table, created afresh; medians of "
                  "%d runs (ms)." % a["runs"], ""] + md_table(
            [""] + ams + [versus], align,
            [row("INSERT ... SELECT", [median(b[am]["insert_select"]) for am in ams], "%.0f"),
             row("COPY", [median(b[am]["copy"]) for am in ams], "%.0f"),
             row("table size, MB", [b[am]["size"] / (1 << 20) for am in ams], "%.1f")])
        lines.append("")
    if "rows" in res:
        r = res["rows"]
        lines += ["## A client-loaded insert-only table", "",
                  "%d single-row INSERTs, one a transaction (pgbench, 1 client), "
                  "then VACUUM." % a["singles"], ""] + md_table(
            [""] + ams + [versus], align,
            [row("inserts, tps", [r[am]["tps"] for am in ams], "%.0f"),
             row("size before VACUUM, MB", [r[am]["size_before_vacuum"] / (1 << 20)
                                             for am in ams], "%.1f"),
             row("size after VACUUM, MB", [r[am]["size_after_vacuum"] / (1 << 20)
                                            for am in ams], "%.1f")])
        lines.append("")
    write_report(os.path.join(out, "load.md"), lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
