#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/targets/ into .build/fuzz/<name> (see docs/FUZZING.md).
#
# SwiftPM cannot build them: an executable target brings its own `main`, and libFuzzer's runtime
# brings another. So the product modules are compiled here with swiftc, whole-module, with
# coverage instrumentation (-sanitize=fuzzer) and AddressSanitizer, as objects plus a
# .swiftmodule each; every target is then one file linked against them.
#
# Usage: fuzz/build.sh [TARGET...]   (default: every target)
# Environment: FUZZ_OPT (default -O) sets the optimisation level of every module.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

out=.build/fuzz
objects="$out/obj"
modules="$out/modules"
mkdir -p "$objects" "$modules"

optimisation="${FUZZ_OPT:--O}"
# Swift 6 mode as in Package.swift; -g so that crash reports name files and lines.
# Every system-library module map of the package (Sources/C*), so a new one needs no edit here.
system_modules=()
for map in Sources/C*/module.modulemap; do system_modules+=(-I "$(dirname "$map")"); done
# librsvg's header needs GLib's and cairo's include folders (SwiftPM reads them from pkg-config);
# libpq's header lives in /usr/include/postgresql.
for flag in $(pkg-config --cflags-only-I librsvg-2.0 libpq); do system_modules+=(-Xcc "$flag"); done
common=(-swift-version 6 -parse-as-library -sanitize=fuzzer,address "$optimisation" -g
        "${system_modules[@]}" -I "$modules")
# lld: gold warns about every ASan check symbol it cannot export.
libraries=(-use-ld=lld -lsqlite3 -lpq -lxlsxwriter -lcrypto -lz -lrsvg-2 -lcairo -lgobject-2.0 -lglib-2.0)

# The module graph comes from Package.swift (fuzz/package_graph.py reads `swift package
# dump-package`), so a dependency added there needs no edit here.
graph="$out/graph"; mkdir -p "$graph"
if [ ! -f "$graph/stamp" ] || [ Package.swift -nt "$graph/stamp" ]; then rm -f "$graph"/*; touch "$graph/stamp"; fi
# What each target links, in dependency order: the modules its file imports and theirs.
modules_of() {
    [ "$graph/target-$1" -nt "fuzz/targets/$1.swift" ] || python3 fuzz/package_graph.py closure "fuzz/targets/$1.swift" >"$graph/target-$1"
    cat "$graph/target-$1"
}
# The package modules a module depends on (its rebuild follows theirs).
dependencies_of() {
    [ -f "$graph/module-$1" ] || python3 fuzz/package_graph.py deps "$1" >"$graph/module-$1"
    cat "$graph/module-$1"
}

# Compiles module $1 (Sources/$1) unless its stamp is newer than every source and than the stamps
# of the modules it imports (a stamp, because swiftc keeps the old modification time of an object
# it rewrites unchanged).
build_module() {
    local name="$1" object="$objects/$1.o" stamp="$objects/$1.stamp"
    local sources dependency_stamps=()
    mapfile -t sources < <(find "Sources/$name" -name '*.swift' | LC_ALL=C sort)
    for dependency in $(dependencies_of "$name"); do dependency_stamps+=("$objects/$dependency.stamp"); done
    if [ -f "$object" ] && [ -f "$stamp" ] && [ -z "$(find "${sources[@]}" "${dependency_stamps[@]}" fuzz/build.sh -newer "$stamp" | head -1)" ]; then
        return
    fi
    echo "fuzz/build.sh: compiling $name (${#sources[@]} files)"
    swiftc "${common[@]}" -module-name "$name" -wmo -c -o "$object" \
        -emit-module -emit-module-path "$modules/$name.swiftmodule" "${sources[@]}"
    touch "$stamp"
}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(find fuzz/targets -name '*.swift' -exec basename {} .swift \; | LC_ALL=C sort)
fi

for target in "${targets[@]}"; do
    source="fuzz/targets/$target.swift"
    [ -f "$source" ] || { echo "fuzz/build.sh: no target $source" >&2; exit 2; }
    linked=()
    stamps=()
    for module in $(modules_of "$target"); do
        build_module "$module"
        linked+=("$objects/$module.o")
        stamps+=("$objects/$module.stamp")
    done
    if [ -f "$out/$target" ] && [ -z "$(find "$source" "${stamps[@]}" -newer "$out/$target" | head -1)" ]; then
        continue
    fi
    echo "fuzz/build.sh: linking $out/$target"
    swiftc "${common[@]}" -module-name "FuzzTarget_$target" "$source" "${linked[@]}" "${libraries[@]}" -o "$out/$target"
    touch "$out/$target"
done
