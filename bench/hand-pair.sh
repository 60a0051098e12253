#!/usr/bin/env bash
# The benchmarks' second server configuration: a MariaDB 11.4 source and target started by hand,
# each `mariadbd --no-defaults` with a 1 GB buffer pool, the default redo log and local_infile on,
# the source with a ROW binlog; both on 127.0.0.1 (docs/benchmarks.md, "Method").
#
#   bench/hand-pair.sh start DIR    # data directories under DIR (created from jdm's template once)
#   bench/hand-pair.sh stop DIR
#
# Then give the bench file the two servers by address instead of `embedded`:
#
#   source: {host: 127.0.0.1, port: 33903, user: root, password: "${JDM_HAND_PASSWORD:-}"}
#   target: {host: 127.0.0.1, port: 33904, user: root, password: "${JDM_HAND_PASSWORD:-}"}
#
# Ports: JDM_HAND_SOURCE_PORT (33903) and JDM_HAND_TARGET_PORT (33904). root (over TCP from
# 127.0.0.1, which the server names localhost) gets the password in JDM_HAND_PASSWORD (empty when unset: these servers listen on 127.0.0.1 only and are
# for benchmarks). The MariaDB binaries are the ones `./jdm demo` unpacks into ~/.cache/jdm (or
# $JDM_CACHE).
set -euo pipefail
cmd="${1:-}"
dir="${2:-}"
if [ -z "$dir" ] || { [ "$cmd" != start ] && [ "$cmd" != stop ]; }; then
  echo "usage: bench/hand-pair.sh start|stop DIR" >&2
  exit 2
fi
cache="${JDM_CACHE:-$HOME/.cache/jdm}"
base="$cache/mariadb-11.4.5"
template="$cache/mariadb-11.4.5-datadir"
ports=("${JDM_HAND_SOURCE_PORT:-33903}" "${JDM_HAND_TARGET_PORT:-33904}")
names=(source target)

if [ "$cmd" = stop ]; then
  for n in "${names[@]}"; do
    pidfile="$dir/$n.pid"
    if [ -f "$pidfile" ]; then
      pid="$(cat "$pidfile")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    fi
  done
  exit 0
fi

if [ ! -f "$template/.complete" ] || [ ! -x "$base/bin/mariadbd" ]; then
  echo "hand-pair: no MariaDB 11.4 in $cache; run ./jdm demo once, it unpacks it there" >&2
  exit 2
fi
pw="${JDM_HAND_PASSWORD:-}"
pw="${pw//\\/\\\\}"
pw="${pw//\'/\'\'}"
mkdir -p "$dir"
chmod 700 "$dir"
for i in 0 1; do
  n="${names[$i]}"
  port="${ports[$i]}"
  data="$dir/$n"
  if [ ! -d "$data" ]; then
    cp -r "$template" "$data"
    rm -f "$data/.complete"
  fi
  extra=(--server-id=$((i + 1)))
  if [ "$n" = source ]; then
    extra+=(--log-bin=mysql-bin --binlog-format=ROW)
  fi
  LD_LIBRARY_PATH="$base/libs" setsid "$base/bin/mariadbd" --no-defaults --user="$(id -un)" \
    --basedir="$base" --datadir="$data" --port="$port" --bind-address=127.0.0.1 \
    --socket="$dir/$n.sock" --pid-file="$dir/$n.pid" --innodb-buffer-pool-size=1G \
    --local-infile=1 --max-allowed-packet=64M "${extra[@]}" > "$dir/$n.log" 2>&1 < /dev/null &
done
for i in 0 1; do
  n="${names[$i]}"
  for _ in $(seq 1 120); do
    [ -S "$dir/$n.sock" ] && break
    sleep 0.5
  done
  if [ ! -S "$dir/$n.sock" ]; then
    echo "hand-pair: the $n did not start; see $dir/$n.log" >&2
    exit 1
  fi
  LD_LIBRARY_PATH="$base/libs" "$base/bin/mariadb" --no-defaults --skip-ssl -S "$dir/$n.sock" -uroot -e "
    ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('$pw');
    CREATE USER IF NOT EXISTS 'root'@'127.0.0.1';
    ALTER USER 'root'@'127.0.0.1' IDENTIFIED BY '$pw';
    GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
  echo "hand-pair: $n on 127.0.0.1:${ports[$i]} (1 GB buffer pool), data in $dir/$n"
done
