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

#include "pax_encoding.h"
#include "pax_page.h"
#include "pax_hio.h"

/* pax_encode.c */
extern bool pax_encode_minipages;
extern bool pax_bitpack_minipages;
extern int	PaxRowsRange(const PaxRow *rows, int nrows, int i, int attlen,
						 int64 *lo, int64 *hi);
extern double PaxChooseEncodings(TupleDesc tupdesc, const PaxRow *rows,
								 int nrows, const PaxRelCache *hints,
								 int perpage, double pack, bool eager,
								 bool updatable, PaxPageShape *shape);
extern void PaxShapeRoomy(TupleDesc tupdesc, const PaxRow *rows, int nrows,
						  PaxPageShape *shape);

/* pax_dict.c */
extern bool PaxStoredForm(Form_pg_attribute att, Datum value,
						  const char **bytes, Size *len, bool *hdr1);
extern bool PaxStoredIs(Page page, uint16 off, const char *bytes, Size len,
						bool hdr1);
extern int	PaxDictFind(Page page, const PaxColumnLayout *col,
						Form_pg_attribute att, Datum value);
extern void PaxShapeEncode(TupleDesc tupdesc, PaxPageShape *shape);
extern double PaxChooseDictionary(TupleDesc tupdesc, const PaxRow *rows,
								  int nrows, int i, bool packed,
								  PaxPageShape *shape);
extern double PaxHintDictionary(TupleDesc tupdesc, const PaxEncodeHint *h,
								int i, PaxPageShape *shape);

/* pax_hints.c */
extern bool PaxZoneUseless(Form_pg_attribute att, const PaxEncodeHint *h,
						   const PaxRow *rows, int nrows, int i);
extern void PaxEncodeHintsUpdate(TupleDesc tupdesc, const PaxRow *rows,
								 int nrows, bool all_only,
								 PaxRelCache *hints);

#endif							/* PAX_ENCODE_H */
