#!/usr/bin/python3
"""bench/tpch.py: TPC-H (and SSB), heap against pax, answers checked against heap.

Usage: bench/tpch.py [--suite tpch|ssb] [--sf 1] [--runs 3]
                     [--variants serial,jit,workers,jit+workers]
                     [--queries Q01,Q06] [--reload] [--pg N]
   (also: bench/run tpch ...; bench/run ssb_all ... for --suite ssb)

--suite ssb runs the Star Schema Benchmark's 13 queries (bench/ssb_queries.py)
on its five tables, derived with SQL from the TPC-H tables of schema
tpch_heap (loaded first if needed) into schemas ssb_heap and ssb_pax, with
the dimensions' primary keys; results go to bench/results/ssb_all.md.

The data is generated once with the tpchgen-cli PyPI package (installed
when missing) as CSV under $PAX_HOME/tpch_sfN, and loaded with COPY into
schema tpch_heap and schema tpch_pax of database pax_tpch (the load of each
is timed), with the primary keys and foreign-key indexes of a usual
PostgreSQL setup, then VACUUM (FREEZE, ANALYZE).  Every query of
bench/tpch_queries.py then runs for each access method in alternation,
`runs` times, each in a new session after pg_prewarm of the schema's tables
and indexes (with search_path pointing at the schema), under each variant
(shared_buffers is made to hold both schemas, and the cluster restarted,
before the runs: see benchlib.hold_in_buffers):

  serial       jit off, max_parallel_workers_per_gather 0
  jit          jit on (jit_above_cost as configured), no workers
  workers      jit off, 2 workers
  jit+workers  jit on, 2 workers

The first run of each query and access method also records the result:
pax's must equal heap's row for row (each query orders its result totally);
a difference is reported and makes the command fail.  Medians, pax/heap
ratios and their geometric mean per variant go to
bench/results/tpch.md (bench/results/pgN/tpch.md for another PostgreSQL)
and .json.
"""

import argparse
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
if "--pg" in sys.argv[1:-1]:
    os.environ["PAX_PG"] = sys.argv[sys.argv.index("--pg") + 1]
    os.environ.setdefault("PAX_PG_FLAVOR", "release")
    os.environ.pop("PG_CONFIG", None)
from benchlib import (PAX_HOME, BenchError, Cluster, md_table,  # noqa: E402
                      median, write_report)
import ssb_queries  # noqa: E402
from tpch_queries import INDEXES, QUERIES, SCHEMA, TABLES  # noqa: E402

DB = "pax_tpch"
AMS = ["heap", "pax"]
VARIANTS = {
    "serial": {"jit": "off", "max_parallel_workers_per_gather": "0"},
    "jit": {"jit": "on", "max_parallel_workers_per_gather": "0"},
    "workers": {"jit": "off", "max_parallel_workers_per_gather": "2"},
    "jit+workers": {"jit": "on", "max_parallel_workers_per_gather": "2"},
}


def tpchgen():
    """The tpchgen-cli program: on the PATH, or installed once from PyPI into a
    virtual environment under /var/tmp (Debian's Python refuses to install
    packages system-wide)."""
    found = shutil.which("tpchgen-cli")
    if found:
        return found
    venv = "/var/tmp/pax_pytools"
    prog = os.path.join(venv, "bin", "tpchgen-cli")
    if not os.path.exists(prog):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "tpchgen-cli"],
                       check=True)
    return prog


def generate(sf):
    """The CSV files of scale factor sf, generated once."""
    out = os.path.join(PAX_HOME, f"tpch_sf{sf}")
    done = os.path.join(out, ".complete")
    if os.path.exists(done):
        return out
    os.makedirs(out, exist_ok=True)
    subprocess.run([tpchgen(), "csv", "-s", str(sf), f"--output-dir={out}"],
                   check=True)
    for name in os.listdir(out):
        os.chmod(os.path.join(out, name), 0o644)
    os.chmod(out, 0o755)
    open(done, "w").close()
    return out


class Suite:
    """A query set: its schemas' prefix, tables, queries and report name."""

    def __init__(self, name, prefix, tables, queries, title):
        self.name, self.prefix, self.tables = name, prefix, tables
        self.queries, self.title = queries, title


SUITES = {
    "tpch": Suite("tpch", "tpch", TABLES, QUERIES, "TPC-H"),
    "ssb": Suite("ssb_all", "ssb", ssb_queries.TABLES, ssb_queries.QUERIES,
                 "SSB (13 queries, derived from TPC-H)"),
}


def loaded_ms(cl, schema, meta, sf, reload):
    """The recorded load time of schema if it holds scale factor sf (and no
    reload was asked for), else None."""
    have = cl.psql("SELECT obj_description(oid, 'pg_namespace') "
                   f"FROM pg_namespace WHERE nspname = '{schema}'").strip()
    if have != f"sf={sf}" or reload:
        return None
    return float(cl.psql(f"SELECT load_ms FROM {schema}.{meta}") or 0)


