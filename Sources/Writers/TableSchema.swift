import ReportModel
import Time

/// The schema of the CSV files: a Frictionless Data package (`datapackage.json`, Table Schema v1)
/// beside every CSV folder, and the same schema for one table (`--table NAME --schema`).
///
/// Every field's type comes from the column's `ColumnType`, never from the data: a code (`06000`,
/// an id, a plate) is a `string` even when it looks like a number; counts are `integer`; ratios,
/// hours, minutes, euros and kilometres are `number` with their unit in the description;
/// days are `date`, instants `datetime` (UTC, `Z`), booleans `boolean` (`true`/`false`). A
/// loader can read a folder from this file alone, with no guessing (`docs/CSV.md`).
public enum TableSchema {
    /// The Table Schema of `table` as written with these timestamp fraction digits per column
    /// (`CSVWriter.timestampFractionDigits`).
    static func schema(of table: Table, fractionDigits: [Int?]) -> JSONText {
        let fields = table.columns.enumerated().map { index, column in
            field(
                column, fractionDigits: index < fractionDigits.count ? fractionDigits[index] : nil,
                isKey: table.primaryKey.contains(column.name), emptyIsAValue: table.emptyIsAValue)
        }
        var members: [(String, JSONText)] = [("fields", .array(fields))]
        if !table.primaryKey.isEmpty { members.append(("primaryKey", .array(table.primaryKey.map(JSONText.string)))) }
        members.append(("missingValues", .array(table.emptyIsAValue ? [] : [.string("")])))
        return .object(members)
    }

    /// The schema of `summary.csv`: (metric, value), keyed by metric; the value is a number when
    /// every figure is one (all of SPEC §3–§5's are), else text.
    static func summarySchema(_ figures: [Figure]) -> JSONText {
        let numeric = figures.allSatisfy { isNumber($0.type) }
        let value: JSONText = .object([
            ("name", .string("value")), ("title", .string("Value")),
            ("type", .string(numeric ? (figures.allSatisfy { $0.type == .integer } ? "integer" : "number") : "string")),
            (
                "description",
                .string(
                    "The figure, written by its own type: counts whole, ratios from 0 to 1 with 4 decimals, hours, "
                        + "minutes and euros with 2; empty when it has no value (a ratio over 0)")
            ),
        ])
        return .object([
            (
                "fields",
                .array([
                    .object([
                        ("name", .string("metric")), ("title", .string("Metric")), ("type", .string("string")),
                        ("description", .string("The metric's name (SPEC §3–§5)")),
                        ("constraints", .object([("required", .bool(true)), ("unique", .bool(true))])),
                    ]),
                    value,
                ])
            ),
            ("primaryKey", .array([.string("metric")])),
            ("missingValues", .array([.string("")])),
        ])
    }

    /// The descriptor of a CSV folder: one tabular data resource per file, in the folder's order.
    static func package(
        _ report: Report, resources: [(table: Table?, file: String, schema: JSONText)], bom: Bool
    ) -> JSONText {
        var created: [UInt8] = []
        report.asOf.appendISO8601(to: &created, offsetSeconds: 0, fractionDigits: nil)
        return .object([
            ("profile", .string("tabular-data-package")),
            ("name", .string(packageName(report.baseName))),
            ("title", .string(report.title)),
            ("description", .string("The CSV tables of the \(report.kind) report \(report.scope) (SPEC §6.1).")),
            ("created", .string(String(decoding: created, as: UTF8.self))),
            (
                "resources",
                .array(
                    resources.map { resource in
                        let stem = resource.file.hasSuffix(".csv") ? String(resource.file.dropLast(4)) : resource.file
                        var members: [(String, JSONText)] = [
                            ("name", .string(packageName(stem))), ("path", .string(resource.file)),
                        ]
                        if let table = resource.table {
                            members.append(("title", .string(table.title)))
                            if let caption = table.caption { members.append(("description", .string(caption))) }
                        } else {
                            members.append(("title", .string("Summary")))
                            members.append(("description", .string("The report's headline figures.")))
                        }
                        members += [
                            ("profile", .string("tabular-data-resource")), ("format", .string("csv")),
                            ("mediatype", .string("text/csv")), ("encoding", .string(bom ? "utf-8-sig" : "utf-8")),
                            ("dialect", dialect), ("schema", resource.schema),
                        ]
                        return .object(members)
                    })
            ),
        ])
    }

    /// RFC 4180 as `CSVWriter` writes it.
    static let dialect: JSONText = .object([
        ("delimiter", .string(",")), ("lineTerminator", .string("\r\n")), ("quoteChar", .string("\"")),
        ("doubleQuote", .bool(true)), ("header", .bool(true)),
    ])

