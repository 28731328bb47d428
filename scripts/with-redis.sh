#!/usr/bin/env bash
# Runs a command with a throwaway redis-server on a free loopback port, exported as
# CARTWISE_TEST_REDIS_URL, and stops that server afterwards — also when the command fails.
# 64 databases: each parallel test worker flushes only its own (tests/conftest.py).
set -euo pipefail
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
workdir=$(mktemp -d)
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --databases 64 \
  --dir "$workdir" --daemonize yes --pidfile "$workdir/redis.pid" --logfile "$workdir/redis.log"
stop() {
  if [ -f "$workdir/redis.pid" ]; then kill "$(cat "$workdir/redis.pid")" 2>/dev/null || true; fi
  rm -rf "$workdir"
}
trap stop EXIT
for _ in $(seq 1 50); do
  redis-cli -p "$port" ping >/dev/null 2>&1 && break
  sleep 0.1
done
export CARTWISE_TEST_REDIS_URL="redis://127.0.0.1:$port/0"
echo "redis-server on $CARTWISE_TEST_REDIS_URL"
"$@"