def load_ssb(cl, am, sf, reload):
    """Schema ssb_<am> derived from tpch_heap, once; returns (load ms, bytes
    of the tables)."""
    schema = f"ssb_{am}"
    ms = loaded_ms(cl, schema, "ssb_meta", sf, reload)
    if ms is None:
        ext = "CREATE EXTENSION IF NOT EXISTS pax_am;" if am == "pax" else ""
        t0 = time.time()
        cl.psql(f"""{ext} CREATE EXTENSION IF NOT EXISTS pg_prewarm;
DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema};
SET search_path = {schema};
{ssb_queries.SCHEMA.format(am=am, src="tpch_heap")}""")
        ms = (time.time() - t0) * 1000
        for t in ssb_queries.TABLES:
            cl.psql(f"VACUUM (FREEZE, ANALYZE) {schema}.{t}")
        cl.psql(f"CREATE TABLE {schema}.ssb_meta AS SELECT {ms}::float8 AS load_ms;"
                f"COMMENT ON SCHEMA {schema} IS 'sf={sf}'")
    return ms, tables_size(cl, schema, ssb_queries.TABLES)


def tables_size(cl, schema, tables):
    return int(cl.psql(
        "SELECT sum(pg_table_size(c.oid)) FROM pg_class c "
        f"JOIN pg_namespace n ON n.oid = c.relnamespace "
        f"WHERE n.nspname = '{schema}' AND c.relname IN "
        f"({', '.join(repr(t) for t in tables)})").strip())


def load(cl, am, sf, data, reload):
    """Schema tpch_<am> with the data of scale factor sf, once; returns
    (load ms, bytes of the tables)."""
    schema = f"tpch_{am}"
    ms = loaded_ms(cl, schema, "tpch_meta", sf, reload)
    if ms is None:
        ext = "CREATE EXTENSION IF NOT EXISTS pax_am;" if am == "pax" else ""
        cl.psql(f"""{ext} CREATE EXTENSION IF NOT EXISTS pg_prewarm;
DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema};
SET search_path = {schema}; {SCHEMA.format(am=am)}""")
        copies = "\n".join(
            f"COPY {t} FROM '{data}/{t}.csv' WITH (FORMAT csv, HEADER true);"
            for t in TABLES)
        t0 = time.time()
        cl.psql(f"SET search_path = {schema};\nBEGIN;\n{copies}\nCOMMIT;")
        ms = (time.time() - t0) * 1000
        cl.psql(f"SET search_path = {schema};\n{INDEXES}")
        for t in TABLES:
            cl.psql(f"VACUUM (FREEZE, ANALYZE) {schema}.{t}")
        cl.psql(f"CREATE TABLE {schema}.tpch_meta AS SELECT {ms}::float8 AS load_ms;"
                f"COMMENT ON SCHEMA {schema} IS 'sf={sf}'")
    return ms, tables_size(cl, schema, TABLES)


def run_query(cl, suite, am, sql, gucs, keep):
    """One timed run in a new session; returns (ms, md5 of the result or None)."""
    schema = f"{suite.prefix}_{am}"
    prewarm = (f"SELECT pg_prewarm(c.oid::regclass) FROM pg_class c "
               f"WHERE c.relnamespace = '{schema}'::regnamespace "
               f"AND c.relkind IN ('r', 'i') \\g /dev/null")
    script = (f"SET search_path = {schema}, public;\n{prewarm}\n"
              f"EXPLAIN {sql} \\g /dev/null\n\\timing on\n{sql};\n")
    out = cl.psql(script, gucs=gucs)
    lines = out.splitlines()
    ms = float([ln for ln in lines if ln.startswith("Time: ")][-1].split()[1])
    if not keep:
        return ms, None
    rows = [ln for ln in lines if not ln.startswith("Time: ")]
    return ms, (hashlib.md5("\n".join(rows).encode()).hexdigest(), len(rows))


