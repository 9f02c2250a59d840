import Foundation
import XCTest
import JSON
@testable import JSON

/// Reading real files through read(2), in a fresh temporary directory.
final class JSONFileByteSourceTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    func testReadsAFileLargerThanTheBuffer() throws {
        var text = "{\"exported_at\":\"2026-11-28\",\"tasks\":[\n"
        let count = 5_000
        for index in 1...count {
            text += "{\"id\":\"task-\(index)\",\"libelle\":\"Préparer la réunion d'équipe\",\"n\":\(index)}"
            text += index < count ? ",\n" : "\n"
        }
        text += "]}\n"
        let path = directory.appendingPathComponent("tasks.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))

        let source = try FileByteSource(path: path)
        XCTAssertEqual(source.size, Int64(text.utf8.count))
        let reader = JSONRecordReader(source: source, jsonLines: false, bufferSize: 4096)
        var seen = 0
        while let record = try reader.next() {
            seen += 1
            guard case .success(.object(let object)) = record.value else { return XCTFail("record \(seen)") }
            XCTAssertEqual(object["n"], .integer(Int64(seen)))
            XCTAssertEqual(object["id"], .string("task-\(seen)"))
        }
        XCTAssertEqual(seen, count)
        XCTAssertEqual(reader.layout, .wrapper(key: "tasks"))
        XCTAssertEqual(reader.bytesConsumed, text.utf8.count)
    }

    func testMissingFileAndDirectoryAreReadErrors() {
        let missing = directory.appendingPathComponent("nope.json").path
        XCTAssertThrowsError(try FileByteSource(path: missing)) { error in
            XCTAssertEqual(
                error as? JSONReadError,
                JSONReadError(path: missing, message: "cannot open: No such file or directory"))
        }
        XCTAssertThrowsError(try FileByteSource(path: directory.path)) { error in
            XCTAssertEqual(
                error as? JSONReadError, JSONReadError(path: directory.path, message: "cannot open: is a directory"))
        }
    }

    func testRestartingAsJSONLinesAfterNotAWrapper() throws {
        let path = directory.appendingPathComponent("loan_records.json").path
        try Data("{\"id\":1}\n{\"id\":2}\n".utf8).write(to: URL(fileURLWithPath: path))
        let reader = JSONRecordReader(source: try FileByteSource(path: path), jsonLines: false)
        XCTAssertThrowsError(try reader.next()) { XCTAssertTrue($0 is NotAWrapper) }

        let lines = JSONRecordReader(source: try FileByteSource(path: path), jsonLines: true)
        var ids: [JSONValue?] = []
        while let record = try lines.next() {
            if case .success(.object(let object)) = record.value { ids.append(object["id"]) }
        }
        XCTAssertEqual(ids, [.integer(1), .integer(2)])
    }
}
