import ByteOutput
import Foundation
import XCTest
@testable import Writers
#if canImport(Glibc)
import Glibc
#endif
import Writers

final class OutputFilesTests: XCTestCase {
    // MARK: names

    func testSanitizeKeepsSafeNames() {
        XCTAssertEqual(OutputFiles.sanitizeFileName("fleet-salon2016"), "fleet-salon2016")
        XCTAssertEqual(OutputFiles.sanitizeFileName("habits-2026-11-01_2026-11-28"), "habits-2026-11-01_2026-11-28")
        XCTAssertEqual(OutputFiles.sanitizeFileName("daily.csv"), "daily.csv")
    }

    func testSanitizeNeutralisesPathsAndDots() {
        XCTAssertEqual(OutputFiles.sanitizeFileName("../../etc/passwd"), "_._.._etc_passwd")
        XCTAssertEqual(OutputFiles.sanitizeFileName("a/b"), "a_b")
        XCTAssertEqual(OutputFiles.sanitizeFileName(".."), "_.")
        XCTAssertEqual(OutputFiles.sanitizeFileName("."), "_")
        XCTAssertEqual(OutputFiles.sanitizeFileName(".hidden"), "_hidden")
        XCTAssertEqual(OutputFiles.sanitizeFileName(""), "_")
        XCTAssertEqual(OutputFiles.sanitizeFileName("a\u{0}b"), "a_b")
        XCTAssertEqual(OutputFiles.sanitizeFileName("a b\\c:d"), "a_b_c_d")
        XCTAssertEqual(OutputFiles.sanitizeFileName("café-✓-🚗"), "caf_-_-_")
    }

    func testLongNamesAreCutWithAStableDistinctHash() {
        let long = String(repeating: "x", count: 300)
        let other = String(repeating: "x", count: 299) + "y"
        let sanitized = OutputFiles.sanitizeFileName(long)
        XCTAssertEqual(sanitized.utf8.count, 100)
        XCTAssertTrue(sanitized.hasPrefix(String(repeating: "x", count: 91) + "-"))
        XCTAssertNotEqual(sanitized, OutputFiles.sanitizeFileName(other))
        XCTAssertEqual(sanitized, OutputFiles.sanitizeFileName(long), "stable")
        XCTAssertEqual(OutputFiles.sanitizeFileName(sanitized), sanitized, "idempotent")
        let unicode = String(repeating: "é", count: 300)
        XCTAssertLessThanOrEqual(OutputFiles.sanitizeFileName(unicode).utf8.count, 100)
        XCTAssertEqual(
            OutputFiles.sanitizeFileName(String(repeating: "a", count: 100)), String(repeating: "a", count: 100))
    }

    func testFileNameKeepsItsExtensionWhenCut() {
        let name = OutputFiles.fileName(String(repeating: "s", count: 300), extension: "csv")
        XCTAssertEqual(name.utf8.count, 100)
        XCTAssertTrue(name.hasSuffix(".csv"))
        XCTAssertEqual(OutputFiles.fileName("../x", extension: "md"), "_._x.md")
    }

    func testLocationStaysInsideTheDirectory() throws {
        let directory = URL(fileURLWithPath: "/tmp/reports")
        for hostile in ["../../etc/passwd", "..", ".", "", "a/../../b", "/etc/passwd", "\u{0}"] {
            let url = try OutputFiles.location(of: hostile, in: directory)
            XCTAssertEqual(url.deletingLastPathComponent().path, "/tmp/reports", hostile)
            XCTAssertFalse(url.lastPathComponent.hasPrefix("."), hostile)
        }
    }

    // MARK: atomic files

