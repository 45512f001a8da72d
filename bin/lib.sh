# bin/lib.sh: shared by bin/test, bin/demo, bin/cluster and bench/run.
#
# The private cluster: owned by the postgres OS user (when we can become it),
# on its own port and data directory, never the system cluster on 5432.
#
#   PAX_PG     the PostgreSQL major version to use (pg_origin says where
#              each comes from): this Debian's own packages (15 on Debian
#              12), 16 assembled from binary packages by bin/pgwheel, 17
#              from Debian 13's packages in a root of their own (bin/pgroot),
#              18 built from Debian's source package by bin/pgbuild (flavor
#              PAX_PG_FLAVOR: assert, the default, or release); scripts
#              also take it as --pg N                         (15)
#   PG_CONFIG  which PostgreSQL to build against; overrides PAX_PG
#   PAX_HOME   where the cluster, its socket and logs live
#              (/var/tmp/pax_am for 15, /var/tmp/pax_amN for N, in its root
#              for one that runs in a root of another Debian release)
#              (/var/tmp/pax_amNr for a release build)
#   PAX_PORT   its port     (5499 for 15, 5400+N for N, 5420+N for release)
#   PAX_HUGEPAGES  reserve huge pages for shared memory       (1; 0 = no)
#
# Source it; it defines functions and variables, and runs nothing but
# select_pg, which resolves the variables above (cheap unless PAX_PG names a
# version not built yet).

set -euo pipefail

PAX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# This Debian release and the PostgreSQL and LLVM versions it packages:
# Debian 12 (bookworm) 15 and 14, Debian 13 (trixie, in bin/pgroot's root)
# 17 and 19.
PAX_DEBIAN_SUITE=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
case "$PAX_DEBIAN_SUITE" in
	trixie) PAX_DEBIAN_PG=17; PAX_DEBIAN_LLVM=19 ;;
	*) PAX_DEBIAN_PG=15; PAX_DEBIAN_LLVM=14 ;;
esac

# pg_origin N: where PostgreSQL N comes from here: debian (this release's
# packages), root:SUITE (Debian SUITE's packages in a root made by
# bin/pgroot, which runs the command there), wheel (bin/pgwheel) or source
# (bin/pgbuild).
pg_origin() {
	if [ "$1" = "$PAX_DEBIAN_PG" ]; then
		echo debian
	elif [ "$1" = 17 ]; then
		echo root:trixie
	elif [ "$1" = 16 ]; then
		echo wheel
	else
		echo source
	fi
}

# in_pg_root SCRIPT ARGS...: for a PostgreSQL that comes from another
# Debian release's packages (pg_origin root:SUITE), run the script again
# inside that release's root (bin/pgroot) and exit with its status;
# otherwise return.  Scripts that take --pg N call it before select_pg.
in_pg_root() {
	local origin
	[ -z "${PG_CONFIG:-}" ] || return 0
	origin=$(pg_origin "${PAX_PG:-$PAX_DEBIAN_PG}")
	case "$origin" in
		root:*)
			exec "$PAX_ROOT/bin/pgroot" "${origin#root:}" "$@" ;;
	esac
}

# select_pg: resolve PG_CONFIG, PAX_HOME, PAX_PORT and the cluster's paths
# from PAX_PG (or an explicit PG_CONFIG).  Scripts that take --pg N set
# PAX_PG from it before calling this.
select_pg() {
	local major
	if [ -z "${PG_CONFIG:-}" ]; then
		major=${PAX_PG:-$PAX_DEBIAN_PG}
		case "$(pg_origin "$major")" in
			debian)
				PG_CONFIG=/usr/lib/postgresql/$PAX_DEBIAN_PG/bin/pg_config
				[ -x "$PG_CONFIG" ] || PG_CONFIG=pg_config ;;
			wheel)
				PG_CONFIG=$("$PAX_ROOT/bin/pgwheel" "$major") ;;
			root:*)
				die "PostgreSQL $major comes from another Debian release: run bin/pgroot $(pg_origin "$major" | cut -d: -f2) $0 --pg $major" ;;
			*)
				PG_CONFIG=$("$PAX_ROOT/bin/pgbuild" "$major" "${PAX_PG_FLAVOR:-assert}") ;;
		esac
	fi
	if [ -z "${major:-}" ]; then
		major=$("$PG_CONFIG" --version 2>/dev/null | sed -E 's/^PostgreSQL ([0-9]+).*/\1/') ||
			major=$PAX_DEBIAN_PG
	fi
	PAX_PG=$major
	if [ "$major" = 15 ]; then
		PAX_HOME=${PAX_HOME:-/var/tmp/pax_am}
		PAX_PORT=${PAX_PORT:-5499}
	elif [ "${PAX_PG_FLAVOR:-assert}" = release ]; then
		# a release build for timing: a cluster of its own
		PAX_HOME=${PAX_HOME:-/var/tmp/pax_am${major}r}
		PAX_PORT=${PAX_PORT:-$((5420 + major))}
	else
		PAX_HOME=${PAX_HOME:-/var/tmp/pax_am$major}
		PAX_PORT=${PAX_PORT:-$((5400 + major))}
	fi
	PAX_DATA=$PAX_HOME/data
	PAX_SOCK=$PAX_HOME/run
	PAX_LOG=$PAX_HOME/server.log
	export PAX_PG PG_CONFIG PAX_HOME PAX_PORT
	[ -n "${PAX_PG_FLAVOR:-}" ] && export PAX_PG_FLAVOR
	return 0
}

