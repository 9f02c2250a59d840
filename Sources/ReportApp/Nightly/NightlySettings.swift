import ArgumentParsing
import DomainInterface
import Foundation
import Import
import Time

/// What `report nightly` is asked for, checked before anything is touched.
public struct NightlySettings: Sendable {
    public let inbox: String
    public let archive: String
    /// No `--archive` was given: `archive/` beside the inbox, created when missing.
    public let archiveIsDefault: Bool
    public let output: String?
    public let asOf: Timestamp
    public let database: DatabaseSettings
    /// The domains whose reports are written (`--only`); all by default.
    public let domains: Set<DomainName>

    var failedFolder: String { inbox + "/failed" }
    /// The archive's folder for this run: the as-of day in Paris, where the exports are made.
    var archiveDay: Day { LocalTime.paris.day(of: asOf) }

    /// - Parameter archive: nil for the default, `archive/` beside the inbox.
    public init(
        inbox: String, archive: String?, output: String?, asOf: Timestamp, database: DatabaseSettings,
        domains: Set<DomainName>
    ) throws(UsageError) {
        var inbox = inbox
        while inbox.count > 1, inbox.hasSuffix("/") { inbox.removeLast() }
        self.inbox = inbox
        if let archive {
            self.archive = archive
            archiveIsDefault = false
        } else {
            let parent = (inbox as NSString).deletingLastPathComponent
            self.archive = parent.isEmpty ? "archive" : (parent as NSString).appendingPathComponent("archive")
            archiveIsDefault = true
        }
        self.output = output
        self.asOf = asOf
        self.database = database
        self.domains = domains
        let inboxPath = Self.absolute(inbox), archivePath = Self.absolute(self.archive)
        if archivePath == inboxPath || archivePath.hasPrefix(inboxPath.hasSuffix("/") ? inboxPath : inboxPath + "/") {
            throw UsageError(
                "the archive \(self.archive) is inside the inbox \(inbox): its files would be imported again; give "
                    + "--archive DIR outside it"
            )
        }
    }

    /// `--only fleet,habits`: the named domains, or a usage error naming the unknown one.
    public static func domains(_ text: String?, modules: [DomainModule]) throws(UsageError) -> Set<DomainName> {
        let known = modules.map(\.name)
        guard let text else { return Set(known) }
        var domains = Set<DomainName>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map({
            $0.trimmingCharacters(in: .whitespaces)
        }) {
            guard let domain = known.first(where: { $0.rawValue == name }) else {
                let names = known.map(\.rawValue)
                throw UsageError(
                    "--only: unknown domain \"\(name)\"" + Suggestion.clause(for: name, among: names)
                        + "; domains: " + names.joined(separator: ", "))
            }
            domains.insert(domain)
        }
        return domains
    }

    /// An absolute path without `.`/`..` components, following symbolic links where they exist.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
