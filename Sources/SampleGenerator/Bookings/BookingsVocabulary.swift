/// A service of the hairdressing catalogue.
struct ServiceEntry: Sendable {
    let id: Int
    let name: String
    let category: String
    let priceCents: Int
    /// The struck-through former price shown in the app, when there is a promotion.
    let oldPriceCents: Int?
    let durationMinutes: Int
}

/// The French catalogue, names and streets of the home hairdressing service in Paris.
enum BookingsVocabulary {
    static let services: [ServiceEntry] = [
        ServiceEntry(
            id: 1, name: "Coupe femme", category: "Coupe", priceCents: 4500, oldPriceCents: nil, durationMinutes: 45),
        ServiceEntry(
            id: 2, name: "Brushing", category: "Coiffage", priceCents: 3000, oldPriceCents: 3500, durationMinutes: 30),
        ServiceEntry(
            id: 3, name: "Coloration", category: "Couleur", priceCents: 6500, oldPriceCents: nil, durationMinutes: 75),
        ServiceEntry(
            id: 4, name: "Balayage", category: "Couleur", priceCents: 9500, oldPriceCents: 11000, durationMinutes: 120),
        ServiceEntry(
            id: 5, name: "Coupe homme", category: "Coupe", priceCents: 2800, oldPriceCents: nil, durationMinutes: 30),
        ServiceEntry(
            id: 6, name: "Barbe", category: "Barbier", priceCents: 1800, oldPriceCents: nil, durationMinutes: 20),
        ServiceEntry(
            id: 7, name: "Mèches", category: "Couleur", priceCents: 8000, oldPriceCents: 8500, durationMinutes: 90),
        ServiceEntry(id: 8, name: "Soin", category: "Soin", priceCents: 2500, oldPriceCents: nil, durationMinutes: 20),
        ServiceEntry(
            id: 9, name: "Chignon", category: "Coiffage", priceCents: 5500, oldPriceCents: nil, durationMinutes: 60),
        ServiceEntry(
            id: 10, name: "Coupe enfant", category: "Coupe", priceCents: 1800, oldPriceCents: 2000,
            durationMinutes: 25),
    ]

    /// More services for the benchmark catalogue.
    static let moreServices: [ServiceEntry] = [
        ServiceEntry(
            id: 11, name: "Permanente", category: "Forme", priceCents: 7000, oldPriceCents: nil, durationMinutes: 90),
        ServiceEntry(
            id: 12, name: "Lissage brésilien", category: "Forme", priceCents: 15000, oldPriceCents: 18000,
            durationMinutes: 150),
        ServiceEntry(
            id: 13, name: "Coupe + brushing", category: "Coupe", priceCents: 6500, oldPriceCents: 7500,
            durationMinutes: 70),
        ServiceEntry(
            id: 14, name: "Patine", category: "Couleur", priceCents: 3500, oldPriceCents: nil, durationMinutes: 30),
        ServiceEntry(
            id: 15, name: "Ombré", category: "Couleur", priceCents: 11000, oldPriceCents: nil, durationMinutes: 130),
        ServiceEntry(
            id: 16, name: "Décoloration", category: "Couleur", priceCents: 8500, oldPriceCents: nil,
            durationMinutes: 100),
        ServiceEntry(
            id: 17, name: "Coiffure de mariée", category: "Coiffage", priceCents: 18000, oldPriceCents: nil,
            durationMinutes: 120),
        ServiceEntry(
            id: 18, name: "Tresses", category: "Coiffage", priceCents: 4000, oldPriceCents: nil, durationMinutes: 60),
        ServiceEntry(
            id: 19, name: "Rasage à l'ancienne", category: "Barbier", priceCents: 3000, oldPriceCents: nil,
            durationMinutes: 30),
        ServiceEntry(
            id: 20, name: "Soin du cuir chevelu", category: "Soin", priceCents: 3500, oldPriceCents: 4000,
            durationMinutes: 30),
        ServiceEntry(
            id: 21, name: "Coupe frange", category: "Coupe", priceCents: 1200, oldPriceCents: nil, durationMinutes: 15),
        ServiceEntry(
            id: 22, name: "Extensions", category: "Forme", priceCents: 25000, oldPriceCents: nil, durationMinutes: 180),
        ServiceEntry(
            id: 23, name: "Coupe étudiante", category: "Coupe", priceCents: 3200, oldPriceCents: 4500,
            durationMinutes: 40),
        ServiceEntry(
            id: 24, name: "Soin à la kératine", category: "Soin", priceCents: 6000, oldPriceCents: nil,
            durationMinutes: 60),
    ]

    /// Services that go together in one booking (ids), as customers combine them.
    static let combinations: [[Int]] = [[1, 2], [3, 1], [5, 6], [4, 8], [7, 2], [1, 8], [10, 10], [3, 1, 2]]

    /// One well-known street per Paris arrondissement, for addresses that look real.
    static let streets: [String: String] = [
        "75001": "rue de Rivoli", "75002": "rue Montorgueil", "75003": "rue de Bretagne", "75004": "rue Saint-Antoine",
        "75005": "rue Mouffetard", "75006": "rue de Rennes", "75007": "rue Cler",
        "75008": "rue du Faubourg Saint-Honoré",
        "75009": "rue des Martyrs", "75010": "rue du Faubourg Saint-Denis", "75011": "rue Oberkampf",
        "75012": "avenue Daumesnil", "75013": "avenue d'Italie", "75014": "rue Daguerre",
        "75015": "rue de la Convention",
        "75016": "avenue Mozart", "75017": "rue des Batignolles", "75018": "rue Lepic", "75019": "avenue Secrétan",
        "75020": "rue des Pyrénées",
    ]

    /// The 20 Paris postal codes, 75001 … 75020.
    static let parisPostalCodes: [String] = (1...20).map { "750" + ($0 < 10 ? "0" : "") + String($0) }

    static let firstNames = [
        "Sophie", "Nathalie", "Isabelle", "Julie", "Céline", "Aurélie", "Marion", "Claire", "Sarah",
        "Pauline", "Élodie", "Caroline", "Hélène", "Margaux", "Anaïs", "Thomas", "Nicolas", "Julien",
        "Antoine", "Maxime", "Mathilde", "Agathe", "Victoire", "Constance", "Bérénice", "Yasmine",
        "Fatou", "Mei", "Olivia", "Charlotte",
    ]
    static let lastNames = [
        "Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy",
        "Moreau", "Simon", "Laurent", "Lefebvre", "Michel", "Garcia", "David", "Bertrand", "Roux",
        "Vincent", "Fournier", "Morel", "Girard", "André", "Mercier", "Dupont", "Lambert", "Bonnet",
        "François", "Martinez", "Chevalier", "Diallo", "Nguyen", "Benali", "de La Rochefoucauld",
    ]
}
