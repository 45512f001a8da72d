"""What bench/tpcc.py runs: TPC-C's schema, its five transactions (PL/pgSQL
functions and the pgbench scripts that call them), its consistency
conditions, and CH-benCHmark's analytic side (Cole et al., "The mixed
workload CH-benCHmark", DBTest 2011): the three tables it adds to TPC-C's
nine (supplier, nation, region) and its 22 queries, TPC-H's rewritten over
the TPC-C tables.  Clause numbers are those of the TPC-C specification 5.11.

As in CH-benCHmark, a stock row's supplier is mod(s_w_id * s_i_id, 10000)
and a customer's nation the one whose key is the code of the first
character of c_state (nation keys are the codes of '0'-'9', 'A'-'Z' and
'a'-'z', 62 nations in TPC-H's five regions).  The date bounds that
CH-benCHmark took from the years it was written in ('2012-01-02',
'2020-01-01') are moved to 2100 so that they take in this data's dates
(loaded rows carry bench/tpcc.py's LOAD_TS, rows the transactions write
now()).  The LIMITs are TPC-H's (Q2 100, Q3 10, Q10 20, Q18 100, Q21 100;
Q16 gets 100 too: its result has a row per item).  Every query orders its
result totally, so that heap's and pax's answers over the same data can be
compared as text.
"""

# ---------------------------------------------------------------------------
# TPC-C
# ---------------------------------------------------------------------------

TABLES = ["warehouse", "district", "customer", "history", "new_order", "orders",
          "order_line", "item", "stock"]
# NURand's constants (clause 2.1.6): C for c_last at load and in the run
# (their difference within 65..119, not 96 or 112), for c_id and for ol_i_id
C_LAST_LOAD, C_LAST_RUN, C_ID, C_ITEM = 157, 223, 259, 7911
SYLLABLES = ["BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"]

SCHEMA = """
CREATE TABLE warehouse (w_id int NOT NULL, w_name varchar(10) NOT NULL,
  w_street_1 varchar(20) NOT NULL, w_street_2 varchar(20) NOT NULL,
  w_city varchar(20) NOT NULL, w_state char(2) NOT NULL, w_zip char(9) NOT NULL,
  w_tax numeric(4,4) NOT NULL, w_ytd numeric(12,2) NOT NULL, PRIMARY KEY (w_id));
CREATE TABLE district (d_id int NOT NULL, d_w_id int NOT NULL, d_name varchar(10) NOT NULL,
  d_street_1 varchar(20) NOT NULL, d_street_2 varchar(20) NOT NULL,
  d_city varchar(20) NOT NULL, d_state char(2) NOT NULL, d_zip char(9) NOT NULL,
  d_tax numeric(4,4) NOT NULL, d_ytd numeric(12,2) NOT NULL, d_next_o_id int NOT NULL,
  PRIMARY KEY (d_w_id, d_id));
CREATE TABLE customer (c_id int NOT NULL, c_d_id int NOT NULL, c_w_id int NOT NULL,
  c_first varchar(16) NOT NULL, c_middle char(2) NOT NULL, c_last varchar(16) NOT NULL,
  c_street_1 varchar(20) NOT NULL, c_street_2 varchar(20) NOT NULL,
  c_city varchar(20) NOT NULL, c_state char(2) NOT NULL, c_zip char(9) NOT NULL,
  c_phone char(16) NOT NULL, c_since timestamp NOT NULL, c_credit char(2) NOT NULL,
  c_credit_lim numeric(12,2) NOT NULL, c_discount numeric(4,4) NOT NULL,
  c_balance numeric(12,2) NOT NULL, c_ytd_payment numeric(12,2) NOT NULL,
  c_payment_cnt int NOT NULL, c_delivery_cnt int NOT NULL, c_data varchar(500) NOT NULL,
  PRIMARY KEY (c_w_id, c_d_id, c_id));
CREATE INDEX customer_name ON customer (c_w_id, c_d_id, c_last, c_first);
CREATE TABLE history (h_c_id int NOT NULL, h_c_d_id int NOT NULL, h_c_w_id int NOT NULL,
  h_d_id int NOT NULL, h_w_id int NOT NULL, h_date timestamp NOT NULL,
  h_amount numeric(6,2) NOT NULL, h_data varchar(24) NOT NULL);
CREATE TABLE new_order (no_o_id int NOT NULL, no_d_id int NOT NULL, no_w_id int NOT NULL,
  PRIMARY KEY (no_w_id, no_d_id, no_o_id));
CREATE TABLE orders (o_id int NOT NULL, o_d_id int NOT NULL, o_w_id int NOT NULL,
  o_c_id int NOT NULL, o_entry_d timestamp NOT NULL, o_carrier_id int,
  o_ol_cnt int NOT NULL, o_all_local int NOT NULL, PRIMARY KEY (o_w_id, o_d_id, o_id));
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
CREATE TABLE order_line (ol_o_id int NOT NULL, ol_d_id int NOT NULL, ol_w_id int NOT NULL,
  ol_number int NOT NULL, ol_i_id int NOT NULL, ol_supply_w_id int NOT NULL,
  ol_delivery_d timestamp, ol_quantity int NOT NULL, ol_amount numeric(6,2) NOT NULL,
  ol_dist_info char(24) NOT NULL, PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number));
CREATE TABLE item (i_id int NOT NULL, i_im_id int NOT NULL, i_name varchar(24) NOT NULL,
  i_price numeric(5,2) NOT NULL, i_data varchar(50) NOT NULL, PRIMARY KEY (i_id));
CREATE TABLE stock (s_i_id int NOT NULL, s_w_id int NOT NULL, s_quantity int NOT NULL,
  s_dist_01 char(24) NOT NULL, s_dist_02 char(24) NOT NULL, s_dist_03 char(24) NOT NULL,
  s_dist_04 char(24) NOT NULL, s_dist_05 char(24) NOT NULL, s_dist_06 char(24) NOT NULL,
  s_dist_07 char(24) NOT NULL, s_dist_08 char(24) NOT NULL, s_dist_09 char(24) NOT NULL,
  s_dist_10 char(24) NOT NULL, s_ytd int NOT NULL, s_order_cnt int NOT NULL,
  s_remote_cnt int NOT NULL, s_data varchar(50) NOT NULL, PRIMARY KEY (s_w_id, s_i_id));
"""

