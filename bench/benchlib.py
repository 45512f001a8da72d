"""bench/benchlib.py: what the bench scripts share.

  Cluster        the private cluster of bin/lib.sh (PAX_HOME, PAX_PORT,
                 PG_CONFIG): started on creation; psql() runs SQL in a new
                 session, run() a client program (pgbench, ...), both as
                 the cluster's owner with libpq pointed at it;
                 hold_in_buffers() sizes shared_buffers for the relations
                 a benchmark prewarms and empties the pool, resident()
                 checks that they stayed
  timings()      the milliseconds of psql's \\timing lines in an output
  median(), summary(), ratio()
  prewarm_sql()  pg_prewarm of some relations, as SQL
  md_row(), md_table(), write_report()
                 markdown tables, and a report written to a file and printed

bench/run, bench/hunt.py, bench/mvcc_bench.py, bench/deform_cache_bench.py,
bench/sjis_direct_bench.py and bench/sjis_direct_iconv.py use it.
bench/pax_diff.py does not: it keeps psycopg2 sessions open across
statements, and t/011 runs it against a cluster of its own.  Standard
library only.
"""

import hashlib
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")

# the extension that provides a table access method, when it is not built in
AM_EXTENSION = {"pax": "pax_am"}

TIME_RE = re.compile(r"^Time: ([0-9.]+) ms", re.M)


class BenchError(RuntimeError):
    """A command of a benchmark failed (its stderr is in the message)."""


def lib_sh(command, env=None):
    """lib_sh runs a shell command with bin/lib.sh sourced (PG_BINDIR set)
    and returns its stdout, stripped.  env: the environment (this process's
    if None)."""
    script = ('source "%s/bin/lib.sh"; select_pg; PG_BINDIR=$("$PG_CONFIG" --bindir); %s'
              % (ROOT, command))
    res = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env)
    if res.returncode != 0:
        raise BenchError("failed: %s\n%s" % (command, res.stderr))
    return res.stdout.strip()


_PG_NAMES = ("PAX_PG", "PG_CONFIG", "PAX_HOME", "PAX_PORT")


def pg_env(pg=None):
    """pg_env: the environment of bin/lib.sh's select_pg (PAX_PG, PG_CONFIG,
    PAX_HOME, PAX_PORT) added to this process's: for PostgreSQL major pg
    (in its release build unless it is Debian's 15; its own cluster), or as
    the environment already chooses if pg is None."""
    env = dict(os.environ)
    if pg is not None:
        for name in _PG_NAMES:
            env.pop(name, None)
        env["PAX_PG"] = str(pg)
        env["PAX_PG_FLAVOR"] = "release"
    out = lib_sh("select_pg; " + "; ".join('echo "$%s"' % n for n in _PG_NAMES), env)
    env.update(zip(_PG_NAMES, out.splitlines()))
    return env


def _select_pg():
    """The cluster of bin/lib.sh's select_pg, exported so that bin/cluster and
    every client this process starts agree on it."""
    env = pg_env()
    for name in _PG_NAMES:
        os.environ[name] = env[name]
    return os.environ["PAX_HOME"], os.environ["PAX_PORT"]


PAX_HOME, PAX_PORT = _select_pg()


