/// The Fleet domain: schema, record validation, analysis and report layout.
public enum FleetDomain {}