# The five transactions (clause 2), each a function that pgbench calls with
# the inputs its script drew.  Tables are found through search_path, which
# each session sets to the access method's schema.  Rows are read and
# updated in one statement where the specification reads then updates
# (UPDATE ... RETURNING), at READ COMMITTED.
FUNCTIONS = r"""
CREATE FUNCTION tpcc_last(n int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT s[n / 100 + 1] || s[n / 10 % 10 + 1] || s[n % 10 + 1]
  FROM (SELECT ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY',
                     'ATION', 'EING']) AS a (s)
$$;

-- the customer a by-name selection picks: of the district's customers with
-- that last name, sorted by first name, the one at position ceil(n / 2)
CREATE FUNCTION tpcc_customer_by_name(p_w_id int, p_d_id int, p_last text)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    v_n int;
    v_c_id int;
BEGIN
    SELECT count(*) INTO v_n FROM customer
     WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_last;
    SELECT c_id INTO v_c_id FROM customer
     WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_last
     ORDER BY c_first OFFSET (v_n - 1) / 2 LIMIT 1;
    RETURN v_c_id;
END $$;

-- new-order (clause 2.4): returns 0 when an item is unused (the 1% with
-- p_rbk set), and the client then rolls the transaction back
CREATE FUNCTION tpcc_new_order(p_w_id int, p_d_id int, p_c_id int, p_ol_cnt int,
                               p_items int[], p_supply int[], p_qty int[], p_rbk int)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    v_w_tax numeric;
    v_d_tax numeric;
    v_o_id int;
    v_c record;
    v_i record;
    v_s record;
    v_line record;
    v_number int := 0;
    v_amount numeric;
    v_total numeric := 0;
    v_brand text;
BEGIN
    IF p_rbk = 1 THEN
        p_items[p_ol_cnt] := 100001;
    END IF;
    SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
    UPDATE district SET d_next_o_id = d_next_o_id + 1
     WHERE d_w_id = p_w_id AND d_id = p_d_id
    RETURNING d_tax, d_next_o_id - 1 INTO v_d_tax, v_o_id;
    SELECT c_discount, c_last, c_credit INTO v_c FROM customer
     WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
    INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id,
                        o_ol_cnt, o_all_local)
    VALUES (v_o_id, p_d_id, p_w_id, p_c_id, now(), NULL, p_ol_cnt,
            CASE WHEN p_supply[1:p_ol_cnt] <@ ARRAY[p_w_id] THEN 1 ELSE 0 END);
    INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);
    -- the lines in the order of their stock rows, which concurrent
    -- new-orders thus lock in one order
    FOR v_line IN
        SELECT u.i_id, u.w_id, u.qty
        FROM unnest(p_items[1:p_ol_cnt], p_supply[1:p_ol_cnt], p_qty[1:p_ol_cnt])
             AS u (i_id, w_id, qty)
        ORDER BY u.w_id, u.i_id
    LOOP
        v_number := v_number + 1;
        SELECT i_price, i_name, i_data INTO v_i FROM item WHERE i_id = v_line.i_id;
        IF NOT FOUND THEN
            RETURN 0;
        END IF;
        UPDATE stock
           SET s_quantity = CASE WHEN s_quantity >= v_line.qty + 10
                                 THEN s_quantity - v_line.qty
                                 ELSE s_quantity - v_line.qty + 91 END,
               s_ytd = s_ytd + v_line.qty,
               s_order_cnt = s_order_cnt + 1,
               s_remote_cnt = s_remote_cnt + CASE WHEN v_line.w_id <> p_w_id
                                                  THEN 1 ELSE 0 END
         WHERE s_w_id = v_line.w_id AND s_i_id = v_line.i_id
        RETURNING s_data,
                  CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02
                              WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                              WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
                              WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                              WHEN 9 THEN s_dist_09 ELSE s_dist_10 END AS dist
        INTO v_s;
        v_amount := v_line.qty * v_i.i_price;
        v_brand := CASE WHEN v_i.i_data LIKE '%ORIGINAL%' AND v_s.s_data LIKE '%ORIGINAL%'
                        THEN 'B' ELSE 'G' END;
        INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,
                                ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount,
                                ol_dist_info)
        VALUES (v_o_id, p_d_id, p_w_id, v_number, v_line.i_id, v_line.w_id, NULL,
                v_line.qty, v_amount, v_s.dist);
        v_total := v_total + v_amount;
    END LOOP;
    v_total := v_total * (1 - v_c.c_discount) * (1 + v_w_tax + v_d_tax);
    RETURN 1;
END $$;

-- payment (clause 2.5): p_by_name selects the customer by the last name
-- numbered p_c_last; a customer with bad credit gets the payment in c_data
CREATE FUNCTION tpcc_payment(p_w_id int, p_d_id int, p_c_w_id int, p_c_d_id int,
                             p_c_id int, p_by_name int, p_c_last int, p_cents int)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    v_amount numeric := round(p_cents / 100.0, 2);
    v_w record;
    v_d record;
    v_c record;
    v_c_id int := p_c_id;
BEGIN
    UPDATE warehouse SET w_ytd = w_ytd + v_amount WHERE w_id = p_w_id
    RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip INTO v_w;
    UPDATE district SET d_ytd = d_ytd + v_amount WHERE d_w_id = p_w_id AND d_id = p_d_id
    RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip INTO v_d;
    IF p_by_name = 1 THEN
        v_c_id := tpcc_customer_by_name(p_c_w_id, p_c_d_id, tpcc_last(p_c_last));
    END IF;
    UPDATE customer
       SET c_balance = c_balance - v_amount,
           c_ytd_payment = c_ytd_payment + v_amount,
           c_payment_cnt = c_payment_cnt + 1,
           c_data = CASE WHEN c_credit = 'BC'
                         THEN substr(concat_ws(' ', c_id, c_d_id, c_w_id, p_d_id, p_w_id,
                                               v_amount) || ' | ' || c_data, 1, 500)
                         ELSE c_data END
     WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id
    RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,
              c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance,
              CASE WHEN c_credit = 'BC' THEN substr(c_data, 1, 200) END AS c_data_head
    INTO v_c;
    INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount,
                         h_data)
    VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, now(), v_amount,
            v_w.w_name || '    ' || v_d.d_name);
    RETURN v_c_id;
END $$;

-- order-status (clause 2.6): the customer's last order and its lines
CREATE FUNCTION tpcc_order_status(p_w_id int, p_d_id int, p_c_id int, p_by_name int,
                                  p_c_last int)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    v_c_id int := p_c_id;
    v_c record;
    v_o record;
    v_line record;
    v_lines int := 0;
BEGIN
    IF p_by_name = 1 THEN
        v_c_id := tpcc_customer_by_name(p_w_id, p_d_id, tpcc_last(p_c_last));
    END IF;
    SELECT c_balance, c_first, c_middle, c_last INTO v_c FROM customer
     WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
    SELECT o_id, o_entry_d, o_carrier_id INTO v_o FROM orders
     WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id
     ORDER BY o_id DESC LIMIT 1;
    FOR v_line IN
        SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
        FROM order_line
        WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = v_o.o_id
    LOOP
        v_lines := v_lines + 1;
    END LOOP;
    RETURN v_lines;
END $$;

-- delivery (clause 2.7): the oldest undelivered order of each of the
-- warehouse's 10 districts; a district whose oldest one a concurrent
-- delivery has just taken is skipped.  Returns the orders delivered.
CREATE FUNCTION tpcc_delivery(p_w_id int, p_carrier_id int)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    v_d_id int;
    v_o_id int;
    v_c_id int;
    v_total numeric;
    v_done int := 0;
BEGIN
    FOR v_d_id IN 1 .. 10 LOOP
        DELETE FROM new_order
         WHERE no_w_id = p_w_id AND no_d_id = v_d_id
           AND no_o_id = (SELECT min(no_o_id) FROM new_order
                          WHERE no_w_id = p_w_id AND no_d_id = v_d_id)
        RETURNING no_o_id INTO v_o_id;
        CONTINUE WHEN NOT FOUND;
        UPDATE orders SET o_carrier_id = p_carrier_id
         WHERE o_w_id = p_w_id AND o_d_id = v_d_id AND o_id = v_o_id
        RETURNING o_c_id INTO v_c_id;
        WITH lines AS (
            UPDATE order_line SET ol_delivery_d = now()
             WHERE ol_w_id = p_w_id AND ol_d_id = v_d_id AND ol_o_id = v_o_id
            RETURNING ol_amount)
        SELECT sum(ol_amount) INTO v_total FROM lines;
        UPDATE customer
           SET c_balance = c_balance + v_total, c_delivery_cnt = c_delivery_cnt + 1
         WHERE c_w_id = p_w_id AND c_d_id = v_d_id AND c_id = v_c_id;
        v_done := v_done + 1;
    END LOOP;
    RETURN v_done;
END $$;

-- stock-level (clause 2.8): distinct items of the district's last 20
-- orders whose stock is below the threshold
CREATE FUNCTION tpcc_stock_level(p_w_id int, p_d_id int, p_threshold int)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    v_next int;
    v_low int;
BEGIN
    SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
    SELECT count(DISTINCT s_i_id) INTO v_low
      FROM order_line JOIN stock ON s_w_id = p_w_id AND s_i_id = ol_i_id
     WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id
       AND ol_o_id >= v_next - 20 AND ol_o_id < v_next AND s_quantity < p_threshold;
    RETURN v_low;
END $$;
"""

