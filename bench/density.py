"""bench/density.py: what pax pages hold, column by column, and what the
dense page forms designed in pax_am/README ("Dense pages") would make of
the same rows: the measured input of that design (issue 16).

Usage: bench/run density [--tables lineorder,test_32,test_tbl,lineitem]
                         [--group 291] [--sample 400]

For each table, loaded for heap and pax by the experiments of bench/run
(lineorder of ssb, test_32 of age32, test_tbl of deform100) or by bench/run
tpch (lineitem, database pax_tpch): the size of each, and per column

  today      bytes per row of its minipages on pax pages (pax_page_columns
             over --sample pages spread over the table), row headers apart;
  projected  bytes per row of the encoding the design would choose for it,
             computed from the rows themselves, cut into groups of --group
             rows (a page's rows: at most MaxHeapTuplesPerPage = 291) in
             the table's physical order:
               frame of reference: integer-like columns (int2/4/8, oid,
                 date, timestamp[tz]): a base, a common factor (the gcd
                 of the differences) and ceil(log2((max - min) / factor
                 + 1)) bits a value, 0 bits if constant;
               scaled: numeric, and floats whose every value reads back
                 from its decimal form, as integers at the least scale
                 that holds the group's values exactly (at most 18
                 digits), then as frame of reference; else plain;
               dictionary: strings with at most 255 distinct values in the
                 group: each distinct value once, and a code of
                 ceil(log2(distinct)) bits a row;
               prefix: other strings: the group's common prefix once, then
                 each value's remaining bytes with a one-byte length;
               plain: anything else, as stored today;
             a null bitmap where the group has NULLs (none when it has
             none; an all-NULL column is nothing but its directory bit).

The rows' MVCC state on a compact (all-frozen) page is counted as one byte a
row (the per-row state array of the design), and each page as 128 bytes of
headers, directory and zone maps.  Projected pages: the larger of the rows
divided by 291 and the bytes divided by the page's usable bytes.

With --copy, each table is also loaded afresh from its heap table, each
way of --load-ways: COPY (COPY heap TO a file, then COPY FROM it), CREATE
TABLE AS and INSERT ... SELECT, into a new heap table and a new pax table,
alternately --copy-runs times, each followed by VACUUM (FREEZE): the sizes
this build's pages give (encoded minipages: pax_am/README) and the median
load times, heap's and pax's, side by side.

Writes bench/results/density.md and .json.  Without --copy, only reads the
tables.
"""

import argparse
import json
import math
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import BenchError, Cluster, md_table, write_report  # noqa: E402
from experiments import EXPERIMENTS  # noqa: E402

PAGE = 8192
PAGE_OVERHEAD = 128          # page header, pax header, directory, zone maps
ROW_STATE_BYTES = 1          # compact page: MVCC state a row
MAX_ROWS = 291               # MaxHeapTuplesPerPage
INTLIKE = {"int2", "int4", "int8", "oid", "date", "timestamp", "timestamptz"}
STRINGS = {"text", "varchar", "bpchar", "name"}

# table -> (database, heap relation, pax relation)
TABLES = {
    "lineorder": ("pax_bench", "lineorder_heap", "lineorder_pax"),
    "test_32": ("pax_bench", "test_32_heap", "test_32_pax"),
    "test_tbl": ("pax_bench", "test_tbl_heap", "test_tbl_pax"),
    "lineitem": ("pax_tpch", "tpch_heap.lineitem", "tpch_pax.lineitem"),
}
# acceptance of issue 16: pax size / heap size after VACUUM (FREEZE)
TARGETS = {"lineorder": 0.45, "test_32": 0.40, "test_tbl": 0.80, "lineitem": 0.50}


def columns(cl, db, rel):
    out = cl.psql(f"""SELECT attnum, attname, t.typname, atttypmod, attlen
FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
WHERE attrelid = '{rel}'::regclass AND attnum > 0 AND NOT attisdropped
ORDER BY attnum""", db=db)
    cols = []
    for line in out.strip().splitlines():
        num, name, typ, typmod, attlen = line.split("|")
        cols.append({"attnum": int(num), "name": name, "type": typ,
                     "typmod": int(typmod), "attlen": int(attlen)})
    return cols


