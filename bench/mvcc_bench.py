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
  fetch     an index scan fetching 10,000 random rows by primary key
            (id = ANY(array), enable_seqscan and bitmap scans off).

pgbench runs alternate between the access methods (--runs times, --seconds
each, after pg_prewarm); tps are medians.  Single-query timings are medians
of --runs runs, each in a new session after pg_prewarm.  Writes
bench/results/mvcc.md (and .json).

Usage: bench/mvcc_bench.py [--am heap,pax] [--scale 10] [--seconds 20]
           [--runs 3] [--vacrows 6000000] [--only tpcb,update,vacuum,fetch]
Environment: PAX_HOME, PAX_PORT (the private cluster), as bin/lib.sh.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
AM_EXTENSION = {"pax": "pax_am"}
TPS_RE = re.compile(r"^tps = ([0-9.]+)", re.M)
FAILED_RE = re.compile(r"number of failed transactions: ([0-9]+)")
TIME_RE = re.compile(r"^Time: ([0-9.]+) ms", re.M)

UPDATE_SCRIPT = """\\set aid random(1, 100000 * :scale)
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2)
 WHERE aid = :aid;
"""


def lib_sh(command, stdin=None, check=True):
    """Run a shell command with bin/lib.sh sourced; return its stdout."""
    script = 'source "%s/bin/lib.sh"; PG_BINDIR=$("$PG_CONFIG" --bindir); %s' % (
        ROOT, command)
    res = subprocess.run(["bash", "-c", script], input=stdin, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and res.returncode != 0:
        sys.exit("failed: %s\n%s" % (command, res.stderr))
    return res.stdout + res.stderr


def psql(db, sql):
    return lib_sh("as_pg psql -X -q -At -v ON_ERROR_STOP=1 -d %s -f -" % db, sql)


def dbname(am):
    return "mvcc_%s" % am


def setup_db(am):
    db = dbname(am)
    lib_sh("as_pg dropdb --if-exists %s" % db)
    lib_sh("as_pg createdb %s" % db)
    sql = ["CREATE EXTENSION pg_prewarm;"]
    if am in AM_EXTENSION:
        sql.append("CREATE EXTENSION %s;" % AM_EXTENSION[am])
    sql.append("ALTER DATABASE %s SET default_table_access_method = %s;" % (db, am))
    psql(db, "\n".join(sql))


def prewarm(db, tables):
    psql(db, "\n".join("SELECT pg_prewarm('%s');" % t for t in tables))


PGBENCH_TABLES = ["pgbench_accounts", "pgbench_branches", "pgbench_tellers",
                  "pgbench_history", "pgbench_accounts_pkey",
                  "pgbench_branches_pkey", "pgbench_tellers_pkey"]


def pgbench_init(am, scale, fillfactor):
    db = dbname(am)
    lib_sh("as_pg pgbench -q -i -s %d -F %d %s" % (scale, fillfactor, db))
    psql(db, "VACUUM ANALYZE;")
    return psql(db, "SELECT pg_total_relation_size('pgbench_accounts');").strip()


def pgbench_run(am, clients, seconds, script=None, scale=None):
    db = dbname(am)
    prewarm(db, PGBENCH_TABLES)
    if script:
        path = "/tmp/mvcc_bench_update.sql"
        with open(path, "w") as f:
            f.write(script)
        os.chmod(path, 0o644)
        args = "-f %s -D scale=%d" % (path, scale)
    else:
        args = ""
    out = lib_sh("as_pg pgbench -n -c %d -j %d -T %d %s %s" %
                 (clients, clients, seconds, args, db))
    m = TPS_RE.search(out)
    failed = FAILED_RE.search(out)
    if not m:
        sys.exit("pgbench output without tps:\n" + out)
    return float(m.group(1)), int(failed.group(1)) if failed else 0


def balances_ok(am):
    out = psql(dbname(am),
               "SELECT (SELECT sum(abalance) FROM pgbench_accounts) = "
               "(SELECT coalesce(sum(delta), 0) FROM pgbench_history) AND "
               "(SELECT sum(bbalance) FROM pgbench_branches) = "
               "(SELECT coalesce(sum(delta), 0) FROM pgbench_history) AND "
               "(SELECT sum(tbalance) FROM pgbench_tellers) = "
               "(SELECT coalesce(sum(delta), 0) FROM pgbench_history);")
    return out.strip() == "t"


def timed(db, setup, query):
    """Run query once in a new session after setup; return its ms."""
    out = psql(db, setup + "\n\\timing on\n" + query + "\n")
    times = TIME_RE.findall(out)
    return float(times[-1])


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--am", default="heap,pax")
    ap.add_argument("--scale", type=int, default=10)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--vacrows", type=int, default=6000000)
    ap.add_argument("--only", default="tpcb,update,vacuum,fetch")
    args = ap.parse_args()
    ams = args.am.split(",")
    only = set(args.only.split(","))
    lib_sh("cluster_start")
    res = {"args": vars(args), "load_before": os.getloadavg()}

    if only & {"tpcb", "update"}:
        for am in ams:
            setup_db(am)
        for kind, ff, script in (("tpcb", 100, None), ("update", 80, UPDATE_SCRIPT)):
            if kind not in only:
                continue
            res[kind] = {}
            for am in ams:
                res[kind].setdefault(am, {})["size"] = pgbench_init(am, args.scale, ff)
            for clients in (1, 2):
                runs = {am: [] for am in ams}
                fails = {am: 0 for am in ams}
                for _ in range(args.runs):
                    for am in ams:
                        tps, failed = pgbench_run(am, clients, args.seconds,
                                                  script, args.scale)
                        runs[am].append(tps)
                        fails[am] += failed
                for am in ams:
                    res[kind][am]["c%d" % clients] = {
                        "tps": runs[am], "median": med(runs[am]),
                        "failed": fails[am]}
                    print("%s %s clients=%d tps=%s" % (kind, am, clients, runs[am]),
                          file=sys.stderr)
            if kind == "tpcb":
                for am in ams:
                    res[kind][am]["balances_ok"] = balances_ok(am)

    if only & {"vacuum", "fetch"}:
        res["vacuum"] = {}
        res["fetch"] = {}
        for am in ams:
            db = dbname(am)
            if "tpcb" not in only and "update" not in only:
                setup_db(am)
            psql(db, """DROP TABLE IF EXISTS vt;
CREATE TABLE vt (id int PRIMARY KEY, a int, b int8, c float8, d text);
INSERT INTO vt SELECT g, g %% 1000, g * 7, g / 3.0, 'row ' || g
  FROM generate_series(1, %d) g;
VACUUM ANALYZE vt;""" % args.vacrows)
            # fetch: 10,000 random primary keys, the same for both
            ids = psql(db, "SELECT string_agg(id::text, ',') FROM "
                       "(SELECT (hashint4(g) & 2147483647) %% %d + 1 AS id "
                       "FROM generate_series(1, 10000) g) s;" % args.vacrows).strip()
            q = ("SELECT count(*), sum(a), sum(b) FROM vt WHERE id = ANY('{%s}'::int[]);"
                 % ids)
            setup = ("SELECT pg_prewarm('vt'); SELECT pg_prewarm('vt_pkey');\n"
                     "SET enable_seqscan = off; SET enable_bitmapscan = off;")
            plan = psql(db, setup + "\nEXPLAIN (COSTS OFF) " + q)
            times = [timed(db, setup, q) for _ in range(args.runs * 2 + 1)]
            res["fetch"][am] = {"ms": times, "median": med(times),
                                "index_scan": "Index Scan" in plan}
            # vacuum after deleting 30% at random
            size0 = int(psql(db, "SELECT pg_relation_size('vt');"))
            psql(db, "DELETE FROM vt WHERE (hashint4(id) & 1023) < 307;")
            psql(db, "SELECT pg_prewarm('vt'); SELECT pg_prewarm('vt_pkey');")
            t0 = time.time()
            psql(db, "VACUUM vt;")
            vac = (time.time() - t0) * 1000
            size1 = int(psql(db, "SELECT pg_relation_size('vt');"))
            t0 = time.time()
            psql(db, "INSERT INTO vt SELECT g, 0, 0, 0, 'new ' || g FROM "
                     "generate_series(%d, %d) g;" % (args.vacrows + 1,
                                                     args.vacrows + args.vacrows * 3 // 10))
            ins = (time.time() - t0) * 1000
            size2 = int(psql(db, "SELECT pg_relation_size('vt');"))
            res["vacuum"][am] = {"vacuum_ms": vac, "size_before": size0,
                                 "size_after_vacuum": size1,
                                 "size_after_refill": size2, "refill_ms": ins}
            print("vacuum %s %s" % (am, res["vacuum"][am]), file=sys.stderr)
    res["load_after"] = os.getloadavg()
    write(res, ams)


def write(res, ams):
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "mvcc.json"), "w") as f:
        json.dump(res, f, indent=1)
    a = res["args"]
    base = ams[0]
    lines = ["# pax as an OLTP table: heap vs pax", "",
             "`bench/mvcc_bench.py --am %s --scale %d --seconds %d --runs %d --vacrows %d`"
             % (",".join(ams), a["scale"], a["seconds"], a["runs"], a["vacrows"]),
             "", "Load average before/after: %.2f / %.2f (2 vCPU VM: wall-clock "
             "numbers are noisy)." % (res["load_before"][0], res["load_after"][0]), ""]
    for kind, title in (("tpcb", "pgbench TPC-B-like (tps, median)"),
                        ("update", "SEEDS.md update script (tps, median)")):
        if kind not in res:
            continue
        lines += ["## " + title, "",
                  "| clients | " + " | ".join(ams) + " | %s / %s |" % (ams[-1], base),
                  "|---|" + "---:|" * (len(ams) + 1)]
        for c in ("c1", "c2"):
            row = [res[kind][am][c]["median"] for am in ams]
            lines.append("| %s | %s | %.2f |" % (
                c[1:], " | ".join("%.0f" % v for v in row), row[-1] / row[0]))
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
        lines += ["## Index scan: 10,000 random rows by primary key", "",
                  "| | " + " | ".join(ams) + " | %s / %s |" % (ams[-1], base),
                  "|---|" + "---:|" * (len(ams) + 1)]
        row = [res["fetch"][am]["median"] for am in ams]
        lines.append("| ms (median) | %s | %.2f |" % (
            " | ".join("%.1f" % v for v in row), row[-1] / row[0]))
        lines.append("")
    if "vacuum" in res and res["vacuum"]:
        lines += ["## VACUUM after deleting 30% of the rows at random", "",
                  "| | " + " | ".join(ams) + " | %s / %s |" % (ams[-1], base),
                  "|---|" + "---:|" * (len(ams) + 1)]
        for key, label, unit in (("vacuum_ms", "VACUUM ms", 1),
                                 ("size_before", "size before, MB", 1 << 20),
                                 ("size_after_vacuum", "size after VACUUM, MB", 1 << 20),
                                 ("refill_ms", "re-insert 30% ms", 1),
                                 ("size_after_refill", "size after re-insert, MB", 1 << 20)):
            row = [res["vacuum"][am][key] / unit for am in ams]
            lines.append("| %s | %s | %.2f |" % (
                label, " | ".join("%.1f" % v for v in row), row[-1] / row[0]))
        lines.append("")
    with open(os.path.join(RESULTS, "mvcc.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
