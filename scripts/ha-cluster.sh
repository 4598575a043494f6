#!/usr/bin/env bash
# A failover pair for this project on this machine (docs/operations.md, "A failover pair"):
# pg_auto_failover 2.0 (Debian's postgresql-15-auto-failover and pg-auto-failover-cli, installed
# here when missing) runs a monitor (127.0.0.1:5450) and two PostgreSQL 15 nodes (:5451, :5452)
# with synchronous replication: a commit is acknowledged once both nodes have it, and when the
# primary dies the monitor promotes the other node. pg_autoctl refuses root, so it runs as the
# postgres user with a plain PATH. The monitor's health checks are tightened so that a dead
# primary is replaced within seconds: it is found unhealthy after 3 s (default 20 s), and the
# promoted node takes writes once promoted (about 2 s) and at least 2 s after the failover began
# (primary_demote_timeout, default 30 s: how long the old one is given to demote itself; on one
# machine, where no network can split them, a short wait risks nothing; the 5 s set here before
# put a crash's writes at 10-11 s).
#   scripts/ha-cluster.sh start          install (first time), create or start the three, wait for
#                                        a primary and a secondary
#   scripts/ha-cluster.sh uri            the multi-host URL of the `omni` database (DATABASE_URL)
#   scripts/ha-cluster.sh createdb NAME  a database (made on the primary, replicated); prints its URL
#   scripts/ha-cluster.sh state          the monitor's view of the nodes
#   scripts/ha-cluster.sh monitor-uri    the monitor's database, for DATABASE_MONITOR_URL
#   scripts/ha-cluster.sh primary        the port of the node that takes writes now (exits 3, naming
#                                        both, when two nodes take writes: a split brain)
#   scripts/ha-cluster.sh settle         wait until the monitor sees a primary and a secondary again
#                                        and one node only takes writes (after a kill or switchover)
#   scripts/ha-cluster.sh events         the monitor's last 40 events (what happened, and when)
#   scripts/ha-cluster.sh kill-primary   SIGKILL the primary's keeper and PostgreSQL (a crash)
#   scripts/ha-cluster.sh switchover     a planned switchover (pg_autoctl perform switchover)
#   scripts/ha-cluster.sh heal           start whatever node is down again (it rejoins as secondary)
#   scripts/ha-cluster.sh stop
set -euo pipefail
base=${HA_PORT:-5450}
root=${HA_DIR:-/var/lib/postgresql/omni-ha}
pgbin=/usr/lib/postgresql/15/bin
monitor_url="postgres://autoctl_node@127.0.0.1:$base/pg_auto_failover?sslmode=disable"

# From /: a keeper keeps the directory it was started in as its own, and PostgreSQL started by a
# keeper whose directory was deleted since (a CI checkout removed) cannot start ("could not
# identify current directory").
as_postgres() { (cd / && runuser -u postgres -- env -i PATH=/usr/bin:/bin HOME="$root" "$@"); }
# Logs beside the data directories, written by the postgres user.
log_of() { local log="$root/$1.log"; [ -e "$log" ] || as_postgres touch "$log"; echo "$log"; }
autoctl() { as_postgres pg_autoctl "$@"; }
answers() { pg_isready -q -h 127.0.0.1 -p "$1"; }
node_port() { echo $((base + $1)); }

install() {
  command -v pg_autoctl >/dev/null && [ -e "$pgbin/../lib/pgautofailover.so" ] && return
  echo "installing pg_auto_failover (apt)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15-auto-failover pg-auto-failover-cli >/dev/null
}

# Runs `pg_autoctl run` for a data directory in the background, logging beside it.
run_keeper() {
  local name=$1
  as_postgres sh -c "nohup pg_autoctl run --pgdata '$root/$name' >>'$(log_of "$name")' 2>&1 &"
}

