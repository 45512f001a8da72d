/*-------------------------------------------------------------------------
 *
 * sjis_convert.c
 *	  The EUC_JP <-> SJIS conversion workers of sjis_direct.
 *
 * Output is byte for byte what PostgreSQL's built-in conversions
 * euc_jp_to_sjis and sjis_to_euc_jp produce, errors included, but each
 * character costs a few comparisons and at most one table load:
 *
 *	- ASCII runs are checked and copied a machine word (8 bytes) at a time;
 *	- JIS X 0208 and the user-defined areas (SJIS 0xF0-0xF9, EUC_JP rows
 *	  0xF5-0xFE) are pure arithmetic;
 *	- the NEC-selected IBM and IBM extension rows of SJIS (0xED-0xEE,
 *	  0xFA-0xFC) are one load from sjis_ext_to_euc (sjis_direct_ibm.map), and
 *	  EUC_JP JIS X 0212 (0x8F) codes one load from euc3_to_sjis, built from
 *	  the same map when the module is loaded;
 *	- characters are validated inline (the rules of pg_eucjp_verifychar and
 *	  pg_sjis_verifychar), with no function call per character.
 *
 * Quirks of the built-in conversion that we reproduce on purpose:
 *	- EUC_JP -> SJIS never reports an untranslatable character: a JIS X 0212
 *	  code that is not an IBM extension becomes 0x81AC;
 *	- SJIS -> EUC_JP writes 0xA2AE for rows 0xEB-0xEF and 0xFC4C-0xFCFC that
 *	  have no mapping;
 *	- the 0x8F lookup matches the low 16 bits of the table's EUC codes, so
 *	  0x8FA2CC and 0x8FA2E8 become 0xFA54 and 0xFA5B (whose EUC_JP codes are
 *	  the JIS X 0208 codes 0xA2CC and 0xA2E8).
 *
 * This file calls nothing of the backend but report_invalid_encoding, so
 * the valgrind harness (test/sjis_harness.c) can link it on its own.
 *
 * sjis_direct/sjis_convert.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "port/pg_bitutils.h"

#include "sjis_direct.h"

/* sjis_ext_to_euc[SJIS_EXT_ROWS][SJIS_EXT_TAILS] */
#include "sjis_direct_ibm.map"

/* one row (or column) of the 94 x 94 EUC code space, bytes 0xA1-0xFE */
#define EUC_CELLS		94
#define IS_EUC_BYTE(c)	((c) >= 0xa1 && (c) <= 0xfe)

/*
 * SJIS code of each EUC_JP 0x8F code whose first byte is below 0xF5, indexed
 * by (byte1 - 0xA1) * EUC_CELLS + (byte2 - 0xA1); 0 where the built-in
 * conversion writes SJIS_DIRECT_SJIS_ALT.  Filled by SjisDirectInitTables.
 */
static uint16 euc3_to_sjis[EUC_CELLS * EUC_CELLS];

/*
 * JIS X 0208 by table, so that no branch depends on the parity of a row
 * (which the branch predictor cannot guess in running text).  Filled by
 * SjisDirectInitTables; 0 marks a byte that is not valid in that place.
 *
 *	euc_lead_sjis[c1]			SJIS lead byte of EUC_JP lead byte c1
 *	euc_trail_sjis[c1 & 1][c2]	SJIS trail byte of EUC_JP bytes c1, c2
 *	sjis_lead_euc[c1]			EUC_JP lead byte of SJIS lead c1 (rows 0x81-0xEA,
 *								even rows; the odd one is one more)
 *	sjis_trail_euc[c2]			EUC_JP trail byte of SJIS trail byte c2
 */
static uint8 euc_lead_sjis[256];
static uint8 euc_trail_sjis[2][256];
static uint8 sjis_lead_euc[256];
static uint8 sjis_trail_euc[256];

/*
 * Lead byte of the SJIS code for EUC_JP lead byte c1 (JIS X 0208, 0xA1-0xFE;
 * rows 0xF5-0xFE are user-defined area 1, SJIS 0xF0-0xF4).
 */
#define EUC_TO_SJIS_LEAD(c1) \
	((((c1) - 0xa1) >> 1) + ((c1) < 0xdf ? 0x81 : (c1) < 0xf5 ? 0xc1 : 0xc6))

/* Trail byte of the SJIS code for EUC_JP bytes c1, c2. */
#define EUC_TO_SJIS_TRAIL(c1, c2) \
	((c2) - (((c1) & 1) ? ((c2) < 0xe0 ? 0x61 : 0x60) : 2))

/* Trail byte of the EUC_JP code for SJIS trail byte c2. */
#define SJIS_TO_EUC_TRAIL(c2) \
	((c2) + ((c2) > 0x9e ? 2 : 0x60) + ((c2) < 0x80))

/*
 * Fill euc3_to_sjis from the IBM extension rows of sjis_ext_to_euc.
 *
 * The built-in conversion scans its table in SJIS order and takes the first
 * entry whose EUC code matches in its low 16 bits; walking the rows in the
 * same order and keeping the first hit gives the same answer.
 */