# pgbench expressions: NURand(A, x, y) of clause 2.1.6, and a supplying
# warehouse that is another one 1% of the time (when there is another)
NURAND_C_ID = "((random(0, 1023) | random(1, 3000)) + %d) %% 3000 + 1" % C_ID
NURAND_C_LAST = "((random(0, 255) | random(0, 999)) + %d) %% 1000" % C_LAST_RUN
NURAND_ITEM = "((random(0, 8191) | random(1, 100000)) + %d) %% 100000 + 1" % C_ITEM
OTHER_W = "(:w_id + random(0, :warehouses - 2)) % :warehouses + 1"


def new_order_script(rbk):
    """new_order_script: the pgbench script of a new-order; rbk 1 makes it one
    of the 1% that name an unused item and roll back."""
    lines = ["\\set w_id random(1, :warehouses)", "\\set d_id random(1, 10)",
             "\\set c_id " + NURAND_C_ID, "\\set ol_cnt random(5, 15)"]
    for k in range(1, 16):
        lines += ["\\set i%d %s" % (k, NURAND_ITEM),
                  "\\set s%d CASE WHEN :warehouses > 1 AND random(1, 100) = 1 "
                  "THEN %s ELSE :w_id END" % (k, OTHER_W),
                  "\\set q%d random(1, 10)" % k]

    def array(v):
        return "ARRAY[%s]::int[]" % ", ".join(":%s%d" % (v, k) for k in range(1, 16))

    return "\n".join(lines + [
        "BEGIN;",
        "SELECT tpcc_new_order(:w_id, :d_id, :c_id, :ol_cnt, %s, %s, %s, %d) AS ok \\gset"
        % (array("i"), array("s"), array("q"), rbk),
        "\\if :ok", "COMMIT;", "\\else", "ROLLBACK;", "\\endif", ""])


