#!/usr/bin/env bash
# Measures what generated code costs to compile: for each size, generates N events of 10 fields
# (make-schemas.py) into a fresh package that depends on TypedEvents by path, then times a clean
# debug build of the generated target alone and lists function bodies that take over 100 ms to
# type-check. Usage: compile-cost.sh [SIZES…] (default: 100 500 2000); FILES=K spreads the
# events over K schema files; SHAPE=naive measures the hand-written baseline shape instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100 500 2000)
files=${FILES:-1}
shape=${SHAPE:-generated}
work=${WORK:-$(mktemp -d)}
swift build -c release --package-path "$root" --product eventgen > /dev/null
mkdir -p "$work/Bench/Sources/Gen"
cat > "$work/Bench/Package.swift" <<PKG
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "Bench",
  dependencies: [.package(name: "TypedEvents", path: "$root")],
  targets: [.target(name: "Gen", dependencies: [.product(name: "TypedEvents", package: "TypedEvents")])]
)
PKG
cd "$work/Bench"
# Build the dependencies and warm the module caches once, so that every size pays the same.
printf 'import Foundation\nimport TypedEvents\n' > Sources/Gen/Placeholder.swift
flags=(-Xswiftc -Xfrontend -Xswiftc -warn-long-function-bodies=100)
swift build "${flags[@]}" > /dev/null 2>&1  # same flags as the timed builds, or they rebuild everything
rm Sources/Gen/Placeholder.swift
printf '| shape | events | files | lines | clean debug build of the target (s) | bodies over 100 ms |\n|---|---|---|---|---|---|\n'
for size in "${sizes[@]}"; do
  rm -rf "$work/schemas" Sources/Gen/*.swift
  if [ "$shape" = naive ]; then
    python3 "$root/Benchmarks/make-schemas.py" "$size" Sources/Gen --naive-swift
  else
    python3 "$root/Benchmarks/make-schemas.py" "$size" "$work/schemas" --files "$files"
    "$root/.build/release/eventgen" generate "$work/schemas" --output Sources/Gen > /dev/null
  fi
  lines=$(cat Sources/Gen/*.swift | wc -l)
  start=$(date +%s.%N)
  swift build --target Gen "${flags[@]}" > "$work/build-$size.log" 2>&1 \
    || { cat "$work/build-$size.log" >&2; exit 1; }
  end=$(date +%s.%N)
  slow=$(grep -c "took [0-9]*ms to type-check" "$work/build-$size.log" || true)
  printf '| %s | %s | %s | %s | %.1f | %s |\n' "$shape" "$size" "$files" "$lines" "$(awk "BEGIN { print $end - $start }")" "$slow"
  grep "took [0-9]*ms to type-check" "$work/build-$size.log" | sed 's/^/    /' | head -5 || true
done
