# pgbenchx: PGXS build.  libpq is linked through MODULE_big and
# SHLIB_LINK_INTERNAL (with MODULES the build succeeds and loading fails on an
# undefined PQ* symbol).

EXTENSION   = pgbenchx
MODULE_big  = pgbenchx
EXTVERSION  = 0.5

# src/'s folders are layers, lowest first (src/README.md; the order and its
# rule are scripts/check_layers.sh's): a folder uses only those below it.
OBJS = \
	src/lang/prng.o \
	src/lang/expr.o \
	src/lang/script.o \
	src/lang/script_mem.o \
	src/lang/stats.o \
	src/lang/histcodec.o \
	src/lang/sysstat.o \
	src/lang/ci.o \
	src/model/run_spec.o \
	src/common/owner.o \
	src/common/trust.o \
	src/common/searchpath.o \
	src/common/worker.o \
	src/common/pqconn.o \
	src/common/loopback.o \
	src/common/conninfo.o \
	src/common/secret.o \
	src/common/cancel.o \
	src/common/script_sql.o \
	src/init/datagen.o \
	src/init/datagen_par.o \
	src/init/heapwrite.o \
	src/init/btload.o \
	src/init/initrecord.o \
	src/results/results.o \
	src/results/environment.o \
	src/results/sysrecord.o \
	src/results/waitsample.o \
	src/results/hist_sql.o \
	src/results/ci_sql.o \
	src/results/import_sql.o \
	src/results/gather_sql.o \
	src/run/launch.o \
	src/run/coordinator.o \
	src/run/driver.o \
	src/run/progress.o \
	src/run/txlog.o \
	src/run/wait.o \
	src/run/startup.o \
	src/fleet/fleet.o \
	src/fleet/recorder.o \
	src/fleet/part.o \
	src/fleet/kinds.o \
	src/options.o \
	src/pgbenchx.o

