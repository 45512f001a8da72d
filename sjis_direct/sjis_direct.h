/*-------------------------------------------------------------------------
 *
 * sjis_direct.h
 *	  Declarations shared by the sjis_direct conversion workers and the
 *	  SQL-callable functions.
 *
 * The workers follow the contract of PostgreSQL 14+ conversion functions:
 * "len" bytes of source, which need not be NUL-terminated, are converted into
 * a destination buffer of at least len * MAX_CONVERSION_GROWTH + 1 bytes, and
 * the result is NUL-terminated.  With noError, conversion stops before the
 * first invalid or incomplete character instead of raising an error; the
 * return value is always the number of source bytes converted.
 *
 * sjis_direct/sjis_direct.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SJIS_DIRECT_H
#define SJIS_DIRECT_H

/*
 * The substitutes the built-in conversion writes for codes it does not map:
 * GETA MARK in SJIS (0x81AC) and in EUC_JP (0xA2AE).
 */
#define SJIS_DIRECT_SJIS_ALT	0x81ac
#define SJIS_DIRECT_EUC_ALT		0xa2ae

/*
 * Shape of the vendor extension table in sjis_direct_ibm.map: SJIS lead
 * bytes 0xED, 0xEE (NEC-selected IBM extensions) and 0xFA, 0xFB, 0xFC (IBM
 * extensions), each indexed by trail byte - 0x40.
 */
#define SJIS_EXT_ROWS			5
#define SJIS_EXT_TAILS			(0xfc - 0x40 + 1)
#define SJIS_EXT_FIRST_IBM_ROW	2	/* index of lead byte 0xFA */

/* sjis_convert.c */
extern void SjisDirectInitTables(void);
extern int	SjisDirectEucJpToSjis(const unsigned char *euc, unsigned char *p,
								  int len, bool noError, int *outlen);
extern int	SjisDirectSjisToEucJp(const unsigned char *sjis, unsigned char *p,
								  int len, bool noError, int *outlen);

#endif							/* SJIS_DIRECT_H */
