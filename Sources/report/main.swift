import ReportCLI