    func testWriteFileLeavesOnlyTheFinalFile() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let url = directory.appendingPathComponent("report.md")
        try OutputFiles.writeFile(at: url, contents: "first\n")
        try OutputFiles.writeFile(at: url, contents: "second\n")
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "second\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["report.md"])
    }

    func testAFailingBodyKeepsThePreviousFileAndNoTemporary() throws {
        struct Stop: Error {}
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let url = directory.appendingPathComponent("report.md")
        try OutputFiles.writeFile(at: url, contents: "kept\n")
        XCTAssertThrowsError(
            try OutputFiles.writeFile(at: url) { sink in
                try sink.write("half a file")
                try sink.flush()
                throw Stop()
            }
        ) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "kept\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["report.md"])
    }

    func testMissingFolderThrowsAndCreatesNothing() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let url = directory.appendingPathComponent("missing").appendingPathComponent("report.md")
        XCTAssertThrowsError(try OutputFiles.writeFile(at: url, contents: "x")) { error in
            guard let error = error as? OutputError else { return XCTFail("not an OutputError: \(error)") }
            XCTAssertEqual(error.reason, .missingFolder)
            XCTAssertEqual(error.path, url.path)
            XCTAssertTrue(error.description.contains(url.path))
            XCTAssertTrue(error.description.contains("does not exist"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    /// Root ignores permission bits, so an unwritable place is made with a regular file standing
    /// where the folder should be; the permission case runs only when not root.
    func testUnwritablePlacesThrowAndLeaveNothingBehind() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let blocker = directory.appendingPathComponent("not-a-folder")
        try Data("file".utf8).write(to: blocker)
        XCTAssertThrowsError(try OutputFiles.writeFile(at: blocker.appendingPathComponent("r.md"), contents: "x")) {
            XCTAssertEqual(($0 as? OutputError)?.reason, .notAFolder)
        }
        XCTAssertThrowsError(try OutputFiles.writeFolder(at: blocker.appendingPathComponent("csv")) { _ in }) {
            XCTAssertEqual(($0 as? OutputError)?.reason, .notAFolder)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["not-a-folder"])

        guard getuid() != 0 else { return }
        let readOnly = directory.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly.path) }
        XCTAssertThrowsError(try OutputFiles.writeFile(at: readOnly.appendingPathComponent("r.md"), contents: "x")) {
            XCTAssertEqual(($0 as? OutputError)?.reason, .notWritable)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: readOnly.path), [])
    }

    func testDiskFullIsReportedFromErrno() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try XCTSkipIf(descriptor < 0, "/dev/full is not available")
        defer { close(descriptor) }
        let sink = ByteSink(fileDescriptor: descriptor, path: "/dev/full")
        try sink.write("data")
        XCTAssertThrowsError(try sink.flush()) { error in
            XCTAssertEqual((error as? OutputError)?.reason, .diskFull)
            XCTAssertTrue("\(error)".contains("no space left"))
        }
    }

    /// The owning sink the sample generator writes its exports through: it makes the file, fills
    /// it through `reserve`/`commit` and plain writes, flushes in chunks of its own capacity and
    /// closes the file itself.
    func testOwningSinkCreatesFillsAndClosesItsFile() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let path = directory.appendingPathComponent("out.json").path
        try "stale contents that must go".write(toFile: path, atomically: false, encoding: .utf8)
        let sink = try ByteSink(creating: path, capacity: 8)
        try sink.write("[")
        let room = try sink.reserve(8)
        for index in 0..<8 { room[index] = UInt8(ascii: "a") + UInt8(index) }
        sink.commit(8)
        XCTAssertEqual(sink.bytesWritten, 1, "the reserve flushed the byte before it; the 8 reserved wait")
        try sink.write(UInt8(ascii: "]"))
        XCTAssertEqual(sink.bytesWritten, 9, "a full buffer is flushed before the next byte")
        try sink.close()
        XCTAssertEqual(sink.bytesWritten, 10)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "[abcdefgh]")
    }

    func testOwningSinkInAMissingFolderSaysSo() {
        let path = "/nonexistent-\(getpid())/out.json"
        XCTAssertThrowsError(try ByteSink(creating: path)) { error in
            XCTAssertEqual((error as? OutputError)?.reason, .missingFolder)
            XCTAssertTrue("\(error)".hasPrefix("cannot write \(path) (create the file): the folder does not exist"))
        }
    }

    // MARK: atomic folders

    func testWriteFolderSwapsTheWholeFolderIn() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let folder = directory.appendingPathComponent("tables")
        try OutputFiles.writeFolder(at: folder) { temporary in
            XCTAssertNotEqual(temporary.path, folder.path)
            XCTAssertTrue(temporary.lastPathComponent.hasPrefix(".tables.tmp-"))
            try OutputFiles.writeFile(at: temporary.appendingPathComponent("a.csv"), contents: "a\r\n")
            try OutputFiles.writeFile(at: temporary.appendingPathComponent("b.csv"), contents: "b\r\n")
        }
        try OutputFiles.writeFolder(at: folder) { temporary in
            try OutputFiles.writeFile(at: temporary.appendingPathComponent("c.csv"), contents: "c\r\n")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["c.csv"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["tables"])
    }

    func testAFailingFolderBodyKeepsTheOldFolder() throws {
        struct Stop: Error {}
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let folder = directory.appendingPathComponent("tables")
        try OutputFiles.writeFolder(at: folder) {
            try OutputFiles.writeFile(
                at: $0.appendingPathComponent("a.csv"),
                contents: "a")
        }
        XCTAssertThrowsError(
            try OutputFiles.writeFolder(at: folder) { temporary in
                try OutputFiles.writeFile(at: temporary.appendingPathComponent("new.csv"), contents: "new")
                throw Stop()
            })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["a.csv"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["tables"])
    }

    // MARK: sink

    func testSinkWritesLargeStreamsInChunks() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let url = directory.appendingPathComponent("big.txt")
        let line = Array("0123456789abcdef\n".utf8)
        var chunksSeen = 0
        try OutputFiles.writeFile(at: url) { sink in
            for _ in 0..<20_000 {
                try sink.write(line)
                if sink.bytesWritten > chunksSeen * ByteSink.chunkSize { chunksSeen += 1 }
            }
            // Never more than one chunk waits in memory.
            XCTAssertGreaterThan(sink.bytesWritten, line.count * 20_000 - ByteSink.chunkSize)
        }
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
        XCTAssertEqual(size, line.count * 20_000)
        XCTAssertGreaterThan(chunksSeen, 4)
    }

    func testErrorMessagesNameThePathAndTheCause() {
        let error = OutputError(path: "/r/x.csv", errno: EACCES, operation: "create the temporary file")
        XCTAssertEqual(error.reason, .notWritable)
        XCTAssertEqual(
            error.description,
            "cannot write /r/x.csv (create the temporary file): permission denied or "
                + "read-only file system; choose a writable folder with -o")
        let other = OutputError(path: "/r/x.csv", errno: EIO, operation: "write")
        XCTAssertTrue(other.description.hasPrefix("cannot write /r/x.csv (write): "))
        XCTAssertTrue(other.description.hasSuffix("(errno \(EIO))"))
    }
}
