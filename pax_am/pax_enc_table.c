/*-------------------------------------------------------------------------
 *
 * pax_enc_table.c
 *	  The table of encodings: which family file does what for each.
 *
 * Every encoding's per-column, per-page operations (PaxEncodingOps) are
 * defined in the file of its family (pax_enc_int.c, pax_enc_var.c), which
 * gives them for its encodings (PaxEncIntOps, PaxEncVarOps); this file
 * asks each family, so that the families depend on nothing but
 * pax_encoding.h and the code that lays out, initialises, verifies or
 * describes a column reaches any encoding through PaxEncodingOpsOf.
 *
 * pax_am/pax_enc_table.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pax_encoding.h"

/*
 * PaxEncodingOpsOf is what encoding enc does per column per page, from the
 * file of its family.
 */
const PaxEncodingOps *
PaxEncodingOpsOf(PaxEncoding enc)
{
	const PaxEncodingOps *ops = PaxEncIntOps(enc);

	if (ops == NULL)
		ops = PaxEncVarOps(enc);
	if (ops == NULL)
		ops = PaxEncIntOps(PAX_ENC_INVALID);
	return ops;
}

/*
 * PaxBaseBytes is the size of a column's slot in the base array, from its
 * width byte (0: not encoded).
 */
int
PaxBaseBytes(uint8 width)
{
	/* a pure function of the byte, asked for each column of each page read */
	static int16 memo[256];
	static bool filled = false;

	if (unlikely(!filled))
	{
		for (int w = 0; w < 256; w++)
			memo[w] = PaxEncodingOpsOf(PaxEncodingOf((uint8) w, NULL))->slotbytes((uint8) w);
		filled = true;
	}
	return memo[width];
}
