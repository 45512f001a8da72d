/*-------------------------------------------------------------------------
 *
 * sjis_direct.c
 *	  SQL-callable functions of sjis_direct: the two conversion functions,
 *	  their per-backend counters, and a helper that runs any conversion
 *	  function on a bytea.
 *
 * The conversion functions are registered by the extension script with
 * CREATE DEFAULT CONVERSION in schema sjis_direct.  PostgreSQL picks the
 * conversion for a client encoding (PrepareClientEncoding, at connection
 * start and whenever client_encoding is set) with FindDefaultConversionProc,
 * which walks the active search path; pg_catalog's default conversions win
 * unless a schema holding others comes before it.
 *
 * Activation never touches the session's search_path (a schema ahead of
 * pg_catalog there would shadow pg_catalog's functions and operators, and
 * the first schema of the path receives unqualified CREATEs).  Instead,
 * when this library is loaded at session start (session_preload_libraries,
 * which sjis_direct.enable() sets for a database), the session is
 * "activated": every lookup of the conversions between an EUC_JP database
 * and an SJIS client runs with a temporary override search path of just
 * the extension's schema and pg_catalog, for the duration of that lookup
 * only.  That covers the client encoding chosen at connection start
 * (InitializeClientEncoding chose pg_catalog's; we look it up again before
 * InitPostgres commits) and every later SET client_encoding (through a
 * wrapper around the GUC's check hook, which is what calls
 * PrepareClientEncoding).  Name lookup of everything else is untouched.
 * See README.md, "Security model".
 *
 * Counters are plain backend-local variables: each backend counts the calls
 * it makes, nothing is shared, so there is nothing to lock.
 *
 * sjis_direct/sjis_direct.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#include "sjis_direct.h"

#ifdef PG_MODULE_MAGIC_EXT
PG_MODULE_MAGIC_EXT(.name = "sjis_direct", .version = "1.0");
#else
PG_MODULE_MAGIC;
#endif

/* which counter: one per direction */
typedef enum SjisDirectDirection
{
	SJIS_DIRECT_EUC_JP_TO_SJIS,
	SJIS_DIRECT_SJIS_TO_EUC_JP,
	SJIS_DIRECT_NUM_DIRECTIONS
} SjisDirectDirection;

typedef struct SjisDirectCounters
{
	int64		calls;			/* calls of the conversion function */
	int64		bytes_in;		/* source bytes converted */
	int64		bytes_out;		/* bytes written, without the final NUL */
} SjisDirectCounters;

static SjisDirectCounters counters[SJIS_DIRECT_NUM_DIRECTIONS];

/* the encodings of each direction, source first */
static const int direction_encodings[SJIS_DIRECT_NUM_DIRECTIONS][2] = {
	{PG_EUC_JP, PG_SJIS},
	{PG_SJIS, PG_EUC_JP}
};

#define SJIS_DIRECT_STATUS_COLS 7

PG_FUNCTION_INFO_V1(sjis_direct_euc_jp_to_sjis);
PG_FUNCTION_INFO_V1(sjis_direct_sjis_to_euc_jp);

/* the conversion function of each direction */
static const PGFunction direction_functions[SJIS_DIRECT_NUM_DIRECTIONS] = {
	sjis_direct_euc_jp_to_sjis,
	sjis_direct_sjis_to_euc_jp
};
PG_FUNCTION_INFO_V1(sjis_direct_status);
PG_FUNCTION_INFO_V1(sjis_direct_reset);
PG_FUNCTION_INFO_V1(sjis_direct_convert_with);

/* set once this session has been activated (library loaded at start) */
static bool session_activated = false;

/* the check hook of client_encoding our wrapper calls */
static GucStringCheckHook prev_check_client_encoding = NULL;

/* the client encoding chosen at connection start is to be looked up again */
static bool startup_lookup_pending = false;

void		_PG_init(void);

static Oid	SjisDirectSchema(void);
static bool SjisDirectAppliesTo(int client_encoding);
static int	SjisDirectPushLookupPath(Oid nspid);
static void SjisDirectPopLookupPath(int level);
static bool sjis_direct_check_client_encoding(char **newval, void **extra,
											  GucSource source);
static void SjisDirectActivateSession(void);
static void sjis_direct_xact_callback(XactEvent event, void *arg);

