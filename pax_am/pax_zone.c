/*-------------------------------------------------------------------------
 *
 * pax_zone.c
 *	  Zone maps of pax pages: the least and greatest value of a column.
 *
 * A page built from rows keeps, for each column of a pass-by-value type\nwith a zone map, the least and greatest non-null value of its rows\n(PaxZone); PaxScan skips pages whose zone maps exclude its predicates.
 *
 * pax_am/pax_zone.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupdesc_details.h"
#include "access/tupmacs.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "port/pg_bitutils.h"
#include "storage/buf_internals.h"
#include "storage/procarray.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "pax_encoding.h"
#include "pax_page.h"

/* ----------------------------------------------------------------
 * Zone maps
 * ----------------------------------------------------------------
 */

/*
 * PaxZoneEligible tells whether a column gets a zone map: pass-by-value
 * types with a total order we compare inline.
 */
bool
PaxZoneEligible(Form_pg_attribute att)
{
	if (att->attisdropped || !att->attbyval)
		return false;
	switch (att->atttypid)
	{
		case BOOLOID:
		case CHAROID:
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
		case FLOAT4OID:
		case FLOAT8OID:
		case DATEOID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return true;
		default:
			return false;
	}
}

/*
 * PaxZoneNumber is a value of a zone-eligible type as a double, in the
 * type's order (NaN for a float NaN): how much of a column's range a
 * page's values span (PaxZoneUseless) is measured on it.
 */
double
PaxZoneNumber(Form_pg_attribute att, Datum v)
{
	switch (att->atttypid)
	{
		case BOOLOID:
			return DatumGetBool(v) ? 1 : 0;
		case CHAROID:
			return (double) (signed char) DatumGetChar(v);
		case INT2OID:
			return DatumGetInt16(v);
		case INT4OID:
		case DATEOID:
			return DatumGetInt32(v);
		case OIDOID:
			return DatumGetObjectId(v);
		case FLOAT4OID:
			return DatumGetFloat4(v);
		case FLOAT8OID:
			return DatumGetFloat8(v);
		default:				/* time, timestamp, timestamptz, int8 */
			return (double) DatumGetInt64(v);
	}
}

/*
 * PaxZoneCompare compares two values of a zone-eligible type as its btree
 * operator class does (NaN sorts above every other float): adapted from
 * the types' btree comparison functions (btint2cmp() ... in nbtcompare.c,
 * float4_cmp_internal() and float8_cmp_internal() in float.c, PostgreSQL
 * 15).
 */
static inline int
PaxZoneCompare(Oid typid, Datum a, Datum b)
{
	switch (typid)
	{
		case BOOLOID:
			return (int) DatumGetBool(a) - (int) DatumGetBool(b);
		case CHAROID:
			return (int) (uint8) DatumGetChar(a) - (int) (uint8) DatumGetChar(b);
		case INT2OID:
			return (int) DatumGetInt16(a) - (int) DatumGetInt16(b);
		case INT4OID:
		case DATEOID:
			return DatumGetInt32(a) < DatumGetInt32(b) ? -1 :
				DatumGetInt32(a) > DatumGetInt32(b);
		case OIDOID:
			return DatumGetObjectId(a) < DatumGetObjectId(b) ? -1 :
				DatumGetObjectId(a) > DatumGetObjectId(b);
		case INT8OID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return DatumGetInt64(a) < DatumGetInt64(b) ? -1 :
				DatumGetInt64(a) > DatumGetInt64(b);
		case FLOAT4OID:
			return float4_cmp_internal(DatumGetFloat4(a), DatumGetFloat4(b));
		case FLOAT8OID:
			return float8_cmp_internal(DatumGetFloat8(a), DatumGetFloat8(b));
	}
	elog(ERROR, "type %u has no pax zone map", typid);
	return 0;					/* keep compiler quiet */
}

/*
 * PaxZoneUpdate widens a column's zone map to cover a new non-null value.
 * The caller holds an exclusive lock on the page (or a private copy).
 */
void
PaxZoneUpdate(Page page, const PaxPageLayout *layout, Form_pg_attribute att,
			  int attnum, Datum value)
{
	PaxZone    *zone;
	bits8	   *zoneset = PaxPageGetDirMap(page, PAX_DIR_ZONESET);

	Assert(PaxZoneEligible(att));
	Assert(layout->cols[attnum].zone >= 0 &&
		   layout->cols[attnum].zone < layout->nzones);
	zone = (PaxZone *) (page + layout->zones) + layout->cols[attnum].zone;
	if (!PaxBitIsSet(zoneset, attnum))
	{
		zone->min = zone->max = PaxZoneBound(value);
		PaxBitSet(zoneset, attnum);
		return;
	}
	if (PaxZoneCompare(att->atttypid, value, PaxZoneDatum(zone->min)) < 0)
		zone->min = PaxZoneBound(value);
	else if (PaxZoneCompare(att->atttypid, value, PaxZoneDatum(zone->max)) > 0)
		zone->max = PaxZoneBound(value);
}

/*
 * PaxZoneUpdateRows widens a column's zone map to cover the non-null
 * values of column attnum of rows[0..nrows), compared a column at a time
 * (the rows a bulk insert placed on the page) rather than as each row is
 * stored: the least and greatest of them, found with the type's
 * comparison hoisted out of the loop, go through PaxZoneUpdate.
 */
void
PaxZoneUpdateRows(Page page, const PaxPageLayout *layout,
				  Form_pg_attribute att, int attnum, const PaxRow *rows,
				  int nrows)
{
	int			k = 0;
	Datum		lo,
				hi;

	while (k < nrows && rows[k].isnull[attnum])
		k++;
	if (k == nrows)
		return;
	lo = hi = rows[k].values[attnum];

#define PAX_ZONE_SCAN(T, GET) \
	do { \
		T			tlo = GET(lo), \
					thi = GET(hi); \
		\
		for (k++; k < nrows; k++) \
		{ \
			T			v; \
			\
			if (rows[k].isnull[attnum]) \
				continue; \
			v = GET(rows[k].values[attnum]); \
			if (v < tlo) \
				tlo = v, lo = rows[k].values[attnum]; \
			else if (v > thi) \
				thi = v, hi = rows[k].values[attnum]; \
		} \
	} while (0)

	switch (att->atttypid)
	{
		case INT2OID:
			PAX_ZONE_SCAN(int16, DatumGetInt16);
			break;
		case INT4OID:
		case DATEOID:
			PAX_ZONE_SCAN(int32, DatumGetInt32);
			break;
		case INT8OID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			PAX_ZONE_SCAN(int64, DatumGetInt64);
			break;
		default:
			for (k++; k < nrows; k++)
			{
				Datum		v = rows[k].values[attnum];

				if (rows[k].isnull[attnum])
					continue;
				if (PaxZoneCompare(att->atttypid, v, lo) < 0)
					lo = v;
				else if (PaxZoneCompare(att->atttypid, v, hi) > 0)
					hi = v;
			}
			break;
	}
#undef PAX_ZONE_SCAN
	PaxZoneUpdate(page, layout, att, attnum, lo);
	if (hi != lo)				/* one row's value (single inserts): once */
		PaxZoneUpdate(page, layout, att, attnum, hi);
}
