--
-- sjis_direct_invalid: invalid and incomplete input gives the same error as
-- the built-in conversion, or with noError the same bytes converted and
-- written, wherever the bad bytes stand.
--
CREATE EXTENSION sjis_direct;

-- outcome(proc, src, dst, input, noerror): "converted result" or the error
CREATE FUNCTION pg_temp.outcome(proc regproc, src name, dst name,
                                input bytea, noerror boolean)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    r := sjis_direct.convert_with(proc, src, dst, input, noerror);
    RETURN r.converted || ' ' || encode(r.result, 'hex');
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ' ' || SQLERRM;
END
$$;

-- compare(dir, input, noerror): both outcomes, for the direction 'euc' or 'sjis'
CREATE FUNCTION pg_temp.compare(dir text, input bytea, noerror boolean,
                                OUT builtin text, OUT ours text)
LANGUAGE sql AS $$
    SELECT pg_temp.outcome(CASE dir WHEN 'euc' THEN 'pg_catalog.euc_jp_to_sjis'
                                   ELSE 'pg_catalog.sjis_to_euc_jp' END::regproc,
                           CASE dir WHEN 'euc' THEN 'EUC_JP' ELSE 'SJIS' END,
                           CASE dir WHEN 'euc' THEN 'SJIS' ELSE 'EUC_JP' END,
                           input, noerror),
           pg_temp.outcome(CASE dir WHEN 'euc' THEN 'sjis_direct.sjis_direct_euc_jp_to_sjis'
                                   ELSE 'sjis_direct.sjis_direct_sjis_to_euc_jp' END::regproc,
                           CASE dir WHEN 'euc' THEN 'EUC_JP' ELSE 'SJIS' END,
                           CASE dir WHEN 'euc' THEN 'SJIS' ELSE 'EUC_JP' END,
                           input, noerror)
$$;

-- Every input of one and two bytes, and every 0x8F-led input of three, in
-- both directions, with and without noError: no differences.
CREATE TEMP TABLE inputs AS
SELECT decode(lpad(to_hex(c), 2, '0'), 'hex') AS b FROM generate_series(0, 255) AS c
UNION ALL
SELECT decode(lpad(to_hex(c), 4, '0'), 'hex') FROM generate_series(0, 65535) AS c;

SELECT d.dir, n.noerror, count(*) AS inputs,
       count(*) FILTER (WHERE c.builtin IS DISTINCT FROM c.ours) AS differ,
       count(*) FILTER (WHERE c.ours LIKE '22021 %') AS errors
  FROM inputs, (VALUES ('euc'), ('sjis')) AS d(dir), (VALUES (false), (true)) AS n(noerror),
       LATERAL pg_temp.compare(d.dir, inputs.b, n.noerror) AS c
 GROUP BY 1, 2 ORDER BY 1, 2;

SELECT n.noerror, count(*) AS inputs,
       count(*) FILTER (WHERE c.builtin IS DISTINCT FROM c.ours) AS differ,
       count(*) FILTER (WHERE c.ours LIKE '22021 %') AS errors
  FROM generate_series(0, 65535) AS x,
       (VALUES (false), (true)) AS n(noerror),
       LATERAL pg_temp.compare('euc', decode('8f' || lpad(to_hex(x), 4, '0'), 'hex'),
                               n.noerror) AS c
 GROUP BY 1 ORDER BY 1;

-- Each class of bad input, at the start, after a short and a long (word
-- path) ASCII run, after a multibyte character, in the middle, at the end.
CREATE TEMP TABLE bad(dir text, class text, bytes bytea, complete boolean);
INSERT INTO bad VALUES
    ('euc', 'NUL', '\x00', true),
    ('euc', 'bad lead 0x80', '\x80a1', true),
    ('euc', 'bad lead 0xa0', '\xa0a1', true),
    ('euc', 'bad lead 0xff', '\xffa1', true),
    ('euc', 'JIS X 0208 bad trail', '\xb0a0', true),
    ('euc', 'JIS X 0208 ASCII trail', '\xb041', true),
    ('euc', 'JIS X 0208 trail 0xff', '\xb0ff', true),
    ('euc', 'kana bad trail', '\x8ee0', true),
    ('euc', 'kana ASCII trail', '\x8e41', true),
    ('euc', 'JIS X 0212 bad 2nd', '\x8fa0a1', true),
    ('euc', 'JIS X 0212 bad 3rd', '\x8fa1ff', true),
    ('euc', 'JIS X 0212 NUL 3rd', '\x8fa100', true),
    ('euc', 'truncated JIS X 0208', '\xb0', false),
    ('euc', 'truncated kana', '\x8e', false),
    ('euc', 'truncated JIS X 0212 (1)', '\x8f', false),
    ('euc', 'truncated JIS X 0212 (2)', '\x8fb0', false),
    ('sjis', 'NUL', '\x00', true),
    ('sjis', 'bad lead 0x80', '\x8040', true),
    ('sjis', 'bad lead 0xa0', '\xa040', true),
    ('sjis', 'bad lead 0xfd', '\xfd40', true),
    ('sjis', 'bad trail 0x3f', '\x883f', true),
    ('sjis', 'bad trail 0x7f', '\x887f', true),
    ('sjis', 'bad trail 0xfd', '\x88fd', true),
    ('sjis', 'bad trail NUL', '\x8800', true),
    ('sjis', 'IBM row bad trail', '\xfa3f', true),
    ('sjis', 'truncated kanji', '\x88', false),
    ('sjis', 'truncated IBM', '\xfa', false);

CREATE TEMP TABLE placed AS
SELECT dir, class, complete, pos,
       CASE pos
           WHEN 'start' THEN bytes || '\x41'::bytea
           WHEN 'after 3 ASCII' THEN '\x414243'::bytea || bytes || '\x41'
           WHEN 'after 11 ASCII' THEN '\x4142434445464748494a4b'::bytea || bytes || '\x41424344454647484950'
           WHEN 'after multibyte' THEN (CASE dir WHEN 'euc' THEN '\xa4a28eb1'::bytea ELSE '\x82a0b1'::bytea END) || bytes || '\x41'
           WHEN 'middle of 16' THEN '\x4142434445464748'::bytea || bytes || '\x4142434445464748'
           WHEN 'at end' THEN '\x41424344'::bytea || bytes
       END AS input
  FROM bad,
       unnest(ARRAY['start', 'after 3 ASCII', 'after 11 ASCII', 'after multibyte',
                    'middle of 16', 'at end']) AS pos
 WHERE complete OR pos = 'at end';

-- the outcomes, which must be equal
SELECT count(*) AS cases,
       count(*) FILTER (WHERE (pg_temp.compare(dir, input, false)).builtin
                              IS DISTINCT FROM (pg_temp.compare(dir, input, false)).ours) AS differ_error,
       count(*) FILTER (WHERE (pg_temp.compare(dir, input, true)).builtin
                              IS DISTINCT FROM (pg_temp.compare(dir, input, true)).ours) AS differ_noerror
  FROM placed;

-- and what they are: the error, and with noError the bytes converted
SELECT dir, class, pos, (pg_temp.compare(dir, input, true)).ours AS noerror,
       (pg_temp.compare(dir, input, false)).ours AS error
  FROM placed ORDER BY dir, class, pos;

DROP EXTENSION sjis_direct;
DROP SCHEMA sjis_direct;
