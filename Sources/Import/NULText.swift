import Foundation
import JSON

/// PostgreSQL's `text` cannot hold U+0000 (NUL): a bound parameter is a C string, cut at the
/// first NUL, and `COPY` refuses the byte. Stored as it was, `"a\u0000b"` became `"a"` without a
/// word, and two records whose ids differ only after a NUL became one. On a PostgreSQL or Citus
/// database the import rejects such a record instead, naming the field and showing the value with
/// the NUL written `\u0000` (SQLite keeps the text whole, NUL included).
enum NULText {
    static let rule = "holds U+0000 (NUL), which PostgreSQL text cannot store"

    /// The error that rejects the object at `root` of `view` when one of its strings, a value or a
    /// member's name at any depth, holds a NUL; nil when none does. A flat walk over the record's
    /// entries, with a `memchr` per string: the path is worked out only for a string that has one.
    static func error(in view: JSONTapeView, record root: Int) -> FieldError? {
        var index = root + 1
        let end = view.end(at: root)
        while index < end {
            let inName = holdsNUL(view.name(at: index))
            if inName || (view.kind(at: index) == .string && holdsNUL(view.text(at: index))) {
                return FieldError(
                    field: path(to: index, in: view, record: root),
                    value: inName ? "" : view.value(at: index).excerpt(), rule: rule)
            }
            index += 1
        }
        return nil
    }

    /// `text` with each NUL written `\u0000`, for a message or a column that must not hold one
    /// (a rejected record's id).
    static func escaped(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\\u0000") : text
    }

    private static func holdsNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, 0, bytes.count) != nil
    }

    /// The path of entry `target` inside the record, the way field errors name one:
    /// `check_out_record.id`, `check_in_record.impacts[2].type`, `contexte[0]`.
    private static func path(to target: Int, in view: JSONTapeView, record root: Int) -> String {
        var field = ""
        var container = root
        while true {
            var child = container + 1
            var position = 0
            while view.end(at: child) <= target {
                child = view.end(at: child)
                position += 1
            }
            if view.kind(at: container) == .object {
                field += (field.isEmpty ? "" : ".") + escaped(view.nameString(at: child))
            } else {
                field += "[\(position)]"
            }
            if child == target { return field }
            container = child
        }
    }
}
