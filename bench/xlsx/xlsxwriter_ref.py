#!/usr/bin/env python3
"""The XLSX benchmark written with Python's XlsxWriter (pip install XlsxWriter), for comparison.

    xlsxwriter_ref.py [ROWS] [OUTPUT.xlsx]      (defaults: 1000000, bench-python.xlsx)

Same data, formats and sheet features as reference.c and report-bench (bench/xlsx/run.sh).
Timestamps go out as serial numbers with a date format, as the C and Swift writers do.
"""
import sys

import xlsxwriter

FIRST_CHECK_OUT = 1475301600  # 2016-10-01T08:00:00+02:00
GROUPS = ["Premium", "Sport", "Electric", "Utility", "Classic"]
HEADERS = ["Plate", "Loan", "Hours", "Out at", "Utilization", "Group", "Km", "Revenue eur"]


def main(argv):
    rows = int(argv[1]) if len(argv) > 1 else 1_000_000
    path = argv[2] if len(argv) > 2 else "bench-python.xlsx"
    book = xlsxwriter.Workbook(path, {"constant_memory": True, "tmpdir": "."})
    summary = book.add_worksheet("Summary")
    sheet = book.add_worksheet("Loans")
    bold = book.add_format({"bold": True})
    integer = book.add_format({"num_format": "0"})
    hours = book.add_format({"num_format": "0.00"})
    stamp = book.add_format({"num_format": "yyyy-mm-dd hh:mm"})
    percent = book.add_format({"num_format": "0.0%"})
    euros = book.add_format({"num_format": "#,##0.00 \u20ac"})
    for column, width in enumerate([10, 9, 8, 18, 14, 10, 6, 14]):
        sheet.set_column(column, column, width)
    for column, header in enumerate(HEADERS):
        sheet.write_string(0, column, header, bold)
    sheet.freeze_panes(1, 0)
    write_string, write_number = sheet.write_string, sheet.write_number
    for i in range(rows):
        r = i + 1
        write_string(r, 0, "P-%06d" % (i % 50000))
        write_number(r, 1, i, integer)
        write_number(r, 2, (i % 1000) / 8, hours)
        write_number(r, 3, (FIRST_CHECK_OUT + i * 37 + 7200) / 86400 + 25569, stamp)
        write_number(r, 4, (i % 997) / 997, percent)
        write_string(r, 5, GROUPS[i % 5])
        write_number(r, 6, i * 7919 % 1000, integer)
        write_number(r, 7, (i % 10000) * 0.25, euros)
    sheet.autofilter(0, 0, rows, 7)
    if rows > 0:
        sheet.conditional_format(1, 4, rows, 4, {"type": "data_bar"})
    summary.write_string(0, 0, "XLSX benchmark", bold)
    book.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
