import Foundation
import ReportCLI

// Thin executable: everything lives in ReportCLI so that it can be tested.
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())).rawValue)
