#!/usr/bin/python3
"""bench/deform_cache_bench.py: the 2005 deform study, and deform_cache's cost.

Reproduces Test 1 (``select colK from test_tbl``) and Test 2
(``select col0, ..., colK from test_tbl``) of SEEDS.md section 1c on a table of
100 text columns col0..col99 and 100,000 rows, for each table access method
given (heap by default), on the private cluster of bin/lib.sh.  For each query
it runs 7 alternating pairs (deform_cache.track off, then on) after
pg_prewarm, and reports:

  - the median time with tracking off (the curve of the study),
  - the attributes deformed per tuple, from deform_cache_last,
  - the median time with tracking on and the overhead on/off,
  - the same from the fastest run of each, less sensitive to other load.

Queries are timed by psql (\\timing) with their rows sent to /dev/null in
unaligned format, as a client would receive them (--mode client), or run as
``COPY (...) TO '/dev/null'`` so that nothing crosses the socket (--mode
copy; the rows are still projected and converted to text).

It also compares a session that never loaded deform_cache with one that
loaded it and left tracking off (the cost of the hooks alone), on Test 1's
first and last query.

Writes bench/results/NAME.md and bench/results/NAME.png (NAME: --output,
deform_cache by default).  The load average before and after is recorded:
the timings are wall-clock times and suffer from anything else the machine
runs meanwhile.

Usage: bench/deform_cache_bench.py [--am heap,pax] [--all] [--step 5]
           [--runs 7] [--rows 100000] [--mode client|copy] [--output NAME]
Environment: PAX_HOME, PAX_PORT (the private cluster), as bin/lib.sh.
Stdlib only; the plot needs python3-matplotlib and is skipped without it.
"""

import argparse
import os
import sys

from benchlib import (RESULTS, Cluster, am_extensions, md_table, median, prewarm_sql,
                      timings, write_report)

DBNAME = "deform_bench"
NCOLS = 100


def setup(ams, rows):
    """Create the database, the extensions and one table per access method;
    return the cluster."""
    cl = Cluster(DBNAME)
    cl.create_db(DBNAME)
    cl.psql("CREATE EXTENSION IF NOT EXISTS pg_prewarm;\n"
            "CREATE EXTENSION IF NOT EXISTS deform_cache;\n" + am_extensions(ams))
    cols = ", ".join("col%d text" % i for i in range(NCOLS))
    vals = ", ".join("'v%d_' || g" % i for i in range(NCOLS))
    for am in ams:
        tbl = table(am)
        have = cl.psql("select count(*) from pg_class where relname = '%s';\n"
                       "select case when to_regclass('%s') is null then -1 "
                       "else (select reltuples::bigint from pg_class "
                       "where relname = '%s') end;" % (tbl, tbl, tbl)).split()
        if have[0] == "1" and int(have[1]) == rows:
            continue
        print("== creating %s (%d rows, %s)" % (tbl, rows, am), file=sys.stderr)
        cl.psql("DROP TABLE IF EXISTS %s;\n"
                "CREATE TABLE %s (%s) USING %s;\n"
                "INSERT INTO %s SELECT %s FROM generate_series(1, %d) g;\n"
                "VACUUM ANALYZE %s;" % (tbl, tbl, cols, am, tbl, vals, rows, tbl))
    return cl


def table(am):
    return "test_tbl" if am == "heap" else "test_tbl_%s" % am


def queries(am, ks, mode):
    """(test, K, sql) for Test 1 and Test 2."""
    out = []
    for test in (1, 2):
        for k in ks:
            if test == 1:
                cols = "col%d" % k
            else:
                cols = ", ".join("col%d" % i for i in range(k + 1))
            q = "select %s from %s" % (cols, table(am))
            if mode == "copy":
                q = "copy (%s) to '/dev/null'" % q
            out.append((test, k, q))
    return out


