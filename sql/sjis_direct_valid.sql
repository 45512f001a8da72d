--
-- sjis_direct_valid: for every valid character, in both directions, our
-- conversions give the bytes of the built-in ones; round trips, and the
-- characters for which they are not one-to-one.
--
CREATE EXTENSION sjis_direct;

-- Every valid EUC_JP character (the rules of PostgreSQL's verifier), by class.
CREATE TEMP TABLE euc_chars AS
SELECT 'ascii' AS class, decode(lpad(to_hex(c), 2, '0'), 'hex') AS b
  FROM generate_series(1, 127) AS c
UNION ALL
SELECT CASE WHEN c1 < 245 THEN 'jisx0208' ELSE 'udc1' END,
       decode(to_hex(c1 * 256 + c2), 'hex')
  FROM generate_series(161, 254) AS c1, generate_series(161, 254) AS c2
UNION ALL
SELECT 'kana', decode(to_hex(142 * 256 + c), 'hex')
  FROM generate_series(161, 223) AS c
UNION ALL
SELECT CASE WHEN c1 < 245 THEN 'jisx0212' ELSE 'udc2' END,
       decode(to_hex(143 * 65536 + c1 * 256 + c2), 'hex')
  FROM generate_series(161, 254) AS c1, generate_series(161, 254) AS c2;

-- Every valid SJIS character, by class.
CREATE TEMP TABLE sjis_chars AS
SELECT 'ascii' AS class, decode(lpad(to_hex(c), 2, '0'), 'hex') AS b
  FROM generate_series(1, 127) AS c
UNION ALL
SELECT 'kana', decode(to_hex(c), 'hex')
  FROM generate_series(161, 223) AS c
UNION ALL
SELECT CASE WHEN c1 <= 234 THEN 'jisx0208'
            WHEN c1 IN (237, 238) THEN 'nec_selected_ibm'
            WHEN c1 BETWEEN 240 AND 244 THEN 'udc1'
            WHEN c1 BETWEEN 245 AND 249 THEN 'udc2'
            WHEN c1 * 256 + c2 BETWEEN 64064 AND 64587 THEN 'ibm'
            ELSE 'unmapped' END,
       decode(to_hex(c1 * 256 + c2), 'hex')
  FROM (SELECT generate_series(129, 159) UNION ALL SELECT generate_series(224, 252)) AS h(c1),
       (SELECT generate_series(64, 126) UNION ALL SELECT generate_series(128, 252)) AS t(c2);

-- each character on its own: built-in and ours side by side
CREATE TEMP TABLE euc_to_sjis AS
SELECT class, b, bi.converted AS builtin_n, bi.result AS builtin,
       o.converted AS ours_n, o.result AS ours
  FROM euc_chars,
       LATERAL sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis',
                                        'EUC_JP', 'SJIS', b) AS bi,
       LATERAL sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis',
                                        'EUC_JP', 'SJIS', b) AS o;
CREATE TEMP TABLE sjis_to_euc AS
SELECT class, b, bi.converted AS builtin_n, bi.result AS builtin,
       o.converted AS ours_n, o.result AS ours
  FROM sjis_chars,
       LATERAL sjis_direct.convert_with('pg_catalog.sjis_to_euc_jp',
                                        'SJIS', 'EUC_JP', b) AS bi,
       LATERAL sjis_direct.convert_with('sjis_direct.sjis_direct_sjis_to_euc_jp',
                                        'SJIS', 'EUC_JP', b) AS o;

-- no differences; the digest pins the output itself
SELECT class, count(*) AS chars,
       count(*) FILTER (WHERE (ours_n, ours) IS DISTINCT FROM (builtin_n, builtin)) AS differ,
       count(*) FILTER (WHERE ours_n <> length(b)) AS short,
       md5(string_agg(builtin, '' ORDER BY b)) AS output_md5
  FROM euc_to_sjis GROUP BY class ORDER BY class;
SELECT class, count(*) AS chars,
       count(*) FILTER (WHERE (ours_n, ours) IS DISTINCT FROM (builtin_n, builtin)) AS differ,
       count(*) FILTER (WHERE ours_n <> length(b)) AS short,
       md5(string_agg(builtin, '' ORDER BY b)) AS output_md5
  FROM sjis_to_euc GROUP BY class ORDER BY class;

-- whole strings: all characters of each class in one input
SELECT 'euc' AS src, class,
       sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis', 'EUC_JP', 'SJIS', s) =
       sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis', 'EUC_JP', 'SJIS', s) AS same
  FROM (SELECT class, string_agg(b, '' ORDER BY b) AS s FROM euc_chars GROUP BY class) AS x
