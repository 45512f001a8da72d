"""bench/tpcc.py: TPC-C with CH-benCHmark's analytic queries alongside, and
pgbench's TPC-B, heap against pax (bench/run tpcc).

Usage: bench/run tpcc [--warehouses 2] [--clients 2] [--analytic 1] [--minutes 10]
                      [--am heap,pax] [--pgbench-minutes 10] [--pgbench-scale 10]
                      [--only tpcc,tpcb] [--seed 1] [--preload] [--out DIR]

tpcc: for each access method in turn, schema tpcc_<am> of database pax_tpcc
is created afresh with default_table_access_method set to it (the DDL has
no USING clause): TPC-C's nine tables with their primary keys and the two
usual secondary indexes (customer by last name, orders by customer), the
three CH-benCHmark adds (supplier, nation, region), and the five
transactions as PL/pgSQL functions (the SQL is in bench/tpcc_queries.py).  It is loaded as a client
would load it, by INSERTs of BATCH rows each from this process (psycopg2),
with the cardinalities of the TPC-C specification (5.11, clause 4.3.3.1)
for --warehouses warehouses, generated from --seed: heap and pax get the
same rows.  Then VACUUM ANALYZE, the consistency conditions, each CH query
once (heap's and pax's answers over the same rows must be equal),
CHECKPOINT, pg_prewarm of the schema, and the timed run: pgbench runs the
standard mix (new-order 45%, of which 1% roll back on an unused item;
payment 43%; order-status, delivery, stock-level 4% each) with --clients
clients for --minutes minutes, no keying or think time, while --analytic
clients run the 22 CH queries in a loop (each its own transaction; jit and
parallel workers off, so that one analytic client keeps to one core).  After
the run: sizes, update counts and the consistency conditions again.

tpcb: pgbench -i -s SCALE (-F FILLFACTOR with --pgbench-fillfactor) with
PGOPTIONS='-c default_table_access_method=<am>' into database pax_tpcb_<am>,
then pgbench's TPC-B-like script with 1 and 2 clients, --pgbench-minutes
each, the access methods in alternation, each run followed by a VACUUM
ANALYZE of its tables (as the TPC-C runs are); the share of
pgbench_accounts' updates that were HOT is reported with its size.

--preload runs the cluster with shared_preload_libraries = 'pax_am' (the
configuration the README recommends for updated pax tables: pruning is then
logged as pax's own record, not as a page image) and restores the setting
afterwards; the report says which.

Writes bench/results/tpcc.md and .json (--out DIR for another folder).  A
consistency condition that fails, or a CH answer of pax that differs from
heap's, makes the command fail after the report is written.
"""

import argparse
import glob
import hashlib
import json
import math
import os
import random
import shutil
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import (RESULTS, BenchError, Cluster, am_extensions,  # noqa: E402
                      md_table, median, ratio, write_report)
from mvcc_bench import FAILED_RE, PGBENCH_TABLES, TPS_RE  # noqa: E402
from tpcc_queries import (C_LAST_LOAD, CH_SCHEMA, CH_TABLES, CHECKS,  # noqa: E402
                          FUNCTIONS, NATION_KEYS, NATIONS, QUERIES, REGIONS, SCHEMA,
                          SCRIPTS, SUPPLIERS, SYLLABLES, TABLES, WEIGHTS)

DB = "pax_tpcc"
BATCH = 500                       # rows per INSERT of the load
LOAD_TS = "2024-01-01 00:00:00"   # the loaded rows' dates (c_since, o_entry_d, ...)
ANALYTIC_GUCS = {"jit": "off", "max_parallel_workers_per_gather": "0"}

# the transaction types of the report: (label, scripts)
TYPES = [("new-order (tpmC)", ("new_order", "new_order_rbk")),
         ("new-order rolled back (in tpmC)", ("new_order_rbk",)),
         ("payment", ("payment",)), ("order-status", ("order_status",)),
         ("delivery", ("delivery",)), ("stock-level", ("stock_level",))]

# ---------------------------------------------------------------------------
# Data (clause 4.3.3.1)
# ---------------------------------------------------------------------------

ALNUM = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
TO_ALNUM = bytes(ALNUM[b % len(ALNUM)] for b in range(256))
TO_DIGIT = bytes(b"0123456789"[b % 10] for b in range(256))


