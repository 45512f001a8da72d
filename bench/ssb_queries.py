"""The Star Schema Benchmark (O'Neil, O'Neil, Chen, Revilak: "The Star Schema
Benchmark and Augmented Fact Table Indexing", TPCTC 2009): its five tables,
derived here from the TPC-H data of bench/tpch.py as the benchmark itself
derives them (lineorder = lineitem joined with orders, supplycost from
partsupp; customer, supplier and part with city, nation, region, category
and brand columns; a date dimension), and its 13 queries in four flights,
for bench/ssb_all.py.

Money columns are integers in cents and discount, tax and quantity
integers, as in the benchmark's dbgen.  TPC-H's part has 5 manufacturers
and 25 brands; the benchmark's category is 'MFGR#' || manufacturer ||
brand digit (25 categories) and its brand1 the category followed by one
of 40 numbers (1,000 brands), as its dbgen draws them.  City names are
the first nine characters of the nation's name and a digit 0-9.  Every
query ends with an ORDER BY that makes its result a total order.
"""

# {am}: the access method; {src}: the schema holding the TPC-H tables
SCHEMA = """
CREATE TABLE date_dim USING {am} AS
SELECT to_char(d, 'YYYYMMDD')::int AS d_datekey,
  to_char(d, 'FMMonth DD, YYYY') AS d_date,
  to_char(d, 'FMDay') AS d_dayofweek,
  to_char(d, 'FMMonth') AS d_month,
  extract(year FROM d)::int AS d_year,
  (extract(year FROM d) * 100 + extract(month FROM d))::int AS d_yearmonthnum,
  to_char(d, 'MonYYYY') AS d_yearmonth,
  extract(isodow FROM d)::int AS d_daynuminweek,
  extract(day FROM d)::int AS d_daynuminmonth,
  extract(doy FROM d)::int AS d_daynuminyear,
  extract(month FROM d)::int AS d_monthnuminyear,
  extract(week FROM d)::int AS d_weeknuminyear,
  CASE WHEN extract(month FROM d) IN (12, 1) THEN 'Christmas'
       WHEN extract(month FROM d) BETWEEN 6 AND 8 THEN 'Summer'
       ELSE 'Winter' END AS d_sellingseason,
  (extract(isodow FROM d) = 7)::int AS d_lastdayinweekfl,
  (d = date_trunc('month', d) + interval '1 month' - interval '1 day')::int
    AS d_lastdayinmonthfl,
  (extract(month FROM d) IN (1, 7, 12) AND extract(day FROM d) = 1)::int AS d_holidayfl,
  (extract(isodow FROM d) < 6)::int AS d_weekdayfl
FROM generate_series(date '1992-01-01', date '1998-12-31', interval '1 day') g(d);

CREATE TABLE customer USING {am} AS
SELECT c_custkey, c_name, c_address,
  rpad(left(n_name, 9), 9) || (c_custkey % 10) AS c_city,
  rtrim(n_name) AS c_nation, rtrim(r_name) AS c_region, c_phone,
  rtrim(c_mktsegment) AS c_mktsegment
FROM {src}.customer JOIN {src}.nation ON c_nationkey = n_nationkey
  JOIN {src}.region ON n_regionkey = r_regionkey;

CREATE TABLE supplier USING {am} AS
SELECT s_suppkey, s_name, s_address,
  rpad(left(n_name, 9), 9) || (s_suppkey % 10) AS s_city,
  rtrim(n_name) AS s_nation, rtrim(r_name) AS s_region, s_phone
FROM {src}.supplier JOIN {src}.nation ON s_nationkey = n_nationkey
  JOIN {src}.region ON n_regionkey = r_regionkey;

CREATE TABLE part USING {am} AS
SELECT p_partkey, p_name,
  'MFGR#' || substr(p_mfgr, 14, 1) AS p_mfgr,
  'MFGR#' || substr(p_mfgr, 14, 1) || substr(p_brand, 8, 1) AS p_category,
  'MFGR#' || substr(p_mfgr, 14, 1) || substr(p_brand, 8, 1)
    || (1 + (p_partkey * 7919) % 40) AS p_brand1,
  split_part(p_name, ' ', 1) AS p_color, p_type, p_size, p_container
FROM {src}.part;

CREATE TABLE lineorder USING {am} AS
SELECT l_orderkey AS lo_orderkey, l_linenumber AS lo_linenumber,
  o_custkey AS lo_custkey, l_partkey AS lo_partkey, l_suppkey AS lo_suppkey,
  to_char(o_orderdate, 'YYYYMMDD')::int AS lo_orderdate,
  o_orderpriority AS lo_orderpriority, o_shippriority AS lo_shippriority,
  l_quantity::int AS lo_quantity,
  (l_extendedprice * 100)::int AS lo_extendedprice,
  (o_totalprice * 100)::bigint AS lo_ordtotalprice,
  (l_discount * 100)::int AS lo_discount,
  (l_extendedprice * (1 - l_discount) * 100)::int AS lo_revenue,
  (ps_supplycost * 100)::int AS lo_supplycost,
  (l_tax * 100)::int AS lo_tax,
  to_char(l_commitdate, 'YYYYMMDD')::int AS lo_commitdate,
  l_shipmode AS lo_shipmode
FROM {src}.lineitem JOIN {src}.orders ON l_orderkey = o_orderkey
  JOIN {src}.partsupp ON ps_partkey = l_partkey AND ps_suppkey = l_suppkey
ORDER BY l_orderkey, l_linenumber;

ALTER TABLE date_dim ADD PRIMARY KEY (d_datekey);
ALTER TABLE customer ADD PRIMARY KEY (c_custkey);
ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey);
ALTER TABLE part ADD PRIMARY KEY (p_partkey);
"""

