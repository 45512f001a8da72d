#!/usr/bin/python3
"""bench/mvcc_bench.py: pax as an OLTP table, heap vs pax side by side.

The benchmarks of the MVCC issue, on the private cluster of bin/lib.sh:

  tpcb      pgbench's TPC-B-like script on pgbench's own tables, created
            with default_table_access_method set to each access method
            (pgbench -i -s SCALE), with 1 and 2 clients.
  update    the update script of SEEDS.md section 2 on the same tables:
            UPDATE pgbench_accounts SET filler = repeat(md5(...), 2)
            WHERE aid = :aid  (tables created with fillfactor 80).
  vacuum    VACUUM of a table of --vacrows rows (an int primary key and
            four other columns) after deleting 30% of its rows at random:
            time, and table size before and after.
  insert    single-row INSERT throughput: pgbench runs
            INSERT INTO ins_t (a, b, c, d) VALUES (...) one row a
            transaction into a table with a bigserial primary key and four
            other columns, created afresh before each run.
  fetch     an index scan fetching 10,000 random rows by primary key
            (id = ANY(array), enable_seqscan and bitmap scans off).

pgbench runs alternate between the access methods (--runs times, --seconds
each, after pg_prewarm); tps are medians.  Single-query timings are medians
of --runs runs, each in a new session after pg_prewarm.  Writes
bench/results/mvcc.md (and .json).

Usage: bench/mvcc_bench.py [--am heap,pax] [--scale 10] [--seconds 20]
           [--runs 3] [--vacrows 6000000] [--only tpcb,update,insert,vacuum,fetch]
           [--out DIR]
Environment: PAX_HOME, PAX_PORT (the private cluster), as bin/lib.sh.
"""

import argparse
import json
import os
import re
import sys
import time

from benchlib import (RESULTS, Cluster, am_extensions, md_table, median,
                      prewarm_sql, ratio, write_report)

TPS_RE = re.compile(r"^tps = ([0-9.]+)", re.M)
FAILED_RE = re.compile(r"number of failed transactions: ([0-9]+)")

UPDATE_SCRIPT = """\\set aid random(1, 100000 * :scale)
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2)
 WHERE aid = :aid;
"""

INSERT_SCRIPT = """\\set x random(1, 1000000)
INSERT INTO ins_t (a, b, c, d) VALUES (:x, :x * 7, :x / 3.0, 'row ' || :x);
"""

INSERT_TABLE = """DROP TABLE IF EXISTS ins_t;
CREATE TABLE ins_t (id bigserial PRIMARY KEY, a int, b int8, c float8, d text);
"""


def dbname(am):
    return "mvcc_%s" % am


def setup_db(cl, am):
    db = dbname(am)
    cl.create_db(db, drop=True)
    cl.psql("CREATE EXTENSION pg_prewarm;\n" + am_extensions([am]) +
            "ALTER DATABASE %s SET default_table_access_method = %s;" % (db, am), db)


PGBENCH_TABLES = ["pgbench_accounts", "pgbench_branches", "pgbench_tellers",
                  "pgbench_history", "pgbench_accounts_pkey",
                  "pgbench_branches_pkey", "pgbench_tellers_pkey"]


def pgbench_init(cl, am, scale, fillfactor):
    db = dbname(am)
    cl.run(["pgbench", "-q", "-i", "-s", str(scale), "-F", str(fillfactor), db])
    cl.psql("VACUUM ANALYZE;", db)
    return cl.psql("SELECT pg_total_relation_size('pgbench_accounts');", db).strip()


def pgbench_run(cl, am, clients, seconds, script=None, scale=None):
    db = dbname(am)
    if script == INSERT_SCRIPT:
        cl.psql(INSERT_TABLE, db)
    else:
        cl.psql(prewarm_sql(PGBENCH_TABLES), db)
    if script:
        path = "/tmp/mvcc_bench_script.sql"
        with open(path, "w") as f:
            f.write(script)
        os.chmod(path, 0o644)
        args = ["-f", path, "-D", "scale=%d" % scale]
    else:
        args = []
    out = cl.run(["pgbench", "-n", "-c", str(clients), "-j", str(clients),
                  "-T", str(seconds)] + args + [db])
    m = TPS_RE.search(out)
    failed = FAILED_RE.search(out)
    if not m:
        sys.exit("pgbench output without tps:\n" + out)
    return float(m.group(1)), int(failed.group(1)) if failed else 0