# Debian packages a build and a test run need.
PAX_PACKAGES="postgresql-$PAX_DEBIAN_PG postgresql-contrib postgresql-server-dev-$PAX_DEBIAN_PG \
clang-$PAX_DEBIAN_LLVM llvm-$PAX_DEBIAN_LLVM libicu-dev make gcc libipc-run-perl rsync python3-psycopg2"

say() { printf '== %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# can_root: true if as_root can run commands (root, or password-less sudo).
can_root() {
	[ "$(id -u)" = 0 ] || { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }
}

# as_root CMD...: run a command as root (directly, or through sudo).
as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif can_root; then
		sudo "$@"
	else
		die "need root (or password-less sudo) to run: $*"
	fi
}

# pg_user: the OS user that owns the private cluster.
pg_user() {
	if [ "$(id -u)" = 0 ] || [ "$(id -un)" = postgres ]; then
		echo postgres
	elif command -v sudo >/dev/null && sudo -n -u postgres true 2>/dev/null; then
		echo postgres
	else
		id -un
	fi
}

# as_pg CMD...: run a command as the cluster's owner, with the environment
# that points libpq and PGXS at the private cluster.
as_pg() {
	local env=(PGHOST="$PAX_SOCK" PGPORT="$PAX_PORT" PG_CONFIG="$PG_CONFIG"
			   PATH="$PG_BINDIR:$PATH" LANG=C.UTF-8 LC_ALL=C.UTF-8)
	local owner
	owner=$(pg_user)
	if [ "$owner" = "$(id -un)" ]; then
		env "${env[@]}" "$@"
	elif [ "$(id -u)" = 0 ]; then
		runuser -u "$owner" -- env "${env[@]}" "$@"
	else
		sudo -n -u "$owner" env "${env[@]}" "$@"
	fi
}

# run_quiet WHAT CMD...: run CMD with its output kept back unless it
# fails: then its own last lines are printed and the script stops, saying
# that WHAT failed.
run_quiet() {
	local what=$1 out
	shift
	if ! out=$("$@" 2>&1); then
		printf '%s\n' "$out" | tail -n 20 >&2
		die "$what failed (its own words above)"
	fi
}

# die_with_log LOG WHAT: WHAT, which wrote LOG, failed: print the log's
# last lines and stop.
die_with_log() {
	tail -n 30 "$1" >&2
	die "$2 failed (its last lines above; whole log: $1)"
}

# apt_run ARGS...: apt-get ARGS as root, quiet unless it fails.
apt_run() {
	run_quiet "apt-get $*" as_root env DEBIAN_FRONTEND=noninteractive apt-get "$@"
}

# ensure_packages: install the Debian packages that are missing.
ensure_packages() {
	local missing=() p
	for p in $PAX_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say "installing packages: ${missing[*]}"
		apt_run update -qq
		apt_run install -y -qq "${missing[@]}"
	fi
	# (a script that installs what it needs before any PostgreSQL sets none)
	if [ -n "${PG_CONFIG:-}" ] && command -v "$PG_CONFIG" >/dev/null; then
		PG_BINDIR=$("$PG_CONFIG" --bindir)
	fi
}

# ensure_deb_src SUITE: a deb-src entry for Debian's SUITE (source packages
# only, in /etc/apt/sources.list.d/pax-SUITE-src.sources) unless one is
# there, so that apt-get source finds its packages (bookworm: postgresql-15
# for bin/test-core; sid: the current major release for bin/pgbuild).
ensure_deb_src() {
	local suite=$1
	if ! grep -rlsZ '^Types:.*deb-src' /etc/apt/sources.list.d/ |
		xargs -0r grep -qsE "^Suites:.*\b$suite\b"; then
		say "adding a deb-src entry for Debian $suite (source packages only)"
		as_root tee "/etc/apt/sources.list.d/pax-$suite-src.sources" >/dev/null <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	fi
	apt_run update -qq
}

