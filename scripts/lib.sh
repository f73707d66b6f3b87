# scripts/lib.sh: shared by demo.sh, test.sh and bench/: install what is
# missing, build and install pgbenchx, start and stop throwaway clusters.
# Meant to be sourced by bash scripts running as root on Debian 12.

PGX_PGVERSION=15
PGX_BINDIR=/usr/lib/postgresql/$PGX_PGVERSION/bin
PGX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

pgx_log() { printf '== %s\n' "$*" >&2; }
pgx_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Install the Debian packages the build, the server and the tests need
# (plus any extra packages given as arguments).
pgx_ensure_packages() {
	local pkgs=(postgresql-$PGX_PGVERSION postgresql-server-dev-$PGX_PGVERSION
		postgresql-client-$PGX_PGVERSION libpq-dev libipc-run-perl make gcc "$@")
	local missing=()
	for p in "${pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		[ "$(id -u)" = 0 ] || pgx_die "missing packages ${missing[*]}: run as root or install them"
		# apt's and debconf's chatter goes to $PGX_APT_LOG (default a file
		# under /tmp), shown only when apt-get fails
		local log=${PGX_APT_LOG:-$(mktemp /tmp/pgbenchx-apt.XXXXXX.log)}
		pgx_log "installing ${missing[*]} (apt-get's output: $log)"
		export DEBIAN_FRONTEND=noninteractive
		{ apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } >>"$log" 2>&1 ||
			{ tail -n 30 "$log" >&2; pgx_die "apt-get install ${missing[*]} failed (see $log)"; }
	else
		pgx_log "packages: all installed"
	fi
	# Debian's postgresql package may start its own main cluster; we never use it.
}

# Build with every warning an error, and install into the server's directories.
pgx_build_install() {
	pgx_log "building and installing pgbenchx"
	make -C "$PGX_ROOT" -s PGBENCHX_WERROR=1 >/dev/null || pgx_die "build failed"
	make -C "$PGX_ROOT" -s install >/dev/null || pgx_die "make install failed"
}

# A directory owned by postgres, for clusters and test copies: under
# /tmp, or under the parent directory given as $1 (created if needed).
pgx_workdir() {
	local parent=${1:-/tmp} d
	mkdir -p "$parent" || pgx_die "cannot create $parent"
	d=$(mktemp -d "$parent/pgbenchx.XXXXXX") || pgx_die "mktemp failed"
	chmod 755 "$d"
	chown postgres:postgres "$d"
	echo "$d"
}

# For bench/: build and install into $PGX_DESTDIR when it is set (leaving the
# system directories alone; the cluster then needs PGX_DESTDIR_SETTING), else
# into the server's directories as pgx_build_install does.
pgx_bench_install() {
	# The server's own binaries first: /usr/bin/pgbench and /usr/bin/psql are
	# Debian's pg_wrapper, a Perl script that execs the real program in the
	# same process, so its start (about 50 ms of CPU here) would count in
	# pgbench's rusage and wall time as if pgbench had spent it.
	export PATH="$PGX_BINDIR:$PATH"
	PGX_DESTDIR_SETTING=
	if [ -z "${PGX_DESTDIR:-}" ]; then
		pgx_build_install
		return
	fi
	pgx_log "building and installing pgbenchx into $PGX_DESTDIR"
	make -C "$PGX_ROOT" -s PGBENCHX_WERROR=1 >/dev/null || pgx_die "build failed"
	make -C "$PGX_ROOT" -s install DESTDIR="$PGX_DESTDIR" >/dev/null ||
		pgx_die "make install DESTDIR=$PGX_DESTDIR failed"
	PGX_DESTDIR_SETTING="extension_destdir = '$PGX_DESTDIR'"
}

# pgx_cpu_of FILE COMMAND...: runs COMMAND in a session of its own (setsid: with
# the kernel's autogroup scheduling a command started from a script would
# otherwise share its CPU share with the script; see bench/driver_cost.sh),
# its output on this one's, and writes into FILE its user + sys CPU
# seconds, its waited-for children's included, as wait4() returns them;
# exits with COMMAND's status
pgx_cpu_of() {
	python3 -c '
import os, sys
pid = os.fork()
if pid == 0:
    os.setsid()
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("%.6f\n" % (ru.ru_utime + ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))
' "$@"
}

# pgx_pgbench_counts FILE: "tps transactions" from pgbench's output in FILE
# (tps without the initial connection time); prints FILE and fails when
# either is missing
pgx_pgbench_counts() {
	local tps tx
	tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' "$1")
	tx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$1")
	[ -n "$tps" ] && [ -n "$tx" ] || { cat "$1" >&2; pgx_die "could not read pgbench's output"; }
	echo "$tps $tx"
}

# pgx_follow_cpu PID: follows a process until it exits, prints its last
# user + system CPU time (s), read from /proc/PID/stat every 0.5 s by bash's
# builtins (one `sleep` started per read: the poll is load on the machine,
# so it is kept light, and a benchmark follows both of its sides alike)
pgx_follow_cpu() {
	local pid=$1 last=0 line f hz
	hz=$(getconf CLK_TCK)
	while read -r line 2>/dev/null <"/proc/$pid/stat"; do
		read -r -a f <<<"${line##*) }"
		last=$((f[11] + f[12]))
		sleep 0.5
	done
	awk -v t="$last" -v hz="$hz" 'BEGIN { printf "%.2f", t / hz }'
}