def int_expr(col):
    q = '"%s"' % col["name"]
    if col["type"] in ("int2", "int4", "int8"):
        return f"{q}::int8"
    if col["type"] == "oid":
        return f"{q}::int8"
    if col["type"] == "date":
        return f"({q} - date '2000-01-01')::int8"
    if col["type"] in ("timestamp", "timestamptz"):
        return f"(extract(epoch FROM {q}) * 1000000)::int8"
    raise ValueError(col["type"])


def group_sql(rel, cols, group):
    """One row per column: (attnum, encoding, projected bytes) summed over
    the groups of `group` rows of rel in physical order."""
    inner, aggs, per_col = [], [], []
    for c in cols:
        k, q = c["attnum"], '"%s"' % c["name"]
        nulls = f"(n - nn{k})"
        bitmap = f"(CASE WHEN {nulls} > 0 THEN ceil(n / 8.0) ELSE 0 END)"
        if c["type"] in INTLIKE:
            # frame of reference with a common factor: the gcd of the
            # differences between neighbours (0 at a group's first row)
            inner.append(f"{int_expr(c)}::numeric AS v{k}, CASE WHEN rn % {group} = 0 "
                         f"THEN 0 ELSE {int_expr(c)}::numeric - lag({int_expr(c)}::numeric) "
                         f"OVER () END AS dv{k}")
            aggs.append(f"count(v{k}) AS nn{k}, min(v{k}) AS lo{k}, max(v{k}) AS hi{k}, "
                        f"pg_temp.gcd_agg(dv{k}) AS gd{k}")
            steps = f"((hi{k} - lo{k}) / greatest(gd{k}, 1))"
            per_col.append((k, "CASE WHEN gd%d > 1 THEN 'frame of reference, factor' "
                               "ELSE 'frame of reference' END" % k,
                            f"(CASE WHEN nn{k} = 0 THEN 0 ELSE 16 + "
                            f"ceil(n * ceil(log(2, {steps} + 1)) / 8.0) + {bitmap} END)"))
        elif c["type"] in ("numeric", "float4", "float8"):
            # scaled integers at the page's least exact scale; a float only
            # where every value reads back from its decimal form
            dec = f"{q}::numeric" if c["type"] != "numeric" else q
            exact = (f"({dec})::{c['type']} = {q}" if c["type"] != "numeric" else "true")
            inner.append(f"{dec} AS v{k}, min_scale({dec}) AS sc{k}, {exact} AS ok{k}, "
                         f"pg_column_size({q}) AS pb{k}")
            aggs.append(f"count(v{k}) AS nn{k}, min(v{k}) AS lo{k}, max(v{k}) AS hi{k}, "
                        f"max(sc{k}) AS s{k}, bool_and(ok{k}) AS ok{k}, "
                        f"coalesce(sum(pb{k}), 0) + {2 if c['attlen'] < 0 else 0} * count(v{k}) "
                        f"AS pb{k}")
            steps = f"((hi{k} - lo{k}) * 10::numeric ^ s{k})"
            fits = (f"ok{k} AND s{k} <= 18 AND greatest(abs(hi{k}), abs(lo{k})) * 10::numeric ^ s{k} "
                    f"< 9e18")
            per_col.append((k, f"CASE WHEN nn{k} = 0 THEN 'all null' WHEN {fits} THEN "
                               f"'frame of reference, scaled' ELSE 'plain' END",
                            f"(CASE WHEN nn{k} = 0 THEN 0 WHEN {fits} THEN 16 + "
                            f"ceil(n * ceil(log(2, {steps} + 1)) / 8.0) ELSE pb{k} END "
                            f"+ {bitmap})"))
        elif c["type"] in STRINGS:
            inner.append(f"{q}::text AS v{k}")
            aggs.append(f"count(v{k}) AS nn{k}, count(DISTINCT v{k}) AS d{k}, "
                        f"sum(octet_length(v{k})) AS len{k}, "
                        f"min(v{k} COLLATE \"C\") AS lo{k}, max(v{k} COLLATE \"C\") AS hi{k}, "
                        f"(SELECT sum(octet_length(x) + 1) FROM "
                        f"unnest(array_agg(DISTINCT v{k})) x) AS dl{k}")
            # the common prefix of all values is that of the least and the greatest
            prefix = (f"(SELECT coalesce(max(i), 0) FROM generate_series(1, "
                      f"least(octet_length(lo{k}), octet_length(hi{k}))) i "
                      f"WHERE substr(lo{k}, 1, i) = substr(hi{k}, 1, i))")
            dict_bytes = (f"(dl{k} + 2 * d{k} + ceil(n * ceil(log(2, greatest(d{k}, 2))) / 8.0))")
            prefix_bytes = f"({prefix} + len{k} - nn{k} * {prefix} + nn{k})"
            per_col.append((k, f"CASE WHEN nn{k} = 0 THEN 'all null' WHEN d{k} <= 255 AND "
                               f"{dict_bytes} < {prefix_bytes} THEN 'dictionary' "
                               f"ELSE 'prefix' END",
                            f"(CASE WHEN nn{k} = 0 THEN 0 WHEN d{k} <= 255 THEN "
                            f"least({dict_bytes}, {prefix_bytes}) ELSE {prefix_bytes} END "
                            f"+ {bitmap})"))
        elif c["type"] == "bool":
            inner.append(f"{q} AS v{k}")
            aggs.append(f"count(v{k}) AS nn{k}")
            per_col.append((k, "'bits'", f"(ceil(n / 8.0) + {bitmap})"))
        else:
            inner.append(f"{q} AS v{k}")
            extra = "2 * count(v{k})" if c["attlen"] < 0 else "0"
            aggs.append(f"count(v{k}) AS nn{k}, "
                        f"coalesce(sum(pg_column_size(v{k})), 0) + {extra.format(k=k)} AS pb{k}")
            per_col.append((k, "'plain'", f"(pb{k} + {bitmap})"))
    sel = ", ".join(inner)
    agg = ", ".join(aggs)
    unions = " UNION ALL ".join(
        f"SELECT {k} AS attnum, {enc} AS encoding, {expr} AS bytes FROM g"
        for k, enc, expr in per_col)
    return f"""SET max_parallel_workers_per_gather = 0;
SET jit = off;
CREATE AGGREGATE pg_temp.gcd_agg(numeric) (sfunc = gcd, stype = numeric, initcond = '0');
WITH g AS MATERIALIZED (
  SELECT count(*) AS n, {agg}
  FROM (SELECT rn / {group} AS grp, {sel}
        FROM (SELECT row_number() OVER () - 1 AS rn, * FROM {rel}) t) r
  GROUP BY grp)
SELECT attnum, string_agg(DISTINCT encoding, ', '), sum(bytes)::int8
FROM ({unions}) u GROUP BY attnum ORDER BY attnum"""