def run(cl, am, ks, runs, mode):
    """Time every query.

    Return {(test, K): (off_ms, on_ms, attrs, tuples, off_min_ms, on_min_ms)},
    times being medians unless said min.
    """
    script = ["SET jit = off;", "SET max_parallel_workers_per_gather = 0;",
              "LOAD 'deform_cache';",
              "\\o /dev/null",
              prewarm_sql([table(am)]),
              "\\timing on"]
    qs = queries(am, ks, mode)
    for test, k, q in qs:
        # one warm-up, then alternating off/on pairs
        script.append("SET deform_cache.track = off;")
        script.append(q + ";")
        for _ in range(runs):
            script.append("SET deform_cache.track = off;")
            script.append(q + ";")
            script.append("SET deform_cache.track = on;")
            script.append(q + ";")
        script.append("\\timing off")
        script.append("\\o")
        script.append("SELECT 'COUNTERS', %d, %d, sum(attributes_deformed), "
                      "max(tuples_deformed) FROM deform_cache_last;" % (test, k))
        script.append("\\o /dev/null")
        script.append("\\timing on")
    out = cl.psql("\n".join(script) + "\n")

    times = timings(out)
    counters = {}
    for line in out.splitlines():
        if line.startswith("COUNTERS|"):
            _, test, k, attrs, tuples = line.split("|")
            counters[(int(test), int(k))] = (int(attrs), int(tuples))
    # per query: SET, warm-up, then runs x (SET, q, SET, q); SETs are timed too
    per_query = 2 + 4 * runs
    if len(times) != per_query * len(qs):
        sys.exit("expected %d timings, got %d" % (per_query * len(qs), len(times)))
    res = {}
    for i, (test, k, _) in enumerate(qs):
        t = times[i * per_query:(i + 1) * per_query]
        off = [t[2 + 4 * r + 1] for r in range(runs)]
        on = [t[2 + 4 * r + 3] for r in range(runs)]
        attrs, tuples = counters[(test, k)]
        res[(test, k)] = (median(off), median(on),
                          attrs, tuples, min(off), min(on))
    return res


def time_session(cl, q, load):
    """Time q in a new session: the fastest of 3 runs after a warm-up."""
    script = ["\\o /dev/null",
              "SET jit = off;", "SET max_parallel_workers_per_gather = 0;"]
    if load:
        script += ["LOAD 'deform_cache';", "SET deform_cache.track = off;"]
    script += [q + ";", "\\timing on"] + [q + ";"] * 3
    return min(timings(cl.psql("\n".join(script) + "\n")))


def run_hooks_off(cl, am, ks, runs, mode):
    """Not loaded vs loaded with tracking off: {K: (unloaded_ms, off_ms)}."""
    res = {}
    for test, k, q in queries(am, ks, mode):
        if test != 1 or k not in (ks[0], ks[-1]):
            continue
        unloaded, off = [], []
        for _ in range(runs):
            unloaded.append(time_session(cl, q, False))
            off.append(time_session(cl, q, True))
        res[k] = (median(unloaded), median(off))
    return res