# Whether the data directory's keeper runs; one left running in a deleted directory (above) is
# stopped, to be started again from /.
keeper_running() {
  local pid
  for pid in $(pgrep -u postgres -f "^pg_autoctl run --pgdata $1\$" 2>/dev/null); do
    if readlink "/proc/$pid/cwd" | grep -q ' (deleted)$'; then
      autoctl stop --pgdata "$1" >/dev/null 2>&1 || true
      # pg_autoctl stop goes by the keeper's pid file, which such a keeper may have broken; SIGQUIT
      # is its immediate stop (SIGTERM waits for a PostgreSQL that cannot start).
      kill -QUIT "$pid" $(pgrep -P "$pid") 2>/dev/null || true
      for _ in $(seq 1 30); do pgrep -u postgres -f "^pg_autoctl run --pgdata $1\$" >/dev/null || return 1; sleep 1; done
      return 1
    fi
    return 0
  done
  return 1
}

start_monitor() {
  if [ ! -d "$root/monitor" ]; then
    autoctl create monitor --pgdata "$root/monitor" --pgport "$base" --pgctl "$pgbin/pg_ctl" \
      --auth trust --no-ssl --hostname 127.0.0.1 >>"$(log_of monitor)" 2>&1
  fi
  keeper_running "$root/monitor" || run_keeper monitor
  for _ in $(seq 1 60); do answers "$base" && break; sleep 1; done
  # A dead node is noticed in about two seconds instead of twenty (pgautofailover's settings).
  psql -h 127.0.0.1 -p "$base" -U postgres -d pg_auto_failover -qAt \
    -c "alter system set pgautofailover.health_check_period = 1000" \
    -c "alter system set pgautofailover.health_check_timeout = 1000" \
    -c "alter system set pgautofailover.health_check_max_retries = 1" \
    -c "alter system set pgautofailover.health_check_retry_delay = 500" \
    -c "alter system set pgautofailover.node_considered_unhealthy_timeout = 3000" \
    -c "alter system set pgautofailover.primary_demote_timeout = 2000" \
    -c "select pg_reload_conf()" >/dev/null
}

start_node() {
  local n=$1 port
  port=$(node_port "$n")
  if [ ! -d "$root/node$n" ]; then
    autoctl create postgres --pgdata "$root/node$n" --pgport "$port" --pgctl "$pgbin/pg_ctl" \
      --auth trust --no-ssl --hostname 127.0.0.1 --name "node$n" --dbname omni \
      --monitor "$monitor_url" >>"$(log_of "node$n")" 2>&1
  fi
  keeper_running "$root/node$n" || run_keeper "node$n"
}

# Waits until the monitor reports one primary and one secondary. A killed node rejoins by
# pg_rewind, and when that fails (pg_autoctl 2.0, after a crash: it runs pg_rewind while the
# PostgreSQL it started for crash recovery is still up) by pg_basebackup, which waits for a
# spread checkpoint on the primary: 4.5 min with the default checkpoint_timeout, under load, and
# the rejoin outlasted this wait. An immediate checkpoint asked every 5 s meanwhile
# hurries the one in progress.
wait_pair() {
  for i in $(seq 1 180); do
    local states port
    states=$(psql -h 127.0.0.1 -p "$base" -U postgres -d pg_auto_failover -qAt \
      -c "select string_agg(reportedstate::text, ',' order by reportedstate::text) from pgautofailover.node" 2>/dev/null || true)
    [ "$states" = "primary,secondary" ] && return 0
    if [ $((i % 5)) = 0 ] && port=$(primary_port 2>/dev/null); then
      psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -qAt -c checkpoint >/dev/null 2>&1 || true
    fi
    sleep 1
  done
  echo "the failover pair did not form: $(state 2>&1)" >&2
  return 1
}

# A standby whose primary stops (a switchover) looks for WAL again every
# wal_retrieve_retry_interval (default 5 s), and a promotion asked meanwhile waited for that
# once in 13 switchovers under load: 1 s on both nodes (ALTER SYSTEM: each node's
# own postgresql.auto.conf, which pg_autoctl also writes; a rebuilt node copies the primary's).
tune_nodes() {
  for n in 1 2; do
    psql -h 127.0.0.1 -p "$(node_port "$n")" -U postgres -d postgres -qAt \
      -c "alter system set wal_retrieve_retry_interval = '1s'" -c "select pg_reload_conf()" \
      >/dev/null 2>&1 || true
  done
}

