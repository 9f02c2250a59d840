/// The Habits domain: schema, record validation, analysis and report layout.
public enum HabitsDomain {}
