#!/usr/bin/env bash
# Builds the write benchmarks in release mode and runs them: EventLog appends from 1, 4, 16 and 64
# concurrent tasks against a bare write + fsync loop on the same filesystem. Writes
# BENCHMARKS-WRITES.md. Arguments go to the executable (--quick, --output FILE).
# BENCHMARK_CONFIGURATION=debug builds without optimization, for CI's smoke run (--quick).
set -euo pipefail
cd "$(dirname "$0")"  # Benchmarks/
configuration=${BENCHMARK_CONFIGURATION:-release}
rm -f .build/*/description.json .build/*/plugin-tools-description.json
swift build -c "$configuration" --product typed-events-write-benchmarks
"$(swift build -c "$configuration" --show-bin-path)/typed-events-write-benchmarks" "$@"