def run_suite(cl, suite, queries, variants, runs, after_run=None, extra=None):
    """run_suite runs each query of suite for each access method in
    alternation, runs times under each variant and the settings in extra
    (after_run(am) is called after each run); returns (results, [(variant,
    query) whose answers differ])."""
    results = []
    wrong = []
    for v in variants:
        for q in queries:
            times = {am: [] for am in AMS}
            answers = {}
            for r in range(runs):
                for am in AMS:
                    ms, ans = run_query(cl, suite, am, suite.queries[q],
                                        dict(VARIANTS[v], **(extra or {})), r == 0)
                    if after_run:
                        after_run(am)
                    times[am].append(ms)
                    if ans:
                        answers[am] = ans
            same = answers["pax"] == answers["heap"]
            if not same:
                wrong.append((v, q))
            results.append({"variant": v, "query": q, "times": times, "same": same,
                            "rows": answers["heap"][1]})
            print(f"{v:12} {q}  heap {median(times['heap']):9.1f} ms  "
                  f"pax {median(times['pax']):9.1f} ms  "
                  f"{'same' if same else 'DIFFERENT'} ({answers['heap'][1]} rows)",
                  flush=True)
    return results, wrong


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def variant_tables(results, variants):
    """variant_tables: the report's section of each variant (run_suite's
    results): a table of medians and ratios, their geometric mean, and the
    queries above 0.95x heap's time."""
    lines = []
    for v in variants:
        rows = [r for r in results if r["variant"] == v]
        ratios = [median(r["times"]["pax"]) / median(r["times"]["heap"]) for r in rows]
        lines += ["", f"## {v} ({', '.join(f'{k}={x}' for k, x in VARIANTS[v].items())})",
                  ""]
        lines += md_table(
            ["query", "heap ms", "pax ms", "pax / heap", "answer"], "lrrrl",
            [[r["query"], f"{median(r['times']['heap']):,.1f}",
              f"{median(r['times']['pax']):,.1f}", f"{x:.2f}",
              "same" if r["same"] else "**DIFFERENT**"] for r, x in zip(rows, ratios)])
        lines += ["", f"Geometric mean of pax / heap: **{geomean(ratios):.2f}** "
                  f"({len(rows)} queries; < 1 means pax is faster); above 0.95: "
                  + (", ".join(r["query"] for r, x in zip(rows, ratios) if x > 0.95)
                     or "none") + "."]
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", choices=sorted(SUITES), default="tpch")
    ap.add_argument("--sf", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--variants", default="serial,jit,workers,jit+workers")
    ap.add_argument("--queries")
    ap.add_argument("--reload", action="store_true")
    ap.add_argument("--pg", help="PostgreSQL major version (see bench/run)")
    ap.add_argument("--out", help="results folder")
    a = ap.parse_args(argv)
    major = os.environ.get("PAX_PG", "15")
    out = a.out or os.path.join(HERE, "results", *([] if major == "15" else ["pg" + major]))
    suite = SUITES[a.suite]
    queries = a.queries.split(",") if a.queries else list(suite.queries)
    variants = a.variants.split(",")

    data = generate(a.sf)
    cl = Cluster(DB)
    cl.create_db(DB)
    loads = {am: load(cl, am, a.sf, data, a.reload) for am in AMS}
    if suite.name != "tpch":
        loads = {am: load_ssb(cl, am, a.sf, a.reload) for am in AMS}
    version = cl.psql("SELECT current_setting('server_version')").strip()
    # every table and index of both schemas fits in shared buffers, which
    # hold nothing else when the runs start (benchlib.hold_in_buffers)
    rels = [f"{suite.prefix}_{am}.{t}" for am in AMS for t in suite.tables]
    need = cl.hold_in_buffers(rels)
    buffers = cl.psql("SELECT current_setting('shared_buffers') || coalesce("
                      "' (huge pages: ' || current_setting('huge_pages_status', true) || ')', '')"
                      ).strip()
    resident = {}

    def first_run(am):
        if am not in resident:
            resident[am] = cl.resident([f"{suite.prefix}_{am}.{t}" for t in suite.tables])

    results, wrong = run_suite(cl, suite, queries, variants, a.runs, first_run)

    lines = [f"# {suite.name}", "",
             f"{suite.title} scale factor {a.sf} (tpchgen-cli), heap against pax, "
             f"PostgreSQL {version}. Medians of {a.runs} runs, each in a new session "
             "after pg_prewarm of the schema's tables and indexes and an EXPLAIN of the query; "
             "access methods in alternation; times in ms. Answers: pax's result "
             "against heap's, row for row. Generated by `bench/tpch.py "
             f"--suite {a.suite} --sf {a.sf} --runs {a.runs} --variants {a.variants}` on "
             f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores. "
             f"shared_buffers {buffers} (the tables and indexes of both schemas take "
             f"{need / 1048576:,.0f} MB; the cluster was restarted before the runs); "
             "pages of the tables in shared buffers after the first run's prewarm: "
             + ", ".join(f"{am} {resident.get(am, 0):.1%}" for am in AMS) + ".", "",
             "## Load and size", ""]
    lines += md_table(["am", "load ms", "size MB", "size / heap"], "lrrr",
                      [[am, f"{loads[am][0]:,.0f}", f"{loads[am][1] / 1048576:,.1f}",
                        f"{loads[am][1] / loads['heap'][1]:.2f}"] for am in AMS])
    lines += variant_tables(results, variants)
    write_report(os.path.join(out, f"{suite.name}.md"), lines, "\n")
    with open(os.path.join(out, f"{suite.name}.json"), "w") as f:
        json.dump({"sf": a.sf, "runs": a.runs, "version": version, "loads": loads,
                   "results": results}, f, indent=1)
    if wrong:
        sys.exit("answers differ from heap's: %s" % ", ".join(f"{v} {q}" for v, q in wrong))


if __name__ == "__main__":
    try:
        main()
    except BenchError as e:
        sys.exit(str(e))
