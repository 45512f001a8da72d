/*-------------------------------------------------------------------------
 *
 * sjis_harness.c
 *	  Standalone harness for the sjis_direct conversion workers, meant to run
 *	  under valgrind memcheck (make -C sjis_direct valgrind-check).
 *
 * Every input is copied into a malloc'd block of exactly its length, not
 * terminated, and every output goes to a block of exactly
 * len * MAX_CONVERSION_GROWTH + 1 bytes, the size the conversion contract
 * promises: memcheck reports any read past the input or write past the
 * output.  The harness itself checks the contract's other promises (bytes
 * converted within the input, output NUL-terminated within the buffer) and
 * that noError and error mode agree on where the input goes bad.
 *
 * Inputs: every input of one and two bytes, every 0x8F-led input of three,
 * every valid character of both encodings strung together, and random
 * strings biased towards the interesting bytes.
 *
 * report_invalid_encoding, the one backend function the workers call, is
 * replaced by a stub that jumps back into the harness.
 *
 * sjis_direct/test/sjis_harness.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <setjmp.h>

#include "mb/pg_wchar.h"

#include "sjis_direct.h"

/* the C library's, not libpgport's: the harness links no PostgreSQL library */
#undef printf
#undef fprintf

typedef int (*Worker) (const unsigned char *, unsigned char *, int, bool, int *);

static sigjmp_buf error_jump;
static const char *error_at;
static long conversions;
static long failures;

/*
 * Stub for the backend's report_invalid_encoding: remember where the error
 * was reported and jump back.
 */
void
report_invalid_encoding(int encoding, const char *mbstr, int len)
{
	error_at = mbstr;
	siglongjmp(error_jump, 1);
}

/*
 * Convert one input in both modes, in exact-size buffers, and check that
 * error mode fails exactly where noError mode stops.
 */
static void
run(Worker worker, const char *name, const unsigned char *input, int len)
{
	unsigned char *src = malloc(Max(len, 1));
	unsigned char *dest = malloc((size_t) len * MAX_CONVERSION_GROWTH + 1);
	int			converted;
	int			outlen;
	volatile int failed_at = -1;

	memcpy(src, input, len);
	conversions++;

	converted = worker(src, dest, len, true, &outlen);
	if (converted < 0 || converted > len ||
		outlen < 0 || outlen > len * MAX_CONVERSION_GROWTH || dest[outlen] != '\0')
	{
		fprintf(stderr, "%s: bad result %d/%d for %d bytes\n",
				name, converted, outlen, len);
		failures++;
	}

	if (sigsetjmp(error_jump, 0) == 0)
		(void) worker(src, dest, len, false, &outlen);
	else
		failed_at = error_at - (const char *) src;

	if ((converted < len && failed_at != converted) ||
		(converted == len && failed_at != -1))
	{
		fprintf(stderr, "%s: noError stopped at %d, error raised at %d (%d bytes)\n",
				name, converted, failed_at, len);
		failures++;
	}

	free(src);
	free(dest);
}

/*
 * Run both workers on every input of n bytes with the given prefix
 * (prefixlen bytes, then n - prefixlen varying bytes).
 */
static void
run_all(const unsigned char *prefix, int prefixlen, int n)
{
	unsigned char buf[3];
	long		count = 1L << (8 * (n - prefixlen));
	long		i;
	int			j;

	memcpy(buf, prefix, prefixlen);
	for (i = 0; i < count; i++)
	{
		for (j = prefixlen; j < n; j++)
			buf[j] = (i >> (8 * (n - 1 - j))) & 0xff;
		run(SjisDirectEucJpToSjis, "euc_jp2sjis", buf, n);
		run(SjisDirectSjisToEucJp, "sjis2euc_jp", buf, n);
	}
}

/*
 * A random byte: ASCII, NUL, or a byte of interest to one encoding's rules.
 */
static unsigned char
random_byte(void)
{
	static const unsigned char special[] = {
		0x00, 0x3f, 0x40, 0x7e, 0x7f, 0x80, 0x81, 0x8e, 0x8f, 0x9e, 0x9f,
		0xa0, 0xa1, 0xdf, 0xe0, 0xea, 0xeb, 0xed, 0xee, 0xef, 0xf0, 0xf4,
		0xf5, 0xf9, 0xfa, 0xfc, 0xfd, 0xfe, 0xff
	};
	int			r = random() % 4;

	if (r == 0)
		return special[random() % sizeof(special)];
	if (r == 1)
		return 0x80 + random() % 0x80;
	return 0x20 + random() % 0x5f;
}

int
main(void)
{
	static const unsigned char ss3[] = {0x8f};
	unsigned char *all;
	int			n = 0;
	int			c1,
				c2;
	long		i;
	int			j;

	SjisDirectInitTables();

	/* every input of one and two bytes, every 0x8F-led input of three */
	run_all(NULL, 0, 1);
	run_all(NULL, 0, 2);
	run_all(ss3, 1, 3);

	/* every valid EUC_JP character in one string, with ASCII between */
	all = malloc(200000);
	for (c1 = 0xa1; c1 <= 0xfe; c1++)
		for (c2 = 0xa1; c2 <= 0xfe; c2++)
		{
			all[n++] = c1;
			all[n++] = c2;
			all[n++] = 0x8f;
			all[n++] = c1;
			all[n++] = c2;
			for (j = 0; j < (c1 + c2) % 11; j++)
				all[n++] = 'a' + j;
		}
	for (c2 = 0xa1; c2 <= 0xdf; c2++)
	{
		all[n++] = 0x8e;
		all[n++] = c2;
	}
	run(SjisDirectEucJpToSjis, "euc_jp2sjis (all)", all, n);

	/* every valid SJIS character in one string, with ASCII between */
	n = 0;
	for (c1 = 0x81; c1 <= 0xfc; c1++)
	{
		if (c1 > 0x9f && c1 < 0xe0)
			continue;
		for (c2 = 0x40; c2 <= 0xfc; c2++)
		{
			if (c2 == 0x7f)
				continue;
			all[n++] = c1;
			all[n++] = c2;
			for (j = 0; j < (c1 + c2) % 11; j++)
				all[n++] = 'A' + j;
		}
	}
	for (c1 = 0xa1; c1 <= 0xdf; c1++)
		all[n++] = c1;
	run(SjisDirectSjisToEucJp, "sjis2euc_jp (all)", all, n);

	/* random strings of 0 to 40 bytes */
	srandom(20240615);
	for (i = 0; i < 200000; i++)
	{
		int			len = random() % 41;

		for (j = 0; j < len; j++)
			all[j] = random_byte();
		run(SjisDirectEucJpToSjis, "euc_jp2sjis (random)", all, len);
		run(SjisDirectSjisToEucJp, "sjis2euc_jp (random)", all, len);
	}
	free(all);

	printf("%ld conversions, %ld failures\n", conversions, failures);
	return failures == 0 ? 0 : 1;
}