UNION ALL
SELECT 'sjis', class,
       sjis_direct.convert_with('pg_catalog.sjis_to_euc_jp', 'SJIS', 'EUC_JP', s) =
       sjis_direct.convert_with('sjis_direct.sjis_direct_sjis_to_euc_jp', 'SJIS', 'EUC_JP', s)
  FROM (SELECT class, string_agg(b, '' ORDER BY b) AS s FROM sjis_chars GROUP BY class) AS x
ORDER BY 1, 2;

-- ASCII runs of every length from 0 to 19 between multibyte characters,
-- so that the word-at-a-time path starts and stops at every offset
CREATE TEMP TABLE mixed AS
SELECT 'euc' AS src,
       string_agg(convert_to(repeat(chr(65 + i::int % 26), i::int % 20), 'SQL_ASCII') || b, '' ORDER BY i) AS s
  FROM (SELECT row_number() OVER (ORDER BY class, b) AS i, b
          FROM euc_chars WHERE class <> 'ascii') AS x
UNION ALL
SELECT 'sjis',
       string_agg(convert_to(repeat(chr(97 + i::int % 26), i::int % 20), 'SQL_ASCII') || b, '' ORDER BY i)
  FROM (SELECT row_number() OVER (ORDER BY class, b) AS i, b
          FROM sjis_chars WHERE class <> 'ascii') AS x;
SELECT src, length(s),
       CASE src WHEN 'euc' THEN
           sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis', 'EUC_JP', 'SJIS', s) =
           sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis', 'EUC_JP', 'SJIS', s)
       ELSE
           sjis_direct.convert_with('pg_catalog.sjis_to_euc_jp', 'SJIS', 'EUC_JP', s) =
           sjis_direct.convert_with('sjis_direct.sjis_direct_sjis_to_euc_jp', 'SJIS', 'EUC_JP', s)
       END AS same
  FROM mixed ORDER BY src;

--
-- Round trips.  EUC_JP -> SJIS -> EUC_JP gives the character back except
-- for JIS X 0212 characters outside the IBM extensions (SJIS has no room for
-- them: 0x81AC, GETA MARK, comes back as 0xA2AE) and the two JIS X 0212
-- codes the built-in matches against JIS X 0208 entries of its table.
--
SELECT e.class, count(*) AS chars,
       count(*) FILTER (WHERE back.result <> e.b) AS not_back,
       count(*) FILTER (WHERE back.result = '\xa2ae') AS as_geta
  FROM euc_to_sjis e,
       LATERAL sjis_direct.convert_with('sjis_direct.sjis_direct_sjis_to_euc_jp',
                                        'SJIS', 'EUC_JP', e.ours) AS back
 GROUP BY e.class ORDER BY e.class;
SELECT e.b AS euc, e.ours AS sjis, back.result AS back
  FROM euc_to_sjis e,
       LATERAL sjis_direct.convert_with('sjis_direct.sjis_direct_sjis_to_euc_jp',
                                        'SJIS', 'EUC_JP', e.ours) AS back
 WHERE back.result <> e.b AND back.result <> '\xa2ae'
 ORDER BY 1;

--
-- SJIS -> EUC_JP -> SJIS: the NEC-selected IBM extensions come back as the
-- IBM extensions (0xFAxx-0xFCxx) of the same character, unmapped codes as
-- 0x81AC, and the IBM NOT SIGN and BECAUSE as their JIS X 0208 codes.
--
SELECT s.class, count(*) AS chars,
       count(*) FILTER (WHERE back.result <> s.b) AS not_back,
       count(*) FILTER (WHERE back.result = '\x81ac') AS as_geta,
       count(*) FILTER (WHERE back.result BETWEEN '\xfa40' AND '\xfc4b') AS as_ibm
  FROM sjis_to_euc s,
       LATERAL sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis',
                                        'EUC_JP', 'SJIS', s.ours) AS back
 GROUP BY s.class ORDER BY s.class;
SELECT s.b AS sjis, s.ours AS euc, back.result AS back
  FROM sjis_to_euc s,
       LATERAL sjis_direct.convert_with('sjis_direct.sjis_direct_euc_jp_to_sjis',
                                        'EUC_JP', 'SJIS', s.ours) AS back
 WHERE back.result <> s.b AND back.result <> '\x81ac'
   AND s.class <> 'nec_selected_ibm'
 ORDER BY 1;

DROP EXTENSION sjis_direct;
DROP SCHEMA sjis_direct;
