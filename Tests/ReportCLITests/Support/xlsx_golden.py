#!/usr/bin/env python3
"""Print a workbook as stable text for a golden file: what a person sees and what Excel reads.

Usage: xlsx_golden.py BOOK.xlsx

Per sheet: its name, frozen panes, autofilter, column widths, conditional formats, print setup,
then every non-empty cell as `A1 | value | kind | number format | style`, where the style lists
bold, italic, the horizontal alignment and a fill colour when set. Charts come last (openpyxl
drops them on load, so they are read from the zip). Document properties are left out: the
creation time is the as-of, already checked elsewhere.
"""
import re
import sys
import zipfile

import openpyxl
from openpyxl.utils import get_column_letter


def value_text(cell):
    value = cell.value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value)
    return str(value).replace("\n", "\\n")


def style_text(cell):
    parts = []
    if cell.font is not None and cell.font.b:
        parts.append("bold")
    if cell.font is not None and cell.font.i:
        parts.append("italic")
    if cell.alignment is not None and cell.alignment.horizontal:
        parts.append(cell.alignment.horizontal)
    if cell.alignment is not None and cell.alignment.wrap_text:
        parts.append("wrap")
    fill = cell.fill
    if fill is not None and fill.fill_type == "solid" and fill.fgColor is not None and fill.fgColor.rgb:
        parts.append("fill " + str(fill.fgColor.rgb))
    return " ".join(parts)


def main(path):
    book = openpyxl.load_workbook(path)
    out = []
    for sheet in book.worksheets:
        out.append(f"== sheet {sheet.title}")
        out.append(f"freeze {sheet.freeze_panes} filter {sheet.auto_filter.ref}")
        widths = sorted((key, dim.width) for key, dim in sheet.column_dimensions.items() if dim.customWidth)
        out.append("widths " + " ".join(f"{key}={width:g}" for key, width in widths))
        for rule_range in sheet.conditional_formatting:
            out.append(f"conditional {rule_range.sqref} " + ",".join(rule.type for rule in rule_range.rules))
        setup = sheet.page_setup
        out.append(f"page orientation={setup.orientation} fitToWidth={setup.fitToWidth} "
                   f"fitToHeight={setup.fitToHeight} printTitleRows={sheet.print_title_rows}")
        for row in sheet.iter_rows():
            for cell in row:
                if cell.value is None:
                    continue
                kind = "d" if cell.is_date else cell.data_type
                out.append(f"{cell.coordinate} | {value_text(cell)} | {kind} | {cell.number_format} | {style_text(cell)}")
    with zipfile.ZipFile(path) as archive:
        names = sorted((n for n in archive.namelist() if re.match(r"xl/charts/chart\d+\.xml$", n)),
                       key=lambda n: int(re.search(r"(\d+)\.xml$", n).group(1)))
        for name in names:
            xml = archive.read(name).decode("utf-8")
            kinds = sorted(set(re.findall(r"<c:(barChart|lineChart|pieChart|areaChart|scatterChart)>", xml)))
            refs = re.findall(r"<c:f>([^<]*)</c:f>", xml)
            title = "".join(re.findall(r"<a:t>([^<]*)</a:t>", xml))
            out.append(f"== chart {name}: {','.join(kinds)} \"{title}\" {' '.join(refs)}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