void
SjisDirectInitTables(void)
{
	int			row;
	int			t;
	int			c;

	for (c = 0xa1; c <= 0xfe; c++)
	{
		euc_lead_sjis[c] = EUC_TO_SJIS_LEAD(c);
		for (t = 0xa1; t <= 0xfe; t++)
			euc_trail_sjis[c & 1][t] = EUC_TO_SJIS_TRAIL(c, t);
	}
	for (c = 0x81; c <= 0xea; c++)
		if (ISSJISHEAD(c))
			sjis_lead_euc[c] = ((c & 0x3f) << 1) + 0x9f;
	for (c = 0x40; c <= 0xfc; c++)
		if (ISSJISTAIL(c))
			sjis_trail_euc[c] = SJIS_TO_EUC_TRAIL(c);

	memset(euc3_to_sjis, 0, sizeof(euc3_to_sjis));
	for (row = SJIS_EXT_FIRST_IBM_ROW; row < SJIS_EXT_ROWS; row++)
	{
		for (t = 0; t < SJIS_EXT_TAILS; t++)
		{
			uint32		euc = sjis_ext_to_euc[row][t];
			int			e1 = (euc >> 8) & 0xff;
			int			e2 = euc & 0xff;
			int			cell;

			if (euc == 0 || euc == SJIS_DIRECT_EUC_ALT)
				continue;
			Assert(IS_EUC_BYTE(e1) && e1 < 0xf5 && IS_EUC_BYTE(e2));
			cell = (e1 - 0xa1) * EUC_CELLS + (e2 - 0xa1);
			if (euc3_to_sjis[cell] == 0)
				euc3_to_sjis[cell] =
					((0xfa + row - SJIS_EXT_FIRST_IBM_ROW) << 8) | (0x40 + t);
		}
	}
}

/*
 * Return how many of the 8 bytes at s, in memory order, precede the first
 * byte that is NUL or has its high bit set (8 if there is none).
 *
 * The caller must have 8 readable bytes at s.  The NUL test
 * ((w - 0x01..) & ~w & 0x80..) is exact up to and including the first NUL
 * byte; a borrow can only flag bytes of higher significance, which on a
 * big-endian machine are earlier bytes of value 0x01: the caller then stops
 * early and takes such a byte one at a time, which is still correct.
 */
static inline int
ascii_prefix(const unsigned char *s)
{
	uint64		w;
	uint64		bad;

	memcpy(&w, s, sizeof(w));
	bad = (((w - UINT64CONST(0x0101010101010101)) & ~w) | w) &
		UINT64CONST(0x8080808080808080);
	if (bad == 0)
		return 8;
#ifdef WORDS_BIGENDIAN
	return (63 - pg_leftmost_one_pos64(bad)) / 8;
#else
	return pg_rightmost_one_pos64(bad) / 8;
#endif
}

/*
 * Copy the ASCII characters at the start of src (len bytes) to p and return
 * how many were copied: up to the first NUL or high-bit byte, a word at a
 * time while 8 bytes remain (then possibly up to 8 bytes written, for 1 to 8
 * copied: p must have room, as the contract in sjis_direct.h guarantees,
 * since the output is never ahead of the input by more than a factor 2).
 * Returns 0 if the first byte is NUL.
 */
static inline int
copy_ascii(const unsigned char *src, unsigned char *p, int len)
{
	int			n = 0;

	if (len >= 8)
	{
		n = ascii_prefix(src);
		if (n > 0)
		{
			memcpy(p, src, 8);
			return n;
		}
	}
	while (n < len && src[n] != 0 && !IS_HIGHBIT_SET(src[n]))
	{
		p[n] = src[n];
		n++;
	}
	return n;
}

/*
 * Convert len bytes of EUC_JP at euc to SJIS at p; see sjis_direct.h for the
 * contract.  Sets *outlen to the number of bytes written before the final
 * NUL and returns the number of source bytes converted.
 */
