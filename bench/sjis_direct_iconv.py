#!/usr/bin/python3
"""sjis_direct_iconv.py: where glibc iconv differs from PostgreSQL's EUC_JP ->
SJIS conversion (which sjis_direct reproduces byte for byte).

Usage: bench/sjis_direct_iconv.py          (private cluster of bin/lib.sh)

Converts every valid EUC_JP character, one per line, with PostgreSQL's
built-in conversion (through sjis_direct.convert_with in the sjis_bench
database, or postgres) and with `iconv -c -f EUC-JP -t SHIFT_JIS` and
`-t CP932`, and prints per class of character how many agree, how many
iconv cannot convert at all, and how many it converts differently, with
examples.  Standard library only.
"""

import subprocess
import sys

from benchlib import Cluster, md_row, md_table


def classes():
    out = [("ascii", bytes([c])) for c in range(1, 128) if c != 10]
    for c1 in range(0xA1, 0xFF):
        for c2 in range(0xA1, 0xFF):
            out.append(("jisx0208" if c1 < 0xF5 else "udc1", bytes([c1, c2])))
    out += [("kana", bytes([0x8E, c])) for c in range(0xA1, 0xE0)]
    for c1 in range(0xA1, 0xFF):
        for c2 in range(0xA1, 0xFF):
            out.append(("jisx0212" if c1 < 0xF5 else "udc2", bytes([0x8F, c1, c2])))
    return out


def main():
    chars = classes()
    data = b"\n".join(b for _, b in chars) + b"\n"
    cl = Cluster()
    sql = ("CREATE EXTENSION IF NOT EXISTS sjis_direct; "
           "SELECT encode((sjis_direct.convert_with('pg_catalog.euc_jp_to_sjis', "
           "'EUC_JP', 'SJIS', decode('%s', 'hex'))).result, 'hex');" % data.hex())
    out = cl.psql(sql)
    pg = bytes.fromhex(out.strip().splitlines()[-1])
    pg_lines = pg.split(b"\n")
    for target in ("SHIFT_JIS", "CP932"):
        ic = subprocess.run(["iconv", "-c", "-f", "EUC-JP", "-t", target],
                            input=data, capture_output=True).stdout.split(b"\n")
        print("\n## iconv -f EUC-JP -t %s versus PostgreSQL\n" % target)
        print("\n".join(md_table(["class", "chars", "same", "iconv cannot", "iconv differs",
                                   "examples (EUC: PG / iconv)"], "lrrrrl", [])))
        stats = {}
        for (cls, b), p, i in zip(chars, pg_lines, ic):
            s = stats.setdefault(cls, [0, 0, 0, 0, []])
            s[0] += 1
            if p == i:
                s[1] += 1
            elif i == b"":
                s[2] += 1
            else:
                s[3] += 1
                if len(s[4]) < 4:
                    s[4].append("%s: %s / %s" % (b.hex(), p.hex(), i.hex()))
        for cls, (n, same, cannot, differs, ex) in stats.items():
            print(md_row([cls, n, same, cannot, differs, ", ".join(ex)]))


if __name__ == "__main__":
    sys.exit(main())