CUSTOMER_INPUT = """\\set by_name CASE WHEN random(1, 100) <= 60 THEN 1 ELSE 0 END
\\set c_id %s
\\set c_last %s
""" % (NURAND_C_ID, NURAND_C_LAST)

SCRIPTS = {
    "new_order": new_order_script(0),
    "new_order_rbk": new_order_script(1),
    "payment": """\\set w_id random(1, :warehouses)
\\set d_id random(1, 10)
\\set remote CASE WHEN :warehouses > 1 AND random(1, 100) > 85 THEN 1 ELSE 0 END
\\set c_w_id CASE WHEN :remote = 1 THEN %s ELSE :w_id END
\\set c_d_id CASE WHEN :remote = 1 THEN random(1, 10) ELSE :d_id END
%s\\set cents random(100, 500000)
SELECT tpcc_payment(:w_id, :d_id, :c_w_id, :c_d_id, :c_id, :by_name, :c_last, :cents);
""" % (OTHER_W, CUSTOMER_INPUT),
    "order_status": """\\set w_id random(1, :warehouses)
\\set d_id random(1, 10)
%sSELECT tpcc_order_status(:w_id, :d_id, :c_id, :by_name, :c_last);
""" % CUSTOMER_INPUT,
    "delivery": """\\set w_id random(1, :warehouses)
\\set carrier random(1, 10)
SELECT tpcc_delivery(:w_id, :carrier);
""",
    "stock_level": """\\set w_id random(1, :warehouses)
\\set d_id random(1, 10)
\\set threshold random(10, 20)
SELECT tpcc_stock_level(:w_id, :d_id, :threshold);
""",
}
# pgbench's weights (integers): the mix of clause 5.2.3, 1% of new-orders
# rolled back
WEIGHTS = {"new_order": 4455, "new_order_rbk": 45, "payment": 4300,
           "order_status": 400, "delivery": 400, "stock_level": 400}