def today_sql(rel, sample):
    """Rows, and bytes of each column's minipage and values, summed over
    sampled pages."""
    return f"""WITH b AS (
  SELECT blkno FROM generate_series(0::int8, pg_relation_size('{rel}') / 8192 - 1,
    greatest(1, pg_relation_size('{rel}') / 8192 / {sample})) blkno)
SELECT 0, sum(p.nrows)::int8 FROM pax_page_stats('{rel}') p JOIN b USING (blkno)
UNION ALL
SELECT c.attnum, sum(c.minipage_bytes + c.value_bytes)::int8
FROM b, LATERAL pax_page_columns('{rel}', b.blkno) c GROUP BY c.attnum
ORDER BY 1"""


def measure(cl, name, group, sample):
    db, heap, pax = TABLES[name]
    sizes = cl.psql(f"SELECT pg_relation_size('{heap}'), pg_relation_size('{pax}'), "
                    f"(SELECT count(*) FROM {heap})", db=db).strip().split("|")
    heap_bytes, pax_bytes, nrows = (int(x) for x in sizes)
    cols = columns(cl, db, heap)
    # rows and column bytes on a sample of pax pages
    today = {}
    rows_sampled = 0
    for line in cl.psql(today_sql(pax, sample), db=db).strip().splitlines():
        k, v = (int(x) for x in line.split("|"))
        if k == 0:
            rows_sampled = v
        else:
            today[k] = v
    projected = {}
    for line in cl.psql(group_sql(heap, cols, group), db=db).strip().splitlines():
        if "|" not in line:
            continue
        k, enc, b = line.split("|")
        projected[int(k)] = (enc, int(b))
    total = sum(b for _, b in projected.values()) + ROW_STATE_BYTES * nrows
    usable = PAGE - PAGE_OVERHEAD
    pages = max(math.ceil(nrows / MAX_ROWS), math.ceil(total / usable))
    per_col = []
    for c in cols:
        k = c["attnum"]
        enc, b = projected[k]
        per_col.append({"column": c["name"], "type": c["type"],
                        "today": today.get(k, 0) / max(rows_sampled, 1),
                        "encoding": enc, "projected": b / nrows})
    return {"table": name, "rows": nrows, "heap_bytes": heap_bytes,
            "pax_bytes": pax_bytes, "projected_pages": pages,
            "projected_bytes": pages * PAGE, "columns": per_col,
            "rows_sampled": rows_sampled}


