import Store

#if canImport(Glibc)
import Glibc
#endif

/// Fuzz target `connection_strings` (issue 30): any `--db` value through `StoreLocation.display`,
/// `ConnectionSecrets` (which calls libpq's `PQconninfoParse`), `mask`, `isPostgreSQL` and
/// `unsupportedReason`.
///
/// Byte 0 picks a prefix (`postgresql://`, `postgres://`, `host=… password=`, `user=u password='`,
/// none, `mysql://`, `sqlite://`, `postgresql://u:`) so that inputs reach the parsers' deep
/// paths; the rest, as UTF-8, follows it. Invariants:
/// - no trap, no ASan report (string slicing by index, percent-decoding, quoted values);
/// - the location as shown holds no secret of 3 characters or more (where it is not the mask
///   `***` itself: `shows`), and no 3 characters in a row of one (pieces holding `*` aside);
/// - `mask` of the location itself, and of the location quoted as libpq quotes a host, leave no
///   3 characters in a row of a secret either;
/// - a reason to refuse a value that holds a secret quotes nothing of it but its scheme.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConnectionStrings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    guard let selector = bytes.first else { return 0 }
    let prefixes = [
        "postgresql://", "postgres://", "host=db password=", "user=u password='", "", "mysql://", "sqlite://",
        "postgresql://u:",
    ]
    let location = prefixes[Int(selector) % prefixes.count] + String(decoding: bytes.dropFirst(), as: UTF8.self)

    let secrets = ConnectionSecrets(location: location)
    let shown = StoreLocation.display(location)
    for secret in secrets.secrets where secret.count >= 3 {
        require(!shows(secret, in: shown), "display \(quote(shown)) shows the secret \(quote(secret))")
    }
    let pieces = trigrams(secrets.secrets)
    for piece in trigrams([shown]) where pieces.contains(piece) {
        fail("display \(quote(shown)) of \(quote(location)) shows the piece \(quote(piece))")
    }
    for text in [location, "could not translate host name \"" + location + "\" to address"] {
        let masked = secrets.mask(text)
        for piece in trigrams([masked]) where pieces.contains(piece) {
            fail("mask \(quote(masked)) of \(quote(text)) leaves the piece \(quote(piece))")
        }
    }
    _ = StoreLocation.isPostgreSQL(location)
    // A refusal of a value holding a secret says what it says of the bare scheme: it quotes
    // nothing of the value but the scheme.
    if let reason = StoreLocation.unsupportedReason(location), !secrets.isEmpty,
        let separator = location.range(of: "://")
    {
        let bare = StoreLocation.unsupportedReason(location[..<separator.lowerBound] + "://h")
        require(reason == bare, "the refusal \(quote(reason)) of \(quote(location)) quotes more than its scheme")
    }
    return 0
}

/// Whether `shown` holds `secret` at a place that is not the mask: an occurrence is the mask
/// (not a leak) when each of its `*` lies in a run of 3 or more `*` of `shown` and fewer than 3 of
/// its scalars are something else. A password `***` (or `%2a**`, or `*@b` cut before the host `b`)
/// is shown as `***` like every other password, which says nothing of it; CI's fuzz run of
/// 2026-12-08 found `postgresql://u:***@b` so. Scalar by scalar, not `String.contains`: the one
/// that resolves here is Foundation's, which finds `"\0\0\0"` in any text that ends in one NUL
/// (the first fuzz run of issue 30's CI found it so, with the display correct).
func shows(_ secret: String, in shown: String) -> Bool {
    let text = Array(shown.unicodeScalars)
    let pattern = Array(secret.unicodeScalars)
    guard !pattern.isEmpty, pattern.count <= text.count else { return pattern.isEmpty }
    func inMask(_ index: Int) -> Bool {
        var start = index
        var end = index
        while start > 0, text[start - 1] == "*" { start -= 1 }
        while end + 1 < text.count, text[end + 1] == "*" { end += 1 }
        return end - start + 1 >= 3
    }
    for start in 0...(text.count - pattern.count) where text[start..<start + pattern.count].elementsEqual(pattern) {
        let range = start..<start + pattern.count
        let others = range.filter { text[$0] != "*" }.count
        let masked = range.allSatisfy { text[$0] != "*" || inMask($0) }
        if !(masked && others < 3) { return true }
    }
    return false
}

/// The 3-character pieces of texts, leaving out those that hold `*` (the mask's own character).
func trigrams(_ texts: [String]) -> Set<String> {
    var result = Set<String>()
    for text in texts {
        let characters = Array(text)
        guard characters.count >= 3 else { continue }
        for start in 0...(characters.count - 3) {
            let piece = String(characters[start..<start + 3])
            if !piece.contains("*") { result.insert(piece) }
        }
    }
    return result
}

func quote(_ text: String) -> String { text.debugDescription }

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
    var text = "connection_strings invariant broken: \(message)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    abort()
}
