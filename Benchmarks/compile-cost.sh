#!/usr/bin/env bash
# What generated code costs to compile, against the naive shape, built the same way.
#
# For each size, writes N events of 10 fields (make-schemas.py) as schemas for eventgen, or as
# the naive shape split into as many Swift files as eventgen writes for them (two per schema
# file), into a package that depends on TypedEvents by path; then times a clean build of that
# target alone (its dependencies built beforehand), with the same -j for both shapes, and counts
# function bodies that take over 100 ms to type-check.
#
# Usage: compile-cost.sh [SIZE…] (default 300). Environment: SHAPES (default "generated naive"),
# MODES ("debug release"), REPS (3), JOBS (2), FILES (schema files, 1).
# Prints tab-separated rows: clean SHAPE MODE EVENTS SCHEMA_FILES SWIFT_FILES LINES REP WALL CPU SLOW
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
swift build -c release --package-path "$root" --product eventgen > /dev/null
eventgen="$root/.build/release/eventgen"
make_package "$work/Bench"
cd "$work/Bench"
for mode in "${modes[@]}"; do
  # Build the dependencies once per mode, with the timed builds' flags, so every row pays the same.
  printf 'import Foundation\nimport TypedEvents\n' > Sources/Gen/Placeholder.swift
  swift build -c "$mode" -j "$jobs" "${long_bodies[@]}" > "$work/warm.log" 2>&1 || { cat "$work/warm.log" >&2; exit 1; }
  rm Sources/Gen/Placeholder.swift
  for size in "${sizes[@]}"; do
    for shape in "${shapes[@]}"; do
      rm -rf "$work/schemas" Sources/Gen/*.swift
      if [ "$shape" = naive ]; then
        python3 "$root/Benchmarks/make-schemas.py" "$size" Sources/Gen --naive-swift --files "$files"
      else
        python3 "$root/Benchmarks/make-schemas.py" "$size" "$work/schemas" --files "$files"
        "$eventgen" generate "$work/schemas" --output Sources/Gen > /dev/null
      fi
      swift_files=$(ls Sources/Gen/*.swift | wc -l)
      lines=$(cat Sources/Gen/*.swift | wc -l)
      for rep in $(seq 1 "$reps"); do
        # A clean build of the target alone: its build folder goes, its dependencies stay.
        rm -rf ".build/$mode/Gen.build" ".build/$mode/Modules/Gen."*
        read -r wall cpu < <(timed "$work/build.log" swift build -c "$mode" -j "$jobs" --target Gen "${long_bodies[@]}")
        printf 'clean\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
          "$shape" "$mode" "$size" "$files" "$swift_files" "$lines" "$rep" "$wall" "$cpu" "$(slow_bodies "$work/build.log")"
      done
    done
  done
done
