"""Experiments of bench/run, after the source studies in shared/SEEDS.md.

Each experiment names its tables and queries once; bench/run creates the
data once per access method, then times every query for every access method
in alternation.  Templates use {am} for the access method; a table named
'x' is created as 'x_{am}' and queries refer to it as {x}.

An Experiment has:
  tables    list of Table(name, columns DDL, generating SELECT)
  queries   list of Query(name, sql, x=None): x places the query on a curve
  variants  list of (label, {GUC: value}) each query runs under
  shared    SQL run once to create helper tables that are not per-AM (heap)
  plot      the x axis label of a curve
  speedup   also report each variant's speed-up over the first variant
  server    also time each query on the server alone (EXPLAIN ANALYZE)
"""

from collections import namedtuple

Table = namedtuple("Table", "name columns source")
Query = namedtuple("Query", "name sql x", defaults=(None,))
Experiment = namedtuple(
    "Experiment", "name description tables queries variants shared plot speedup server",
    defaults=((("jit off", {"jit": "off", "max_parallel_workers_per_gather": "0"}),),
              "", None, False, False))

NO_JIT_SERIAL = (("jit off", {"jit": "off", "max_parallel_workers_per_gather": "0"}),)

# --- SEEDS 1c: the 100-column text table -----------------------------------

_COLS100 = ", ".join(f"col{k} text" for k in range(100))
_VALS100 = ", ".join(f"'c{k}_' || i" for k in range(100))
_TEST_TBL = Table(
    "test_tbl", _COLS100,
    f"SELECT {_VALS100} FROM generate_series(1, 100000) AS i")


def _proj(cols):
    return ", ".join(f"col{k}" for k in cols)


DEFORM100 = Experiment(
    name="deform100",
    description="100 text columns, 100,000 rows (SEEDS 1c): projection of late columns",
    tables=[_TEST_TBL],
    queries=[
        Query("select col95..col99", "SELECT col95, col96, col97, col98, col99 FROM {test_tbl}"),
        Query("select col0", "SELECT col0 FROM {test_tbl}"),
        Query("select col50", "SELECT col50 FROM {test_tbl}"),
        Query("select col99", "SELECT col99 FROM {test_tbl}"),
        Query("count(col99)", "SELECT count(col99) FROM {test_tbl}"),
        Query("count(*)", "SELECT count(*) FROM {test_tbl}"),
    ],
    # 500,000 text values to psql cost both access methods alike
    server=True)

DEFORM100_CURVE = Experiment(
    name="deform100_curve",
    description="SEEDS 1c Test 1: select colK for K = 0, 5, ..., 95, 99 (time grows with K on heap)",
    tables=[_TEST_TBL],
    queries=[Query(f"select col{k}", f"SELECT col{k} FROM {{test_tbl}}", x=k)
             for k in list(range(0, 100, 5)) + [99]],
    plot="K (column selected)")

DEFORM100_PREFIX = Experiment(
    name="deform100_prefix",
    description="SEEDS 1c Test 2: select col0..colK for K = 0, 5, ..., 95, 99",
    tables=[_TEST_TBL],
    queries=[Query(f"select col0..col{k}", f"SELECT {_proj(range(k + 1))} FROM {{test_tbl}}", x=k)
             for k in list(range(0, 100, 5)) + [99]],
    plot="K (last column selected)")

# --- SEEDS 4: the 32-column table, age = 20 ---------------------------------

_COLS32 = ", ".join(
    ["id int4", "age int4"]
    + [f"i{k} int4" for k in range(10)]
    + [f"b{k} int8" for k in range(5)]
    + [f"f{k} float8" for k in range(5)]
    + [f"t{k} text" for k in range(7)]
    + ["d0 date", "ts0 timestamp", "n0 numeric"])
_VALS32 = ", ".join(
    ["i", "(hashint4(i) & 2147483647) % 100"]
    + [f"(hashint4(i + {k}) % 1000000)" for k in range(10)]
    + [f"(hashint4(i * {k + 3})::int8 * 1000)" for k in range(5)]
    + [f"(hashint4(i - {k}) / 1000.0)::float8" for k in range(5)]
    + [f"'text{k}_' || (i % {1000 * (k + 1)})" for k in range(7)]
    + ["date '2000-01-01' + i % 3650",
       "timestamp '2000-01-01' + (i % 100000) * interval '1 minute'",
       "(i % 10000) / 100.0"])