    static func field(_ column: Column, fractionDigits: Int?, isKey: Bool, emptyIsAValue: Bool = false) -> JSONText {
        var members: [(String, JSONText)] = [
            ("name", .string(column.name)), ("title", .string(column.title)), ("type", .string(type(of: column.type))),
        ]
        switch column.type {
        case .date: members.append(("format", .string("default")))
        case .timestamp:
            // Python's `%f` reads 3 or 6 digits; `default` is ISO 8601 in UTC without a fraction.
            members.append(("format", .string((fractionDigits ?? 0) > 0 ? "%Y-%m-%dT%H:%M:%S.%fZ" : "default")))
        case .boolean:
            members += [("trueValues", .array([.string("true")])), ("falseValues", .array([.string("false")]))]
        default: break
        }
        members.append(
            ("description", .string(description(column, fractionDigits: fractionDigits, emptyIsAValue: emptyIsAValue))))
        if isKey { members.append(("constraints", .object([("required", .bool(true))]))) }
        return .object(members)
    }

    /// The Table Schema type of a column type.
    public static func type(of type: ColumnType) -> String {
        switch type {
        case .text: return "string"
        case .integer: return "integer"
        case .decimal, .percent, .duration, .euros, .measure: return "number"
        case .date: return "date"
        case .timestamp: return "datetime"
        case .boolean: return "boolean"
        }
    }

    private static func isNumber(_ type: ColumnType) -> Bool {
        switch type {
        case .integer, .decimal, .percent, .duration, .euros, .measure: return true
        case .text, .date, .timestamp, .boolean: return false
        }
    }

    /// What the column holds and how it is written: the unit, the decimals, the zone.
    static func description(_ column: Column, fractionDigits: Int?, emptyIsAValue: Bool = false) -> String {
        let unit = column.unit.map { " (\($0))" } ?? ""
        let rule: String
        switch column.type {
        case .text: rule = "text, kept as written (a code such as 06000 stays text)"
        case .integer: rule = "a whole number" + unit
        case .decimal(let places): rule = "a number" + unit + " with \(places) decimals"
        case .percent: rule = "a ratio from 0 to 1 (0.7312 is 73.12 %), 4 decimals"
        case .duration: rule = "a duration" + unit + " with 2 decimals"
        case .euros: rule = "euros with 2 decimals"
        case .measure(let places):
            rule = "a number" + unit + ", whole unless it has a fraction (at most \(places) decimals)"
        case .date: rule = "a calendar date, YYYY-MM-DD, the local day"
        case .timestamp:
            let digits = fractionDigits ?? 0
            rule =
                "an instant in UTC, YYYY-MM-DDTHH:MM:SS"
                + (digits > 0 ? "." + String(repeating: "f", count: digits) : "")
                + "Z"
        case .boolean: rule = "true or false"
        }
        return column.title + ": " + rule + (emptyIsAValue ? "; empty is a value of its own here" : "; empty: no value")
    }

    /// A Frictionless name: lower case `a-z 0-9 . _ -`.
    static func packageName(_ text: String) -> String {
        let scalars = text.lowercased().unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "0"..."9", ".", "_", "-": return Character(scalar)
            default: return "-"
            }
        }
        return scalars.isEmpty ? "report" : String(scalars)
    }
}

/// A JSON value written with members in the order given, two-space indents and a final newline:
/// the same report gives the same bytes (SPEC §2).
enum JSONText: Equatable {
    case object([(String, JSONText)])
    case array([JSONText])
    case string(String)
    case bool(Bool)

    static func == (lhs: JSONText, rhs: JSONText) -> Bool { lhs.rendered() == rhs.rendered() }

    func rendered() -> String {
        var output = ""
        write(to: &output, indent: 0)
        return output + "\n"
    }

    private func write(to output: inout String, indent: Int) {
        let padding = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch self {
        case .string(let text): output += JSONText.quoted(text)
        case .bool(let flag): output += flag ? "true" : "false"
        case .array(let items):
            // Short lists of strings stay on one line (`"primaryKey": ["user_id", "day"]`).
            if items.allSatisfy({ if case .string = $0 { return true } else { return false } }) {
                output += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { output += ", " }
                    item.write(to: &output, indent: indent)
                }
                output += "]"
                return
            }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += padding
                item.write(to: &output, indent: indent + 1)
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += closing + "]"
        case .object(let members):
            output += "{\n"
            for (index, member) in members.enumerated() {
                output += padding + JSONText.quoted(member.0) + ": "
                member.1.write(to: &output, indent: indent + 1)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += closing + "}"
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\uXXXX` (`\n`, `\r`, `\t` short).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
