#!/usr/bin/env bash
# Runs a command with a throw-away PostgreSQL 15 on 127.0.0.1 (fsync on, the defaults) and
# TYPEDEVENTS_POSTGRES_URL naming it; stops and removes the server however the command ends.
# Used by postgres.sh and http.sh. Run it as root (the server runs as the user postgres).
# Usage: with-postgres.sh COMMAND [ARGUMENT...]
set -euo pipefail
pg_bin=/usr/lib/postgresql/15/bin
[[ -x $pg_bin/initdb ]] || { echo "with-postgres.sh: PostgreSQL 15 not found (apt-get install -y postgresql)" >&2; exit 1; }
dir=$(mktemp -d)
chown postgres "$dir"
port=${TYPEDEVENTS_BENCH_POSTGRES_PORT:-55441}
runuser -u postgres -- "$pg_bin/initdb" -D "$dir/data" -U postgres --auth=trust > "$dir/initdb.log"
trap 'runuser -u postgres -- "$pg_bin/pg_ctl" -D "$dir/data" -m fast stop > /dev/null 2>&1 || true; rm -rf "$dir"' EXIT
runuser -u postgres -- "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" start > /dev/null
TYPEDEVENTS_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres" "$@"
