/// A daily goal as the app proposes it: the action, its goal, its steps and usual effort.
struct FlowTemplate: Sendable {
    let action: String
    let goal: String
    let contexts: [String]
    let steps: [String]
    let estimatedMinutes: Int
    let energy: Int
}

/// The French wording of the habits app: flows, tasks, mood notes and display names.
enum HabitsVocabulary {
    static let contexts = ["Fitness", "Lecture", "Méditation", "Travail", "Cuisine", "Apprentissage"]

    static let flows: [FlowTemplate] = [
        FlowTemplate(
            action: "Courir 5 km", goal: "Préparer le semi-marathon de Paris", contexts: ["Fitness"],
            steps: ["Échauffement 10 min", "Course à allure modérée", "Étirements"], estimatedMinutes: 45, energy: 4),
        FlowTemplate(
            action: "Séance de renforcement", goal: "Retrouver la forme", contexts: ["Fitness"],
            steps: ["Gainage 3 × 1 min", "Pompes 3 × 12", "Squats 3 × 15"], estimatedMinutes: 30, energy: 4),
        FlowTemplate(
            action: "Yoga du matin", goal: "Gagner en souplesse", contexts: ["Fitness", "Méditation"],
            steps: ["Salutation au soleil", "Postures debout", "Relaxation"], estimatedMinutes: 20, energy: 2),
        FlowTemplate(
            action: "Vélo jusqu'au bureau", goal: "Bouger chaque jour", contexts: ["Fitness"],
            steps: [], estimatedMinutes: 35, energy: 3),
        FlowTemplate(
            action: "Natation 1 km", goal: "Nager le crawl sans m'arrêter", contexts: ["Fitness"],
            steps: ["Échauffement", "10 longueurs crawl", "Retour au calme"], estimatedMinutes: 50, energy: 5),
        FlowTemplate(
            action: "Lire 30 pages", goal: "Finir « L'Étranger » de Camus", contexts: ["Lecture"],
            steps: ["Lire le chapitre", "Noter trois idées"], estimatedMinutes: 40, energy: 2),
        FlowTemplate(
            action: "Lire un article de fond", goal: "Rester curieux", contexts: ["Lecture"],
            steps: [], estimatedMinutes: 15, energy: 1),
        FlowTemplate(
            action: "Lecture avant de dormir", goal: "Moins d'écrans le soir", contexts: ["Lecture", "Méditation"],
            steps: ["Téléphone en mode avion", "Lire 20 minutes"], estimatedMinutes: 20, energy: 1),
        FlowTemplate(
            action: "Méditer 10 minutes", goal: "Réduire le stress", contexts: ["Méditation"],
            steps: ["Respiration 4-7-8", "Scan corporel"], estimatedMinutes: 10, energy: 1),
        FlowTemplate(
            action: "Cohérence cardiaque", goal: "Mieux gérer les émotions", contexts: ["Méditation"],
            steps: ["3 × 5 minutes dans la journée"], estimatedMinutes: 15, energy: 1),
        FlowTemplate(
            action: "Journal de gratitude", goal: "Voir le positif", contexts: ["Méditation"],
            steps: ["Trois gratitudes", "Une intention pour demain"], estimatedMinutes: 10, energy: 1),
        FlowTemplate(
            action: "Préparer la présentation client", goal: "Signer le contrat Lumière", contexts: ["Travail"],
            steps: ["Plan", "Diapositives", "Répétition à voix haute"], estimatedMinutes: 90, energy: 4),
        FlowTemplate(
            action: "Bloc de travail profond", goal: "Avancer sur le rapport annuel", contexts: ["Travail"],
            steps: ["Couper les notifications", "2 × 45 minutes", "Bilan"], estimatedMinutes: 100, energy: 5),
        FlowTemplate(
            action: "Trier la boîte mail", goal: "Inbox zéro le vendredi", contexts: ["Travail"],
            steps: [], estimatedMinutes: 25, energy: 2),
        FlowTemplate(
            action: "Préparer les repas de la semaine", goal: "Manger plus sainement", contexts: ["Cuisine"],
            steps: ["Liste de courses", "Marché d'Aligre", "Cuisson des légumes", "Portions en boîtes"],
            estimatedMinutes: 120, energy: 3),
        FlowTemplate(
            action: "Tester une recette de ratatouille", goal: "Cuisiner de saison", contexts: ["Cuisine"],
            steps: ["Couper les légumes", "Mijoter 45 minutes"], estimatedMinutes: 75, energy: 2),
        FlowTemplate(
            action: "Pain maison", goal: "Maîtriser le levain", contexts: ["Cuisine"],
            steps: ["Rafraîchir le levain", "Pétrir", "Cuire à 240 °C"], estimatedMinutes: 60, energy: 3),
        FlowTemplate(
            action: "Leçon d'espagnol", goal: "Parler espagnol à Séville en avril", contexts: ["Apprentissage"],
            steps: ["Vocabulaire", "Exercice d'écoute", "Révision"], estimatedMinutes: 25, energy: 3),
        FlowTemplate(
            action: "Cours de piano", goal: "Jouer la Gymnopédie n° 1", contexts: ["Apprentissage"],
            steps: ["Gammes", "Main gauche seule", "Les deux mains"], estimatedMinutes: 30, energy: 3),
    ]