def report(results, group, sample):
    lines = ["# density", "",
             "What pax pages hold today and what the dense page forms designed in "
             "pax_am/README (\"Dense pages\") would make of the same rows, "
             f"measured on the loaded tables (`bench/run density`; groups of {group} "
             f"rows in physical order; today's bytes, minipages and values, from {sample} sampled pages). "
             "Sizes are the main fork after VACUUM (FREEZE).", "",
             "## Tables", ""]
    rows = []
    for r in results:
        rows.append([r["table"], f"{r['rows']:,}", f"{r['heap_bytes'] / 2**20:,.0f}",
                     f"{r['pax_bytes'] / 2**20:,.0f}",
                     f"{r['pax_bytes'] / r['heap_bytes']:.2f}",
                     f"{r['projected_bytes'] / 2**20:,.0f}",
                     f"{r['projected_bytes'] / r['heap_bytes']:.2f}",
                     f"{TARGETS.get(r['table'], float('nan')):.2f}"])
    lines += md_table(["table", "rows", "heap MB", "pax MB", "pax / heap",
                       "dense MB (projected)", "dense / heap", "target"],
                      "lrrrrrrr", rows)
    for r in results:
        lines += ["", f"## {r['table']}: bytes per row by column", ""]
        rows = [[c["column"], c["type"], f"{c['today']:.1f}", c["encoding"],
                 f"{c['projected']:.2f}"] for c in r["columns"]]
        rows.append(["(row headers)", "", "24.0", "compact state", f"{ROW_STATE_BYTES:.2f}"])
        lines += md_table(["column", "type", "today", "dense encoding", "projected"],
                          "llrlr", rows)
    return lines


LOAD_WAYS = {
    # way: how a new table {new} of access method {am} is filled from {heap}
    "copy": "CREATE TABLE {new} (LIKE {heap}) USING {am}; CHECKPOINT;\n"
            "COPY {new} FROM '{path}'",
    "ctas": "CHECKPOINT;\nCREATE TABLE {new} USING {am} AS SELECT * FROM {heap}",
    "insert": "CREATE TABLE {new} (LIKE {heap}) USING {am}; CHECKPOINT;\n"
              "INSERT INTO {new} SELECT * FROM {heap}",
}
LOAD_NAMES = {"copy": "COPY FROM", "ctas": "CREATE TABLE AS", "insert": "INSERT ... SELECT"}


def copy_load(cl, name, runs, ways=("copy",)):
    """Load the table afresh each way of LOAD_WAYS (COPY FROM a file of its
    rows, CREATE TABLE AS, INSERT ... SELECT from its heap table), into
    heap and pax alternately (runs times each), VACUUM (FREEZE) it; per
    way, the sizes, the encoded pages' share and the median load times (the
    statement that fills the table)."""
    db, heap, pax = TABLES[name]
    path = f"/tmp/pax_density_{name}.copy"
    if "copy" in ways:
        cl.psql(f"COPY {heap} TO '{path}'", db=db)
    out = {}
    try:
        for way in ways:
            times = {"heap": [], "pax": []}
            sizes = {}
            encoded = 0.0
            for _ in range(runs):
                for am in ("heap", "pax"):
                    new = f"{pax}_load" if am == "pax" else f"{heap}_load"
                    setup, fill = LOAD_WAYS[way].format(
                        new=new, am=am, heap=heap, path=path).split("\n")
                    cl.psql(f"DROP TABLE IF EXISTS {new}; {setup}", db=db)
                    t0 = time.monotonic()
                    cl.psql(fill, db=db)
                    times[am].append(time.monotonic() - t0)
                    cl.psql(f"VACUUM (FREEZE) {new}", db=db)
                    sizes[am] = int(cl.psql(f"SELECT pg_relation_size('{new}')", db=db))
                    if am == "pax":
                        encoded = float(cl.psql(
                            f"SELECT avg((encoded > 0)::int) FROM pax_page_stats('{new}')",
                            db=db))
                    cl.psql(f"DROP TABLE {new}", db=db)
            out[way] = {"heap_bytes": sizes["heap"], "pax_bytes": sizes["pax"],
                        "encoded_pages": encoded,
                        "heap_s": statistics.median(times["heap"]),
                        "pax_s": statistics.median(times["pax"])}
    finally:
        os.unlink(path) if os.path.exists(path) else None
    return out


