"""bench/tpcds.py: TPC-DS's 99 queries, heap against pax, answers checked
against heap (bench/run tpcds).

Usage: bench/run tpcds --kit DIR [--sf 1] [--runs 3] [--variants serial]
                       [--queries q17,q25] [--timeout 60] [--reload] [--out DIR]

The TPC-DS kit is not in any package registry: --kit names a checkout of
a public copy of its tools (dsdgen, dsqgen and the query templates, e.g.
github.com/gregrahn/tpcds-kit), built here once (make OS=LINUX, with
-fcommon for GCC 10 and later).  dsdgen writes the data of scale factor
--sf under $PAX_HOME/tpcds_sfN; it is loaded with COPY (the trailing
delimiter cut off) into schemas ds_heap and ds_pax of database pax_tpcds,
with the kit's primary keys, then VACUUM (FREEZE, ANALYZE).  dsqgen
writes the 99 queries from their templates (the netezza dialect, seed
42), and "+ 14 days" becomes "+ interval '14 days'"; a template of two
statements (14, 23, 24, 39) gives queries qNNa and qNNb; queries PostgreSQL
rejects as generated (subqueries in FROM without an alias) are reported
as failing on both.  Each query then runs as bench/run tpch runs TPC-H
(bench/tpch.py: access methods in alternation, each run in a new session
after pg_prewarm and an EXPLAIN, medians, answers compared row for row),
with statement_timeout --timeout seconds: a query that times out on
either access method is reported without times.  Queries with LIMIT may
return different rows on ties: a differing answer is reported, and fails
the command only without LIMIT.

Writes bench/results/tpcds.md and .json (--out DIR for another folder).
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import (PAX_HOME, RESULTS, BenchError, Cluster,  # noqa: E402
                      run_main, write_report)
from tpch import Suite, run_suite, variant_tables  # noqa: E402

DB = "pax_tpcds"
AMS = ["heap", "pax"]


def build(kit):
    """build: the kit's dsdgen and dsqgen, made once."""
    tools = os.path.join(kit, "tools")
    if not os.path.exists(os.path.join(tools, "dsqgen")):
        subprocess.run(["make", "-C", tools, "OS=LINUX",
                        "CFLAGS=-g -O2 -fcommon -DLINUX -D_FILE_OFFSET_BITS=64 -DYYDEBUG"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return tools


def generate(tools, sf):
    """generate: the data of scale factor sf, once; returns its folder."""
    out = os.path.join(PAX_HOME, "tpcds_sf%s" % sf)
    if not glob.glob(os.path.join(out, "store_sales*.dat")):
        os.makedirs(out, exist_ok=True)
        subprocess.run(["./dsdgen", "-scale", str(sf), "-dir", out, "-force"], cwd=tools,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.chmod(out, 0o755)
        for f in os.listdir(out):
            os.chmod(os.path.join(out, f), 0o644)
    return out


def queries(tools, sf):
    """queries: {qNN: SQL} from the kit's templates (qNNa, qNNb for a
    template of two statements)."""
    res = {}
    outdir = os.path.join(PAX_HOME, "tpcds_queries")
    os.makedirs(outdir, exist_ok=True)
    for i in range(1, 100):
        subprocess.run(["./dsqgen", "-directory", "../query_templates", "-template",
                        "query%d.tpl" % i, "-dialect", "netezza", "-scale", str(sf),
                        "-output_dir", outdir, "-rngseed", "42"], cwd=tools, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(outdir, "query_0.sql")) as f:
            sql = "\n".join(ln for ln in f.read().splitlines() if not ln.startswith("--"))
        sql = re.sub(r"([+-])\s*(\d+)\s+days", r"\1 interval '\2 days'", sql)
        parts = [p.strip() for p in sql.split(";") if p.strip()]
        for k, part in enumerate(parts):
            res["q%02d%s" % (i, "ab"[k] if len(parts) > 1 else "")] = part
    return res


def load(cl, am, data, sf, kit, reload):
    """load: schema ds_<am> with the data of scale factor sf, once."""
    schema = "ds_" + am
    have = cl.psql("SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace "
                   "WHERE nspname = '%s'" % schema).strip()
    if have == "sf=%s" % sf and not reload:
        return
    with open(os.path.join(kit, "tools", "tpcds.sql")) as f:
        ddl = f.read()
    ddl = ddl[ddl.index("create table"):]
    copies = []
    for path in sorted(glob.glob(os.path.join(data, "*.dat"))):
        table = re.sub(r"(_\d+_\d+)?\.dat$", "", os.path.basename(path))
        if table == "dbgen_version":
            continue
        copies.append("COPY %s FROM PROGRAM 'sed \"s/|$//\" %s' WITH (FORMAT text, "
                      "DELIMITER '|', NULL '', ENCODING 'LATIN1');" % (table, path))
    cl.psql("CREATE EXTENSION IF NOT EXISTS pax_am; CREATE EXTENSION IF NOT EXISTS pg_prewarm;\n"
            "DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s; SET search_path = %s;\n"
            "SET default_table_access_method = %s;\n%s\n%s\nVACUUM (FREEZE, ANALYZE);\n"
            "COMMENT ON SCHEMA %s IS 'sf=%s';"
            % (schema, schema, schema, am, ddl, "\n".join(copies), schema, sf))


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/run tpcds", description=__doc__.split("\n")[0])
    ap.add_argument("--kit", required=True, help="a checkout of the TPC-DS kit's tools")
    ap.add_argument("--sf", default="1")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--variants", default="serial")
    ap.add_argument("--queries")
    ap.add_argument("--timeout", type=int, default=60, help="seconds a run may take")
    ap.add_argument("--reload", action="store_true")
    ap.add_argument("--out", default=RESULTS, help="results folder")
    a = ap.parse_args(argv)
    command = " ".join(["bench/run", "tpcds"] + argv)
    tools = build(os.path.abspath(a.kit))
    data = generate(tools, a.sf)
    sqls = queries(tools, a.sf)
    names = a.queries.split(",") if a.queries else list(sqls)
    cl = Cluster(DB)
    cl.create_db(DB)
    for am in AMS:
        load(cl, am, data, a.sf, os.path.abspath(a.kit), a.reload)
    version = cl.psql("SELECT current_setting('server_version')").strip()
    cl.hold_in_buffers(["ds_%s.%s" % (am, t) for am in AMS for t in cl.psql(
        "SELECT string_agg(relname, ' ') FROM pg_class WHERE relkind = 'r' AND "
        "relnamespace = 'ds_heap'::regnamespace").split()])
    suite = Suite("tpcds", "ds", [], {}, "TPC-DS")
    results, wrong, failed = [], [], []
    for q in names:
        suite.queries = {q: sqls[q]}
        try:
            res, bad = run_suite(cl, suite, [q], a.variants.split(","), a.runs,
                                 extra={"statement_timeout": "%ds" % a.timeout})
        except BenchError as e:
            failed.append((q, str(e).strip().splitlines()[-1][:100]))
            print("%s failed: %s" % (q, failed[-1][1]), flush=True)
            continue
        results += res
        wrong += [(v, x, "limit" in sqls[x].lower()) for v, x in bad]
    lines = ["# tpcds", "",
             "TPC-DS scale factor %s (the kit's dsdgen and dsqgen, netezza dialect), heap "
             "against pax, PostgreSQL %s; runs as in tpch.md; statement_timeout %d s. "
             "Generated by `%s` on %s, %d cores." % (a.sf, version, a.timeout, command,
                                                     time.strftime("%Y-%m-%d"),
                                                     os.cpu_count())]
    lines += variant_tables(results, a.variants.split(","))
    lines += ["", "Not timed (an error or the timeout on either access method): " +
              (", ".join("%s (%s)" % f for f in failed) or "none") + ".",
              "", "Answers that differ: " +
              (", ".join("%s %s%s" % (v, q, " (LIMIT, ties)" if lim else "")
                         for v, q, lim in wrong) or "none") + "."]
    write_report(os.path.join(a.out, "tpcds.md"), lines, "\n")
    with open(os.path.join(a.out, "tpcds.json"), "w") as f:
        json.dump({"args": vars(a), "version": version, "results": results,
                   "failed": failed}, f, indent=1)
    if any(not lim for _, _, lim in wrong):
        sys.exit("answers differ from heap's: %s" % ", ".join(
            "%s %s" % (v, q) for v, q, lim in wrong if not lim))
    return 0


if __name__ == "__main__":
    run_main(main)