AGE32 = Experiment(
    name="age32",
    description="32 columns, 1,000,000 rows, age uniform in 0..99 (SEEDS 4)",
    tables=[Table("test_32", _COLS32,
                  f"SELECT {_VALS32} FROM generate_series(1, 1000000) AS i")],
    queries=[
        Query("id where age = 20", "SELECT id FROM {test_32} WHERE age = 20"),
        Query("id where age = 20 and i0 = 17",
              "SELECT id FROM {test_32} WHERE age = 20 AND i0 = 17"),
        Query("count(*) where age between 20 and 29",
              "SELECT count(*) FROM {test_32} WHERE age BETWEEN 20 AND 29"),
        Query("select * (full width)", "SELECT * FROM {test_32}"),
    ])

# --- SEEDS 2: SSB-like lineorder, 6,000,000 rows ------------------------------

_SSB_DATE = """
DROP TABLE IF EXISTS ssb_date;
CREATE TABLE ssb_date AS
SELECT (extract(year FROM d) * 10000 + extract(month FROM d) * 100
        + extract(day FROM d))::int4 AS d_datekey,
       to_char(d, 'FMMonth FMDD, YYYY') AS d_date,
       to_char(d, 'FMDay') AS d_dayofweek,
       to_char(d, 'FMMonth') AS d_month,
       extract(year FROM d)::int4 AS d_year,
       (extract(year FROM d) * 100 + extract(month FROM d))::int4 AS d_yearmonthnum,
       to_char(d, 'MonYYYY') AS d_yearmonth,
       extract(isodow FROM d)::int4 AS d_daynuminweek,
       extract(day FROM d)::int4 AS d_daynuminmonth,
       extract(doy FROM d)::int4 AS d_daynuminyear,
       extract(month FROM d)::int4 AS d_monthnuminyear,
       (extract(doy FROM d)::int4 + 6) / 7 AS d_weeknuminyear
  FROM generate_series(date '1992-01-01', date '1998-12-31', interval '1 day') AS g(t),
       LATERAL (SELECT t::date AS d) AS x;
ALTER TABLE ssb_date ADD PRIMARY KEY (d_datekey);
ANALYZE ssb_date;
"""

_LINEORDER_COLS = """
lo_orderkey int4, lo_linenumber int4, lo_custkey int4, lo_partkey int4,
lo_suppkey int4, lo_orderdate int4, lo_orderpriority char(15),
lo_shippriority char(1), lo_quantity int4, lo_extendedprice int4,
lo_ordtotalprice int4, lo_discount int4, lo_revenue int4, lo_supplycost int4,
lo_tax int4, lo_commitdate int4, lo_shipmode char(10)
"""

# Deterministic pseudo-random values from hashes of the row number g.
_LINEORDER_SRC = """
SELECT (g - 1) / 4 + 1, (g - 1) % 4 + 1,
       1 + (h1 & 2147483647) % 30000,
       1 + (h2 & 2147483647) % 200000,
       1 + (h3 & 2147483647) % 10000,
       k.keys[1 + ((h1 >> 3) & 2147483647) % 2557],
       (ARRAY['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECI', '5-LOW'])[1 + (h2 & 2147483647) % 5],
       '0',
       q, q * p, q * p * 3, disc, q * p * (100 - disc) / 100, p * 6 / 10,
       (h3 >> 5 & 2147483647) % 9,
       k.keys[1 + ((h2 >> 3) & 2147483647) % 2557],
       (ARRAY['AIR', 'FOB', 'MAIL', 'RAIL', 'REG AIR', 'SHIP', 'TRUCK'])[1 + (h3 & 2147483647) % 7]
  FROM (SELECT array_agg(d_datekey ORDER BY d_datekey) AS keys FROM ssb_date) AS k,
       generate_series(1, 6000000) AS g,
       LATERAL (SELECT hashint4(g) AS h1, hashint4(g + 7777777) AS h2,
                       hashint4(g + 15555555) AS h3) AS h,
       LATERAL (SELECT 1 + (h1 >> 7 & 2147483647) % 50 AS q,
                       90000 + (h2 >> 7 & 2147483647) % 20000 AS p,
                       (h3 >> 9 & 2147483647) % 11 AS disc) AS v
"""

