/// The cars, people and words of premium-car loans at a Paris motor show.
enum FleetVocabulary {
    static let cars: [(brand: String, model: String)] = [
        ("Porsche", "911 Carrera S"), ("Porsche", "Panamera 4 E-Hybrid"), ("Porsche", "Macan GTS"),
        ("Audi", "RS 6 Avant"), ("Audi", "Q7 e-tron"), ("Audi", "R8 V10 plus"),
        ("BMW", "M4 Coupé"), ("BMW", "i8"), ("BMW", "Série 7 750Li"),
        ("Mercedes-Benz", "AMG GT S"), ("Mercedes-Benz", "Classe E Cabriolet"), ("Mercedes-Benz", "GLE Coupé"),
        ("Jaguar", "F-Type R"), ("Jaguar", "F-Pace"), ("Land Rover", "Range Rover Evoque Cabriolet"),
        ("Maserati", "Levante"), ("Maserati", "Ghibli S Q4"), ("Tesla", "Model S P90D"), ("Tesla", "Model X P100D"),
        ("Alfa Romeo", "Giulia Quadrifoglio"), ("Volvo", "V90 Cross Country"), ("DS", "DS 5 Performance Line"),
        ("Peugeot", "3008 GT"), ("Lexus", "LC 500"), ("Bentley", "Bentayga"), ("Aston Martin", "DB11"),
        ("Ferrari", "GTC4Lusso"), ("Lamborghini", "Huracán LP 610-4"), ("Renault", "Alpine A110 Vision"),
        ("Infiniti", "Q60 Coupé"),
    ]

    /// Groups of an event, with the companies their drivers come from (nil: private person).
    static let groups: [(name: String, companies: [String?])] = [
        (
            "Presse",
            [
                "Le Figaro", "L'Équipe", "Auto Plus", "L'Automobile Magazine", "Caradisiac", "BFM TV", "Le Parisien",
                "Turbo (M6)", "Sport Auto",
            ]
        ),
        ("VIP", [nil, "Invité de la marque"]),
        ("Clients", [nil]),
        ("Partenaires", ["TotalEnergies", "Michelin", "Orange", "AXA", "Hertz"]),
        ("Staff", ["Équipe événement"]),
        ("Influenceurs", [nil]), ("Concessionnaires", ["Groupe Bernier", "Jean Lain Automobiles"]),
        ("Flottes entreprises", ["Arval", "ALD Automotive"]),
    ]

    static let firstNames = [
        "Julien", "Thomas", "Nicolas", "Sébastien", "Alexandre", "Guillaume", "Antoine", "Romain",
        "Céline", "Sandrine", "Aurélie", "Stéphanie", "Émilie", "Laure", "Jean-Baptiste", "François",
        "Hélène", "Marine", "Benoît", "Frédéric", "Olivier", "Isabelle", "Anne-Sophie", "Karim",
        "Mehdi", "Sonia", "Pierre-Yves", "Delphine", "Cyril", "Agnès",
    ]
    static let lastNames = [
        "Moreau", "Lefebvre", "Garnier", "Faure", "Rousseau", "Blanc", "Guérin", "Muller", "Henry",
        "Roussel", "Nicolas", "Perrin", "Morin", "Mathieu", "Clément", "Gauthier", "Dumont", "Lopez",
        "Fontaine", "Chevalier", "Robin", "Masson", "Sanchez", "Gérard", "Nguyen", "Boyer", "Denis",
        "Lemaire", "Duval", "Joly", "Gaillard", "Brunet", "Benoît", "Haddad",
    ]

    static let impactTypes = ["sinking", "impact", "scratch", "deepscratch"]

    static let checkOutComments = [
        "RAS", "Plein fait", "Rayure connue sur le pare-choc arrière", "Siège bébé installé",
        "Clé mains libres remise au conducteur", "Badge parking remis",
    ]
    static let checkInComments = [
        "RAS", "Niveau d'huile bas, à signaler à l'atelier", "Véhicule sale, lavage prévu",
        "Nouvelle rayure portière avant droite", "Retour en retard, bouchons sur le périphérique",
        "Voyant pression des pneus allumé", "Jante avant gauche frottée",
    ]

    /// A French registration number, `AB-123-CD` (SIV: no I, O or U; no SS; no WW at the start).
    static func plate(_ random: inout SeededRandom) -> String {
        let letters = Array("ABCDEFGHJKLMNPQRSTVXYZ")
        func pair() -> String {
            var text = ""
            repeat {
                text = String(random.pick(letters)) + String(random.pick(letters))
            } while text == "SS" || text == "WW"
            return text
        }
        let number = random.int(1...999)
        return pair() + "-" + (number < 100 ? "0" : "") + (number < 10 ? "0" : "") + String(number) + "-" + pair()
    }
}
