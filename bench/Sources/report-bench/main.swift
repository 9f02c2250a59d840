// report-bench: the benchmarks that time one layer of `report` alone.
//
//   report-bench [ROWS] [OUTPUT.xlsx]      (defaults: 1000000, bench-swift.xlsx)
//   report-bench [ROWS] [FOLDER] --csv     the same table as CSV (FOLDER/bench-ROWS/loans.csv)
//   report-bench parse FILE [--scan-only]  reads a tasks export and validates every record on one
//                                          core, as `report import`'s reader thread does, storing
//                                          nothing; prints MB/s (bench/import/run.sh runs it)
//   report-bench store COUNT DB [ROWS]     writes COUNT task rows through the import's writer
//                                          alone, as a bulk file is loaded (SQLite's side only)
//   report-bench store --from SOURCE DB [TABLE…]
//                                          the floor of each table of SOURCE (a database `report
//                                          import` made), B-tree by B-tree: its rows written again
//                                          the import's way into DB, reading them untimed
//
// The data are the same, row for row, as bench/xlsx/reference.c and xlsxwriter_ref.py write, so
// that `bench/xlsx/run.sh` compares the writers and nothing else. Rows are made on demand, as an
// analyzer streaming from SQLite would, so the peak memory is the writer's own.
import Foundation

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "parse" {
    runParseBench(Array(CommandLine.arguments.dropFirst(2)))
} else if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "store" {
    if CommandLine.arguments.count > 2 && CommandLine.arguments[2] == "--from" {
        runFloorBench(Array(CommandLine.arguments.dropFirst(3)))
    } else {
        runStoreBench(Array(CommandLine.arguments.dropFirst(2)))
    }
} else {
    runWriterBench(CommandLine.arguments)
}
