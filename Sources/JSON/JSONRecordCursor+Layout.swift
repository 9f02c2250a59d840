/// The layout decisions at the edges of a file: what it is when it is not records (another
/// encoding, a lone JSON value, nothing at all), and whether a `.json` file is JSON Lines.
extension JSONRecordCursor {
    /// Throws when the first bytes say UTF-16 or UTF-32: read as UTF-8, such a file would only
    /// give `unexpected character U+0000` (or a rejection per line), which hides what to do.
    mutating func refuseForeignEncoding() throws {
        guard let leadingBytes else { return }
        _ = try scanner.peek()  // the first read, which collects the leading bytes
        if let encoding = LeadingBytesSource.foreignEncoding(leadingBytes.leadingBytes) {
            throw JSONLayoutError(message: "looks like \(encoding); save it as UTF-8", byteOffset: 0)
        }
    }

    /// Records why a file that ended without any value holds nothing.
    mutating func noteEmptiness() {
        if scanner.offset == 0 {
            emptiness = .noBytes
        } else if skippedByteOrderMark && scanner.offset == 3 {
            emptiness = .byteOrderMarkOnly
        } else {
            emptiness = .whitespaceOnly
        }
    }

    /// The error for a document that starts with neither `[` nor `{`: a valid lone value (`42`,
    /// `"text"`, `null`) is named as such, since it is not malformed; anything else is the syntax
    /// error at its first byte.
    mutating func notRecords(startingWith byte: UInt8) throws -> any Error {
        let at = scanner.offset
        guard byte < 0x80, Self.kindOfValue(startingWith: byte) != nil else { return try scanner.unexpectedCharacter() }
        let value: JSONValue
        do {
            value = try scanner.parseValue(recordStart: at)
            if try scanner.significantByte() != nil { return try scanner.unexpectedCharacter() }
        } catch let syntaxError as JSONSyntaxError {
            return syntaxError
        }
        let what: String
        switch value {
        case .null: what = "null"
        case .bool: what = "the boolean " + value.excerpt()
        case .string: what = "a string " + value.excerpt(limit: 30)
        default: what = "the number " + value.excerpt(limit: 30)
        }
        return JSONLayoutError(
            message:
                "a JSON value, not records: the file holds \(what); records come in an array, a wrapper object or "
                + "JSON Lines",
            byteOffset: at)
    }

    /// Whether the file is JSON Lines although its name is not `.jsonl`: its first non-blank line
    /// holds one whole object and nothing else, and the next non-blank line starts another object.
    /// A first object that spans lines, or that the file ends after, makes it one JSON document.
    /// Reads only those first lines (as far as one record may be long); never throws: a file it
    /// cannot read that far is not JSON Lines by this rule.
    mutating func startsWithObjectLines() -> Bool {
        do {
            try refuseForeignEncoding()
            scanner.lineMode = true
            guard try scanner.peek() != 0xEF || scanner.decodeScalarSlowly() == "\u{FEFF}" else { return false }
            guard try significantByteAfterBlankLines() == UInt8(ascii: "{") else { return false }
            _ = try scanner.parseValue(recordStart: scanner.offset)
            guard try scanner.significantByte() == nil, try scanner.peek() == 0x0A else { return false }
            return try significantByteAfterBlankLines() == UInt8(ascii: "{")
        } catch {
            return false
        }
    }

    /// In line mode: the next byte that is neither whitespace nor a line end, unconsumed.
    private mutating func significantByteAfterBlankLines() throws -> UInt8? {
        while true {
            if let byte = try scanner.significantByte() { return byte }
            guard try scanner.peek() == 0x0A else { return nil }
            scanner.position += 1
        }
    }
}
