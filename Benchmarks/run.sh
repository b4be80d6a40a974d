#!/usr/bin/env bash
# Builds the benchmarks in release mode and runs them; writes BENCHMARKS.md. Arguments go to the
# benchmark executable (--quick, --only PART,…, --output FILE). Allocations are counted by a
# separate executable that the driver runs with the malloc interposer preloaded; the timed runs
# never load it.
# BENCHMARK_CONFIGURATION=debug builds them without optimization, for CI's smoke run (--quick),
# whose numbers mean nothing anyway: it checks that every part builds and runs, in a third of
# the time a release build takes.
set -euo pipefail
cd "$(dirname "$0")"  # Benchmarks/
configuration=${BENCHMARK_CONFIGURATION:-release}
# SwiftPM reuses its build plan while no manifest changes, and so misses source files added to a
# path dependency (TypedEvents itself): drop the plan so that it is made anew.
rm -f .build/*/description.json .build/*/plugin-tools-description.json
command -v valgrind > /dev/null || echo "run.sh: valgrind not found: no instruction counts (apt-get install -y valgrind)" >&2
swift build -c "$configuration" --product typed-events-benchmarks
swift build -c "$configuration" --product typed-events-allocations
bin=$(swift build -c "$configuration" --show-bin-path)
# The generator and build parts time a release eventgen. The build-tool plugin has just built
# one for BenchmarkEvents, as a host tool that SwiftPM names eventgen-tool: building the product
# (and the root package's, in the build scripts) would compile the same sources twice more.
if [[ -x $bin/eventgen-tool ]]; then
  export EVENTGEN=$bin/eventgen-tool
else
  swift build -c "$configuration" --product eventgen
  export EVENTGEN=$bin/eventgen
fi
"$bin/typed-events-benchmarks" "$@"