# pgx_bench_cluster SCALE [setting=value ...]: the start every bench/ script
# shares.  Packages, pgbenchx built and installed (pgx_bench_install), a
# throwaway cluster with the settings given (and PGX_DESTDIR_SETTING) in a new
# directory under $PGX_WORKDIR (default /tmp) on $PGX_PORT or a free port,
# stopped and removed on exit (after the caller's bench_cleanup function,
# when it defines one), CREATE EXTENSION pgbenchx, and with SCALE > 0
# pgbench_init(SCALE), whose line it keeps in PGX_INIT_LINE.  Sets dir, port
# and the PG* variables psql uses.
pgx_bench_cluster() {
	local scale=$1
	shift
	pgx_ensure_packages
	pgx_bench_install
	dir=$(pgx_workdir "${PGX_WORKDIR:-/tmp}")
	trap pgx_bench_cleanup EXIT
	port=${PGX_PORT:-$(pgx_free_port)}
	pgx_start_cluster "$dir" "$port" "$@" ${PGX_DESTDIR_SETTING:+"$PGX_DESTDIR_SETTING"}
	psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION pgbenchx" || pgx_die "CREATE EXTENSION failed"
	PGX_INIT_LINE=
	if [ "$scale" -gt 0 ]; then
		pgx_log "pgbench_init($scale)"
		PGX_INIT_LINE=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
			-c "SELECT pgbench_init($scale)") || pgx_die "pgbench_init($scale) failed"
	fi
}
pgx_bench_cleanup() {
	if declare -F bench_cleanup >/dev/null; then bench_cleanup; fi
	pgx_stop_cluster "$dir"
	rm -rf "$dir"
}

# A TCP port nobody listens on and no socket file claims.
pgx_free_port() {
	local port
	for port in $(shuf -i 20000-60000 -n 200); do
		if ! (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null &&
			[ ! -e "/tmp/.s.PGSQL.$port" ] && [ ! -e "/var/run/postgresql/.s.PGSQL.$port" ]; then
			echo "$port"
			return 0
		fi
	done
	pgx_die "no free port found"
}

pgx_as_postgres() { runuser -u postgres -- "$@"; }

# pgx_start_cluster DIR PORT [setting=value ...]
# initdb DIR/data as postgres, its socket in DIR/sock, then start it.
pgx_start_cluster() {
	local dir=$1 port=$2
	shift 2
	install -d -o postgres -g postgres "$dir/sock"
	pgx_as_postgres "$PGX_BINDIR/initdb" -D "$dir/data" -A trust -U postgres \
		--no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; pgx_die "initdb failed"; }
	{
		echo "port = $port"
		echo "unix_socket_directories = '$dir/sock'"
		echo "listen_addresses = ''"
		echo "fsync = on"
		echo "log_line_prefix = '%m [%p] %b %a '"
		for s in "$@"; do echo "$s"; done
	} | pgx_as_postgres tee -a "$dir/data/postgresql.conf" >/dev/null
	pgx_as_postgres "$PGX_BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null ||
		{ tail -n 30 "$dir/server.log"; pgx_die "server did not start"; }
	export PGHOST=$dir/sock PGPORT=$port PGUSER=postgres PGDATABASE=postgres
}

# pgx_stop_cluster DIR: fast shutdown of the cluster in DIR/data, by its pid file.
pgx_stop_cluster() {
	local dir=$1
	[ -f "$dir/data/postmaster.pid" ] || return 0
	pgx_as_postgres "$PGX_BINDIR/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 ||
		pgx_as_postgres "$PGX_BINDIR/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
}

# The build dependencies of scripts/pgmajor.sh (PostgreSQL from source).
PGX_PGBUILD_PACKAGES="bison flex perl zlib1g-dev libxml2-dev pkg-config libssl-dev liblz4-dev libzstd-dev"

# pgx_major_install MAJOR DIR: pgbenchx built with -Werror against PostgreSQL
# MAJOR (16 and later) and installed into a private copy of that major's
# cached build (scripts/pgmajor.sh builds it when the cache lacks it), for one
# test run: DIR/pgMAJOR is the copy (the cache is never written to; the
# install is relocatable), DIR/tree-MAJOR the copy of this tree it was built
# in, owned by postgres.  Sets PGX_MAJOR_PREFIX and PGX_MAJOR_TREE.  Returns 3,
# saying nothing more, when the major is skipped (no source tarball:
# pgmajor.sh has said so on stderr).
pgx_major_install() {
	local major=$1 dir=$2 pgconfig prefix tree
	pgconfig=$(bash "$PGX_ROOT/scripts/pgmajor.sh" "$major") || return 1
	[ -n "$pgconfig" ] || return 3
	prefix=$dir/pg$major
	tree=$dir/tree-$major
	rm -rf "$prefix" "$tree"
	cp -a "$(dirname "$(dirname "$pgconfig")")" "$prefix" || return 1
	rm -f "$prefix/.source-sha256"
	cp -a "$PGX_ROOT" "$tree" || return 1
	rm -rf "$tree/results" "$tree/tmp_check" "$tree/regression.diffs" "$tree/regression.out"
	pgx_log "building pgbenchx against PostgreSQL $major ($prefix)"
	make -C "$tree" -s clean PG_CONFIG="$prefix/bin/pg_config" >/dev/null &&
		make -C "$tree" -s PG_CONFIG="$prefix/bin/pg_config" PGBENCHX_WERROR=1 >/dev/null &&
		make -C "$tree" -s install PG_CONFIG="$prefix/bin/pg_config" >/dev/null || return 1
	chown -R postgres:postgres "$tree"
	chmod -R a+rX "$prefix"
	PGX_MAJOR_PREFIX=$prefix
	PGX_MAJOR_TREE=$tree
}
