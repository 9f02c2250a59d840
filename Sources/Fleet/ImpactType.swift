/// The impact types of the car diagram (SPEC §1.3), in the order reports list them: the one list
/// validation, analysis and reports use. (The `loan_impacts` CHECK constraint spells them again:
/// a recorded schema step is frozen SQL.)
enum ImpactType: Int, Sendable, CaseIterable {
    case sinking, impact, scratch, deepscratch

    /// The type as the app exports it and the reports show it.
    var name: String {
        switch self {
        case .sinking: return "sinking"
        case .impact: return "impact"
        case .scratch: return "scratch"
        case .deepscratch: return "deepscratch"
        }
    }

    init?(name: String) {
        guard let type = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = type
    }

    /// Every name, for validation messages and checks.
    static let names = allCases.map(\.name)
}
