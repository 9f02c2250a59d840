#!/usr/bin/env python3
"""Checks CSV folders against their datapackage.json, the way a dashboard loader would use it.

For every folder given:
- `frictionless validate` (the Frictionless Data reference implementation) passes on its
  datapackage.json: every file is listed, every cell has its declared type, keys are unique;
- every file loads in DuckDB with column types taken from the schema alone (no sniffing), and in
  pandas with dtypes from the schema alone; each loaded column has the schema's type: strings stay
  text with their exact characters (`06000` stays `06000`), integers load as integers, datetimes
  as UTC instants, dates as dates, booleans as booleans;
- every datetime cell ends in `Z` (UTC) and a column has one number of fractional digits.

Prints one line per problem and exits 1 when there is any; prints
"ok N folders, M files, K columns" otherwise.
"""
import csv
import json
import os
import re
import subprocess
import sys

import duckdb
import pandas

DUCKDB_TYPES = {
    "string": "VARCHAR",
    "integer": "BIGINT",
    "number": "DOUBLE",
    "boolean": "BOOLEAN",
    "date": "DATE",
    "datetime": "TIMESTAMP WITH TIME ZONE",
}
UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.(\d+))?Z$")


def pandas_load(path, schema, encoding):
    """A frame read with dtypes from the schema only."""
    fields = schema["fields"]
    missing = schema.get("missingValues", [""])
    dtypes, dates, stamps = {}, [], []
    for field in fields:
        kind = field["type"]
        if kind == "string":
            dtypes[field["name"]] = str
        elif kind == "integer":
            dtypes[field["name"]] = "Int64"
        elif kind == "number":
            dtypes[field["name"]] = "float64"
        elif kind == "boolean":
            dtypes[field["name"]] = "boolean"
        elif kind == "date":
            dtypes[field["name"]] = str
            dates.append(field["name"])
        elif kind == "datetime":
            dtypes[field["name"]] = str
            stamps.append(field["name"])
    frame = pandas.read_csv(
        path, dtype=dtypes, keep_default_na=False, na_values=missing, encoding=encoding,
        true_values=["true"], false_values=["false"])
    for name in dates:
        frame[name] = pandas.to_datetime(frame[name], format="%Y-%m-%d")
    for name in stamps:
        frame[name] = pandas.to_datetime(frame[name], utc=True, format="ISO8601")
    return frame


def check_folder(folder, problems):
    package_path = os.path.join(folder, "datapackage.json")
    if not os.path.exists(package_path):
        problems.append(f"{folder}: no datapackage.json")
        return 0, 0
    result = subprocess.run(
        ["frictionless", "validate", "--json", package_path], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        try:
            report = json.loads(result.stdout)
            errors = [
                f"{task.get('name')}: {error.get('message')}"
                for task in report.get("tasks", []) for error in task.get("errors", [])
            ]
        except json.JSONDecodeError:
            errors = [result.stdout[-2000:] + result.stderr[-2000:]]
        problems.append(f"{package_path}: frictionless validate fails: " + "; ".join(errors[:5]))
    with open(package_path, encoding="utf-8") as handle:
        package = json.load(handle)
    listed = {resource["path"] for resource in package["resources"]}
    on_disk = {name for name in os.listdir(folder) if name.endswith(".csv")}
    if listed != on_disk:
        problems.append(f"{folder}: datapackage.json lists {sorted(listed)}, the folder has {sorted(on_disk)}")
    files = columns = 0
    for resource in package["resources"]:
        path = os.path.join(folder, resource["path"])
        schema = resource["schema"]
        encoding = "utf-8-sig" if resource.get("encoding") == "utf-8-sig" else "utf-8"
        files += 1
        with open(path, newline="", encoding=encoding) as handle:
            rows = list(csv.reader(handle))
        header, body = rows[0], rows[1:]
        names = [field["name"] for field in schema["fields"]]
        if header != names:
            problems.append(f"{path}: header {header} is not the schema's fields {names}")
            continue
        # DuckDB from the schema alone: no sniffing of types.
        declared = {field["name"]: DUCKDB_TYPES[field["type"]] for field in schema["fields"]}
        try:
            relation = duckdb.read_csv(
                path, header=True, sep=",", quotechar='"', auto_detect=False, dtype=declared, columns=declared)
            described = dict(zip(relation.columns, [str(kind) for kind in relation.types]))
            duck_rows = relation.fetchall()
            frame = pandas_load(path, schema, encoding)
        except Exception as error:  # a loader refusing a file is what this reports
            problems.append(f"{path}: does not load with its schema's types: {str(error).splitlines()[0]}")
            continue
        if len(duck_rows) != len(body) or len(frame) != len(body):
            problems.append(f"{path}: {len(body)} rows, DuckDB read {len(duck_rows)}, pandas {len(frame)}")
            continue
        for index, field in enumerate(schema["fields"]):
            columns += 1
            name, kind = field["name"], field["type"]
            if described.get(name) != declared[name]:
                problems.append(f"{path}: DuckDB reads {name} as {described.get(name)}, the schema says {kind}")
            cells = [row[index] for row in body]
            series = frame[name]
            if kind == "string":
                # Text stays exactly as written: codes keep their leading zeros (DuckDB reads an
                # empty field as NULL).
                loaded = ["" if value is None else value for value in (row[index] for row in duck_rows)]
                expected = list(cells)
                if loaded != expected:
                    problems.append(f"{path}: DuckDB changes the text of {name}")
                pandas_text = ["" if pandas.isna(value) else value for value in series]
                if pandas_text != expected:
                    problems.append(f"{path}: pandas changes the text of {name}")
            elif kind == "integer":
                if str(series.dtype) != "Int64":
                    problems.append(f"{path}: pandas reads integer column {name} as {series.dtype}")
                bad = [cell for cell in cells if cell and not re.fullmatch(r"-?\d+", cell)]
                if bad:
                    problems.append(f"{path}: integer column {name} holds {bad[:3]}")
            elif kind == "number":
                if not pandas.api.types.is_float_dtype(series):
                    problems.append(f"{path}: pandas reads number column {name} as {series.dtype}")
            elif kind == "boolean":
                if str(series.dtype) != "boolean":
                    problems.append(f"{path}: pandas reads boolean column {name} as {series.dtype}")
            elif kind == "date":
                if not pandas.api.types.is_datetime64_any_dtype(series):
                    problems.append(f"{path}: pandas reads date column {name} as {series.dtype}")
            elif kind == "datetime":
                if str(getattr(series.dt, "tz", None)) != "UTC":
                    problems.append(f"{path}: pandas reads datetime column {name} as {series.dtype}")
                digits = set()
                for cell in cells:
                    if not cell:
                        continue
                    match = UTC.match(cell)
                    if not match:
                        problems.append(f"{path}: {name} holds {cell!r}, not a UTC timestamp ending in Z")
                        break
                    digits.add(len(match.group(2) or ""))
                if len(digits) > 1:
                    problems.append(f"{path}: {name} mixes {sorted(digits)} fractional digits")
    return files, columns


def main(folders):
    problems = []
    files = columns = 0
    for folder in folders:
        found_files, found_columns = check_folder(folder, problems)
        files += found_files
        columns += found_columns
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"ok {len(folders)} folders, {files} files, {columns} columns")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