class Cluster:
    """The private cluster of bin/cluster, started if it is not running;
    db is the database psql() and timed() use unless told another; pg: the
    PostgreSQL major version (pg_env), if not the process's own.

    Client programs run as the current OS user, connecting as the cluster's
    owner (trust authentication on its socket), with the PostgreSQL of
    PG_CONFIG first on PATH and a UTF-8 locale, as bin/lib.sh's as_pg.
    """

    def __init__(self, db="postgres", pg=None):
        self.db = db
        self.pgenv = pg_env(pg) if pg is not None else dict(os.environ)
        self.home, self.port = self.pgenv["PAX_HOME"], self.pgenv["PAX_PORT"]
        self._cluster("start")
        self.user, bindir = lib_sh('pg_user; echo "$PG_BINDIR"', self.pgenv).splitlines()
        self.env = dict(self.pgenv, PGHOST=os.path.join(self.home, "run"),
                        PGPORT=self.port, PGUSER=self.user,
                        PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                        LANG="C.UTF-8", LC_ALL="C.UTF-8")

    def _exec(self, args, sql, env):
        res = subprocess.run(args, input=sql, capture_output=True, text=True,
                             env=dict(self.env, **(env or {})))
        if res.returncode != 0:
            raise BenchError("%s failed:\n%s\n%s" % (
                " ".join(args), (sql or "")[:2000], res.stderr))
        return res

    def run(self, args, sql=None, env=None):
        """run runs a client program (args) with sql on its stdin; returns its
        stdout followed by its stderr.  env: variables to add."""
        res = self._exec(args, sql, env)
        return res.stdout + res.stderr

    def psql(self, sql, db=None, gucs=None, user=None):
        """psql runs an SQL script in a new session of db and returns its
        unaligned, tuples-only output (with \\timing lines, if any).  gucs:
        settings of the session, given at connection (PGOPTIONS); user: the
        role to connect as, if not the cluster's owner."""
        env = {}
        if gucs:
            env["PGOPTIONS"] = " ".join("-c %s=%s" % kv for kv in gucs.items())
        if user:
            env["PGUSER"] = user
        return self._exec(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
                           "-d", db or self.db], sql, env).stdout

    def timed(self, sql, db=None):
        """timed runs a script whose last statement is timed (\\timing on);
        returns its milliseconds."""
        out = self.psql(sql, db)
        times = timings(out)
        if not times:
            raise BenchError("no timing in output of:\n%s\n%s" % (sql, out))
        return times[-1]

    def restart(self):
        """restart stops and starts the cluster (bin/cluster), which empties
        shared buffers."""
        for what in ("stop", "start"):
            self._cluster(what)

    def _cluster(self, what):
        subprocess.run([os.path.join(ROOT, "bin", "cluster"), what], check=True,
                       env=self.pgenv)

    def hold_in_buffers(self, relations, db=None):
        """hold_in_buffers makes shared_buffers hold the relations (their
        tables, TOAST and indexes) with a quarter to spare, and restarts the
        cluster so that the pool holds nothing else when the benchmark's
        prewarms fill it.  A prewarm of relations that do not fit, or into a
        pool full of other pages, leaves part of them out (the clock sweep
        evicts pages it has just read before the prewarm ends), and a scan
        then reads those pages from the kernel's page cache: a cost per page
        that hides what a scan of cached pages costs.  At most half of the
        machine's memory is given; returns the bytes the relations take."""
        names = ", ".join("'%s'" % r for r in relations)
        need = int(self.psql(
            "SELECT coalesce(sum(pg_total_relation_size(c::regclass)), 0) "
            "FROM unnest(ARRAY[%s]::text[]) c" % names, db).strip())
        have = int(self.psql(
            "SELECT pg_size_bytes(current_setting('shared_buffers'))", db).strip())
        want = need * 5 // 4 + (256 << 20)
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        if have < want:
            gb = min(-(-want // (1 << 30)), max(1, ram // 2 // (1 << 30)))
            if (gb << 30) > have:
                self.psql("ALTER SYSTEM SET shared_buffers = '%dGB'" % gb, db)
        self.restart()
        return need

    def describe(self, db=None):
        """describe: the server's version and shared_buffers, and whether it
        got huge pages (huge_pages_status: PostgreSQL 17 and later say)."""
        return self.psql(
            "SELECT 'PostgreSQL ' || current_setting('server_version') || "
            "', shared_buffers ' || current_setting('shared_buffers') || "
            "coalesce(' (huge pages: ' || current_setting('huge_pages_status', true) || ')', '')",
            db).strip()

    def resident(self, relations, db=None):
        """resident: the fraction of the relations' main-fork pages that are
        in shared buffers (pg_buffercache, created if missing)."""
        names = ", ".join("'%s'" % r for r in relations)
        out = self.psql(
            "CREATE EXTENSION IF NOT EXISTS pg_buffercache;\n"
            "SELECT (SELECT count(*) FROM pg_buffercache b JOIN pg_class c "
            "ON b.relfilenode = pg_relation_filenode(c.oid) AND b.relforknumber = 0 "
            "AND b.reldatabase = (SELECT oid FROM pg_database "
            "WHERE datname = current_database()) "
            "WHERE c.oid = ANY (ARRAY[%s]::regclass[]))::float8 / "
            "greatest(1, (SELECT sum(pg_relation_size(c::regclass)) "
            "/ current_setting('block_size')::int "
            "FROM unnest(ARRAY[%s]::text[]) c))" % (names, names), db)
        return float(out.strip().splitlines()[-1])

    def has_db(self, name):
        """has_db says whether database name exists."""
        return self.psql("SELECT 1 FROM pg_database WHERE datname = '%s'"
                         % name, "postgres").strip() == "1"

    def create_db(self, name, options="", drop=False):
        """create_db creates database name (with CREATE DATABASE options),
        dropping it first if drop, else only if it does not exist."""
        if drop:
            self.psql("DROP DATABASE IF EXISTS %s" % name, "postgres")
        elif self.has_db(name):
            return
        self.psql("CREATE DATABASE %s %s" % (name, options), "postgres")


def fingerprint(table):
    """fingerprint: a short hash of a bench table's columns and data."""
    return hashlib.md5((table.columns + table.source).encode()).hexdigest()[:12]


def load_tables(cl, exp, ams, reload=False):
    """load_tables creates each table of experiment exp (experiments.py)
    for each access method in ams, once: generated into a COPY file under
    the cluster's home, loaded with COPY (timed), vacuumed (FREEZE) and
    analyzed; bench_meta remembers what is loaded.  Returns a list of
    (table, am, load ms, rows, bytes)."""
    cl.psql("""CREATE EXTENSION IF NOT EXISTS pg_prewarm;
CREATE TABLE IF NOT EXISTS bench_meta (tbl text, am text, fingerprint text,
  load_ms float8, nrows bigint, nbytes bigint, PRIMARY KEY (tbl, am));""")
    if am_extensions(ams):
        cl.psql(am_extensions(ams))
    if exp.shared:
        have = cl.psql("SELECT 1 FROM bench_meta WHERE tbl = '%s:shared'" % exp.name)
        if reload or not have.strip():
            cl.psql(exp.shared)
            cl.psql("INSERT INTO bench_meta VALUES ('%s:shared', '', '', 0, 0, 0) "
                    "ON CONFLICT DO NOTHING" % exp.name)
    loads = []
    for t in exp.tables:
        fp = fingerprint(t)
        path = f"{cl.home}/bench_{t.name}_{fp}.copy"
        for am in ams:
            row = cl.psql(f"SELECT load_ms, nrows, nbytes FROM bench_meta "
                          f"WHERE tbl = '{t.name}' AND am = '{am}' AND fingerprint = '{fp}'")
            if row.strip() and not reload:
                ms, n, b = row.strip().split("|")
                loads.append((t.name, am, float(ms), int(n), int(b)))
                continue
            if not os.path.exists(path) or reload:
                print(f"generating {t.name} into {path}", file=sys.stderr)
                cl.psql(f"COPY ({t.source}) TO '{path}'")
            name = f"{t.name}_{am}"
            print(f"loading {name}", file=sys.stderr)
            cl.psql(f"DROP TABLE IF EXISTS {name}; "
                    f"CREATE TABLE {name} ({t.columns}) USING {am};")
            ms = cl.timed(f"\\timing on\nCOPY {name} FROM '{path}';")
            try:
                cl.psql(f"VACUUM (FREEZE, ANALYZE) {name};")
            except BenchError:
                # access methods without VACUUM yet: statistics at least
                cl.psql(f"ANALYZE {name};")
            n, b = cl.psql(f"SELECT count(*), pg_relation_size('{name}') "
                           f"FROM {name}").strip().split("|")
            cl.psql(f"DELETE FROM bench_meta WHERE tbl = '{t.name}' AND am = '{am}';"
                    f"INSERT INTO bench_meta VALUES ('{t.name}', '{am}', '{fp}', "
                    f"{ms}, {n}, {b})")
            loads.append((t.name, am, ms, int(n), int(b)))
    return loads


def query_script(exp, q, am, gucs, warm=False, server=False):
    """query_script: the psql script that times query q of experiment exp
    on access method am's tables, in a new session with settings gucs:
    pg_prewarm of the tables, then an EXPLAIN of the query (a cold
    session: the backend has not read the pages) or, if warm, one untimed
    execution (a new backend's first touch of each shared-buffer page costs
    a minor page fault, without huge pages), then the query under \\timing.
    With server, the last statement is EXPLAIN (ANALYZE, TIMING OFF)
    instead: rows formed, none sent."""
    names = {t.name: f"{t.name}_{am}" for t in exp.tables}
    sql = q.sql.format(**names)
    sets = "".join(f"SET {k} = '{v}';\n" for k, v in gucs.items())
    warmup = f"{sql};\n" if warm else f"EXPLAIN {sql};\n"
    head = f"{sets}{prewarm_sql(names.values())}\\o /dev/null\n{warmup}"
    if server:
        return f"{head}\\o\nEXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) {sql};\n"
    return f"{head}\\timing on\n{sql};\n"


def am_extensions(ams):
    """am_extensions: the CREATE EXTENSION statements the access methods ams
    need, as SQL."""
    return "".join("CREATE EXTENSION IF NOT EXISTS %s;\n" % AM_EXTENSION[am]
                   for am in ams if am in AM_EXTENSION)


def prewarm_sql(relations):
    """prewarm_sql: pg_prewarm of each relation, as SQL."""
    return "".join("SELECT pg_prewarm('%s');\n" % r for r in relations)


def timings(out):
    """timings: the milliseconds of every \\timing line of a psql output."""
    return [float(t) for t in TIME_RE.findall(out)]


def median(xs):
    """median of xs; NaN for none."""
    return statistics.median(xs) if xs else float("nan")


def summary(xs):
    """summary: (median, min, max) of xs."""
    return statistics.median(xs), min(xs), max(xs)


def ratio(a, b):
    """ratio a / b; NaN when b is 0."""
    return a / b if b else float("nan")


def md_row(cells):
    """md_row: one markdown table row of cells (strings)."""
    return "|" + "|".join(" %s " % c if c != "" else " " for c in cells) + "|"


def md_table(header, align, rows):
    """md_table: the lines of a markdown table; align has one letter per
    column, l (left) or r (right)."""
    sep = "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"
    return [md_row(header), sep] + [md_row(r) for r in rows]


def run_main(main):
    """run_main runs a benchmark's main(argv) as a command: its return value
    is the exit status, and a BenchError exits with its message."""
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as e:
        sys.exit(str(e))


def write_report(path, lines, end=""):
    """write_report writes lines to path (creating its folder) and prints
    them; end follows the last line in the file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + end)
    print("\n".join(lines))
