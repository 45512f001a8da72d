"""bench/ssb_cold.py: SSB-like lineorder scans with nothing in memory, heap
against pax (bench/run ssb_cold; issue 16's cold-scan acceptance).

Usage: bench/run ssb_cold [--runs 5] [--queries Q1.1,sum]

Before each timed query the cluster is stopped, the kernel's page cache is
dropped (sync, then 3 into /proc/sys/vm/drop_caches: needs root) and the
cluster started again, so that the query reads every page it needs from the
disk: what a scan costs when its table is not in memory, where only reading
fewer bytes helps.  Serial, jit off.  The access methods alternate within
each run; the times are psql's \\timing of the query alone (the session's
connection is made before it).  The tables are the ssb experiment's
(lineorder_heap, lineorder_pax and ssb_date in database pax_bench), loaded
by `bench/run ssb` if they are missing.

Writes bench/results/ssb_cold.md and .json.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import (BenchError, Cluster, md_table, median,  # noqa: E402
                      write_report)
from experiments import EXPERIMENTS  # noqa: E402

DB = "pax_bench"
AMS = ("heap", "pax")
SETTINGS = "SET jit = off;\nSET max_parallel_workers_per_gather = 0;\n"


def queries():
    """Q1.x of the ssb experiment, and its full-table sum and count."""
    qs = {q.name: q.sql for q in EXPERIMENTS["ssb"].queries}
    return {"Q1.1": qs["Q1.1"], "Q1.2": qs["Q1.2"], "Q1.3": qs["Q1.3"],
            "sum": qs["sum(lo_extendedprice)"], "count": qs["count(*)"]}


def drop_caches(cl):
    """Stop the cluster, drop the kernel's page cache, start the cluster."""
    subprocess.run([os.path.join(HERE, "..", "bin", "cluster"), "stop"], check=True,
                   stdout=subprocess.DEVNULL)
    os.sync()
    try:
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
    except OSError as e:
        raise BenchError("cannot drop the page cache (run as root): %s" % e)
    subprocess.run([os.path.join(HERE, "..", "bin", "cluster"), "start"], check=True,
                   stdout=subprocess.DEVNULL)


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/run ssb_cold")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--queries", default="Q1.1,Q1.2,Q1.3,sum,count")
    args = ap.parse_args(argv)
    cl = Cluster()
    have = "f"
    if cl.has_db(DB):
        cl.db = DB
        have = cl.psql("SELECT to_regclass('lineorder_heap') IS NOT NULL AND "
                       "to_regclass('lineorder_pax') IS NOT NULL AND "
                       "to_regclass('ssb_date') IS NOT NULL").strip()
    if have != "t":
        raise BenchError("the ssb tables are not loaded: run bench/run ssb --am heap,pax first")
    sizes = {am: int(cl.psql(f"SELECT pg_relation_size('lineorder_{am}')").strip())
             for am in AMS}
    qs = queries()
    results = []
    for name in args.queries.split(","):
        sql = qs[name]
        times = {am: [] for am in AMS}
        for _ in range(args.runs):
            for am in AMS:
                drop_caches(cl)
                q = sql.format(lineorder=f"lineorder_{am}")
                times[am].append(cl.timed(f"{SETTINGS}\\o /dev/null\n\\timing on\n{q};\n"))
        print(f"{name:8} " + "  ".join(f"{am} {median(times[am]):9.1f} ms" for am in AMS),
              file=sys.stderr)
        results.append({"query": name, "times": times})
    lines = ["# ssb_cold", "",
             "SSB-like lineorder (6,000,000 rows; `bench/run ssb`'s tables), nothing in "
             "memory: before each timed query the cluster is stopped, the kernel's page "
             "cache dropped and the cluster started. Serial, jit off; medians of "
             f"{args.runs} runs, access methods alternating; ms. "
             f"lineorder: heap {sizes['heap'] / 2**20:,.0f} MB, "
             f"pax {sizes['pax'] / 2**20:,.0f} MB.", ""]
    rows = []
    for r in results:
        h, p = median(r["times"]["heap"]), median(r["times"]["pax"])
        rows.append([r["query"], f"{h:,.1f}", f"{p:,.1f}", f"{h / p:.2f}x"])
    lines += md_table(["query", "heap", "pax", "heap / pax"], "lrrr", rows)
    path = os.path.join(HERE, "results", "ssb_cold")
    write_report(path + ".md", lines)
    with open(path + ".json", "w") as f:
        json.dump({"sizes": sizes, "results": results}, f, indent=1)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
