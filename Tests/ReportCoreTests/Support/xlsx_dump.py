#!/usr/bin/env python3
"""Dump an .xlsx workbook as JSON so that the Swift tests can check what Excel would read.

Usage:
    xlsx_dump.py BOOK.xlsx            everything: properties, sheets, cells, formats, charts
    xlsx_dump.py --counts BOOK.xlsx   sheet names, row counts and the first two rows only
                                      (streams the XML: fast and small for million-row sheets)

Cells are {"v": text or null, "t": kind, "f": number format}; kind is openpyxl's data type
("n" number, "s" string, "b" boolean, "d" date) so that a test can tell 42 from "42".
openpyxl drops charts when it loads a workbook, so charts are read from the zip directly.
"""
import json
import re
import sys
import zipfile


def cell_json(cell):
    value = cell.value
    if value is None:
        text = None
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif hasattr(value, "isoformat"):
        text = value.isoformat()
    else:
        text = str(value)
    kind = "d" if getattr(cell, "is_date", False) else getattr(cell, "data_type", None) or "n"
    # Read-only mode gives empty cells no number format.
    alignment = getattr(cell, "alignment", None)
    return {"v": text, "t": kind, "f": getattr(cell, "number_format", None) or "General",
            "a": getattr(alignment, "horizontal", None) if alignment is not None else None}


def charts(path):
    found = []
    with zipfile.ZipFile(path) as archive:
        names = sorted(n for n in archive.namelist() if re.match(r"xl/charts/chart\d+\.xml$", n))
        names.sort(key=lambda n: int(re.search(r"(\d+)\.xml$", n).group(1)))
        for name in names:
            xml = archive.read(name).decode("utf-8")
            kinds = sorted(set(re.findall(r"<c:(barChart|lineChart|pieChart|areaChart|scatterChart)>", xml)))
            refs = re.findall(r"<c:f>([^<]*)</c:f>", xml)
            title = "".join(re.findall(r"<a:t>([^<]*)</a:t>", xml))
            found.append({"file": name, "kinds": kinds, "refs": refs, "title": title})
    return found


def full(path):
    import openpyxl

    book = openpyxl.load_workbook(path)
    props = book.properties
    sheets = []
    for sheet in book.worksheets:
        formats = []
        for rule_range in sheet.conditional_formatting:
            formats.append({
                "range": str(rule_range.sqref),
                "types": [rule.type for rule in rule_range.rules],
            })
        widths = {key: dim.width for key, dim in sheet.column_dimensions.items() if dim.customWidth}
        rows = [[cell_json(cell) for cell in row] for row in sheet.iter_rows()]
        sheets.append({
            "name": sheet.title,
            "freeze_panes": sheet.freeze_panes,
            "auto_filter": sheet.auto_filter.ref,
            "widths": widths,
            "conditional_formats": formats,
            "max_row": sheet.max_row,
            "rows": rows,
        })
    return {
        "properties": {
            "title": props.title,
            "subject": props.subject,
            "created": props.created.isoformat() if props.created else None,
        },
        "sheets": sheets,
        "charts": charts(path),
    }


def counts(path):
    """Row counts by streaming each sheet's XML (openpyxl would build a million cells)."""
    import openpyxl

    book = openpyxl.load_workbook(path, read_only=True)
    titles = book.sheetnames
    heads = []
    for title in titles:
        sheet = book[title]
        heads.append([[cell_json(c) for c in row] for row in sheet.iter_rows(max_row=2)])
    book.close()
    sheets = []
    with zipfile.ZipFile(path) as archive:
        for index, title in enumerate(titles):
            rows = 0
            tail = b""
            with archive.open("xl/worksheets/sheet%d.xml" % (index + 1)) as stream:
                while True:
                    chunk = stream.read(1 << 20)
                    if not chunk:
                        break
                    data = tail + chunk
                    rows += data.count(b"<row ") - tail.count(b"<row ")
                    tail = data[-8:]
            sheets.append({"name": title, "row_count": rows, "rows": heads[index]})
    return {"sheets": sheets, "charts": charts(path)}


def main(argv):
    if len(argv) == 3 and argv[1] == "--counts":
        result = counts(argv[2])
    elif len(argv) == 2:
        result = full(argv[1])
    else:
        sys.stderr.write(__doc__)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
