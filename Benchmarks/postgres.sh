#!/usr/bin/env bash
# The PostgreSQL benchmarks: builds Benchmarks/Postgres in release mode and runs it against a
# throw-away PostgreSQL 15 on 127.0.0.1 (with-postgres.sh: fsync on, the defaults). Writes
# BENCHMARKS-POSTGRES.md at the root unless --quick (a smoke run at tiny sizes) is given; other
# arguments go to the benchmark executable. Run it as root, on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/Postgres"
rm -f .build/*/description.json  # see run.sh: a path dependency's new files need a new plan
swift build -c release --product typed-events-postgres-benchmarks
bin=$(swift build -c release --show-bin-path)
output=()
[[ " $* " == *" --quick "* ]] || output=(--output ../../BENCHMARKS-POSTGRES.md)
../with-postgres.sh "$bin/typed-events-postgres-benchmarks" "$@" "${output[@]}"