# build_install: build the bundle with the compiler flags of PostgreSQL's own
# build (plus COPT, -Werror by default) and install it.
build_install() {
	local stamp=$PAX_ROOT/.pg_config_built
	say "building and installing the bundle against $("$PG_CONFIG" --version)"
	# objects built against another PostgreSQL must not be linked in
	if [ "$(cat "$stamp" 2>/dev/null)" != "$PG_CONFIG" ]; then
		make -C "$PAX_ROOT" -s PG_CONFIG="$PG_CONFIG" clean >/dev/null
		echo "$PG_CONFIG" >"$stamp"
	fi
	make -C "$PAX_ROOT" -s PG_CONFIG="$PG_CONFIG" COPT="${COPT--Werror}" all
	as_root make -C "$PAX_ROOT" -s PG_CONFIG="$PG_CONFIG" install >/dev/null
}

cluster_running() {
	[ -f "$PAX_DATA/PG_VERSION" ] && as_pg pg_ctl -D "$PAX_DATA" status >/dev/null 2>&1
}

# cluster_init: create the private cluster unless it exists.
cluster_init() {
	local owner
	owner=$(pg_user)
	if [ ! -d "$PAX_HOME" ]; then
		mkdir -p "$PAX_HOME"
	fi
	mkdir -p "$PAX_SOCK"
	if [ "$(id -un)" != "$owner" ]; then
		as_root chown "$owner" "$PAX_HOME" "$PAX_SOCK"
	fi
	[ -f "$PAX_DATA/PG_VERSION" ] && return 0
	say "creating the private cluster in $PAX_DATA (port $PAX_PORT, owner $owner)"
	as_pg initdb -D "$PAX_DATA" -E UTF8 --locale=C -A trust -U "$owner" >/dev/null
	as_pg tee -a "$PAX_DATA/postgresql.conf" >/dev/null <<CONF
# pax_am private cluster (bin/lib.sh)
port = $PAX_PORT
listen_addresses = ''
unix_socket_directories = '$PAX_SOCK'
shared_buffers = 2GB
work_mem = 64MB
maintenance_work_mem = 256MB
max_wal_size = 4GB
max_parallel_workers_per_gather = 2
max_prepared_transactions = 10
jit = on
log_min_messages = warning
CONF
}

# reserve_hugepages: make sure the kernel has enough free huge pages for
# the cluster's shared memory (huge_pages = try, the default, then uses
# them).  Without them, each new backend pays a minor page fault per 4 kB
# of shared buffers it touches, which a benchmark would time.  Best effort:
# nothing happens without root or when the kernel refuses.
reserve_hugepages() {
	local need free total
	[ "${PAX_HUGEPAGES:-1}" = 1 ] || return 0
	[ -f /proc/sys/vm/nr_hugepages ] || return 0
	can_root || return 0
	need=$(as_pg postgres -C shared_memory_size_in_huge_pages \
		-D "$PAX_DATA" 2>/dev/null) || return 0
	[ "${need:-0}" -gt 0 ] 2>/dev/null || return 0
	# free pages that another running cluster has mapped but not touched
	# yet are reserved for it (HugePages_Rsvd): not ours to take
	free=$(awk '/^HugePages_Free:/ {f = $2} /^HugePages_Rsvd:/ {r = $2}
		END {print f - r}' /proc/meminfo)
	total=$(cat /proc/sys/vm/nr_hugepages)
	[ "$free" -ge "$need" ] && return 0
	as_root sh -c "echo $((total + need - free)) > /proc/sys/vm/nr_hugepages" \
		2>/dev/null || true
}

cluster_start() {
	cluster_init
	if cluster_running; then
		return 0
	fi
	reserve_hugepages
	say "starting the private cluster on port $PAX_PORT"
	as_pg pg_ctl -D "$PAX_DATA" -l "$PAX_LOG" -w -t 120 start >/dev/null
	# the connecting user gets a database of its own name
	as_pg psql -X -q -d postgres -c "SELECT 1" >/dev/null
}

cluster_stop() {
	if cluster_running; then
		say "stopping the private cluster"
		as_pg pg_ctl -D "$PAX_DATA" -m fast -w stop >/dev/null
	fi
}

# workdir NAME: a copy of the source tree the cluster's owner can write in
# (pg_regress and prove write their results next to the tests).
workdir() {
	local dir=$PAX_HOME/$1
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$PAX_ROOT" && tar --exclude=.git --exclude='*.o' --exclude='*.so' \
		--exclude='*.bc' -cf - .) | tar -C "$dir" -xf -
	if [ "$(id -un)" != "$(pg_user)" ]; then
		as_root chown -R "$(pg_user)" "$dir"
	fi
	echo "$dir"
}