_SSB_Q11 = """SELECT sum(lo_extendedprice * lo_discount::int8) AS revenue
  FROM {lineorder}, ssb_date
 WHERE lo_orderdate = d_datekey AND d_year = 1993
   AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25"""
_SSB_Q12 = """SELECT sum(lo_extendedprice * lo_discount::int8) AS revenue
  FROM {lineorder}, ssb_date
 WHERE lo_orderdate = d_datekey AND d_yearmonthnum = 199401
   AND lo_discount BETWEEN 4 AND 6 AND lo_quantity BETWEEN 26 AND 35"""
_SSB_Q13 = """SELECT sum(lo_extendedprice * lo_discount::int8) AS revenue
  FROM {lineorder}, ssb_date
 WHERE lo_orderdate = d_datekey AND d_weeknuminyear = 6 AND d_year = 1994
   AND lo_discount BETWEEN 5 AND 7 AND lo_quantity BETWEEN 26 AND 35"""

_LINEORDER = Table("lineorder", _LINEORDER_COLS, _LINEORDER_SRC)
_SSB_Q1 = [Query("Q1.1", _SSB_Q11), Query("Q1.2", _SSB_Q12), Query("Q1.3", _SSB_Q13)]

SSB = Experiment(
    name="ssb",
    description="SSB-like lineorder, 6,000,000 rows (SEEDS 2): JIT off/on, 0/2 parallel workers",
    shared=_SSB_DATE,
    tables=[_LINEORDER],
    queries=[
        Query("count(*)", "SELECT count(*) FROM {lineorder}"),
        Query("sum(lo_extendedprice)", "SELECT sum(lo_extendedprice) FROM {lineorder}"),
        Query("avg(lo_extendedprice)", "SELECT avg(lo_extendedprice) FROM {lineorder}"),
        Query("max(lo_extendedprice)", "SELECT max(lo_extendedprice) FROM {lineorder}"),
    ] + _SSB_Q1,
    variants=(
        ("jit off, 0 workers", {"jit": "off", "max_parallel_workers_per_gather": "0"}),
        ("jit on, 0 workers", {"jit": "on", "jit_above_cost": "0",
                               "max_parallel_workers_per_gather": "0"}),
        ("jit off, 2 workers", {"jit": "off", "max_parallel_workers_per_gather": "2"}),
        ("jit on, 2 workers", {"jit": "on", "jit_above_cost": "0",
                               "max_parallel_workers_per_gather": "2"}),
    ))

# Speed-up from parallel workers, each variant against one worker.  On 2
# cores, one worker beside the leader already uses both, so the leader only
# gathers here, and "1 worker" is the same parallel plan with a pool of one
# worker (max_parallel_workers = 1: two planned, one launched), so that both
# pay one parallel start-up.  Also shown: one process (0 workers) and the
# default of two workers plus the leader (three processes on two cores).
# (PaxScan computes plain aggregates such as sum(lo_extendedprice) in one
# process, so only the joins are here.)
_LEADER_OFF = {"jit": "off", "max_parallel_workers_per_gather": "2",
               "parallel_leader_participation": "off"}
SSB_PARALLEL = Experiment(
    name="ssb_parallel",
    description="SSB-like lineorder (SEEDS 2): 1 against 2 parallel workers, jit off",
    shared=_SSB_DATE,
    tables=[_LINEORDER],
    queries=_SSB_Q1,
    variants=(
        ("1 worker, leader gathers only", dict(_LEADER_OFF, max_parallel_workers="1")),
        ("2 workers, leader gathers only", _LEADER_OFF),
        ("0 workers (one process)", {"jit": "off", "max_parallel_workers_per_gather": "0"}),
        ("2 workers and the leader", {"jit": "off", "max_parallel_workers_per_gather": "2"}),
    ),
    speedup=True)

EXPERIMENTS = {e.name: e for e in
               (DEFORM100, DEFORM100_CURVE, DEFORM100_PREFIX, AGE32, SSB, SSB_PARALLEL)}