def balances_ok(cl, am):
    out = cl.psql("SELECT (SELECT sum(abalance) FROM pgbench_accounts) = "
                  "(SELECT coalesce(sum(delta), 0) FROM pgbench_history) AND "
                  "(SELECT sum(bbalance) FROM pgbench_branches) = "
                  "(SELECT coalesce(sum(delta), 0) FROM pgbench_history) AND "
                  "(SELECT sum(tbalance) FROM pgbench_tellers) = "
                  "(SELECT coalesce(sum(delta), 0) FROM pgbench_history);", dbname(am))
    return out.strip() == "t"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--am", default="heap,pax")
    ap.add_argument("--scale", type=int, default=10)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--vacrows", type=int, default=6000000)
    ap.add_argument("--only", default="tpcb,update,insert,vacuum,fetch")
    ap.add_argument("--out", default=RESULTS, help="results folder")
    args = ap.parse_args()
    ams = args.am.split(",")
    only = set(args.only.split(","))
    cl = Cluster()
    res = {"args": vars(args), "load_before": os.getloadavg()}

    if only & {"tpcb", "update", "insert"}:
        for am in ams:
            setup_db(cl, am)
        for kind, ff, script in (("tpcb", 100, None), ("update", 80, UPDATE_SCRIPT),
                                 ("insert", None, INSERT_SCRIPT)):
            if kind not in only:
                continue
            res[kind] = {}
            for am in ams:
                res[kind].setdefault(am, {})["size"] = (
                    pgbench_init(cl, am, args.scale, ff) if ff else "-")
            for clients in (1, 2):
                runs = {am: [] for am in ams}
                fails = {am: 0 for am in ams}
                for _ in range(args.runs):
                    for am in ams:
                        tps, failed = pgbench_run(cl, am, clients, args.seconds,
                                                  script, args.scale)
                        runs[am].append(tps)
                        fails[am] += failed
                for am in ams:
                    res[kind][am]["c%d" % clients] = {
                        "tps": runs[am], "median": median(runs[am]),
                        "failed": fails[am]}
                    print("%s %s clients=%d tps=%s" % (kind, am, clients, runs[am]),
                          file=sys.stderr)
            if kind == "tpcb":
                for am in ams:
                    res[kind][am]["balances_ok"] = balances_ok(cl, am)

    if only & {"vacuum", "fetch"}:
        res["vacuum"] = {}
        res["fetch"] = {}
        for am in ams:
            db = dbname(am)
            if not only & {"tpcb", "update", "insert"}:
                setup_db(cl, am)
            cl.psql("""DROP TABLE IF EXISTS vt;
CREATE TABLE vt (id int PRIMARY KEY, a int, b int8, c float8, d text);
INSERT INTO vt SELECT g, g %% 1000, g * 7, g / 3.0, 'row ' || g
  FROM generate_series(1, %d) g;
VACUUM ANALYZE vt;""" % args.vacrows, db)
            # fetch: 10,000 random primary keys, the same for both
            ids = cl.psql("SELECT string_agg(id::text, ',') FROM "
                          "(SELECT (hashint4(g) & 2147483647) %% %d + 1 AS id "
                          "FROM generate_series(1, 10000) g) s;" % args.vacrows, db).strip()
            q = ("SELECT count(*), sum(a), sum(b) FROM vt WHERE id = ANY('{%s}'::int[]);"
                 % ids)
            setup = (prewarm_sql(["vt", "vt_pkey"]) +
                     "SET enable_seqscan = off; SET enable_bitmapscan = off;\n")
            plan = cl.psql(setup + "EXPLAIN (COSTS OFF) " + q, db)
            # each run once in a new session after setup
            times = [cl.timed(setup + "\\timing on\n" + q + "\n", db)
                     for _ in range(args.runs * 2 + 1)]
            res["fetch"][am] = {"ms": times, "median": median(times),
                                "index_scan": "Index Scan" in plan}
            # vacuum after deleting 30% at random
            size0 = int(cl.psql("SELECT pg_relation_size('vt');", db))
            cl.psql("DELETE FROM vt WHERE (hashint4(id) & 1023) < 307;", db)
            cl.psql(prewarm_sql(["vt", "vt_pkey"]), db)
            t0 = time.time()
            cl.psql("VACUUM vt;", db)
            vac = (time.time() - t0) * 1000
            size1 = int(cl.psql("SELECT pg_relation_size('vt');", db))
            t0 = time.time()
            cl.psql("INSERT INTO vt SELECT g, 0, 0, 0, 'new ' || g FROM "
                    "generate_series(%d, %d) g;" % (args.vacrows + 1,
                                                    args.vacrows + args.vacrows * 3 // 10),
                    db)
            ins = (time.time() - t0) * 1000
            size2 = int(cl.psql("SELECT pg_relation_size('vt');", db))
            res["vacuum"][am] = {"vacuum_ms": vac, "size_before": size0,
                                 "size_after_vacuum": size1,
                                 "size_after_refill": size2, "refill_ms": ins}
            print("vacuum %s %s" % (am, res["vacuum"][am]), file=sys.stderr)
    res["load_after"] = os.getloadavg()
    write(res, ams, args.out)


def write(res, ams, out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "mvcc.json"), "w") as f:
        json.dump(res, f, indent=1)
    a = res["args"]
    base = ams[0]
    lines = ["# pax as an OLTP table: heap vs pax", "",
             "`bench/mvcc_bench.py --am %s --scale %d --seconds %d --runs %d --vacrows %d`"
             % (",".join(ams), a["scale"], a["seconds"], a["runs"], a["vacrows"]),
             "", "Load average before/after: %.2f / %.2f (2 vCPU VM: wall-clock "
             "numbers are noisy)." % (res["load_before"][0], res["load_after"][0]), ""]
    versus = "%s / %s" % (ams[-1], base)
    align = "l" + "r" * (len(ams) + 1)

    def row(label, values, fmt):
        """label, each AM's value, and the last AM's over the first's"""
        return [label] + [fmt % v for v in values] + ["%.2f" % ratio(values[-1], values[0])]

    for kind, title in (("tpcb", "pgbench TPC-B-like (tps, median)"),
                        ("update", "SEEDS.md update script (tps, median)"),
                        ("insert", "single-row INSERT (tps, median)")):
        if kind not in res:
            continue
        lines += ["## " + title, ""] + md_table(
            ["clients"] + ams + [versus], align,
            [row(c[1:], [res[kind][am][c]["median"] for am in ams], "%.0f")
             for c in ("c1", "c2")])
        lines.append("")
        lines.append("Failed transactions: %s. Table size after init: %s." % (
            ", ".join("%s %d" % (am, res[kind][am]["c1"]["failed"] +
                                 res[kind][am]["c2"]["failed"]) for am in ams),
            ", ".join("%s %s" % (am, res[kind][am]["size"]) for am in ams)))
        if kind == "tpcb":
            lines.append("Balances equal the history's sum afterwards: %s." % ", ".join(
                "%s %s" % (am, res[kind][am]["balances_ok"]) for am in ams))
        lines.append("")
    if "fetch" in res and res["fetch"]:
        lines += ["## Index scan: 10,000 random rows by primary key", ""] + md_table(
            [""] + ams + [versus], align,
            [row("ms (median)", [res["fetch"][am]["median"] for am in ams], "%.1f")])
        lines.append("")
    if "vacuum" in res and res["vacuum"]:
        lines += ["## VACUUM after deleting 30% of the rows at random", ""] + md_table(
            [""] + ams + [versus], align,
            [row(label, [res["vacuum"][am][key] / unit for am in ams], "%.1f")
             for key, label, unit in (
                 ("vacuum_ms", "VACUUM ms", 1),
                 ("size_before", "size before, MB", 1 << 20),
                 ("size_after_vacuum", "size after VACUUM, MB", 1 << 20),
                 ("refill_ms", "re-insert 30% ms", 1),
                 ("size_after_refill", "size after re-insert, MB", 1 << 20))])
        lines.append("")
    write_report(os.path.join(out, "mvcc.md"), lines)


if __name__ == "__main__":
    main()
