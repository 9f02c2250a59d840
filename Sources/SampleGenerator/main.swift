import Foundation

// `report-sample`: deterministic sample and benchmark data for `report` (see Command/Modes.swift).
exit(SampleCommand.run(Array(CommandLine.arguments.dropFirst())))
