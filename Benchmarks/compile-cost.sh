#!/usr/bin/env bash
# What generated code costs to compile, against the naive shape, built the same way.
#
# For each size, writes N events of 10 fields (make-schemas.py) as schemas for eventgen, or as
# the naive shape split into as many Swift files as eventgen writes for them (one per schema
# file), into a package that depends on TypedEvents by path; then times a clean build of that
# target alone (its dependencies built beforehand), with the same -j for both shapes, and counts
# function bodies that take over 100 ms to type-check.
#
# Usage: compile-cost.sh [SIZE…] (default 300). Environment: SHAPES (default "generated naive"),
# MODES ("debug release"), REPS (3), JOBS (2), FILES (schema files, 1).
# Prints tab-separated rows: clean SHAPE MODE EVENTS SCHEMA_FILES SWIFT_FILES LINES REP WALL CPU SLOW,
# and per mode the "no-op build" rows: SwiftPM's own share of each build (nothing to compile).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/Benchmarks/compile-lib.sh"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(300)
shapes=(${SHAPES:-generated naive})
modes=(${MODES:-debug release})
reps=${REPS:-3}
jobs=${JOBS:-2}
files=${FILES:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eventgen=$(release_eventgen)
# Not "Bench": a package's identity is its folder's name, and a TypedEvents checkout in a folder
# named "bench" would then clash with it.
make_package "$work/compile-cost-client"
cd "$work/compile-cost-client"
# write_shape SHAPE SIZE: the target's sources for one shape.
write_shape() {
  rm -rf "$work/schemas" Sources/Gen/*.swift
  if [ "$1" = naive ]; then
    python3 "$root/Benchmarks/make-schemas.py" "$2" Sources/Gen --naive-swift --files "$files"
  else
    python3 "$root/Benchmarks/make-schemas.py" "$2" "$work/schemas" --files "$files"
    "$eventgen" generate "$work/schemas" --output Sources/Gen > /dev/null
  fi
}
for mode in "${modes[@]}"; do
  # Build the dependencies once per mode, with the timed builds' flags, so every row pays the same.
  printf 'import Foundation\nimport TypedEvents\n' > Sources/Gen/Placeholder.swift
  timed "$work/warm.log" swift build -c "$mode" -j "$jobs" "${long_bodies[@]}" > /dev/null
  # SwiftPM's own share of every timed build: a build with nothing to do (start, plan, check).
  for rep in $(seq 1 "$reps"); do
    out=$(timed "$work/noop.log" swift build -c "$mode" -j "$jobs" --target Gen "${long_bodies[@]}")
    read -r wall cpu <<< "$out"
    printf 'clean\tno-op build\t%s\t0\t0\t1\t2\t%s\t%s\t%s\t0\n' "$mode" "$rep" "$wall" "$cpu"
  done
  rm Sources/Gen/Placeholder.swift
  for size in "${sizes[@]}"; do
    # Shapes take turns within each repetition, so that a slow spell of the machine hits both.
    for rep in $(seq 1 "$reps"); do
      for shape in "${shapes[@]}"; do
        write_shape "$shape" "$size"
        swift_files=$(ls Sources/Gen/*.swift | wc -l)
        lines=$(cat Sources/Gen/*.swift | wc -l)
        # A clean build of the target alone: its build folder goes, its dependencies stay.
        rm -rf ".build/$mode/Gen.build" ".build/$mode/Modules/Gen."*
        out=$(timed "$work/build.log" swift build -c "$mode" -j "$jobs" --target Gen "${long_bodies[@]}")
        read -r wall cpu <<< "$out"
        printf 'clean\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
          "$shape" "$mode" "$size" "$files" "$swift_files" "$lines" "$rep" "$wall" "$cpu" "$(slow_bodies "$work/build.log")"
      done
    done
  done
done
