import Foundation
import Habits
import Import
import JSON

/// `report-bench parse FILE [--scan-only]`: the JSON reader and the tasks validation of `report
/// import`, alone on this thread, over a whole file; nothing is stored. With `--scan-only` the
/// records are parsed but not validated. Prints records, MB, seconds (wall and CPU) and MB/s.
func runParseBench(_ arguments: [String]) {
    let scanOnly = arguments.contains("--scan-only")
    guard let path = arguments.first(where: { !$0.hasPrefix("--") }) else {
        FileHandle.standardError.write(Data("usage: report-bench parse FILE [--scan-only]\n".utf8))
        exit(2)
    }
    do {
        let source = try FileByteSource(path: path)
        let reader = JSONRecordReader(
            source: source, jsonLines: path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson"))
        let startWall = ContinuousClock.now
        let startCPU = processCPUSeconds()
        var records = 0
        var rejected = 0
        // As the import reads them: each record on the reader's tape, validated from there.
        while let record = try reader.nextOnTape() {
            records += 1
            guard !scanOnly else { continue }
            switch record.tape {
            case .success(let tape):
                do { _ = try TasksImporter.validate(RecordReader(record: tape)) } catch { rejected += 1 }
            case .failure:
                rejected += 1
            }
        }
        let wall = (ContinuousClock.now - startWall) / .seconds(1)
        let cpu = processCPUSeconds() - startCPU
        let megabytes = Double(reader.bytesConsumed) / 1_048_576
        print(
            String(
                format: "%@: %d records (%d rejected), %.1f MB in %.2f s wall, %.2f s CPU: %.0f MB/s",
                scanOnly ? "scan" : "scan+validate", records, rejected, megabytes, wall, cpu, megabytes / wall))
    } catch {
        FileHandle.standardError.write(Data("report-bench: \(error)\n".utf8))
        exit(1)
    }
}

/// User plus system CPU time of this process so far.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