TABLES = ["date_dim", "customer", "supplier", "part", "lineorder"]

QUERIES = {
    "Q1.1": """
SELECT sum(lo_extendedprice::int8 * lo_discount) AS revenue
FROM lineorder, date_dim
WHERE lo_orderdate = d_datekey AND d_year = 1993
  AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25""",
    "Q1.2": """
SELECT sum(lo_extendedprice::int8 * lo_discount) AS revenue
FROM lineorder, date_dim
WHERE lo_orderdate = d_datekey AND d_yearmonthnum = 199401
  AND lo_discount BETWEEN 4 AND 6 AND lo_quantity BETWEEN 26 AND 35""",
    "Q1.3": """
SELECT sum(lo_extendedprice::int8 * lo_discount) AS revenue
FROM lineorder, date_dim
WHERE lo_orderdate = d_datekey AND d_weeknuminyear = 6 AND d_year = 1994
  AND lo_discount BETWEEN 5 AND 7 AND lo_quantity BETWEEN 26 AND 35""",
    "Q2.1": """
SELECT sum(lo_revenue), d_year, p_brand1
FROM lineorder, date_dim, part, supplier
WHERE lo_orderdate = d_datekey AND lo_partkey = p_partkey AND lo_suppkey = s_suppkey
  AND p_category = 'MFGR#12' AND s_region = 'AMERICA'
GROUP BY d_year, p_brand1
ORDER BY d_year, p_brand1""",
    "Q2.2": """
SELECT sum(lo_revenue), d_year, p_brand1
FROM lineorder, date_dim, part, supplier
WHERE lo_orderdate = d_datekey AND lo_partkey = p_partkey AND lo_suppkey = s_suppkey
  AND p_brand1 BETWEEN 'MFGR#2221' AND 'MFGR#2228' AND s_region = 'ASIA'
GROUP BY d_year, p_brand1
ORDER BY d_year, p_brand1""",
    "Q2.3": """
SELECT sum(lo_revenue), d_year, p_brand1
FROM lineorder, date_dim, part, supplier
WHERE lo_orderdate = d_datekey AND lo_partkey = p_partkey AND lo_suppkey = s_suppkey
  AND p_brand1 = 'MFGR#2239' AND s_region = 'EUROPE'
GROUP BY d_year, p_brand1
ORDER BY d_year, p_brand1""",
    "Q3.1": """
SELECT c_nation, s_nation, d_year, sum(lo_revenue) AS revenue
FROM customer, lineorder, supplier, date_dim
WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_orderdate = d_datekey
  AND c_region = 'ASIA' AND s_region = 'ASIA' AND d_year >= 1992 AND d_year <= 1997
GROUP BY c_nation, s_nation, d_year
ORDER BY d_year ASC, revenue DESC, c_nation, s_nation""",
    "Q3.2": """
SELECT c_city, s_city, d_year, sum(lo_revenue) AS revenue
FROM customer, lineorder, supplier, date_dim
WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_orderdate = d_datekey
  AND c_nation = 'UNITED STATES' AND s_nation = 'UNITED STATES'
  AND d_year >= 1992 AND d_year <= 1997
GROUP BY c_city, s_city, d_year
ORDER BY d_year ASC, revenue DESC, c_city, s_city""",
    "Q3.3": """
SELECT c_city, s_city, d_year, sum(lo_revenue) AS revenue
FROM customer, lineorder, supplier, date_dim
WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_orderdate = d_datekey
  AND (c_city = 'UNITED KI1' OR c_city = 'UNITED KI5')
  AND (s_city = 'UNITED KI1' OR s_city = 'UNITED KI5')
  AND d_year >= 1992 AND d_year <= 1997
GROUP BY c_city, s_city, d_year
ORDER BY d_year ASC, revenue DESC, c_city, s_city""",
    "Q3.4": """
SELECT c_city, s_city, d_year, sum(lo_revenue) AS revenue
FROM customer, lineorder, supplier, date_dim
WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_orderdate = d_datekey
  AND (c_city = 'UNITED KI1' OR c_city = 'UNITED KI5')
  AND (s_city = 'UNITED KI1' OR s_city = 'UNITED KI5')
  AND d_yearmonth = 'Dec1997'
GROUP BY c_city, s_city, d_year
ORDER BY d_year ASC, revenue DESC, c_city, s_city""",
    "Q4.1": """
SELECT d_year, c_nation, sum(lo_revenue - lo_supplycost) AS profit
FROM date_dim, customer, supplier, part, lineorder
WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_partkey = p_partkey
  AND lo_orderdate = d_datekey AND c_region = 'AMERICA' AND s_region = 'AMERICA'
  AND (p_mfgr = 'MFGR#1' OR p_mfgr = 'MFGR#2')
GROUP BY d_year, c_nation
ORDER BY d_year, c_nation""",
    "Q4.2": """
SELECT d_year, s_nation, p_category, sum(lo_revenue - lo_supplycost) AS profit
FROM date_dim, customer, supplier, part, lineorder
WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_partkey = p_partkey
  AND lo_orderdate = d_datekey AND c_region = 'AMERICA' AND s_region = 'AMERICA'
  AND (d_year = 1997 OR d_year = 1998) AND (p_mfgr = 'MFGR#1' OR p_mfgr = 'MFGR#2')
GROUP BY d_year, s_nation, p_category
ORDER BY d_year, s_nation, p_category""",
    "Q4.3": """
SELECT d_year, s_city, p_brand1, sum(lo_revenue - lo_supplycost) AS profit
FROM date_dim, customer, supplier, part, lineorder
WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_partkey = p_partkey
  AND lo_orderdate = d_datekey AND c_region = 'AMERICA' AND s_nation = 'UNITED STATES'
  AND (d_year = 1997 OR d_year = 1998) AND p_category = 'MFGR#14'
GROUP BY d_year, s_city, p_brand1
ORDER BY d_year, s_city, p_brand1""",
}