# the consistency conditions of clause 3.3.2 (11 holds only before the
# first delivery); each query counts the rows that break its condition
CHECKS = [
    ("0", "cardinalities: W warehouses, 10 districts and 3,000 customers each, "
     "100,000 items and stock rows each",
     """SELECT (SELECT count(*) FROM warehouse) <> {w}
             OR (SELECT count(*) FROM district) <> 10 * {w}
             OR (SELECT count(*) FROM customer) <> 30000 * {w}
             OR (SELECT count(*) FROM item) <> 100000
             OR (SELECT count(*) FROM stock) <> 100000 * {w}"""),
    ("1", "w_ytd = sum(d_ytd)",
     """SELECT count(*) FROM warehouse
        WHERE w_ytd IS DISTINCT FROM (SELECT sum(d_ytd) FROM district WHERE d_w_id = w_id)"""),
    ("2", "d_next_o_id - 1 = max(o_id) = max(no_o_id)",
     """SELECT count(*) FROM district
        WHERE d_next_o_id - 1 IS DISTINCT FROM
                (SELECT max(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id)
           OR d_next_o_id - 1 IS DISTINCT FROM
                (SELECT max(no_o_id) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id)"""),
    ("3", "count(new_order) = max(no_o_id) - min(no_o_id) + 1, per district",
     """SELECT count(*) FROM (SELECT no_w_id, no_d_id FROM new_order GROUP BY 1, 2
                              HAVING count(*) <> max(no_o_id) - min(no_o_id) + 1) s"""),
    ("4", "sum(o_ol_cnt) = count(order_line), per district",
     """SELECT count(*)
        FROM (SELECT o_w_id, o_d_id, sum(o_ol_cnt) AS n FROM orders GROUP BY 1, 2) o
        FULL JOIN (SELECT ol_w_id, ol_d_id, count(*) AS n FROM order_line GROUP BY 1, 2) l
          ON (o_w_id, o_d_id) = (ol_w_id, ol_d_id)
        WHERE o.n IS DISTINCT FROM l.n"""),
    ("5", "o_carrier_id is null exactly for the orders in new_order",
     """SELECT count(*) FROM orders LEFT JOIN new_order
          ON (no_w_id, no_d_id, no_o_id) = (o_w_id, o_d_id, o_id)
        WHERE (o_carrier_id IS NULL) <> (no_o_id IS NOT NULL)"""),
    ("6", "o_ol_cnt = count(order_line), per order",
     """SELECT count(*) FROM orders
        FULL JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, count(*) AS n FROM order_line
                   GROUP BY 1, 2, 3) l ON (ol_w_id, ol_d_id, ol_o_id) = (o_w_id, o_d_id, o_id)
        WHERE o_ol_cnt IS DISTINCT FROM l.n"""),
    ("7", "ol_delivery_d is null exactly when o_carrier_id is",
     """SELECT count(*) FROM orders JOIN order_line
          ON (ol_w_id, ol_d_id, ol_o_id) = (o_w_id, o_d_id, o_id)
        WHERE (ol_delivery_d IS NULL) <> (o_carrier_id IS NULL)"""),
    ("8", "w_ytd = sum(h_amount), per warehouse",
     """SELECT count(*) FROM warehouse
        WHERE w_ytd IS DISTINCT FROM (SELECT sum(h_amount) FROM history WHERE h_w_id = w_id)"""),
    ("9", "d_ytd = sum(h_amount), per district",
     """SELECT count(*) FROM district
        WHERE d_ytd IS DISTINCT FROM (SELECT sum(h_amount) FROM history
                                      WHERE h_w_id = d_w_id AND h_d_id = d_id)"""),
    ("10", "c_balance = sum(delivered ol_amount) - sum(h_amount), per customer",
     """WITH d AS (SELECT o_w_id AS w, o_d_id AS d, o_c_id AS c, sum(ol_amount) AS s
                FROM orders JOIN order_line
                  ON (ol_w_id, ol_d_id, ol_o_id) = (o_w_id, o_d_id, o_id)
                WHERE ol_delivery_d IS NOT NULL GROUP BY 1, 2, 3),
             h AS (SELECT h_c_w_id AS w, h_c_d_id AS d, h_c_id AS c, sum(h_amount) AS s
                FROM history GROUP BY 1, 2, 3)
        SELECT count(*) FROM customer
        LEFT JOIN d ON (d.w, d.d, d.c) = (c_w_id, c_d_id, c_id)
        LEFT JOIN h ON (h.w, h.d, h.c) = (c_w_id, c_d_id, c_id)
        WHERE c_balance <> coalesce(d.s, 0) - coalesce(h.s, 0)"""),
    ("12", "c_balance + c_ytd_payment = sum(delivered ol_amount), per customer",
     """WITH d AS (SELECT o_w_id AS w, o_d_id AS d, o_c_id AS c, sum(ol_amount) AS s
                FROM orders JOIN order_line
                  ON (ol_w_id, ol_d_id, ol_o_id) = (o_w_id, o_d_id, o_id)
                WHERE ol_delivery_d IS NOT NULL GROUP BY 1, 2, 3)
        SELECT count(*) FROM customer
        LEFT JOIN d ON (d.w, d.d, d.c) = (c_w_id, c_d_id, c_id)
        WHERE c_balance + c_ytd_payment <> coalesce(d.s, 0)"""),
]

# ---------------------------------------------------------------------------
# CH-benCHmark
# ---------------------------------------------------------------------------

REGIONS = ["AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"]

# (name, index into REGIONS), paired in this order with the nation keys
# 48-57, 65-90, 97-122
NATIONS = [
    ("ALGERIA", 0), ("ETHIOPIA", 0), ("KENYA", 0), ("MOROCCO", 0), ("MOZAMBIQUE", 0),
    ("NIGERIA", 0), ("GHANA", 0), ("SENEGAL", 0), ("TANZANIA", 0), ("ANGOLA", 0),
    ("CAMEROON", 0), ("TUNISIA", 0),
    ("ARGENTINA", 1), ("BRAZIL", 1), ("CANADA", 1), ("PERU", 1), ("UNITED STATES", 1),
    ("MEXICO", 1), ("CHILE", 1), ("COLOMBIA", 1), ("CUBA", 1), ("URUGUAY", 1),
    ("BOLIVIA", 1), ("ECUADOR", 1),
    ("INDIA", 2), ("INDONESIA", 2), ("JAPAN", 2), ("CHINA", 2), ("VIETNAM", 2),
    ("CAMBODIA", 2), ("THAILAND", 2), ("MALAYSIA", 2), ("PHILIPPINES", 2), ("KOREA", 2),
    ("MONGOLIA", 2), ("NEPAL", 2), ("PAKISTAN", 2),
    ("FRANCE", 3), ("GERMANY", 3), ("ROMANIA", 3), ("RUSSIA", 3), ("UNITED KINGDOM", 3),
    ("SPAIN", 3), ("ITALY", 3), ("POLAND", 3), ("NORWAY", 3), ("SWEDEN", 3),
    ("PORTUGAL", 3), ("AUSTRIA", 3), ("GREECE", 3),
    ("EGYPT", 4), ("IRAN", 4), ("IRAQ", 4), ("JORDAN", 4), ("SAUDI ARABIA", 4),
    ("ISRAEL", 4), ("LEBANON", 4), ("SYRIA", 4), ("YEMEN", 4), ("OMAN", 4),
    ("QATAR", 4), ("KUWAIT", 4),
]
NATION_KEYS = list(range(48, 58)) + list(range(65, 91)) + list(range(97, 123))
assert len(NATIONS) == len(NATION_KEYS) == 62