def geomean(xs):
    prod = 1.0
    for x in xs:
        prod *= x
    return prod ** (1.0 / len(xs))


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def report(all_res, hooks, ks, runs, rows, mode, output, load_before):
    lines = ["# deform_cache benchmark: the 2005 deform study (SEEDS.md 1c)", "",
             "Table: 100 text columns col0..col99, %d rows; jit = off, "
             "max_parallel_workers_per_gather = 0, after pg_prewarm. "
             "Times are medians of %d runs, timed by psql (mode `%s`), "
             "tracking off and on alternating. attrs/tuple is "
             "attributes_deformed / rows from deform_cache_last. "
             "Load average before %s, after %s (%d CPUs)." %
             (rows, runs, mode, load_before, loadavg(), os.cpu_count()),
             ""]
    for am, res in all_res.items():
        for test in (1, 2):
            title = ("Test 1: `select colK from test_tbl`" if test == 1 else
                     "Test 2: `select col0, ..., colK from test_tbl`")
            rows_md = []
            for k in ks:
                off, on, attrs, tuples, off_min, on_min = res[(test, k)]
                rows_md.append(["%d" % k, "%.1f" % off, "%.1f" % on, "%.3f" % (on / off),
                                "%.1f" % off_min, "%.1f" % on_min,
                                "%.3f" % (on_min / off_min), "%.1f" % (attrs / float(rows))])
            lines += ["## %s (%s)" % (title, am), ""] + md_table(
                ["K", "off ms", "on ms", "on/off", "off min ms", "on min ms",
                 "min on/off", "attrs/tuple"], "rrrrrrrr", rows_md)
            lines.append("")
        for label, i, j in (("medians", 0, 1), ("minima", 4, 5)):
            ratios = [v[j] / v[i] for v in res.values()]
            lines += ["Overhead of tracking on (%s, %s): geometric mean of "
                      "on/off over all %d queries %.3f (min %.3f, max %.3f)." %
                      (am, label, len(ratios), geomean(ratios), min(ratios),
                       max(ratios)), ""]
        lines += ["Cost of the hooks with tracking off (%s, Test 1; in each "
                  "of %d alternating sessions the fastest of 3 runs, median "
                  "over the sessions):" % (am, runs), ""]
        lines += md_table(
            ["K", "not loaded ms", "loaded, off ms", "off/not loaded"], "rrrr",
            [["%d" % k, "%.1f" % unloaded, "%.1f" % off, "%.3f" % (off / unloaded)]
             for k, (unloaded, off) in sorted(hooks[am].items())])
        lines.append("")
    path = os.path.join(RESULTS, output + ".md")
    write_report(path, lines)
    print("== wrote %s" % path, file=sys.stderr)
    plot(all_res, ks, rows, output)


def plot(all_res, ks, rows, output):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("== no matplotlib: no plot (apt-get install python3-matplotlib)",
              file=sys.stderr)
        return
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    for col, test in enumerate((1, 2)):
        for am, res in all_res.items():
            axes[0][col].plot(ks, [res[(test, k)][0] for k in ks], "o-",
                              label="%s, tracking off" % am)
            axes[0][col].plot(ks, [res[(test, k)][1] for k in ks], "x--",
                              label="%s, tracking on" % am)
            axes[1][col].plot(ks, [res[(test, k)][2] / float(rows) for k in ks],
                              "o-", label=am)
        axes[0][col].set_title("Test %d: select %s" %
                               (test, "colK" if test == 1 else "col0..colK"))
        axes[0][col].set_ylabel("median time (ms)")
        axes[1][col].set_ylabel("attributes deformed per tuple")
        for r in (0, 1):
            axes[r][col].set_xlabel("K")
            axes[r][col].grid(True, alpha=0.3)
            axes[r][col].legend()
    fig.tight_layout()
    path = os.path.join(RESULTS, output + ".png")
    fig.savefig(path, dpi=100)
    print("== wrote %s" % path, file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--am", default="heap",
                    help="comma-separated table access methods (default heap)")
    ap.add_argument("--all", action="store_true", help="every K from 0 to 99")
    ap.add_argument("--step", type=int, default=5,
                    help="sample every STEP-th K, plus K = 99 (default 5)")
    ap.add_argument("--runs", type=int, default=7,
                    help="alternating off/on pairs per query (default 7)")
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--mode", choices=("client", "copy"), default="client")
    ap.add_argument("--output", default="deform_cache",
                    help="name of the result files in bench/results")
    args = ap.parse_args()

    ks = list(range(0, NCOLS, 1 if args.all else args.step))
    if ks[-1] != NCOLS - 1:
        ks.append(NCOLS - 1)
    ams = args.am.split(",")
    cl = setup(ams, args.rows)
    load_before = loadavg()
    all_res, hooks = {}, {}
    for am in ams:
        print("== %s: %d queries x %d runs x 2" % (am, 2 * len(ks), args.runs),
              file=sys.stderr)
        all_res[am] = run(cl, am, ks, args.runs, args.mode)
        hooks[am] = run_hooks_off(cl, am, ks, args.runs, args.mode)
    report(all_res, hooks, ks, args.runs, args.rows, args.mode, args.output,
           load_before)


if __name__ == "__main__":
    main()