class Rand(random.Random):
    """Rand: the random values of the specification's shapes, from a seed."""

    def astr(self, lo, hi=None):
        """astr: a random a-string (alphanumeric) of lo..hi characters."""
        n = lo if hi is None else self.randint(lo, hi)
        return self.randbytes(n).translate(TO_ALNUM).decode()

    def nstr(self, n):
        """nstr: a random n-string (digits) of n characters."""
        return self.randbytes(n).translate(TO_DIGIT).decode()

    def dec(self, lo, hi, scale):
        """dec: a random decimal of lo..hi units of 10^-scale, as text."""
        v = self.randint(lo, hi)
        sign, v = ("-", -v) if v < 0 else ("", v)
        return "%s%d.%0*d" % (sign, v // 10 ** scale, scale, v % 10 ** scale)

    def nurand(self, a, x, y, c):
        """nurand: NURand(A, x, y) of clause 2.1.6, with constant c."""
        return (((self.randint(0, a) | self.randint(x, y)) + c) % (y - x + 1)) + x

    def data(self):
        """data: i_data or s_data: 26..50 characters, 10% with ORIGINAL in them."""
        s = self.astr(26, 50)
        if self.randint(1, 10) == 1:
            at = self.randint(0, len(s) - 8)
            s = s[:at] + "ORIGINAL" + s[at + 8:]
        return s

    def address(self):
        """address: street 1 and 2, city, state and zip."""
        return (self.astr(10, 20), self.astr(10, 20), self.astr(10, 20), self.astr(2),
                self.nstr(4) + "11111")


def last_name(n):
    return SYLLABLES[n // 100] + SYLLABLES[n // 10 % 10] + SYLLABLES[n % 10]


def gen_items(seed):
    r = Rand("%s/item" % seed)
    for i in range(1, 100001):
        yield (i, r.randint(1, 10000), r.astr(14, 24), r.dec(100, 10000, 2), r.data())


def gen_warehouse(seed, w):
    r = Rand("%s/warehouse/%d" % (seed, w))
    yield (w, r.astr(6, 10)) + r.address() + (r.dec(0, 2000, 4), "300000.00")


def gen_districts(seed, w):
    r = Rand("%s/district/%d" % (seed, w))
    for d in range(1, 11):
        yield ((d, w, r.astr(6, 10)) + r.address() +
               (r.dec(0, 2000, 4), "30000.00", 3001))


def gen_stock(seed, w):
    r = Rand("%s/stock/%d" % (seed, w))
    for i in range(1, 100001):
        yield ((i, w, r.randint(10, 100)) + tuple(r.astr(24) for _ in range(10)) +
               (0, 0, 0, r.data()))


def gen_customers(seed, w, d):
    """gen_customers: a district's customers and their history rows."""
    r = Rand("%s/customer/%d/%d" % (seed, w, d))
    customers, history = [], []
    for c in range(1, 3001):
        last = c - 1 if c <= 1000 else r.nurand(255, 0, 999, C_LAST_LOAD)
        customers.append(
            (c, d, w, r.astr(8, 16), "OE", last_name(last)) + r.address() +
            (r.nstr(16), LOAD_TS, "BC" if r.randint(1, 10) == 1 else "GC", "50000.00",
             r.dec(0, 5000, 4), "-10.00", "10.00", 1, 0, r.astr(300, 500)))
        history.append((c, d, w, d, w, LOAD_TS, "10.00", r.astr(12, 24)))
    return customers, history


def gen_orders(seed, w, d):
    """gen_orders: a district's orders, their lines and its new_order rows."""
    r = Rand("%s/orders/%d/%d" % (seed, w, d))
    customers = list(range(1, 3001))
    r.shuffle(customers)
    orders, lines = [], []
    for o in range(1, 3001):
        delivered = o < 2101
        count = r.randint(5, 15)
        orders.append((o, d, w, customers[o - 1], LOAD_TS,
                       r.randint(1, 10) if delivered else None, count, 1))
        for n in range(1, count + 1):
            lines.append((o, d, w, n, r.randint(1, 100000), w,
                          LOAD_TS if delivered else None, 5,
                          "0.00" if delivered else r.dec(1, 999999, 2), r.astr(24)))
    return orders, lines, [(o, d, w) for o in range(2101, 3001)]


def gen_ch(seed):
    """gen_ch: the rows of CH-benCHmark's region, nation and supplier."""
    r = Rand("%s/ch" % seed)
    regions = [(k, name, r.astr(31, 115)) for k, name in enumerate(REGIONS)]
    nations = [(key, name, region, r.astr(31, 114))
               for key, (name, region) in zip(NATION_KEYS, NATIONS)]
    suppliers = []
    for k in range(SUPPLIERS):
        comment = r.astr(25, 100)
        if r.randint(1, 200) == 1:      # for Q16's su_comment LIKE '%bad%'
            at = r.randint(0, len(comment) - 3)
            comment = comment[:at] + "bad" + comment[at + 3:]
        suppliers.append((k, "Supplier#%09d" % k, r.astr(10, 40),
                          r.choice(NATION_KEYS),
                          "%s-%s-%s-%s" % (r.nstr(2), r.nstr(3), r.nstr(3), r.nstr(4)),
                          r.dec(-99999, 999999, 2), comment))
    return regions, nations, suppliers


# ---------------------------------------------------------------------------
# Load, checks, sizes
# ---------------------------------------------------------------------------

def connect(cl, schema, gucs=None):
    """connect: a psycopg2 session of DB, autocommit, with search_path set to
    schema (and the settings gucs)."""
    try:
        import psycopg2
    except ImportError:
        sys.exit("bench/run tpcc needs psycopg2: apt-get install python3-psycopg2 "
                 "(and run bench/run with /usr/bin/python3)")
    opts = "-c search_path=%s" % schema + "".join(
        " -c %s=%s" % kv for kv in (gucs or {}).items())
    conn = psycopg2.connect(host=cl.env["PGHOST"], port=cl.port, user=cl.user,
                            dbname=DB, options=opts)
    conn.autocommit = True
    return conn


def load(cl, am, warehouses, seed):
    """load creates schema tpcc_<am> afresh with the access method as the
    default and loads it by INSERTs of BATCH rows, then VACUUM ANALYZE;
    returns the seconds the load took (generating the rows included)."""
    from psycopg2.extras import execute_values
    schema = "tpcc_" + am
    cl.psql("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s;\n"
            "SET search_path = %s;\nSET default_table_access_method = %s;\n%s%s%s"
            % (schema, schema, schema, am, SCHEMA, CH_SCHEMA, FUNCTIONS))
    conn = connect(cl, schema)
    conn.autocommit = False
    cur = conn.cursor()

    def insert(table, rows):
        execute_values(cur, "INSERT INTO %s VALUES %%s" % table, rows, page_size=BATCH)

    t0 = time.time()
    insert("item", gen_items(seed))
    conn.commit()
    for w in range(1, warehouses + 1):
        print("loading %s warehouse %d" % (schema, w), file=sys.stderr, flush=True)
        insert("warehouse", gen_warehouse(seed, w))
        insert("district", gen_districts(seed, w))
        conn.commit()
        insert("stock", gen_stock(seed, w))
        conn.commit()
        for d in range(1, 11):
            customers, history = gen_customers(seed, w, d)
            insert("customer", customers)
            insert("history", history)
            orders, lines, new_orders = gen_orders(seed, w, d)
            insert("orders", orders)
            insert("order_line", lines)
            insert("new_order", new_orders)
            conn.commit()
    for table, rows in zip(CH_TABLES, gen_ch(seed)):
        insert(table, rows)
    conn.commit()
    seconds = time.time() - t0
    conn.close()
    cl.psql("".join("VACUUM ANALYZE %s.%s;\n" % (schema, t)
                    for t in TABLES + CH_TABLES))
    return seconds


def check(cl, am, warehouses):
    """check: for each consistency condition, the number of rows that break it
    in schema tpcc_<am> (0: it holds)."""
    out = {}
    for num, _, sql in CHECKS:
        got = cl.psql("SET search_path = tpcc_%s;\n%s;" % (am, sql.format(w=warehouses)))
        v = got.strip().splitlines()[-1]
        out[num] = 1 if v == "t" else 0 if v == "f" else int(v)
    return out


def sizes(cl, am):
    """sizes: {table: [pg_table_size, pg_indexes_size, rows]} of schema tpcc_<am>."""
    out = cl.psql(
        "SELECT c.relname, pg_table_size(c.oid), pg_indexes_size(c.oid), c.reltuples::bigint "
        "FROM pg_class c WHERE c.relnamespace = 'tpcc_%s'::regnamespace "
        "AND c.relkind = 'r'" % am)
    res = {}
    for line in out.splitlines():
        name, t, i, n = line.split("|")
        if name in TABLES:
            res[name] = [int(t), int(i), int(n)]
    return res


def stats(cl, am):
    """stats: {table: {n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del,
    autovacuum_count}} of schema tpcc_<am>."""
    cols = ["n_tup_ins", "n_tup_upd", "n_tup_hot_upd", "n_tup_del", "autovacuum_count"]
    out = cl.psql("SELECT relname, %s FROM pg_stat_user_tables WHERE schemaname = 'tpcc_%s'"
                  % (", ".join(cols), am))
    res = {}
    for line in out.splitlines():
        f = line.split("|")
        if f[0] in TABLES:
            res[f[0]] = dict(zip(cols, map(int, f[1:])))
    return res


def answers(cl, am):
    """answers: {query: [md5 of its rows, rows]} of each CH query, run once
    on schema tpcc_<am>."""
    conn = connect(cl, "tpcc_" + am, ANALYTIC_GUCS)
    cur = conn.cursor()
    res = {}
    for name, sql in QUERIES.items():
        cur.execute(sql)
        rows = cur.fetchall()
        res[name] = [hashlib.md5(repr(rows).encode()).hexdigest(), len(rows)]
    conn.close()
    return res


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------

class AnalyticStream(threading.Thread):
    """AnalyticStream runs the CH queries in order, from query number start
    on, each in its own transaction, until finish(); times holds the
    milliseconds of each query that ended before finish() was called."""

    def __init__(self, cl, am, start):
        super().__init__(daemon=True)
        self.conn = connect(cl, "tpcc_" + am, ANALYTIC_GUCS)
        self.first = start
        self.times = {q: [] for q in QUERIES}
        self.done = threading.Event()
        self.error = None

    def run(self):
        import psycopg2
        names = list(QUERIES)
        cur = self.conn.cursor()
        i = self.first
        while not self.done.is_set():
            q = names[i % len(names)]
            i += 1
            t0 = time.perf_counter()
            try:
                cur.execute(QUERIES[q])
                cur.fetchall()
            except psycopg2.extensions.QueryCanceledError:
                break
            except psycopg2.Error as e:
                self.error = "%s: %s" % (q, e)
                break
            if not self.done.is_set():
                self.times[q].append((time.perf_counter() - t0) * 1000)

    def finish(self):
        """finish stops the stream, cancelling the query it runs."""
        self.done.set()
        self.conn.cancel()
        self.join()
        self.conn.close()


def pgbench_log(prefix):
    """pgbench_log: per script number, the milliseconds of each transaction
    that succeeded, the failed ones and the retries, from pgbench's
    per-transaction logs (prefix.PID, prefix.PID.THREAD):
    client_id transaction_no time script_no time_epoch time_us [retries]."""
    res = {}
    for path in glob.glob(prefix + ".*"):
        with open(path) as f:
            for line in f:
                p = line.split()
                s = res.setdefault(int(p[3]), {"ms": [], "failed": 0, "retries": 0})
                if p[2].isdigit():
                    s["ms"].append(int(p[2]) / 1000)
                else:
                    s["failed"] += 1
                if len(p) > 6:
                    s["retries"] += int(p[6])
    return res


def percentile(xs, p):
    """percentile: the p-th percentile of xs (nearest rank); NaN for none."""
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(p / 100 * len(xs)) - 1))]


