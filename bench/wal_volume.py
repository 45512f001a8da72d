"""bench/wal_volume.py: WAL written by COPY, single-row INSERT, UPDATE and
DELETE on heap and pax tables, under wal_level = replica and logical
(bench/run wal_volume; issue 17).

Usage: bench/run wal_volume [--rows 200000] [--singles 20000]

For each wal_level the private cluster is restarted with it (and pax_am in
shared_preload_libraries, which logical decoding of pax tables needs; the
settings are reset at the end).  For each access method a table of 8
columns (int, bigint, numeric, date, two short texts, a bool, a float) is
loaded by COPY from a file of `rows` rows, then `singles` rows are inserted
by as many single-row INSERT statements, then every tenth row is updated (a
non-key column) and every twentieth deleted; last, VACUUM (FREEZE) makes
the pages all-visible and every fiftieth row is updated, which clears each
changed page's all-visible bit (WAL of both, per updated row).  Each
operation starts after a CHECKPOINT, so both access methods pay their
full-page images alike; its WAL is the difference of
pg_current_wal_insert_lsn() around it.  Bytes per row and pax/heap ratios
go to bench/results/wal_volume.md (and .json).
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import PAX_HOME, Cluster, md_table, write_report  # noqa: E402

DB = "pax_bench"
AMS = ("heap", "pax")
LEVELS = ("replica", "logical")
COLUMNS = ("id int PRIMARY KEY, b bigint, n numeric(12,2), d date, "
           "s text, t text, f bool, x float8")
SOURCE = ("SELECT g, g * 7919::bigint, (g % 100000) / 100.0, "
          "date '2020-01-01' + g % 1000, 'status-' || g % 7, md5(g::text), "
          "g % 3 = 0, g / 7.0 FROM generate_series(1, {rows}) g")


def wal_of(cl, sql):
    """The WAL bytes sql writes, after a checkpoint."""
    cl.psql("CHECKPOINT")
    out = cl.psql("SELECT pg_current_wal_insert_lsn();\n" + sql +
                  ";\nSELECT pg_current_wal_insert_lsn();", db=DB)
    lsns = [line for line in out.splitlines() if "/" in line]
    return int(cl.psql("SELECT pg_wal_lsn_diff('%s', '%s')" % (lsns[-1], lsns[0]),
                       db=DB).strip())


def measure(cl, am, rows, singles, path):
    table = "walv_" + am
    cl.psql(f"DROP TABLE IF EXISTS {table};\n"
            f"CREATE TABLE {table} ({COLUMNS}) USING {am}", db=DB)
    res = {}
    res["COPY"] = wal_of(cl, f"COPY {table} FROM '{path}'") / rows
    res["INSERT (single row)"] = wal_of(cl, (
        "DO $$ BEGIN FOR g IN %d .. %d LOOP "
        "INSERT INTO %s VALUES (g, g, 1.5, date '2020-01-01', 's', 't', true, 0.5); "
        "END LOOP; END $$") % (rows + 1, rows + singles, table)) / singles
    total = rows + singles
    res["UPDATE"] = wal_of(cl, f"UPDATE {table} SET n = n + 1 WHERE id % 10 = 0") / (total // 10)
    res["DELETE"] = wal_of(cl, f"DELETE FROM {table} WHERE id % 20 = 0") / (total // 20)
    # VACUUM makes the pages all-visible (their images taken after the
    # checkpoint); the UPDATE then clears the bit of each page it changes
    res["VACUUM, then UPDATE (all-visible pages)"] = wal_of(
        cl, f"VACUUM (FREEZE) {table};\n"
        f"UPDATE {table} SET n = n + 1 WHERE id % 50 = 7") / (total // 50)
    cl.psql(f"DROP TABLE {table}", db=DB)
    return res


def set_level(cl, level):
    cl.psql(f"ALTER SYSTEM SET wal_level = '{level}';\n"
            "ALTER SYSTEM SET shared_preload_libraries = 'pax_am'")
    cl.restart()
    got = cl.psql("SHOW wal_level").strip()
    if got != level:
        raise RuntimeError(f"wal_level is {got}, not {level}")


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/run wal_volume")
    ap.add_argument("--rows", type=int, default=200000)
    ap.add_argument("--singles", type=int, default=20000)
    args = ap.parse_args(argv)

    cl = Cluster()
    if not cl.has_db(DB):
        cl.create_db(DB)
    cl.psql("CREATE EXTENSION IF NOT EXISTS pax_am", db=DB)
    path = os.path.join(PAX_HOME, "bench_walv_%d.copy" % args.rows)
    cl.psql("COPY (%s) TO '%s'" % (SOURCE.format(rows=args.rows), path), db=DB)

    results = {}
    try:
        for level in LEVELS:
            set_level(cl, level)
            for am in AMS:
                results[(level, am)] = measure(cl, am, args.rows, args.singles, path)
    finally:
        cl.psql("ALTER SYSTEM RESET wal_level;\n"
                "ALTER SYSTEM RESET shared_preload_libraries")
        cl.restart()
        os.unlink(path)

    ops = list(results[(LEVELS[0], AMS[0])].keys())
    rows = []
    for level in LEVELS:
        for op in ops:
            h = results[(level, "heap")][op]
            p = results[(level, "pax")][op]
            rows.append([level, op, "%.1f" % h, "%.1f" % p, "%.2f" % (p / h)])
    lines = ["# wal_volume", "",
             "WAL bytes per row written by each operation, heap against pax, "
             f"`bench/run wal_volume --rows {args.rows} --singles {args.singles}` "
             "(each operation after a CHECKPOINT; full-page images included).", ""]
    lines += md_table(["wal_level", "operation", "heap B/row", "pax B/row", "pax / heap"],
                      "llrrr", rows)
    lines += ["", "Logical over replica, the same access method: " + ", ".join(
        "%s %s %.2f" % (am, op, results[("logical", am)][op] / results[("replica", am)][op])
        for am in AMS for op in ops) + "."]
    write_report(os.path.join(HERE, "results", "wal_volume.md"), lines, end="\n")
    with open(os.path.join(HERE, "results", "wal_volume.json"), "w") as f:
        json.dump({"%s/%s" % k: v for k, v in results.items()}, f, indent=1)
    return 0