def copy_report(results, runs):
    lines = ["", "## Loaded afresh (this build)", "",
             "Each table loaded again from its heap table: by COPY FROM (of a file "
             "COPY TO wrote), by CREATE TABLE AS and by INSERT ... SELECT, into heap "
             f"and into pax alternately, {runs} times each, then VACUUM (FREEZE); "
             "median times of the statement that fills the table.", ""]
    rows = []
    for r in results:
        for way, c in r.get("load", {}).items():
            rows.append([r["table"], LOAD_NAMES[way],
                         f"{c['heap_bytes'] / 2**20:,.0f}",
                         f"{c['pax_bytes'] / 2**20:,.0f}",
                         f"{c['pax_bytes'] / c['heap_bytes']:.2f}",
                         f"{100 * c['encoded_pages']:.0f}%",
                         f"{c['heap_s']:.1f}", f"{c['pax_s']:.1f}",
                         f"{c['pax_s'] / c['heap_s']:.2f}"])
    lines += md_table(["table", "load", "heap MB", "pax MB", "pax / heap", "encoded pages",
                       "heap s", "pax s", "pax / heap"],
                      "llrrrrrrr", rows)
    return lines


def load(cl, name):
    """Load an experiment's table for heap and pax as bench/run would (but
    with INSERT ... SELECT, untimed), then VACUUM (FREEZE); false if no
    experiment without shared tables has it."""
    db = TABLES[name][0]
    for exp in EXPERIMENTS.values():
        for t in exp.tables:
            if t.name != name or exp.shared:
                continue
            if db != "pax_bench" or not cl.has_db(db):
                return False
            cl.psql("CREATE EXTENSION IF NOT EXISTS pax_am", db=db)
            for am in ("heap", "pax"):
                print(f"density: loading {name}_{am}", file=sys.stderr)
                cl.psql(f"DROP TABLE IF EXISTS {name}_{am}; "
                        f"CREATE TABLE {name}_{am} ({t.columns}) USING {am}; "
                        f"INSERT INTO {name}_{am} {t.source}; "
                        f"VACUUM (FREEZE, ANALYZE) {name}_{am};", db=db)
            return True
    return False


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/run density")
    ap.add_argument("--tables", default=",".join(TABLES))
    ap.add_argument("--group", type=int, default=MAX_ROWS)
    ap.add_argument("--sample", type=int, default=400)
    ap.add_argument("--copy", action="store_true",
                    help="also load each table afresh (--load-ways), heap and pax")
    ap.add_argument("--copy-runs", type=int, default=3)
    ap.add_argument("--load-ways", default="copy,ctas,insert",
                    help="with --copy: ways of loading, of " + ",".join(LOAD_WAYS))
    args = ap.parse_args(argv)
    cl = Cluster()
    results = []
    for name in args.tables.split(","):
        db, heap, pax = TABLES[name]
        try:
            found = cl.psql(f"SELECT to_regclass('{heap}') IS NOT NULL AND "
                            f"to_regclass('{pax}') IS NOT NULL", db=db).strip()
        except BenchError:
            found = "f"
        if found != "t" and not load(cl, name):
            print(f"density: {name} is not loaded in {db} (bench/run of its "
                  f"experiment loads it); skipped", file=sys.stderr)
            continue
        print(f"density: {name}", file=sys.stderr)
        results.append(measure(cl, name, args.group, args.sample))
        if args.copy:
            print(f"density: {name} loaded afresh", file=sys.stderr)
            results[-1]["load"] = copy_load(cl, name, args.copy_runs,
                                            args.load_ways.split(","))
    lines = report(results, args.group, args.sample)
    if args.copy:
        lines += copy_report(results, args.copy_runs)
    path = os.path.join(HERE, "results", "density")
    write_report(path + ".md", lines)
    with open(path + ".json", "w") as f:
        json.dump(results, f, indent=1)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