int
SjisDirectEucJpToSjis(const unsigned char *euc, unsigned char *p, int len,
					  bool noError, int *outlen)
{
	const unsigned char *start = euc;
	unsigned char *pstart = p;

	while (len > 0)
	{
		int			c1 = euc[0];
		int			c2;

		if (!IS_HIGHBIT_SET(c1))
		{
			int			n = copy_ascii(euc, p, len);

			if (n == 0)
				break;			/* NUL */
			p += n;
			euc += n;
			len -= n;
		}
		else if (c1 >= 0xa1)
		{
			/* JIS X 0208, user-defined area 1 in rows 0xF5-0xFE */
			int			s1;
			int			s2;

			if (len < 2)
				break;
			s1 = euc_lead_sjis[c1];
			s2 = euc_trail_sjis[c1 & 1][euc[1]];
			if ((s1 == 0) | (s2 == 0))
				break;			/* lead 0xFF, or a bad trail byte */
			p[0] = s1;
			p[1] = s2;
			p += 2;
			euc += 2;
			len -= 2;
		}
		else if (c1 == SS2)
		{
			/* JIS X 0201 half-width katakana: the second byte as is */
			if (len < 2 || euc[1] < 0xa1 || euc[1] > 0xdf)
				break;
			*p++ = euc[1];
			euc += 2;
			len -= 2;
		}
		else if (c1 == SS3)
		{
			/* JIS X 0212 */
			if (len < 3 || !IS_EUC_BYTE(euc[1]) || !IS_EUC_BYTE(euc[2]))
				break;
			c1 = euc[1];
			c2 = euc[2];
			if (c1 >= 0xf5)
			{
				/* user-defined area 2, SJIS 0xF5-0xF9 */
				p[0] = ((c1 - 0xf5) >> 1) + 0xf5;
				p[1] = EUC_TO_SJIS_TRAIL(c1, c2);
			}
			else
			{
				/* IBM extensions, or the substitute */
				int			s = euc3_to_sjis[(c1 - 0xa1) * EUC_CELLS + (c2 - 0xa1)];

				if (s == 0)
					s = SJIS_DIRECT_SJIS_ALT;
				p[0] = s >> 8;
				p[1] = s & 0xff;
			}
			p += 2;
			euc += 3;
			len -= 3;
		}
		else
			break;				/* 0x80-0x8D, 0x90-0xA0 */
	}

	/* the loop ends early only at an invalid or incomplete character */
	if (len > 0 && !noError)
		report_invalid_encoding(PG_EUC_JP, (const char *) euc, len);
	*p = '\0';
	*outlen = p - pstart;
	return euc - start;
}

/*
 * Convert len bytes of SJIS at sjis to EUC_JP at p; see sjis_direct.h for
 * the contract.  Sets *outlen to the number of bytes written before the
 * final NUL and returns the number of source bytes converted.
 */
int
SjisDirectSjisToEucJp(const unsigned char *sjis, unsigned char *p, int len,
					  bool noError, int *outlen)
{
	const unsigned char *start = sjis;
	unsigned char *pstart = p;

	while (len > 0)
	{
		int			c1 = sjis[0];
		int			c2;
		int			e2;

		if (!IS_HIGHBIT_SET(c1))
		{
			int			n = copy_ascii(sjis, p, len);

			if (n == 0)
				break;			/* NUL */
			p += n;
			sjis += n;
			len -= n;
			continue;
		}
		if (c1 >= 0xa1 && c1 <= 0xdf)
		{
			/* JIS X 0201 half-width katakana */
			p[0] = SS2;
			p[1] = c1;
			p += 2;
			sjis++;
			len--;
			continue;
		}

		/* a two-byte character */
		if (len < 2)
			break;
		c2 = sjis[1];
		e2 = sjis_trail_euc[c2];
		if (e2 == 0)
			break;				/* bad trail byte */

		if (c1 <= 0xea)
		{
			/* JIS X 0208 (including the NEC row 13 symbols) */
			int			e1 = sjis_lead_euc[c1];

			if (e1 == 0)
				break;			/* lead 0x80 or 0xA0 */
			p[0] = e1 + (c2 > 0x9e);
			p[1] = e2;
			p += 2;
		}
		else if (c1 >= 0xf0 && c1 <= 0xf9)
		{
			/*
			 * User-defined areas: 0xF0-0xF4 become JIS X 0208 rows 85-94
			 * (EUC_JP 0xF5A1-0xFEFE), 0xF5-0xF9 JIS X 0212 rows 85-94
			 * (0x8FF5A1-0x8FFEFE).
			 */
			int			u = c1 - 0xf0;

			if (u >= 5)
			{
				*p++ = SS3;
				u -= 5;
			}
			p[0] = (u << 1) + 0xf5 + (c2 > 0x9e);
			p[1] = e2;
			p += 2;
		}
		else if (c1 <= 0xfc)
		{
			/* vendor extension rows 0xEB-0xEF and 0xFA-0xFC */
			uint32		e;

			if (c1 == 0xed || c1 == 0xee)
				e = sjis_ext_to_euc[c1 - 0xed][c2 - 0x40];
			else if (c1 >= 0xfa)
				e = sjis_ext_to_euc[c1 - 0xfa + SJIS_EXT_FIRST_IBM_ROW][c2 - 0x40];
			else
				e = SJIS_DIRECT_EUC_ALT;
			if (e > 0xffff)
				*p++ = SS3;
			p[0] = (e >> 8) & 0xff;
			p[1] = e & 0xff;
			p += 2;
		}
		else
			break;				/* lead 0xFD-0xFF */
		sjis += 2;
		len -= 2;
	}

	/* the loop ends early only at an invalid or incomplete character */
	if (len > 0 && !noError)
		report_invalid_encoding(PG_SJIS, (const char *) sjis, len);
	*p = '\0';
	*outlen = p - pstart;
	return sjis - start;
}