# The SQL surface (src/README.md, "The SQL surface").  Each SQL body is
# written once, as TimescaleDB's sql/CMakeLists.txt does it:
#   - src/sql/00_schema.sql, the schema: the tables, sequences and indexes,
#     created once by the install script and changed by hand-written deltas;
#   - src/sql/10_*.sql .. 90_grants.sql, the routines: functions,
#     procedures, aggregates, views, comments and grants, written re-runnable
#     (CREATE OR REPLACE; 90_grants.sql touches only what the script
#     created), and re-created in full by every upgrade script.
# A routine changes in one file; a column is added in the schema file AND in
# the next upgrade's delta.  Built (DATA_built: made by "all", installed with
# DATA, removed by "clean"; not committed):
#   - the install script of this version: the schema, then the routines with
#     "CREATE OR REPLACE" made "CREATE" (a fresh install replaces nothing);
#   - the upgrade script from the last release: its delta,
#     src/upgrade/$(PREVIOUS_VERSION)--$(EXTVERSION)/*.sql in name order, then
#     the routines as written.
# The scripts of the releases are committed and frozen as released (DATA):
# 0.1's install script and the upgrades to 0.2, 0.3 and 0.4.  On a release,
# commit the built upgrade script, add it to DATA, and start the next delta.
# The build fails on a routine file that creates something the routines
# cannot re-create (a table, an index, a routine without OR REPLACE) or that
# grants or revokes outside 90_grants.sql.
PREVIOUS_VERSION = 0.4
SCHEMA_SOURCES = src/sql/00_schema.sql
# the name guard (src/sql/guard/names.sql) runs after the schema or the
# delta and before the routines, in the install and every upgrade script
GUARD_SOURCES = src/sql/guard/names.sql
ROUTINE_SOURCES = $(filter-out $(SCHEMA_SOURCES),$(sort $(wildcard src/sql/*.sql)))
UPGRADE_DELTA = $(sort $(wildcard src/upgrade/$(PREVIOUS_VERSION)--$(EXTVERSION)/*.sql))
UPGRADE_SCRIPT = pgbenchx--$(PREVIOUS_VERSION)--$(EXTVERSION).sql
DATA = pgbenchx--0.1.sql pgbenchx--0.1--0.2.sql pgbenchx--0.2--0.3.sql pgbenchx--0.3--0.4.sql
DATA_built = pgbenchx--$(EXTVERSION).sql $(UPGRADE_SCRIPT)
# "all" first, so that it stays the default goal (PGXS gives it its work)
all:
pgbenchx--$(EXTVERSION).sql: $(SCHEMA_SOURCES) $(GUARD_SOURCES) $(ROUTINE_SOURCES)
	@made=$$(sed -nE 's/^CREATE OR REPLACE (FUNCTION|PROCEDURE) ([a-z_]+)\(.*/\2/p' $(ROUTINE_SOURCES) | sort -u | tr '\n' ' '); \
	listed=$$(sed -nE "s/.*unnest\('\{([a-z_,]+)\}'.*/\1/p" $(GUARD_SOURCES) | tr ',' '\n' | sort -u | tr '\n' ' '); \
	if [ "$$made" != "$$listed" ]; then \
	  echo "error: the entry points src/sql creates unqualified ($$made) are not those $(GUARD_SOURCES) guards ($$listed)" >&2; \
	  exit 1; \
	fi
	@if grep -nE '^(CREATE (FUNCTION|PROCEDURE|AGGREGATE|VIEW|TABLE|SEQUENCE|TYPE|SCHEMA|INDEX|UNIQUE INDEX)|GRANT|REVOKE|ALTER) ' \
	    $(filter-out %/90_grants.sql,$(ROUTINE_SOURCES)); then \
	  echo 'error: the routines (src/sql/10_*.sql ..) must be re-runnable: CREATE OR REPLACE, tables in 00_schema.sql, grants in 90_grants.sql (Makefile, "The SQL surface")' >&2; \
	  exit 1; \
	fi
	sed 's/^CREATE OR REPLACE /CREATE /' $^ > $@
$(UPGRADE_SCRIPT): $(UPGRADE_DELTA) $(GUARD_SOURCES) $(ROUTINE_SOURCES)
	cat $^ > $@

PGFILEDESC = "pgbenchx - pgbench inside the server"

REGRESS = setup init_errors init_content results_schema engine_refusals eval scripts pgbench_major charts report compare explain environment tpcb bad_input security import_checks histograms readme_messages

TAP_TESTS = 1
PROVE_TESTS = test/t/*.pl

# each folder of src/ is on the include path: a file includes "owner.h", not
# "../common/owner.h" (header names are unique)
SRC_DIRS = $(sort $(dir $(OBJS)))
PG_CPPFLAGS = -I$(libpq_srcdir) $(addprefix -I,$(SRC_DIRS)) -DPGBENCHX_LIBRARY_VERSION='"$(EXTVERSION)"'
SHLIB_LINK_INTERNAL = $(libpq)

# CI sets PGBENCHX_WERROR=1: -Wall -Wextra -Werror on our code.  The server
# headers are read as system headers so that their own -Wextra findings
# (unused parameters of inline functions) do not count as ours.
ifdef PGBENCHX_WERROR
PG_CFLAGS += -Wall -Wextra -Werror -isystem $(shell $(PG_CONFIG) --includedir-server)
endif

EXTRA_CLEAN = results regression.diffs regression.out tmp_check \
	test/unit/test_script test/unit/test_stats test/unit/test_sysstat test/unit/test_histcodec

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks no header dependencies (unless the server was configured with
# --enable-depend): every object depends on every header of src/ and its
# folders, so that a changed struct (run_spec.h, say) never leaves a mixed
# build behind.
$(OBJS): $(wildcard src/*.h src/*/*.h)

# Every build checks the layers once the objects exist: no file includes a
# header of a folder above its own, no object calls one, no cycle between
# folders (scripts/check_layers.sh); a violation fails `make`.
.PHONY: check-layers
all: check-layers
check-layers: $(OBJS)
	@sh scripts/check_layers.sh $(OBJS)

# ... and the launch options' wrappers and docs against their list,
# src/model/options_list.h (scripts/check_options.sh): a wrapper's parameter
# missing, not passed in its jsonb object or not in the list, or an option
# in no chapter of docs/, fails `make`.  The C side the compiler checks.
.PHONY: check-options
all: check-options
check-options:
	@sh scripts/check_options.sh

# The client program pgbenchx (src/cli/, issue 24): PGXS builds MODULE_big or
# PROGRAM from one Makefile, not both, so src/cli/Makefile is a make of its
# own, called by all, install and clean with this PG_CONFIG.  A client, not a
# layer of the server library (scripts/check_layers.sh leaves it out).
.PHONY: cli install-cli clean-cli
all: cli
cli:
	$(MAKE) -C src/cli PG_CONFIG=$(PG_CONFIG) EXTVERSION=$(EXTVERSION)
install: install-cli
install-cli: cli
	$(MAKE) -C src/cli PG_CONFIG=$(PG_CONFIG) EXTVERSION=$(EXTVERSION) install
	@echo "pgbenchx: the command line is $(DESTDIR)$(shell $(PG_CONFIG) --bindir)/pgbenchx (Debian does not put that directory on PATH: call it by that path, or add the directory to PATH)"
clean: clean-cli
clean-cli:
	$(MAKE) -C src/cli PG_CONFIG=$(PG_CONFIG) clean

# `make installcheck` (PGXS) runs the pg_regress files of REGRESS against the
# running server, then the TAP tests of PROVE_TESTS, which start clusters of
# their own.  `make unitcheck` runs the standalone unit tests (test/unit), which
# need no server.
.PHONY: unitcheck
unitcheck:
	$(MAKE) -C test/unit check
