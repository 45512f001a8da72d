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

import os
import re
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")

# the extension that provides a table access method, when it is not built in
AM_EXTENSION = {"pax": "pax_am"}

TIME_RE = re.compile(r"^Time: ([0-9.]+) ms", re.M)


class BenchError(RuntimeError):
    """A command of a benchmark failed (its stderr is in the message)."""


def lib_sh(command):
    """lib_sh runs a shell command with bin/lib.sh sourced (PG_BINDIR set)
    and returns its stdout, stripped."""
    script = ('source "%s/bin/lib.sh"; select_pg; PG_BINDIR=$("$PG_CONFIG" --bindir); %s'
              % (ROOT, command))
    res = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    if res.returncode != 0:
        raise BenchError("failed: %s\n%s" % (command, res.stderr))
    return res.stdout.strip()


def _select_pg():
    """The cluster of bin/lib.sh's select_pg (PAX_PG, PAX_PG_FLAVOR, PG_CONFIG,
    PAX_HOME, PAX_PORT), exported so that bin/cluster and every client this
    process starts agree on it."""
    names = ("PAX_PG", "PG_CONFIG", "PAX_HOME", "PAX_PORT")
    out = lib_sh("select_pg; " + "; ".join('echo "$%s"' % n for n in names))
    for name, value in zip(names, out.splitlines()):
        os.environ[name] = value
    return os.environ["PAX_HOME"], os.environ["PAX_PORT"]


PAX_HOME, PAX_PORT = _select_pg()


class Cluster:
    """The private cluster of bin/cluster, started if it is not running;
    db is the database psql() and timed() use unless told another.

    Client programs run as the current OS user, connecting as the cluster's
    owner (trust authentication on its socket), with the PostgreSQL of
    PG_CONFIG first on PATH and a UTF-8 locale, as bin/lib.sh's as_pg.
    """

    def __init__(self, db="postgres"):
        self.db = db
        subprocess.run([os.path.join(ROOT, "bin", "cluster"), "start"], check=True)
        self.user, bindir = lib_sh('pg_user; echo "$PG_BINDIR"').splitlines()
        self.env = dict(os.environ, PGHOST=os.path.join(PAX_HOME, "run"),
                        PGPORT=PAX_PORT, PGUSER=self.user,
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
            subprocess.run([os.path.join(ROOT, "bin", "cluster"), what], check=True)

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


def write_report(path, lines, end=""):
    """write_report writes lines to path (creating its folder) and prints
    them; end follows the last line in the file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + end)
    print("\n".join(lines))
