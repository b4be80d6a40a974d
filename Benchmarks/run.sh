#!/usr/bin/env bash
# Runs every benchmark and writes BENCHMARKS.md. On Linux the malloc interposer is preloaded so
# that allocations per operation are counted. Arguments go to the benchmark executable
# (--quick, --skip-compile, --output FILE).
set -euo pipefail
cd "$(dirname "$0")"  # Benchmarks/
swift build -c release --product typed-events-benchmarks
swift build -c release --product eventgen
bin=$(swift build -c release --show-bin-path)
if [ -f "$bin/libMallocInterposerSwift.so" ]; then
  export LD_PRELOAD="$bin/libMallocInterposerSwift.so"
fi
"$bin/typed-events-benchmarks" "$@"
