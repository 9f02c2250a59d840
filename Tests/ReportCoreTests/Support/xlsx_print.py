#!/usr/bin/env python3
"""Prints, as JSON, how each sheet of a workbook is set up to print, read from the zip's XML.

xlsx_print.py BOOK.xlsx  ->  {"sheets": [{"name", "orientation", "fit_to_page", "fit_to_width",
  "fit_to_height", "scale", "hidden", "print_titles", "print_area", "header", "footer", "widths",
  "charts": [{"from_col", "from_row", "to_col", "to_row", "axis_min"}]}]}

openpyxl drops charts and drawing anchors, so this reads the parts directly.
"""
import json
import re
import sys
import zipfile


def attribute(xml, element, name):
    match = re.search(r"<%s\b[^>]*\b%s=\"([^\"]*)\"" % (element, name), xml)
    return match.group(1) if match else None


def main(path):
    archive = zipfile.ZipFile(path)
    workbook = archive.read("xl/workbook.xml").decode()
    relations = archive.read("xl/_rels/workbook.xml.rels").decode()
    targets = dict(re.findall(r'Id="([^"]+)"[^>]*Target="([^"]+)"', relations))
    targets.update({k: v for v, k in re.findall(r'Target="([^"]+)"[^>]*Id="([^"]+)"', relations)})
    names = {}
    for kind, local_id, text in re.findall(
            r'<definedName name="_xlnm\.(Print_Titles|Print_Area)" localSheetId="(\d+)"[^>]*>([^<]*)</definedName>', workbook):
        names[(int(local_id), kind)] = text
    sheets = []
    for index, (name, state, relation) in enumerate(re.findall(
            r'<sheet name="([^"]*)" sheetId="\d+"(?: state="(\w+)")? r:id="([^"]+)"', workbook)):
        part = "xl/" + targets[relation].lstrip("/").replace("xl/", "")
        xml = archive.read(part).decode()
        widths = {}
        for low, high, width in re.findall(r'<col min="(\d+)" max="(\d+)" width="([\d.]+)"', xml):
            for column in range(int(low), int(high) + 1):
                widths[column - 1] = float(width)
        charts = []
        drawing = re.search(r'<drawing r:id="([^"]+)"', xml)
        if drawing:
            sheet_rels = archive.read(part.replace("worksheets/", "worksheets/_rels/") + ".rels").decode()
            target = re.search(r'Id="%s"[^>]*Target="([^"]+)"' % drawing.group(1), sheet_rels).group(1)
            drawing_part = "xl/drawings/" + target.split("/")[-1]
            drawing_xml = archive.read(drawing_part).decode()
            drawing_rels = archive.read(drawing_part.replace("drawings/", "drawings/_rels/") + ".rels").decode()
            for anchor in re.findall(r"<xdr:twoCellAnchor.*?</xdr:twoCellAnchor>", drawing_xml, re.S):
                cells = re.findall(r"<xdr:col>(\d+)</xdr:col>.*?<xdr:row>(\d+)</xdr:row>", anchor, re.S)
                chart_id = re.search(r'r:id="([^"]+)"', anchor.split("<c:chart")[-1])
                axis_min = None
                if chart_id:
                    chart_target = re.search(r'Id="%s"[^>]*Target="([^"]+)"' % chart_id.group(1), drawing_rels).group(1)
                    chart_xml = archive.read("xl/charts/" + chart_target.split("/")[-1]).decode()
                    value_axis = re.search(r"<c:valAx>.*?</c:valAx>", chart_xml, re.S)
                    found = re.search(r'<c:min val="([^"]+)"', value_axis.group(0)) if value_axis else None
                    axis_min = float(found.group(1)) if found else None
                charts.append({"from_col": int(cells[0][0]), "from_row": int(cells[0][1]),
                               "to_col": int(cells[1][0]), "to_row": int(cells[1][1]), "axis_min": axis_min})
        header = re.search(r"<oddHeader>([^<]*)</oddHeader>", xml)
        footer = re.search(r"<oddFooter>([^<]*)</oddFooter>", xml)
        unescape = lambda text: text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
        sheets.append({
            "name": name,
            "orientation": attribute(xml, "pageSetup", "orientation") or "portrait",
            "paper": attribute(xml, "pageSetup", "paperSize"),
            "fit_to_page": attribute(xml, "pageSetUpPr", "fitToPage") == "1",
            "fit_to_width": int(attribute(xml, "pageSetup", "fitToWidth") or 1),
            "fit_to_height": int(attribute(xml, "pageSetup", "fitToHeight") or 1),
            "scale": int(attribute(xml, "pageSetup", "scale") or 100),
            "hidden": state == "hidden",
            "print_titles": names.get((index, "Print_Titles")),
            "print_area": names.get((index, "Print_Area")),
            "header": unescape(header.group(1)) if header else None,
            "footer": unescape(footer.group(1)) if footer else None,
            "widths": [widths.get(column) for column in range(max(widths) + 1)] if widths else [],
            "charts": charts,
        })
    print(json.dumps({"sheets": sheets}))


if __name__ == "__main__":
    main(sys.argv[1])