    /// Task wording by context; the empty-string key holds tasks without a context.
    static let tasks: [String: [String]] = [
        "Travail": [
            "Répondre aux mails de l'équipe", "Relancer le devis Dupont", "Mettre à jour le tableau de bord",
            "Préparer la réunion de lundi", "Envoyer la facture de novembre", "Relire le contrat de prestation",
            "Valider les congés de l'équipe",
        ],
        "Fitness": ["Préparer le sac de sport", "Renouveler le certificat médical", "Gonfler les pneus du vélo"],
        "Cuisine": ["Faire les courses", "Commander le panier de légumes", "Sortir le poulet du congélateur"],
        "Lecture": ["Rendre les livres à la médiathèque", "Commander le prochain roman"],
        "Méditation": ["Télécharger la méditation guidée", "Trouver un cours de yoga"],
        "Apprentissage": ["Réviser les verbes irréguliers", "S'inscrire au cours du jeudi"],
        "": [
            "Appeler le plombier", "Acheter du pain", "Prendre rendez-vous chez le dentiste", "Payer la cantine",
            "Arroser les plantes", "Réserver le train pour Lyon", "Déposer le colis à La Poste", "Ranger le bureau",
            "Appeler maman", "Résilier l'abonnement salle de sport", "Changer l'ampoule de l'entrée",
        ],
    ]

    static let moodNotes: [Int: [String]] = [
        1: ["Journée difficile, mal dormi", "Malade, resté·e au lit"],
        2: ["Fatigué·e", "Un peu stressé·e par le projet", "Pluie toute la journée…"],
        3: ["Journée normale", "Calme, sans plus"],
        4: ["Bonne séance de sport ce matin", "Journée chargée mais productive", "Super dîner entre amis"],
        5: ["Week-end ressourçant", "Objectif de la semaine atteint !", "Calme et serein"],
    ]

    static let firstNames = [
        "Camille", "Louis", "Emma", "Noah", "Léa", "Hugo", "Chloé", "Jules", "Inès", "Gabriel",
        "Manon", "Arthur", "Jade", "Raphaël", "Louise", "Adam", "Alice", "Lucas", "Lina", "Théo",
    ]
    static let lastNames = [
        "Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy",
        "Moreau", "Simon", "Laurent", "Lefèvre", "Michel", "Garcia", "David", "Bertrand", "Roux",
        "Vincent", "Fournier", "Girard", "Bonnet", "Dupont", "Lambert", "Fontaine", "Rousseau",
    ]
}