/*
 * Module load: build the lookup table for JIS X 0212 codes, and activate the
 * session if the library is being loaded at session start.
 *
 * InitPostgres loads session_preload_libraries (and local_preload_libraries)
 * inside its transaction, after the client encoding has been settled and
 * before the backend leaves InitProcessing mode.  Any other load happens
 * outside a transaction (shared_preload_libraries, in the postmaster) or in
 * normal processing mode (LOAD, the first call of one of our functions,
 * parallel workers restoring their leader's libraries): those do not
 * activate anything, so that merely calling sjis_direct.status() does not
 * change which conversion a session uses.
 */
void
_PG_init(void)
{
	SjisDirectInitTables();

	if (IsInitProcessingMode() && IsTransactionState() &&
		OidIsValid(MyDatabaseId))
		SjisDirectActivateSession();
}

/*
 * SjisDirectSchema returns the schema the extension sjis_direct is installed
 * in in this database, or InvalidOid if it is not installed.  The caller
 * must be in a transaction.
 *
 * This is the schema CREATE EXTENSION recorded, never one found by name:
 * the install script refused a pre-existing schema a non-superuser could
 * write to, and the extension cannot be moved (relocatable = false).
 */
static Oid
SjisDirectSchema(void)
{
	Relation	rel;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tuple;
	Oid			nspid = InvalidOid;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("sjis_direct"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		nspid = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);

	return nspid;
}

/*
 * SjisDirectAppliesTo says whether our conversions are the ones a client of
 * this encoding needs: an SJIS client of an EUC_JP database.  (SJIS is a
 * client-only encoding, so the reverse cannot happen.)
 */
static bool
SjisDirectAppliesTo(int client_encoding)
{
	return client_encoding == PG_SJIS && GetDatabaseEncoding() == PG_EUC_JP;
}

/*
 * SjisDirectPushLookupPath makes "nspid, pg_catalog" the active search path
 * until the matching SjisDirectPopLookupPath(level), which the caller must
 * do at the same transaction nesting level, also on error.
 *
 * Until 16 this is an override search path.  17 removed those: the path is
 * then set as the search_path GUC, saved in a GUC nest level of its own
 * (as a function's SET clause is), and restored when the level is popped;
 * pg_temp, which the override path left out, is searched last.
 */
