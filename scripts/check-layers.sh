#!/usr/bin/env bash
# Proves that the build refuses an undeclared import, so that the layer rules of Package.swift
# (docs/ARCHITECTURE.md) are the compiler's, not a habit: in a scratch copy of the package, `Time`
# (which may import nothing) is given `import ArgumentParsing`, and building it with the flags
# every build of the Makefile uses must fail with SwiftPM's "without declaring it a dependency".
# Time and ArgumentParsing depend on nothing, so the check compiles two small modules (seconds).
#
#   scripts/check-layers.sh FLAG...     (the Makefile passes $(SWIFT_FLAGS))
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="$(mktemp -d)"; trap 'rm -rf "$scratch"' EXIT
# The manifest names every target's folder, so the copy holds them all (sources only, no .build).
(cd "$root" && tar -cf - Package.swift Sources Tests bench/Sources) | tar -xf - -C "$scratch"
printf 'import ArgumentParsing\n' >>"$scratch/Sources/Time/Day.swift"
# ArgumentParsing is built first, as it would be in a whole build: without the flag, Time then finds
# its module in the build folder and the undeclared import builds.
(cd "$scratch" && swift build --target ArgumentParsing >/dev/null 2>&1)
if output="$(cd "$scratch" && swift build --target Time "$@" 2>&1)"; then
    echo "check-layers: an undeclared import (Time -> ArgumentParsing) built; the layer rules are not enforced" >&2
    exit 1
fi
if ! grep -q "Target Time imports another target (ArgumentParsing) in the package without declaring it" <<<"$output"; then
    echo "check-layers: the planted import failed the build for another reason:" >&2
    echo "$output" | tail -20 >&2
    exit 1
fi
echo "check-layers: an undeclared import is a build error"