def run_tpcc(cl, am, a, workdir):
    """run_tpcc: the timed run on schema tpcc_<am>: pgbench's mix with
    a.clients clients and a.analytic analytic streams, for a.minutes."""
    schema = "tpcc_" + am
    cl.psql("CHECKPOINT;\nSELECT count(pg_prewarm(c.oid::regclass)) FROM pg_class c "
            "WHERE c.relnamespace = '%s'::regnamespace AND c.relkind IN ('r', 'i');" % schema)
    files = []
    for name in WEIGHTS:
        path = os.path.join(workdir, name + ".sql")
        with open(path, "w") as f:
            f.write(SCRIPTS[name])
        files += ["-f", "%s@%d" % (path, WEIGHTS[name])]
    prefix = os.path.join(workdir, am)
    streams = [AnalyticStream(cl, am, k * len(QUERIES) // a.analytic)
               for k in range(a.analytic)]
    xact = "SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = '%s'" % DB
    before = cl.psql(xact).strip().split("|")
    for s in streams:
        s.start()
    try:
        out = cl.run(["pgbench", "-n", "-M", "prepared", "-c", str(a.clients),
                      "-j", str(a.clients), "-T", str(int(a.minutes * 60)),
                      "--max-tries=10", "--random-seed=%d" % a.seed,
                      "-D", "warehouses=%d" % a.warehouses, "-l", "--log-prefix=" + prefix]
                     + files + [DB], env={"PGOPTIONS": "-c search_path=" + schema})
    finally:
        for s in streams:
            s.finish()
    errors = [s.error for s in streams if s.error]
    if errors:
        raise BenchError("analytic query failed on %s: %s" % (am, "; ".join(errors)))
    time.sleep(1)       # the sessions' statistics reach the server as they end
    after = cl.psql(xact).strip().split("|")
    names = list(WEIGHTS)
    log = {names[k]: v for k, v in pgbench_log(prefix).items()}
    types = {}
    for label, scripts in TYPES:
        ms = [t for s in scripts for t in log.get(s, {}).get("ms", [])]
        types[label] = {"count": len(ms), "median": median(ms),
                                "p90": percentile(ms, 90)}
    tps = TPS_RE.search(out)
    failed = FAILED_RE.search(out)
    analytic = {q: [t for s in streams for t in s.times[q]] for q in QUERIES}
    return {"types": types,
            "scripts": {k: {"count": len(v["ms"]), "failed": v["failed"],
                            "retries": v["retries"]} for k, v in log.items()},
            "pgbench_tps": float(tps.group(1)) if tps else None,
            "pgbench_failed": int(failed.group(1)) if failed else 0,
            "xact_commit": int(after[0]) - int(before[0]),
            "xact_rollback": int(after[1]) - int(before[1]),
            "analytic": analytic, "pgbench_output": out}


def tpcc(cl, a, ams):
    """tpcc: load, check and run each access method in turn."""
    res = {}
    workdir = tempfile.mkdtemp(prefix="pax_tpcc_")
    try:
        for am in ams:
            r = res[am] = {}
            r["load_s"] = load(cl, am, a.warehouses, a.seed)
            print("%s: loaded in %.0f s" % (am, r["load_s"]), file=sys.stderr, flush=True)
            r["checks_load"] = check(cl, am, a.warehouses)
            r["answers"] = answers(cl, am)
            r["size_before"] = sizes(cl, am)
            print("%s: running %g minutes" % (am, a.minutes), file=sys.stderr, flush=True)
            r["load_avg_run"] = [os.getloadavg()[0]]
            r.update(run_tpcc(cl, am, a, workdir))
            r["load_avg_run"].append(os.getloadavg()[0])
            r["size_after"] = sizes(cl, am)
            r["stats"] = stats(cl, am)
            r["checks_run"] = check(cl, am, a.warehouses)
            # the run's dead rows are not left to autovacuum, which would
            # clean them up during the next access method's run
            cl.psql("".join("VACUUM ANALYZE tpcc_%s.%s;\n" % (am, tbl) for tbl in TABLES))
            n = r["types"][TYPES[0][0]]["count"]
            print("%s: tpmC %.0f, checks %s" % (am, n / a.minutes, r["checks_run"]),
                  file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return res


# ---------------------------------------------------------------------------
# pgbench TPC-B
# ---------------------------------------------------------------------------

def tpcb_db(am):
    return "pax_tpcb_%s" % am


def accounts_size(cl, am):
    """accounts_size: [pg_table_size, pg_indexes_size] of pgbench_accounts."""
    return [int(x) for x in cl.psql(
        "SELECT pg_table_size('pgbench_accounts'), pg_indexes_size('pgbench_accounts')",
        tpcb_db(am)).strip().split("|")]


def tpcb(cl, a, ams):
    """tpcb: pgbench -i with each access method as the default, then the
    TPC-B-like script with 1 and 2 clients, the access methods alternating."""
    res = {am: {} for am in ams}
    for am in ams:
        db = tpcb_db(am)
        cl.create_db(db, drop=True)
        cl.psql("CREATE EXTENSION pg_prewarm;\n" + am_extensions([am]), db)
        cl.run(["pgbench", "-q", "-i", "-s", str(a.pgbench_scale)] +
               (["-F", str(a.pgbench_fillfactor)] if a.pgbench_fillfactor else []) +
               [db], env={"PGOPTIONS": "-c default_table_access_method=%s" % am})
        got = cl.psql("SELECT amname FROM pg_class c JOIN pg_am m ON m.oid = c.relam "
                      "WHERE c.oid = 'pgbench_accounts'::regclass", db).strip()
        if got != am:
            raise BenchError("pgbench_accounts of %s is a %s table" % (db, got))
        cl.psql("VACUUM ANALYZE;", db)
        res[am]["size_before"] = accounts_size(cl, am)
    for clients in (1, 2):
        for am in ams:
            db = tpcb_db(am)
            cl.psql("CHECKPOINT;\n" + "".join("SELECT pg_prewarm('%s');\n" % t
                                              for t in PGBENCH_TABLES), db)
            out = cl.run(["pgbench", "-n", "-c", str(clients), "-j", str(clients),
                          "-T", str(int(a.pgbench_minutes * 60)), db])
            m = TPS_RE.search(out)
            if not m:
                raise BenchError("pgbench output without tps:\n" + out)
            failed = FAILED_RE.search(out)
            res[am]["c%d" % clients] = {"tps": float(m.group(1)),
                                        "failed": int(failed.group(1)) if failed else 0}
            # the run's dead rows are not left to autovacuum, which would
            # clean them up during the next access method's run (and heap,
            # which runs first, would leave its work to pax's runs only)
            cl.psql("".join("VACUUM ANALYZE %s;\n" % t for t in PGBENCH_TABLES), db)
            print("tpcb %s clients=%d tps=%.0f" % (am, clients, float(m.group(1))),
                  file=sys.stderr, flush=True)
    for am in ams:
        res[am]["size_after"] = accounts_size(cl, am)
        res[am]["hot_share"] = float(cl.psql(
            "SELECT pg_stat_force_next_flush(); SELECT coalesce(n_tup_hot_upd::float8 / "
            "nullif(n_tup_upd, 0), 0) FROM pg_stat_user_tables "
            "WHERE relname = 'pgbench_accounts'", tpcb_db(am)).strip().split("\n")[-1])
        res[am]["balances_ok"] = cl.psql(
            "SELECT (SELECT sum(abalance) FROM pgbench_accounts) = "
            "(SELECT coalesce(sum(delta), 0) FROM pgbench_history) AND "
            "(SELECT sum(bbalance) FROM pgbench_branches) = "
            "(SELECT coalesce(sum(delta), 0) FROM pgbench_history) AND "
            "(SELECT sum(tbalance) FROM pgbench_tellers) = "
            "(SELECT coalesce(sum(delta), 0) FROM pgbench_history)",
            tpcb_db(am)).strip() == "t"
    return res


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def geomean(xs):
    xs = [x for x in xs if x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def mb(b):
    return "%.2f" % (b / 1048576)


def fmt_ratio(x):
    return "" if math.isnan(x) else "%.2f" % x


def report(res, ams, a, command):
    """report: the lines of tpcc.md."""
    base, others = ams[0], ams[1:]
    vs = ["%s / %s" % (am, base) for am in others]
    lines = ["# tpcc: TPC-C with CH-benCHmark queries alongside, and pgbench TPC-B", "",
             "Generated by `%s` on %s, %d cores, %s. Load average (1 min) before / after: "
             "%.2f / %.2f." % (command, time.strftime("%Y-%m-%d"), os.cpu_count(),
                               res["server"], res["load_before"][0], res["load_after"][0]),
             ""]
    failures = []
    t = res.get("tpcc")
    if t:
        mins = a.minutes
        lines += [
            "%d warehouse(s) (TPC-C's cardinalities, loaded by INSERTs of %d rows from "
            "Python, the same rows for every access method), %d pgbench clients running "
            "the standard mix (new-order 45%% with 1%% rolled back, payment 43%%, "
            "order-status, delivery, stock-level 4%% each; PL/pgSQL functions, no keying "
            "or think time, random warehouse and district per transaction) and %d analytic "
            "client(s) running CH-benCHmark's 22 queries in a loop (jit and parallel "
            "workers off), for %g minute(s) per access method, one access method after the "
            "other, each on a fresh load after VACUUM ANALYZE, CHECKPOINT and pg_prewarm. "
            "Wall-clock numbers on a shared VM: compare the load averages below."
            % (a.warehouses, BATCH, a.clients, a.analytic, mins), ""]
        lines += ["## Throughput (transactions per minute)", ""]
        rows = []
        for label, _ in TYPES:
            v = [t[am]["types"][label]["count"] / mins for am in ams]
            rows.append([label] + ["%.0f" % x for x in v] +
                        [fmt_ratio(ratio(x, v[0])) for x in v[1:]])
        total = [sum(s["count"] for s in t[am]["scripts"].values()) / mins for am in ams]
        rows.append(["all"] + ["%.0f" % x for x in total] +
                    [fmt_ratio(ratio(x, total[0])) for x in total[1:]])
        lines += md_table(["transaction"] + ams + vs, "l" + "r" * (len(ams) + len(vs)), rows)
        lines += ["", "tpmC counts every new-order, the rolled back ones too. Failed "
                  "transactions (after up to 10 tries on serialization failures and "
                  "deadlocks): %s. Retries: %s." % (
                      ", ".join("%s %d" % (am, sum(s["failed"] for s in t[am]["scripts"]
                                                   .values())) for am in ams),
                      ", ".join("%s %d" % (am, sum(s["retries"] for s in t[am]["scripts"]
                                                   .values())) for am in ams)),
                  "Load average (1 min) at the start / end of each run: %s." % ", ".join(
                      "%s %.2f / %.2f" % (am, *t[am]["load_avg_run"]) for am in ams), ""]
        lines += ["## Latency (ms, median and 90th percentile)", ""]
        head = ["transaction"]
        for am in ams:
            head += ["%s median" % am, "%s p90" % am]
        rows = []
        for label, _ in TYPES:
            row = [label]
            for am in ams:
                x = t[am]["types"][label]
                row += ["%.2f" % x["median"], "%.2f" % x["p90"]]
            rows.append(row)
        lines += md_table(head, "l" + "rr" * len(ams), rows) + [""]

        # the analytic queries' times, and their answers after the load
        rows, ratios = [], {am: [] for am in others}
        for q in QUERIES:
            med = {am: median(t[am]["analytic"][q]) for am in ams}
            for am in others:
                ratios[am].append(ratio(med[am], med[base]))
            same = all(t[am]["answers"][q][0] == t[base]["answers"][q][0] for am in others)
            if not same:
                failures.append("%s answer differs from %s's after the load" % (q, base))
            rows.append([q] + ["%.1f (%d)" % (med[am], len(t[am]["analytic"][q]))
                               if t[am]["analytic"][q] else "-" for am in ams] +
                        [fmt_ratio(ratio(med[am], med[base])) for am in others] +
                        ["%d rows, %s" % (t[base]["answers"][q][1],
                                          "same" if same else "**DIFFERENT**")])
        rows.append(["geometric mean", *[""] * len(ams),
                     *[("**%s**" % fmt_ratio(geomean(ratios[am])) if a.analytic else "")
                       for am in others], ""])
        lines += ["## Analytic queries (ms, median over the run)", ""]
        lines += md_table(["query"] + ["%s ms (runs)" % am for am in ams] + vs +
                          ["answer after the load"],
                          "l" + "r" * (len(ams) + len(vs)) + "l", rows)
        per_hour = ", ".join("%s %.0f" % (am, sum(map(len, t[am]["analytic"].values()))
                                          * 60 / mins) for am in ams)
        lines += ["", "Queries completed per hour: %s (%d analytic client(s)). Answers: each "
                  "query run once after the load, before the run, on the same rows; %s's "
                  "against %s's." % (per_hour, a.analytic, "'s, ".join(others) or base, base),
                  ""]

        lines += ["## Sizes (MB) before and after the run", ""]
        for k, what in ((0, "Tables (pg_table_size: main fork, free space and visibility "
                            "maps, TOAST)"),
                        (1, "Indexes (pg_indexes_size)")):
            head = ["table"]
            for am in ams:
                head += ["%s before" % am, "%s after" % am]
            for v in vs:
                head += ["%s before" % v, "%s after" % v]
            rows = []
            for tbl in TABLES + [None]:
                size = {(am, when): (t[am][when][tbl][k] if tbl else
                                     sum(x[k] for x in t[am][when].values()))
                        for am in ams for when in ("size_before", "size_after")}
                row = [tbl or "**all**"]
                for am in ams:
                    row += [mb(size[(am, "size_before")]), mb(size[(am, "size_after")])]
                for am in others:
                    row += [fmt_ratio(ratio(size[(am, when)], size[(base, when)]))
                            for when in ("size_before", "size_after")]
                rows.append(row)
            lines += [what + ":", ""] + md_table(
                head, "l" + "r" * (2 * len(ams) + 2 * len(vs)), rows) + [""]
        lines += ["Load time (generating the rows in Python included): %s." % ", ".join(
            "%s %.0f s" % (am, t[am]["load_s"]) for am in ams), ""]

        lines += ["## Updates during the run (pg_stat_user_tables)", "",
                  "n_tup_hot_upd counts the updates whose new version stayed on its "
                  "page without index entries (heap-only: pax_am/README.update).",
                  ""]
        head = ["table"]
        for am in ams:
            head += ["%s n_tup_upd" % am, "%s n_tup_hot_upd" % am, "%s autovacuums" % am]
        rows = []
        for tbl in TABLES:
            row = [tbl]
            for am in ams:
                s = t[am]["stats"].get(tbl, {})
                row += [str(s.get("n_tup_upd", "")), str(s.get("n_tup_hot_upd", "")),
                        str(s.get("autovacuum_count", ""))]
            rows.append(row)
        lines += md_table(head, "l" + "rrr" * len(ams), rows) + [""]

        lines += ["## Consistency conditions (TPC-C clause 3.3.2)", ""]
        head = ["condition"] + ["%s after load / run" % am for am in ams]
        rows = []
        for num, what, _ in CHECKS:
            row = [("%s. " % num if num != "0" else "") + what]
            for am in ams:
                cells = []
                for when in ("checks_load", "checks_run"):
                    bad = t[am][when][num]
                    cells.append("pass" if bad == 0 else "**FAIL** (%s)" % bad)
                    if bad != 0:
                        failures.append("%s: condition %s (%s) fails %s"
                                        % (am, num, what, when[7:]))
                row.append(" / ".join(cells))
            rows.append(row)
        lines += md_table(head, "l" + "l" * len(ams), rows)
        lines += ["", "Each cell: the condition after the load and after the run (a count "
                  "is the rows that break it). Condition 11 holds only before the first "
                  "delivery and is not checked.", ""]

    b = res.get("tpcb")
    if b:
        lines += ["## pgbench TPC-B-like (scale %d%s, %g minute(s) per run)" % (
            a.pgbench_scale,
            ", fillfactor %d" % a.pgbench_fillfactor if a.pgbench_fillfactor else "",
            a.pgbench_minutes), ""]
        rows = []
        for c in ("c1", "c2"):
            v = [b[am][c]["tps"] for am in ams]
            rows.append([c[1:]] + ["%.0f" % x for x in v] +
                        [fmt_ratio(ratio(x, v[0])) for x in v[1:]])
        lines += md_table(["clients"] + ["%s tps" % am for am in ams] + vs,
                          "l" + "r" * (len(ams) + len(vs)), rows)
        rows = []
        for when in ("size_before", "size_after"):
            v = [b[am][when] for am in ams]
            rows.append(["pgbench_accounts, %s" % when[5:]] +
                        ["%s + %s" % (mb(x[0]), mb(x[1])) for x in v] +
                        ["%s, %s" % (fmt_ratio(ratio(x[0], v[0][0])),
                                     fmt_ratio(ratio(x[1], v[0][1]))) for x in v[1:]])
        rows.append(["pgbench_accounts' updates that were HOT"] +
                     ["%.1f%%" % (100 * b[am]["hot_share"]) for am in ams] +
                     ["" for v in vs])
        lines += [""] + md_table(["size (MB: table + indexes)"] + ams +
                                 ["%s (table, indexes)" % v for v in vs],
                                 "l" + "r" * (len(ams) + len(vs)), rows)
        for am in ams:
            if not b[am]["balances_ok"]:
                failures.append("%s: pgbench balances differ from the history's sums" % am)
        lines += ["", "pgbench -i loads pgbench_accounts by COPY, with "
                  "default_table_access_method set by PGOPTIONS; VACUUM ANALYZE after "
                  "the load; CHECKPOINT and pg_prewarm before each run. Failed "
                  "transactions: %s. Balances equal the history's sums afterwards: %s." % (
                      ", ".join("%s %d" % (am, b[am]["c1"]["failed"] + b[am]["c2"]["failed"])
                                for am in ams),
                      ", ".join("%s %s" % (am, "yes" if b[am]["balances_ok"] else "**NO**")
                                for am in ams)), ""]
    if failures:
        lines += ["## Failures", ""] + ["- " + f for f in failures] + [""]
    return lines, failures


def set_preload(cl, libs):
    """set_preload sets shared_preload_libraries to libs ('' resets it)
    and restarts the cluster when the running value differs."""
    if cl.psql("SHOW shared_preload_libraries").strip() == libs:
        return
    if libs:
        cl.psql("ALTER SYSTEM SET shared_preload_libraries = '%s'" % libs)
    else:
        cl.psql("ALTER SYSTEM RESET shared_preload_libraries")
    cl.restart()
    got = cl.psql("SHOW shared_preload_libraries").strip()
    if got != libs:
        raise BenchError("shared_preload_libraries is '%s', not '%s'" % (got, libs))


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/run tpcc", description=__doc__.split("\n")[0])
    ap.add_argument("--warehouses", type=int, default=2)
    ap.add_argument("--clients", type=int, default=2, help="pgbench clients of TPC-C")
    ap.add_argument("--analytic", type=int, default=1, help="CH query streams")
    ap.add_argument("--minutes", type=float, default=10, help="of each TPC-C run")
    ap.add_argument("--am", default="heap,pax",
                    help="comma-separated access methods (the first is the baseline)")
    ap.add_argument("--pgbench-minutes", type=float, default=10,
                    help="of each TPC-B run (1 and 2 clients, each access method)")
    ap.add_argument("--pgbench-scale", type=int, default=10)
    ap.add_argument("--pgbench-fillfactor", type=int, default=0,
                    help="pgbench -i -F (0: pgbench's default, 100)")
    ap.add_argument("--only", default="tpcc,tpcb")
    ap.add_argument("--seed", type=int, default=1,
                    help="of the loaded rows and of pgbench's inputs")
    ap.add_argument("--preload", action="store_true",
                    help="run with shared_preload_libraries = 'pax_am'")
    ap.add_argument("--out", default=RESULTS, help="results folder")
    a = ap.parse_args(argv)
    ams = a.am.split(",")
    only = set(a.only.split(","))
    command = " ".join(["bench/run", "tpcc"] + argv)

    cl = Cluster(DB)
    cl.create_db(DB)
    cl.psql("CREATE EXTENSION IF NOT EXISTS pg_prewarm;\n" + am_extensions(ams))
    set_preload(cl, "pax_am" if a.preload else "")
    res = {"command": command, "args": vars(a), "ams": ams,
           "load_before": os.getloadavg(),
           "server": cl.describe() + (", shared_preload_libraries = 'pax_am'" if a.preload
                                      else ", pax_am not preloaded")}
    try:
        if "tpcc" in only:
            res["tpcc"] = tpcc(cl, a, ams)
        if "tpcb" in only:
            res["tpcb"] = tpcb(cl, a, ams)
    except BenchError as e:
        sys.exit(str(e))
    finally:
        if a.preload:
            set_preload(cl, "")
    res["load_after"] = os.getloadavg()
    lines, failures = report(res, ams, a, command)
    write_report(os.path.join(a.out, "tpcc.md"), lines, "\n")
    for am in res.get("tpcc", {}).values():
        am.pop("pgbench_output", None)
    with open(os.path.join(a.out, "tpcc.json"), "w") as f:
        json.dump(res, f, indent=1)
    if failures:
        sys.exit("tpcc: " + "; ".join(failures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
