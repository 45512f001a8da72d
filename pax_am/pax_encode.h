/*-------------------------------------------------------------------------
 *
 * pax_encode.h
 *	  Choosing and storing the encodings of new pax pages.
 *
 * A page built from a batch of rows gets the encodings (pax_encoding.h)
 * that make its rows smallest, chosen from the rows and the relation's
 * hints (PaxRelCache); a row placed later on the page must fit them.
 *
 * pax_am/pax_encode.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_ENCODE_H
#define PAX_ENCODE_H

#include "pax_hio.h"
#include "pax_page.h"

/* pax_encode.c */
extern bool pax_encode_minipages;
extern bool pax_bitpack_minipages;
extern char *PaxDecodeScratch;
extern void PaxPackedColumnStats(Page page, const PaxColumnLayout *col,
								 int nrows, int64 *sum, int64 *lo, int64 *hi);
extern int	PaxPackedFilterRange(Page page, const PaxColumnLayout *col,
								 uint64 lo, uint64 hi, uint16 *sel, int n);
extern const char *PaxColumnOffsets(Page page, const PaxColumnLayout *col,
									const uint16 *sel, int n, char *scratch,
									int *width);
extern const char *PaxColumnFixedData(Page page, const PaxColumnLayout *col,
									  int nrows, char *scratch);
extern bool PaxEncodeEligible(Form_pg_attribute att);
extern bool PaxScaleEligible(Form_pg_attribute att);
extern bool PaxEncodedFits(Page page, const PaxColumnLayout *col, Datum value);
extern void PaxEncodedStore(Page page, const PaxColumnLayout *col, int row,
							Datum value);
extern int	PaxDictFind(Page page, const PaxColumnLayout *col,
						Form_pg_attribute att, Datum value);
extern double PaxChooseEncodings(TupleDesc tupdesc, const PaxRow *rows,
								 int nrows, const PaxRelCache *hints,
								 int perpage, double pack, bool eager,
								 PaxPageShape *shape);
extern bool PaxZoneUseless(Form_pg_attribute att, const PaxEncodeHint *h,
						   const PaxRow *rows, int nrows, int i);
extern void PaxEncodeHintsUpdate(TupleDesc tupdesc, const PaxRow *rows,
								 int nrows, bool all_only,
								 PaxRelCache *hints);

#endif							/* PAX_ENCODE_H */
