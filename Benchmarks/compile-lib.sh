# Helpers that compile-cost.sh and rebuild-cost.sh share: a client package that depends on
# TypedEvents by path, a release eventgen, and timing a command's wall and CPU time. Sourced,
# not run.

# release_eventgen: prints the path of a release eventgen: EVENTGEN when set (run.sh passes the
# one it times), else the root package's, built here.
release_eventgen() {
  if [ -n "${EVENTGEN:-}" ]; then
    echo "$EVENTGEN"
  else
    swift build -c release --package-path "$root" --product eventgen > /dev/null
    echo "$root/.build/release/eventgen"
  fi
}

# make_package DIR [plugin]: a package with one target `Gen` in DIR; with "plugin", the target
# lists EventGenPlugin, as a user of the build-tool plugin writes it.
make_package() {
  local dir=$1 plugins=""
  [ "${2:-}" = plugin ] && plugins=', plugins: [.plugin(name: "EventGenPlugin", package: "TypedEvents")]'
  mkdir -p "$dir/Sources/Gen"
  cat > "$dir/Package.swift" <<PKG
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "Bench",
  dependencies: [.package(name: "TypedEvents", path: "$root")],
  targets: [.target(name: "Gen", dependencies: [.product(name: "TypedEvents", package: "TypedEvents")]$plugins)]
)
PKG
}

# timed LOG CMD…: runs CMD with its output in LOG and prints "WALL CPU" in seconds, CPU being
# user + system time of CMD and every process it waited for (the compiler jobs). Exits on failure.
# CMD runs in a fixed environment: SwiftPM keys its cache of compiled plugins on the whole
# environment, `_` and OLDPWD included, so a build started through /usr/bin/time or after a `cd`
# elsewhere recompiles every plugin in the graph (about 2 s here, then more). A build that is
# not timed must run through `timed` too, or the next timed build pays for the difference.
timed() {
  local log=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$log.time" env -i PATH="$PATH" HOME="$HOME" LANG=C.UTF-8 "$@" > "$log" 2>&1 \
    || { cat "$log" >&2; echo "failed: $*" >&2; exit 1; }
  awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$log.time"
}

# slow_bodies LOG: how many distinct function bodies the log reports over the type-check limit
# (the compiler prints each diagnostic twice, once as a source excerpt: count the first form).
slow_bodies() {
  grep -E '^[^ |].*:[0-9]+:[0-9]+: warning: .* took [0-9]+ms to type-check' "$1" | sort -u | wc -l
}

# The frontend flag that reports slow function bodies; the same on every build of a package, or
# SwiftPM rebuilds everything when it changes.
long_bodies=(-Xswiftc -Xfrontend -Xswiftc -warn-long-function-bodies=100)