static int
SjisDirectPushLookupPath(Oid nspid)
{
#if PG_VERSION_NUM >= 170000
	int			level = NewGUCNestLevel();
	char	   *path;

	path = psprintf("%s, pg_catalog, pg_temp",
					quote_identifier(get_namespace_name(nspid)));
	(void) set_config_option("search_path", path, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	pfree(path);
	return level;
#else
	OverrideSearchPath path;

	path.schemas = list_make2_oid(nspid, PG_CATALOG_NAMESPACE);
	path.addCatalog = false;
	path.addTemp = false;
	path.generation = 0;
	PushOverrideSearchPath(&path);
	list_free(path.schemas);
	return 0;
#endif
}

/* SjisDirectPopLookupPath restores the search path SjisDirectPushLookupPath replaced. */
static void
SjisDirectPopLookupPath(int level)
{
#if PG_VERSION_NUM >= 170000
	AtEOXact_GUC(true, level);
#else
	(void) level;
	PopOverrideSearchPath();
#endif
}

/*
 * sjis_direct_check_client_encoding wraps client_encoding's check hook
 * (check_client_encoding, which looks the conversions up through
 * PrepareClientEncoding) in an activated session: for an SJIS client of an
 * EUC_JP database in a database where the extension is installed, it runs
 * the hook with our lookup path pushed, so that our conversions are found
 * ahead of pg_catalog's.  Everything else goes straight to the hook.
 *
 * Outside a transaction PrepareClientEncoding cannot look anything up (it
 * reuses what it prepared before, ours included), and neither can we.
 */
static bool
sjis_direct_check_client_encoding(char **newval, void **extra,
								  GucSource source)
{
	Oid			nspid = InvalidOid;
	bool		result;
	int			level;

	if (*newval != NULL && IsTransactionState() &&
		SjisDirectAppliesTo(pg_valid_client_encoding(*newval)))
		nspid = SjisDirectSchema();

	if (!OidIsValid(nspid))
		return prev_check_client_encoding(newval, extra, source);

	level = SjisDirectPushLookupPath(nspid);
	PG_TRY();
	{
		result = prev_check_client_encoding(newval, extra, source);
	}
	PG_FINALLY();
	{
		SjisDirectPopLookupPath(level);
	}
	PG_END_TRY();

	return result;
}

/*
 * SjisDirectActivateSession wraps client_encoding's check hook, and asks
 * for the conversions of the client encoding chosen at connection start
 * (InitializeClientEncoding, which ran just before the session's libraries
 * were loaded) to be looked up again with our lookup path before InitPostgres
 * commits its transaction.  Not now: looking them up resolves our C
 * functions, which loads this library, which is not registered as loaded
 * until _PG_init returns.
 */
static void
SjisDirectActivateSession(void)
{
#if PG_VERSION_NUM >= 160000
	int			nguc;
	struct config_generic **gucs = get_guc_variables(&nguc);
#else
	struct config_generic **gucs = get_guc_variables();
	int			nguc = GetNumConfigOptions();
#endif
	int			i;

	for (i = 0; i < nguc; i++)
	{
		if (strcmp(gucs[i]->name, "client_encoding") == 0 &&
			gucs[i]->vartype == PGC_STRING)
		{
			struct config_string *conf = (struct config_string *) gucs[i];

			prev_check_client_encoding = conf->check_hook;
			conf->check_hook = sjis_direct_check_client_encoding;
			break;
		}
	}
	if (prev_check_client_encoding == NULL)
		elog(ERROR, "could not find the check hook of client_encoding");
	session_activated = true;

	startup_lookup_pending = true;
	RegisterXactCallback(sjis_direct_xact_callback, NULL);
}

/*
 * sjis_direct_xact_callback does the lookup SjisDirectActivateSession asked
 * for, once, as InitPostgres's transaction is about to commit.  An error
 * here ends the connection, as any error during InitPostgres does: nothing
 * raises one in a healthy database.  (The callback stays registered, as a
 * callback cannot unregister itself; later transactions cost it a test.)
 */
static void
sjis_direct_xact_callback(XactEvent event, void *arg)
{
	int			encoding;
	Oid			nspid;
	int			level;

	if (!startup_lookup_pending)
		return;
	if (event != XACT_EVENT_PRE_COMMIT)
	{
		/* aborted (the connection is ending anyway) */
		startup_lookup_pending = false;
		return;
	}
	startup_lookup_pending = false;

	encoding = pg_get_client_encoding();
	if (!SjisDirectAppliesTo(encoding))
		return;
	nspid = SjisDirectSchema();
	if (!OidIsValid(nspid))
		return;

	level = SjisDirectPushLookupPath(nspid);
	PG_TRY();
	{
		/* on failure the conversion chosen at startup stays in use */
		if (PrepareClientEncoding(encoding) == 0)
			SetClientEncoding(encoding);
	}
	PG_FINALLY();
	{
		SjisDirectPopLookupPath(level);
	}
	PG_END_TRY();
}

/* ----------
 * The conversion functions, with PostgreSQL's signature for them:
 *
 * conv_proc(
 *		INTEGER,	-- source encoding id
 *		INTEGER,	-- destination encoding id
 *		CSTRING,	-- source string (need not be NUL-terminated)
 *		INTERNAL,	-- destination buffer, len * MAX_CONVERSION_GROWTH + 1 bytes
 *		INTEGER,	-- source string length
 *		BOOL		-- if true, don't throw an error if conversion fails
 * ) returns INTEGER;
 *
 * Returns the number of source bytes successfully converted.
 * ----------
 */

/*
 * Run worker on the arguments of a conversion function call for direction d,
 * count the call, and return the number of bytes converted.
 */
static inline Datum
convert_and_count(FunctionCallInfo fcinfo, SjisDirectDirection d,
				  int (*worker) (const unsigned char *, unsigned char *, int,
								 bool, int *))
{
	unsigned char *src = (unsigned char *) PG_GETARG_CSTRING(2);
	unsigned char *dest = (unsigned char *) PG_GETARG_POINTER(3);
	int			len = PG_GETARG_INT32(4);
	bool		noError = PG_GETARG_BOOL(5);
	SjisDirectCounters *c = &counters[d];
	int			converted;
	int			outlen;

	CHECK_ENCODING_CONVERSION_ARGS(direction_encodings[d][0],
								   direction_encodings[d][1]);

	converted = worker(src, dest, len, noError, &outlen);

	c->calls++;
	c->bytes_in += converted;
	c->bytes_out += outlen;

	PG_RETURN_INT32(converted);
}

/*
 * sjis_direct_euc_jp_to_sjis(integer, integer, cstring, internal, integer,
 *							  boolean) RETURNS integer
 */
Datum
sjis_direct_euc_jp_to_sjis(PG_FUNCTION_ARGS)
{
	return convert_and_count(fcinfo, SJIS_DIRECT_EUC_JP_TO_SJIS,
							 SjisDirectEucJpToSjis);
}

/*
 * sjis_direct_sjis_to_euc_jp(integer, integer, cstring, internal, integer,
 *							  boolean) RETURNS integer
 */
Datum
sjis_direct_sjis_to_euc_jp(PG_FUNCTION_ARGS)
{
	return convert_and_count(fcinfo, SJIS_DIRECT_SJIS_TO_EUC_JP,
							 SjisDirectSjisToEucJp);
}

/*
 * sjis_direct.status(OUT source_encoding name, OUT dest_encoding name,
 *					  OUT conversion_proc regproc, OUT uses_sjis_direct boolean,
 *					  OUT calls bigint, OUT bytes_in bigint,
 *					  OUT bytes_out bigint) RETURNS SETOF record
 *
 * One row per direction.  conversion_proc is the function a SET
 * client_encoding = SJIS issued now would choose: in an activated session of
 * an EUC_JP database, the one found with our lookup path (so ours), else
 * what FindDefaultConversionProc finds along the current search_path;
 * uses_sjis_direct says whether it is ours.  The counters are this backend's
 * calls of our functions since it started or since sjis_direct.reset(): they
 * show what the session actually used.
 */
Datum
sjis_direct_status(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			d;

	Oid			nspid = InvalidOid;

	InitMaterializedSRF(fcinfo, 0);
	Assert(rsinfo->setDesc->natts == SJIS_DIRECT_STATUS_COLS);

	if (session_activated && SjisDirectAppliesTo(PG_SJIS))
		nspid = SjisDirectSchema();

	for (d = 0; d < SJIS_DIRECT_NUM_DIRECTIONS; d++)
	{
		Datum		values[SJIS_DIRECT_STATUS_COLS];
		bool		nulls[SJIS_DIRECT_STATUS_COLS] = {0};
		int			src = direction_encodings[d][0];
		int			dst = direction_encodings[d][1];
		Oid			proc;
		bool		is_ours = false;

		/* look up as SET client_encoding would (an error ends the xact) */
		if (OidIsValid(nspid))
		{
			int			level = SjisDirectPushLookupPath(nspid);

			proc = FindDefaultConversionProc(src, dst);
			SjisDirectPopLookupPath(level);
		}
		else
			proc = FindDefaultConversionProc(src, dst);

		if (OidIsValid(proc))
		{
			FmgrInfo	flinfo;

			/* ours if it resolves to this module's function for the direction */
			fmgr_info(proc, &flinfo);
			is_ours = flinfo.fn_addr == direction_functions[d];
		}

		values[0] = DirectFunctionCall1(namein,
										CStringGetDatum(pg_encoding_to_char(src)));
		values[1] = DirectFunctionCall1(namein,
										CStringGetDatum(pg_encoding_to_char(dst)));
		values[2] = ObjectIdGetDatum(proc);
		nulls[2] = !OidIsValid(proc);
		values[3] = BoolGetDatum(is_ours);
		values[4] = Int64GetDatum(counters[d].calls);
		values[5] = Int64GetDatum(counters[d].bytes_in);
		values[6] = Int64GetDatum(counters[d].bytes_out);

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}

	return (Datum) 0;
}

/*
 * sjis_direct.reset() RETURNS void
 *
 * Zero this backend's counters.
 */
Datum
sjis_direct_reset(PG_FUNCTION_ARGS)
{
	memset(counters, 0, sizeof(counters));
	PG_RETURN_VOID();
}

/*
 * sjis_direct.convert_with(proc regproc, src name, dst name, input bytea,
 *							noerror boolean DEFAULT false,
 *							repeat integer DEFAULT 1,
 *							OUT converted integer, OUT result bytea)
 *	RETURNS record
 *
 * Run the conversion function proc on input, as PostgreSQL runs one
 * (pg_do_encoding_conversion_buf), and return how many bytes it converted
 * and what it wrote.  This lets tests compare any two conversion functions,
 * such as pg_catalog.euc_jp_to_sjis and ours, on the same bytes, including
 * the noError mode no SQL function of PostgreSQL exposes.  With repeat > 1
 * the conversion runs that many times over the same buffers, so that a
 * benchmark can time the conversion rather than the call around it.
 *
 * The function must have the signature of a conversion function, as CREATE
 * CONVERSION demands, and the caller must be allowed to execute it.  The
 * source is handed over in a buffer of exactly its length, not terminated.
 */
Datum
sjis_direct_convert_with(PG_FUNCTION_ARGS)
{
	Oid			proc = PG_GETARG_OID(0);
	const char *src_name = NameStr(*PG_GETARG_NAME(1));
	const char *dst_name = NameStr(*PG_GETARG_NAME(2));
	bytea	   *input = PG_GETARG_BYTEA_PP(3);
	bool		noError = PG_GETARG_BOOL(4);
	int			repeat = PG_GETARG_INT32(5);
	int			src_encoding = pg_char_to_encoding(src_name);
	int			dst_encoding = pg_char_to_encoding(dst_name);
	int			srclen = VARSIZE_ANY_EXHDR(input);
	int			destlen;
	unsigned char *src;
	unsigned char *dest;
	int			converted;
	bytea	   *result;
	HeapTuple	tp;
	Form_pg_proc procform;
	bool		is_conversion;
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2] = {0};
	AclResult	aclresult;

	if (src_encoding < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid source encoding name \"%s\"", src_name)));
	if (dst_encoding < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid destination encoding name \"%s\"", dst_name)));

	/* the checks of CREATE CONVERSION: signature and EXECUTE privilege */
	tp = SearchSysCache1(PROCOID, ObjectIdGetDatum(proc));
	if (!HeapTupleIsValid(tp))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("function with OID %u does not exist", proc)));
	procform = (Form_pg_proc) GETSTRUCT(tp);
	is_conversion = procform->prorettype == INT4OID &&
		procform->pronargs == 6 &&
		procform->proargtypes.values[0] == INT4OID &&
		procform->proargtypes.values[1] == INT4OID &&
		procform->proargtypes.values[2] == CSTRINGOID &&
		procform->proargtypes.values[3] == INTERNALOID &&
		procform->proargtypes.values[4] == INT4OID &&
		procform->proargtypes.values[5] == BOOLOID;
	ReleaseSysCache(tp);
	if (!is_conversion)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("function %s is not a conversion function",
						format_procedure(proc)),
				 errhint("A conversion function takes (integer, integer, cstring, internal, integer, boolean) and returns integer.")));