# The ports of the nodes that take writes (answer and are not in recovery), one a line.
writable_ports() {
  for n in 1 2; do
    local port
    port=$(node_port "$n")
    if [ "$(psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -qAt -c 'select pg_is_in_recovery()' 2>/dev/null)" = f ]; then
      echo "$port"
    fi
  done
}

# The one node that takes writes. Two that do are a split brain (the old primary not yet down, or
# pg_auto_failover 2.0 leaving both read-write under load: hapostgres/pg_auto_failover#1032): the
# data of either may be thrown away, so which one "the primary" is cannot be answered.
primary_port() {
  local ports
  ports=$(writable_ports)
  [ -n "$ports" ] || return 1
  if [ "$(echo "$ports" | wc -l)" -gt 1 ]; then
    echo "two nodes take writes (split brain): $(echo "$ports" | tr '\n' ' ')" >&2
    return 3
  fi
  echo "$ports"
}

# Waits until the monitor reports one primary and one secondary and one node only takes writes.
settle() {
  wait_pair
  for _ in $(seq 1 60); do
    [ "$(writable_ports | wc -l)" = 1 ] && return 0
    sleep 1
  done
  echo "the pair formed, but $(writable_ports | wc -l) nodes take writes" >&2
  return 1
}

state() { autoctl show state --monitor "$monitor_url"; }

case "${1:-}" in
  start)
    install
    mkdir -p "$root" && chown postgres:postgres "$root"
    start_monitor
    start_node 1
    # The second node is created once the first is the primary (its base backup is taken from it).
    for _ in $(seq 1 60); do primary_port >/dev/null && break; sleep 1; done
    start_node 2
    wait_pair
    tune_nodes
    ;;
  uri)
    echo "postgres://postgres@127.0.0.1:$(node_port 1),127.0.0.1:$(node_port 2)/omni?target_session_attrs=read-write"
    ;;
  monitor-uri) echo "$monitor_url" ;;
  createdb)
    name=${2:?createdb NAME}
    psql -h 127.0.0.1 -p "$(primary_port)" -U postgres -d postgres -qAt -c "create database \"$name\"" >/dev/null
    echo "postgres://postgres@127.0.0.1:$(node_port 1),127.0.0.1:$(node_port 2)/$name?target_session_attrs=read-write"
    ;;
  dropdb)
    name=${2:?dropdb NAME}
    psql -h 127.0.0.1 -p "$(primary_port)" -U postgres -d postgres -qAt -c "drop database if exists \"$name\" with (force)" >/dev/null
    ;;
  state) state ;;
  events) autoctl show events --monitor "$monitor_url" --count 40 ;;
  primary) primary_port ;;
  settle) settle ;;
  kill-primary)
    # The node's whole process tree at once, as a crash of its machine: its keeper (which would
    # start PostgreSQL again), the keeper's supervisor and PostgreSQL.
    port=$(primary_port)
    n=$((port - base))
    victims=$(pgrep -u postgres -f "^pg_autoctl run --pgdata $root/node$n\$" || true)
    for pid in $victims; do victims="$victims $(pgrep -P "$pid" | tr '\n' ' ')"; done
    victims="$victims $(head -1 "$root/node$n/postmaster.pid")"
    # shellcheck disable=SC2086
    kill -KILL $victims
    echo "$port"
    ;;
  switchover)
    # pg_autoctl returns once the old primary has rejoined as the secondary (rewound, restarted,
    # caught up), long after writes are back: under load that took up to 111 s, past its default
    # wait of 60 s, and it failed a switchover that had gone well.
    autoctl perform switchover --monitor "$monitor_url" --formation default --group 0 --wait 180
    ;;
  heal)
    start_monitor
    for n in 1 2; do start_node "$n"; done
    wait_pair
    tune_nodes
    ;;
  stop)
    for d in node2 node1 monitor; do
      [ -d "$root/$d" ] && autoctl stop --pgdata "$root/$d" >/dev/null 2>&1 || true
    done
    ;;
  *)
    sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
