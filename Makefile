# Makefile: the pax_am bundle (pax_am, sjis_direct, deform_cache)
#
#   make && make install        build and install all three extensions
#   make installcheck           pg_regress suite, isolation specs and TAP tests
#                               against a running server (bin/test does it all)
#
# Each extension is built by PGXS in its own folder (one shared library with
# its LLVM bitcode each); this level holds the tests.  autodepend=yes makes
# PGXS record each object's headers (.deps/), so that a changed header
# rebuilds what includes it (pax_am/Makefile also sets it, and rebuilds an
# object compiled without it).

PG_CONFIG ?= pg_config

EXTENSIONS = pax_am sjis_direct deform_cache

# pg_regress tests, one file per concern, prefixed by component
REGRESS = \
	pax_am_wal_begin \
	pax_am_basic \
	pax_am_types \
	pax_am_encoding \
	pax_am_prefix \
	pax_am_factor pax_am_fillfactor pax_am_tidmap pax_am_roomy \
	pax_am_const \
	pax_am_write pax_am_lz4 \
	pax_am_bulk pax_am_bulk_index pax_am_index_delete pax_am_indexcost \
	pax_am_vacuum \
	pax_am_scan \
	pax_am_buffers \
	pax_am_pushdown pax_am_colcmp pax_am_substr \
	pax_am_aggregate \
	pax_am_joinfilter \
	pax_am_groupagg pax_am_costs \
	pax_am_colskip \
	pax_am_trust \
	pax_am_mvcc_delete \
	pax_am_mvcc_update \
	pax_am_hot pax_am_share \
	pax_am_regrow \
	pax_am_mvcc_merge \
	pax_am_mvcc_locks \
	pax_am_mvcc_index \
	pax_am_mvcc_unique \
	pax_am_mvcc_fkey \
	pax_am_mvcc_trigger \
	pax_am_mvcc_toast \
	pax_am_mvcc_rewrite \
	pax_am_mvcc_stats \
	pax_am_verify \
	pax_am_heapmatch \
	pax_am_compact \
	pax_am_wal_end \
	sjis_direct_basic \
	sjis_direct_valid \
	sjis_direct_invalid \
	sjis_direct_database \
	sjis_direct_security \
	deform_cache_basic \
	deform_cache_errors \
	deform_cache_jit \
	deform_cache_pax \
	deform_cache_pax_order

# isolation specs (specs/*.spec) and TAP tests (t/*.pl), once they exist
ISOLATION = $(basename $(notdir $(wildcard specs/*.spec)))
ifeq ($(ISOLATION),)
undefine ISOLATION
else
ISOLATION_OPTS = --dbname=pax_am_isolation --load-extension=pax_am
endif
ifneq ($(wildcard t/*.pl),)
TAP_TESTS = 1
endif

EXTRA_CLEAN = regression_output tmp_check_iso output_iso

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

.PHONY: $(addprefix all-,$(EXTENSIONS)) $(addprefix install-,$(EXTENSIONS)) \
	$(addprefix uninstall-,$(EXTENSIONS)) $(addprefix clean-,$(EXTENSIONS))

all: $(addprefix all-,$(EXTENSIONS))
install: $(addprefix install-,$(EXTENSIONS))
uninstall: $(addprefix uninstall-,$(EXTENSIONS))
clean: $(addprefix clean-,$(EXTENSIONS))

$(addprefix all-,$(EXTENSIONS)): all-%:
	$(MAKE) -C $* PG_CONFIG='$(PG_CONFIG)' autodepend=yes all
$(addprefix install-,$(EXTENSIONS)): install-%: all-%
	$(MAKE) -C $* PG_CONFIG='$(PG_CONFIG)' autodepend=yes install
$(addprefix uninstall-,$(EXTENSIONS)): uninstall-%:
	$(MAKE) -C $* PG_CONFIG='$(PG_CONFIG)' uninstall
$(addprefix clean-,$(EXTENSIONS)): clean-%:
	$(MAKE) -C $* PG_CONFIG='$(PG_CONFIG)' autodepend=yes clean