SUPPLIERS = 10000

CH_SCHEMA = """
CREATE TABLE region (r_regionkey int NOT NULL, r_name char(25) NOT NULL,
  r_comment varchar(152) NOT NULL, PRIMARY KEY (r_regionkey));
CREATE TABLE nation (n_nationkey int NOT NULL, n_name char(25) NOT NULL,
  n_regionkey int NOT NULL, n_comment varchar(152) NOT NULL, PRIMARY KEY (n_nationkey));
CREATE TABLE supplier (su_suppkey int NOT NULL, su_name char(25) NOT NULL,
  su_address varchar(40) NOT NULL, su_nationkey int NOT NULL, su_phone char(15) NOT NULL,
  su_acctbal numeric(12,2) NOT NULL, su_comment varchar(101) NOT NULL,
  PRIMARY KEY (su_suppkey));
"""

CH_TABLES = ["region", "nation", "supplier"]

QUERIES = {
    "Q01": """
SELECT ol_number, sum(ol_quantity) AS sum_qty, sum(ol_amount) AS sum_amount,
  avg(ol_quantity) AS avg_qty, avg(ol_amount) AS avg_amount, count(*) AS count_order
FROM order_line
WHERE ol_delivery_d > timestamp '2007-01-02 00:00:00'
GROUP BY ol_number
ORDER BY ol_number""",
    "Q02": """
SELECT su_suppkey, su_name, n_name, i_id, i_name, su_address, su_phone, su_comment
FROM item, supplier, stock, nation, region,
  (SELECT s_i_id AS m_i_id, min(s_quantity) AS m_s_quantity
   FROM stock, supplier, nation, region
   WHERE mod(s_w_id * s_i_id, 10000) = su_suppkey AND su_nationkey = n_nationkey
     AND n_regionkey = r_regionkey AND r_name LIKE 'EUROP%'
   GROUP BY s_i_id) m
WHERE i_id = s_i_id AND mod(s_w_id * s_i_id, 10000) = su_suppkey
  AND su_nationkey = n_nationkey AND n_regionkey = r_regionkey
  AND i_data LIKE '%b' AND r_name LIKE 'EUROP%'
  AND i_id = m_i_id AND s_quantity = m_s_quantity
ORDER BY n_name, su_name, i_id
LIMIT 100""",
    "Q03": """
SELECT ol_o_id, ol_w_id, ol_d_id, sum(ol_amount) AS revenue, o_entry_d
FROM customer, new_order, orders, order_line
WHERE c_state LIKE 'A%' AND c_id = o_c_id AND c_w_id = o_w_id AND c_d_id = o_d_id
  AND no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id
  AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
  AND o_entry_d > timestamp '2007-01-02 00:00:00'
GROUP BY ol_o_id, ol_w_id, ol_d_id, o_entry_d
ORDER BY revenue DESC, o_entry_d, ol_o_id, ol_w_id, ol_d_id
LIMIT 10""",
    "Q04": """
SELECT o_ol_cnt, count(*) AS order_count
FROM orders
WHERE o_entry_d >= timestamp '2007-01-02 00:00:00'
  AND o_entry_d < timestamp '2100-01-01 00:00:00'
  AND EXISTS (SELECT 1 FROM order_line
              WHERE o_id = ol_o_id AND o_w_id = ol_w_id AND o_d_id = ol_d_id
                AND ol_delivery_d >= o_entry_d)
GROUP BY o_ol_cnt
ORDER BY o_ol_cnt""",
    "Q05": """
SELECT n_name, sum(ol_amount) AS revenue
FROM customer, orders, order_line, stock, supplier, nation, region
WHERE c_id = o_c_id AND c_w_id = o_w_id AND c_d_id = o_d_id
  AND ol_o_id = o_id AND ol_w_id = o_w_id AND ol_d_id = o_d_id
  AND ol_w_id = s_w_id AND ol_i_id = s_i_id
  AND mod(s_w_id * s_i_id, 10000) = su_suppkey
  AND ascii(substr(c_state, 1, 1)) = su_nationkey
  AND su_nationkey = n_nationkey AND n_regionkey = r_regionkey AND r_name = 'EUROPE'
  AND o_entry_d >= timestamp '2007-01-02 00:00:00'
GROUP BY n_name
ORDER BY revenue DESC, n_name""",
    "Q06": """
SELECT sum(ol_amount) AS revenue
FROM order_line
WHERE ol_delivery_d >= timestamp '1999-01-01 00:00:00'
  AND ol_delivery_d < timestamp '2100-01-01 00:00:00'
  AND ol_quantity BETWEEN 1 AND 100000""",
    "Q07": """
SELECT su_nationkey AS supp_nation, substr(c_state, 1, 1) AS cust_nation,
  extract(year FROM o_entry_d) AS l_year, sum(ol_amount) AS revenue
FROM supplier, stock, order_line, orders, customer, nation n1, nation n2
WHERE ol_supply_w_id = s_w_id AND ol_i_id = s_i_id
  AND mod(s_w_id * s_i_id, 10000) = su_suppkey
  AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
  AND c_id = o_c_id AND c_w_id = o_w_id AND c_d_id = o_d_id
  AND su_nationkey = n1.n_nationkey AND ascii(substr(c_state, 1, 1)) = n2.n_nationkey
  AND ((n1.n_name = 'GERMANY' AND n2.n_name = 'CAMBODIA')
       OR (n1.n_name = 'CAMBODIA' AND n2.n_name = 'GERMANY'))
  AND ol_delivery_d BETWEEN timestamp '2007-01-02 00:00:00'
                        AND timestamp '2100-01-01 00:00:00'
GROUP BY su_nationkey, substr(c_state, 1, 1), extract(year FROM o_entry_d)
ORDER BY su_nationkey, cust_nation, l_year""",
    "Q08": """
SELECT extract(year FROM o_entry_d) AS l_year,
  sum(CASE WHEN n2.n_name = 'GERMANY' THEN ol_amount ELSE 0 END)
    / nullif(sum(ol_amount), 0) AS mkt_share
FROM item, supplier, stock, order_line, orders, customer, nation n1, nation n2, region
WHERE i_id = s_i_id AND ol_i_id = s_i_id AND ol_supply_w_id = s_w_id
  AND mod(s_w_id * s_i_id, 10000) = su_suppkey
  AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
  AND c_id = o_c_id AND c_w_id = o_w_id AND c_d_id = o_d_id
  AND n1.n_nationkey = ascii(substr(c_state, 1, 1)) AND n1.n_regionkey = r_regionkey
  AND ol_i_id < 1000 AND r_name = 'EUROPE' AND su_nationkey = n2.n_nationkey
  AND o_entry_d BETWEEN timestamp '2007-01-02 00:00:00'
                    AND timestamp '2100-01-01 00:00:00'
  AND i_data LIKE '%b' AND i_id = ol_i_id
GROUP BY extract(year FROM o_entry_d)
ORDER BY l_year""",
    "Q09": """
SELECT n_name, extract(year FROM o_entry_d) AS l_year, sum(ol_amount) AS sum_profit
FROM item, stock, supplier, order_line, orders, nation
WHERE ol_i_id = s_i_id AND ol_supply_w_id = s_w_id
  AND mod(s_w_id * s_i_id, 10000) = su_suppkey
  AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
  AND ol_i_id = i_id AND su_nationkey = n_nationkey AND i_data LIKE '%BB'
GROUP BY n_name, extract(year FROM o_entry_d)
ORDER BY n_name, l_year DESC""",
    "Q10": """
SELECT c_id, c_last, sum(ol_amount) AS revenue, c_city, c_phone, n_name
FROM customer, orders, order_line, nation
WHERE c_id = o_c_id AND c_w_id = o_w_id AND c_d_id = o_d_id
  AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
  AND o_entry_d >= timestamp '2007-01-02 00:00:00' AND o_entry_d <= ol_delivery_d
  AND n_nationkey = ascii(substr(c_state, 1, 1))
GROUP BY c_id, c_last, c_city, c_phone, n_name
ORDER BY revenue DESC, c_id, c_last, c_city, c_phone, n_name
LIMIT 20""",
    "Q11": """
SELECT s_i_id, sum(s_order_cnt) AS ordercount
FROM stock, supplier, nation
WHERE mod(s_w_id * s_i_id, 10000) = su_suppkey AND su_nationkey = n_nationkey
  AND n_name = 'GERMANY'
GROUP BY s_i_id
HAVING sum(s_order_cnt) >
  (SELECT sum(s_order_cnt) * .005
   FROM stock, supplier, nation
   WHERE mod(s_w_id * s_i_id, 10000) = su_suppkey AND su_nationkey = n_nationkey
     AND n_name = 'GERMANY')
ORDER BY ordercount DESC, s_i_id""",
    "Q12": """
SELECT o_ol_cnt,
  sum(CASE WHEN o_carrier_id = 1 OR o_carrier_id = 2 THEN 1 ELSE 0 END) AS high_line_count,
  sum(CASE WHEN o_carrier_id <> 1 AND o_carrier_id <> 2 THEN 1 ELSE 0 END) AS low_line_count
FROM orders, order_line
WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
  AND o_entry_d <= ol_delivery_d AND ol_delivery_d < timestamp '2100-01-01 00:00:00'
GROUP BY o_ol_cnt
ORDER BY o_ol_cnt""",
    "Q13": """
SELECT c_count, count(*) AS custdist
FROM (SELECT c_id, count(o_id) AS c_count
      FROM customer LEFT OUTER JOIN orders
        ON (c_w_id = o_w_id AND c_d_id = o_d_id AND c_id = o_c_id AND o_carrier_id > 8)
      GROUP BY c_id) AS c_orders
GROUP BY c_count
ORDER BY custdist DESC, c_count DESC""",
    "Q14": """
SELECT 100.00 * sum(CASE WHEN i_data LIKE 'PR%' THEN ol_amount ELSE 0 END)
  / (1 + sum(ol_amount)) AS promo_revenue
FROM order_line, item
WHERE ol_i_id = i_id AND ol_delivery_d >= timestamp '2007-01-02 00:00:00'
  AND ol_delivery_d < timestamp '2100-01-01 00:00:00'""",
    "Q15": """
WITH revenue AS (
  SELECT mod(s_w_id * s_i_id, 10000) AS supplier_no, sum(ol_amount) AS total_revenue
  FROM order_line, stock
  WHERE ol_i_id = s_i_id AND ol_supply_w_id = s_w_id
    AND ol_delivery_d >= timestamp '2007-01-02 00:00:00'
  GROUP BY mod(s_w_id * s_i_id, 10000))
SELECT su_suppkey, su_name, su_address, su_phone, total_revenue
FROM supplier, revenue
WHERE su_suppkey = supplier_no
  AND total_revenue = (SELECT max(total_revenue) FROM revenue)
ORDER BY su_suppkey""",
    "Q16": """
SELECT i_name, substr(i_data, 1, 3) AS brand, i_price,
  count(DISTINCT mod(s_w_id * s_i_id, 10000)) AS supplier_cnt
FROM stock, item
WHERE i_id = s_i_id AND i_data NOT LIKE 'zz%'
  AND mod(s_w_id * s_i_id, 10000) NOT IN
      (SELECT su_suppkey FROM supplier WHERE su_comment LIKE '%bad%')
GROUP BY i_name, substr(i_data, 1, 3), i_price
ORDER BY supplier_cnt DESC, i_name, brand, i_price
LIMIT 100""",
    "Q17": """
SELECT sum(ol_amount) / 2.0 AS avg_yearly
FROM order_line,
  (SELECT i_id, avg(ol_quantity) AS a
   FROM item, order_line
   WHERE i_data LIKE '%b' AND ol_i_id = i_id
   GROUP BY i_id) t
WHERE ol_i_id = t.i_id AND ol_quantity < t.a""",
    "Q18": """
SELECT c_last, c_id, o_id, o_entry_d, o_ol_cnt, sum(ol_amount) AS amount_sum
FROM customer, orders, order_line
WHERE c_id = o_c_id AND c_w_id = o_w_id AND c_d_id = o_d_id
  AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
GROUP BY o_id, o_w_id, o_d_id, c_id, c_last, o_entry_d, o_ol_cnt
HAVING sum(ol_amount) > 200
ORDER BY amount_sum DESC, o_entry_d, o_w_id, o_d_id, o_id
LIMIT 100""",
    "Q19": """
SELECT sum(ol_amount) AS revenue
FROM order_line, item
WHERE (ol_i_id = i_id AND i_data LIKE '%a' AND ol_quantity >= 1 AND ol_quantity <= 10
       AND i_price BETWEEN 1 AND 400000 AND ol_w_id IN (1, 2, 3))
   OR (ol_i_id = i_id AND i_data LIKE '%b' AND ol_quantity >= 1 AND ol_quantity <= 10
       AND i_price BETWEEN 1 AND 400000 AND ol_w_id IN (1, 2, 4))
   OR (ol_i_id = i_id AND i_data LIKE '%c' AND ol_quantity >= 1 AND ol_quantity <= 10
       AND i_price BETWEEN 1 AND 400000 AND ol_w_id IN (1, 5, 3))""",
    "Q20": """
SELECT su_name, su_address
FROM supplier, nation
WHERE su_suppkey IN
    (SELECT mod(s_i_id * s_w_id, 10000)
     FROM stock, order_line
     WHERE s_i_id IN (SELECT i_id FROM item WHERE i_data LIKE 'co%')
       AND ol_i_id = s_i_id AND ol_delivery_d > timestamp '2010-05-23 12:00:00'
     GROUP BY s_i_id, s_w_id, s_quantity
     HAVING 2 * s_quantity > sum(ol_quantity))
  AND su_nationkey = n_nationkey AND n_name = 'GERMANY'
ORDER BY su_name""",
    "Q21": """
SELECT su_name, count(*) AS numwait
FROM supplier, order_line l1, orders, stock, nation
WHERE ol_o_id = o_id AND ol_w_id = o_w_id AND ol_d_id = o_d_id
  AND ol_w_id = s_w_id AND ol_i_id = s_i_id
  AND mod(s_w_id * s_i_id, 10000) = su_suppkey
  AND l1.ol_delivery_d > o_entry_d
  AND NOT EXISTS (SELECT * FROM order_line l2
                  WHERE l2.ol_o_id = l1.ol_o_id AND l2.ol_w_id = l1.ol_w_id
                    AND l2.ol_d_id = l1.ol_d_id AND l2.ol_delivery_d > l1.ol_delivery_d)
  AND su_nationkey = n_nationkey AND n_name = 'GERMANY'
GROUP BY su_name
ORDER BY numwait DESC, su_name
LIMIT 100""",
    "Q22": """
SELECT substr(c_state, 1, 1) AS country, count(*) AS numcust, sum(c_balance) AS totacctbal
FROM customer
WHERE substr(c_phone, 1, 1) IN ('1', '2', '3', '4', '5', '6', '7')
  AND c_balance > (SELECT avg(c_balance) FROM customer
                   WHERE c_balance > 0.00
                     AND substr(c_phone, 1, 1) IN ('1', '2', '3', '4', '5', '6', '7'))
  AND NOT EXISTS (SELECT * FROM orders
                  WHERE o_c_id = c_id AND o_w_id = c_w_id AND o_d_id = c_d_id)
GROUP BY substr(c_state, 1, 1)
ORDER BY substr(c_state, 1, 1)""",
}
