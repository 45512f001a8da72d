/*-------------------------------------------------------------------------
 *
 * pax_numeric.h
 *	  Fast numeric of PaxScan's aggregate mode (pax_numeric.c): scaled
 *	  128-bit integers, expressions of +, - and *, exact sums.
 *
 * Only where the compiler has a 128-bit integer (PAX_HAVE_FAST_NUMERIC);
 * elsewhere the aggregate mode does not take numeric aggregates.
 *
 * pax_am/pax_numeric.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_NUMERIC_H
#define PAX_NUMERIC_H

#include "nodes/primnodes.h"

#ifdef HAVE_INT128
#define PAX_HAVE_FAST_NUMERIC 1

typedef enum PaxNumOp
{
	PAX_NUM_COLUMN,
	PAX_NUM_CONST,
	PAX_NUM_ADD,
	PAX_NUM_SUB,
	PAX_NUM_MUL
} PaxNumOp;

typedef enum PaxNumResult
{
	PAX_NUM_OK,					/* (v, scale) computed */
	PAX_NUM_NULL,				/* an operand is NULL */
	PAX_NUM_SLOW				/* compute it with numeric functions */
} PaxNumResult;

/*
 * One numeric column's values of a page's selected rows, parsed: status
 * (a PaxNumResult), and value and scale where it is PAX_NUM_OK.
 */
typedef struct PaxNumColumn
{
	int128	   *v;
	int		   *scale;
	uint8	   *status;
} PaxNumColumn;

/* A node of a numeric expression's evaluation tree. */
typedef struct PaxNumExpr
{
	PaxNumOp	op;
	int			attno;			/* PAX_NUM_COLUMN: zero-based column */
	int			col;			/* PAX_NUM_COLUMN: its PaxNumColumn */
	Datum		value;			/* PAX_NUM_CONST: the numeric */
	bool		fast;			/* PAX_NUM_CONST: v and scale hold it */
	int128		v;
	int			scale;
	struct PaxNumExpr *left;
	struct PaxNumExpr *right;
	PaxNumColumn out;			/* constants and operators: values per row */
} PaxNumExpr;

/*
 * A sum of numerics: a fast part (v at scale, the largest scale of its
 * inputs) and a slow part (a numeric Datum) for what did not fit.
 */
typedef struct PaxNumSum
{
	bool		has_fast;
	bool		has_slow;
	int			scale;
	int128		v;
	Datum		slow;
} PaxNumSum;

extern bool PaxNumExprSupported(Node *expr, Index varno);
extern PaxNumExpr *PaxNumCompile(Node *expr, int *cols, int *ncols);
extern PaxNumResult PaxNumParseDatum(Datum d, bool isnull, int128 *v,
									 int *scale);
extern const PaxNumColumn *PaxNumEvalPage(const PaxNumExpr *e,
										  const PaxNumColumn *cols, int n);
extern Datum PaxNumEvalSlow(const PaxNumExpr *e, const Datum *values,
							const bool *isnull, bool *resnull);
extern void PaxNumSumAddRescale(PaxNumSum *sum, int128 v, int scale,
								MemoryContext mcxt);
extern void PaxNumSumAddSlow(PaxNumSum *sum, Datum value, MemoryContext mcxt);
extern Datum PaxNumSumResult(PaxNumSum *sum, int64 count, bool avg,
							 bool *isnull);

/*
 * PaxNumSumAdd adds (v, scale) to a sum: inline when the scales agree and
 * nothing overflows, the usual case for a column of one declared scale.
 */
static inline void
PaxNumSumAdd(PaxNumSum *sum, int128 v, int scale, MemoryContext mcxt)
{
	int128		r;

	if (sum->has_fast && scale == sum->scale &&
		!__builtin_add_overflow(sum->v, v, &r))
	{
		sum->v = r;
		return;
	}
	PaxNumSumAddRescale(sum, v, scale, mcxt);
}

#endif							/* HAVE_INT128 */

#endif							/* PAX_NUMERIC_H */
