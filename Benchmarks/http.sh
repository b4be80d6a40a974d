#!/usr/bin/env bash
# The HTTP benchmarks: builds Benchmarks/HTTP in release mode and runs it (fan-out against a bare
# Hummingbird handler, batch POST against the store's batch append on an EventLog and on a
# throw-away PostgreSQL 15 on 127.0.0.1 started by with-postgres.sh, append → bus latency).
# Writes BENCHMARKS-HTTP.md at the root unless --quick (a smoke run at tiny sizes), --only CASE
# (one case, to profile it) or --server http1 (every server on Hummingbird's .http1() instead of
# the example's .http1OnEventLoop()) is given. Run it as root, on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/HTTP"
rm -f .build/*/description.json  # see run.sh: a path dependency's new files need a new plan
swift build -c release --product typed-events-http-benchmarks
bin=$(swift build -c release --show-bin-path)
output=()
[[ " $* " == *" --quick "* || " $* " == *" --only "* || " $* " == *" --server "* ]] || output=(--output ../../BENCHMARKS-HTTP.md)
../with-postgres.sh "$bin/typed-events-http-benchmarks" "$@" "${output[@]}"
