#!/usr/bin/env python3
"""The package's module graph, read from `swift package dump-package` (Package.swift is the one copy).

    package_graph.py deps MODULE        the package modules MODULE depends on (C system modules left out)
    package_graph.py closure FILE...    the package modules the files import, with everything they
                                        depend on, in dependency order (a module after its dependencies)

fuzz/build.sh compiles the fuzz targets' modules with swiftc itself, so it needs the same graph
SwiftPM uses; reading it from the manifest keeps one copy of it.
"""
import json
import re
import subprocess
import sys

manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True,
                                     capture_output=True, text=True).stdout)
targets = {target["name"]: target for target in manifest["targets"]}
regular = {name for name, target in targets.items() if target["type"] == "regular"}


def dependencies(name):
    """The regular (Swift library) targets `name` declares, in the manifest's order."""
    found = []
    for dependency in targets[name]["dependencies"]:
        (value,) = dependency.values()
        if value[0] in regular:
            found.append(value[0])
    return found


def closure(roots):
    ordered, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        for dependency in dependencies(name):
            visit(dependency)
        ordered.append(name)

    for root in roots:
        visit(root)
    return ordered


if sys.argv[1] == "deps":
    print(" ".join(dependencies(sys.argv[2])))
elif sys.argv[1] == "closure":
    imported = []
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as source:
            for line in source:
                match = re.match(r"\s*(?:@testable\s+)?import\s+(\w+)", line)
                if match and match.group(1) in regular and match.group(1) not in imported:
                    imported.append(match.group(1))
    print(" ".join(closure(imported)))
else:
    sys.exit("usage: package_graph.py deps MODULE | closure FILE...")
