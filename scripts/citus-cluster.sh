#!/usr/bin/env bash
# A Citus cluster for this project on this machine (docs/operations.md, "Citus"): installs Citus
# into PostgreSQL 15 and runs a coordinator (127.0.0.1:5440) and two workers (:5441, :5442) with
# ../shared/citus (its README), then sets what Citus's online operations need on every node: the
# logical decoding plugin allowed (this machine's PostgreSQL accepts only the plugins that
# output_plugin_libraries names) and room for background workers (each Citus database keeps a
# maintenance worker on every node, and an online shard move or distribution runs logical
# replication workers), restarting the nodes when a setting had to change.
#   scripts/citus-cluster.sh start           install (first time), start, set the nodes up
#   scripts/citus-cluster.sh createdb NAME   a Citus database on every node; prints its URL
#   scripts/citus-cluster.sh dropdb NAME     drop it on every node
#   scripts/citus-cluster.sh clean           drop every database of the suite's (omni_*) a run left
#   scripts/citus-cluster.sh stop
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The kit: CITUS_DIR, else ../shared/citus beside the checkout, else the workplace's own copy
# (/work/shared/citus), which a clone made elsewhere (a CI checkout) finds there.
citus=${CITUS_DIR:-}
if [ -z "$citus" ]; then
  for candidate in "$here/../../shared/citus" /work/shared/citus; do
    [ -f "$candidate/cluster.sh" ] && { citus=$candidate; break; }
  done
fi
base=${CITUS_PORT:-5440}
[ -n "$citus" ] && [ -f "$citus/cluster.sh" ] || { echo "no Citus kit at ../shared/citus or /work/shared/citus (set CITUS_DIR)" >&2; exit 2; }
case "${1:-}" in
  start)
    bash "$citus/install.sh"
    bash "$citus/cluster.sh" start
    restart=
    for port in "$base" $((base + 1)) $((base + 2)); do
      q() { psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -qAt "$@"; }
      case "$(q -c 'show output_plugin_libraries' 2>/dev/null || true)" in
        *citus*|'') ;;
        *) q -c "alter system set output_plugin_libraries = pgoutput, test_decoding, citus" -c "select pg_reload_conf()" >/dev/null ;;
      esac
      for setting in max_worker_processes=32 max_logical_replication_workers=16 max_replication_slots=32 max_wal_senders=32; do
        name=${setting%%=*}; value=${setting#*=}
        if [ "$(q -c "show $name")" -lt "$value" ]; then
          q -c "alter system set $name = $value" >/dev/null; restart=1
        fi
      done
    done
    if [ -n "$restart" ]; then
      for n in 0 1 2; do pg_ctlcluster 15 "citus$n" restart; done
      for port in "$base" $((base + 1)) $((base + 2)); do
        for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 1; done
      done
    fi;;
  clean)
    # A run stopped in an online operation may leave logical replication behind it: its
    # subscriptions and slots go first, or the database cannot be dropped.
    for port in "$base" $((base + 1)) $((base + 2)); do
      q() { psql -h 127.0.0.1 -p "$port" -U postgres -qAt "$@"; }
      for db in $(q -d postgres -c "select datname from pg_database where datname like 'omni\_%'"); do
        for sub in $(q -d "$db" -c "select subname from pg_subscription s join pg_database d on d.oid = s.subdbid where d.datname = current_database()" 2>/dev/null); do
          q -d "$db" -c "alter subscription \"$sub\" disable" -c "alter subscription \"$sub\" set (slot_name = none)" -c "drop subscription \"$sub\"" >/dev/null 2>&1 || true
        done
        q -d postgres -c "select pg_drop_replication_slot(slot_name) from pg_replication_slots where database = '$db' and not active" >/dev/null 2>&1 || true
        q -d postgres -c "drop database if exists \"$db\" with (force)" >/dev/null || echo "could not drop $db on :$port" >&2
      done
      # Roles an interrupted shard move or online distribution made (roles belong to no database).
      for role in $(q -d postgres -c "select rolname from pg_roles where rolname like 'citus\_shard\_%'"); do
        q -d postgres -c "drop role if exists \"$role\"" >/dev/null 2>&1 || true
      done
    done;;
  createdb|dropdb|stop)
    bash "$citus/cluster.sh" "$@";;
  *) echo "usage: $0 start|stop|clean|createdb NAME|dropdb NAME" >&2; exit 2;;
esac