#if PG_VERSION_NUM >= 160000
	aclresult = object_aclcheck(ProcedureRelationId, proc, GetUserId(), ACL_EXECUTE);
#else
	aclresult = pg_proc_aclcheck(proc, GetUserId(), ACL_EXECUTE);
#endif
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_FUNCTION, get_func_name(proc));

	if (repeat < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repeat must be at least 1")));
	if ((Size) srclen >= (MaxAllocSize - 1) / MAX_CONVERSION_GROWTH)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("input of %d bytes is too long to convert", srclen)));

	/* an exact-size copy, so that reading past its end is a detectable bug */
	src = palloc(Max(srclen, 1));
	memcpy(src, VARDATA_ANY(input), srclen);
	destlen = srclen * MAX_CONVERSION_GROWTH + 1;
	dest = palloc(destlen);

	do
	{
		CHECK_FOR_INTERRUPTS();
		converted = pg_do_encoding_conversion_buf(proc, src_encoding,
												  dst_encoding, src, srclen,
												  dest, destlen, noError);
	} while (--repeat > 0);

	result = (bytea *) palloc(VARHDRSZ + strlen((char *) dest));
	SET_VARSIZE(result, VARHDRSZ + strlen((char *) dest));
	memcpy(VARDATA(result), dest, strlen((char *) dest));

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	values[0] = Int32GetDatum(converted);
	values[1] = PointerGetDatum(result);

	pfree(src);
	pfree(dest);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
