#!/usr/bin/env python3
"""Loads CSV files the way a dashboard author would, and says what did not load as typed.

For every file given: DuckDB's read_csv_auto and pandas' read_csv(parse_dates=...) must both read
every column whose cells are all ISO 8601 timestamps as a timestamp column (not as text), every
column of ISO dates as dates in DuckDB, and each timestamp column must use one number of
fractional digits (SPEC 6.1). Prints one line per problem and exits 1 when there is any; prints
"ok N files, M timestamp columns" otherwise.
"""
import csv
import re
import sys

import duckdb
import pandas

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.(\d+))?(Z|[+-]\d\d:\d\d)$")
DATE = re.compile(r"^\d{4}-\d\d-\d\d$")


def typed_columns(path):
    """(timestamp columns, date columns, problems) from the file's own text."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    stamps, dates, problems = [], [], []
    for index, name in enumerate(header):
        cells = [row[index] for row in body if index < len(row) and row[index] != ""]
        if not cells:
            continue
        if all(TIMESTAMP.match(cell) for cell in cells):
            stamps.append(name)
            digits = {len(TIMESTAMP.match(cell).group(2) or "") for cell in cells}
            if len(digits) > 1:
                problems.append(f"{path}: column {name} mixes {sorted(digits)} fractional digits")
            elif digits - {0, 3, 6}:
                problems.append(f"{path}: column {name} has {digits} fractional digits (0, 3 or 6 expected)")
        elif all(DATE.match(cell) for cell in cells):
            dates.append(name)
    return stamps, dates, problems


def main(paths):
    problems, checked = [], 0
    for path in paths:
        stamps, dates, found = typed_columns(path)
        problems += found
        described = duckdb.execute("DESCRIBE SELECT * FROM read_csv_auto(?)", [path]).fetchall()
        types = {row[0]: row[1] for row in described}
        for name in stamps:
            checked += 1
            if not types.get(name, "").startswith("TIMESTAMP"):
                problems.append(f"{path}: DuckDB read_csv_auto reads column {name} as {types.get(name)}")
        for name in dates:
            if types.get(name) != "DATE":
                problems.append(f"{path}: DuckDB read_csv_auto reads column {name} as {types.get(name)}")
        if stamps:
            frame = pandas.read_csv(path, parse_dates=stamps)
            text = pandas.read_csv(path, dtype=str)
            for name in stamps:
                offsets = {cell[-6:] if not cell.endswith("Z") else "Z" for cell in text[name].dropna()}
                if len(offsets) == 1 and not pandas.api.types.is_datetime64_any_dtype(frame[name]):
                    problems.append(f"{path}: pandas parse_dates leaves column {name} as {frame[name].dtype}")
                # Several offsets in one column (a DST change, or data from several zones) make no
                # single pandas time zone: to_datetime(utc=True) is the documented way there.
                try:
                    pandas.to_datetime(text[name], utc=len(offsets) > 1)
                except (ValueError, TypeError) as error:
                    problems.append(f"{path}: pandas to_datetime raises on column {name}: {str(error).splitlines()[0]}")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"ok {len(paths)} files, {checked} timestamp columns")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
