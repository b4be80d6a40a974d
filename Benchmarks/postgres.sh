#!/usr/bin/env bash
# The PostgreSQL benchmarks: starts a throw-away PostgreSQL 15 on 127.0.0.1 (fsync on, the
# defaults), builds Benchmarks/Postgres in release mode, runs it, stops the server. Writes
# BENCHMARKS-POSTGRES.md at the root unless --quick (a smoke run at tiny sizes) is given; other
# arguments go to the benchmark executable. Run it as root, on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/Postgres"
pg_bin=/usr/lib/postgresql/15/bin
[[ -x $pg_bin/initdb ]] || { echo "postgres.sh: PostgreSQL 15 not found (apt-get install -y postgresql)" >&2; exit 1; }
rm -f .build/*/description.json  # see run.sh: a path dependency's new files need a new plan
swift build -c release --product typed-events-postgres-benchmarks
bin=$(swift build -c release --show-bin-path)

dir=$(mktemp -d)
chown postgres "$dir"
port=${TYPEDEVENTS_BENCH_POSTGRES_PORT:-55441}
runuser -u postgres -- "$pg_bin/initdb" -D "$dir/data" -U postgres --auth=trust > "$dir/initdb.log"
trap 'runuser -u postgres -- "$pg_bin/pg_ctl" -D "$dir/data" -m fast stop > /dev/null 2>&1 || true; rm -rf "$dir"' EXIT
runuser -u postgres -- "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" start > /dev/null

output=()
[[ " $* " == *" --quick "* ]] || output=(--output ../../BENCHMARKS-POSTGRES.md)
TYPEDEVENTS_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres" "$bin/typed-events-postgres-benchmarks" "$@" "${output[@]}"
