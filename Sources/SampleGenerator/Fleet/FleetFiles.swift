/// A point of a signature or of an impact on the 400 × 400 car diagram, in tenths of a unit.
struct DiagramPoint {
    var xTenths: Int
    var yTenths: Int
}

/// A damage mark on the car diagram.
struct Impact {
    var type: String
    var point: DiagramPoint
}

/// A check-out or check-in record (SPEC §1.3 LoanRecord).
struct LoanRecordData {
    var id: Int
    var recordedAt: ZonedInstant
    var mileageKilometres: Int?
    var oilLevel: Int
    var interiorCleanliness: Int
    var exteriorCleanliness: Int
    /// Segments of points; nil writes no signature at all.
    var signature: [[DiagramPoint]]?
    var impacts: [Impact]?
    var photos: [String]?
    var comment: String?
}

/// One assignment of a car to a driver (SPEC §1.3).
struct AssignmentData {
    var id: Int
    var eventId: String
    var groupId: Int?
    var driverId: Int?
    var brand: String
    var model: String?
    var plate: String
    var plannedOut: ZonedInstant
    var plannedIn: ZonedInstant
    var cancelled: Bool?
    var checkOut: LoanRecordData?
    var checkIn: LoanRecordData?
}

/// A motor show as the back office exports it.
struct EventData {
    let id: String
    let name: String
    let startsOn: CivilDate
    let endsOn: CivilDate
    let zone: Zone?
    /// Opening and closing, minutes after local midnight.
    let opensAt: Int
    let closesAt: Int
}

/// The fleet output files; a kind left nil is not written.
struct FleetFiles {
    var events: RecordFile?
    var groups: RecordFile?
    var drivers: RecordFile?
    var assignments: RecordFile?
    var loanRecords: RecordFile?

    var all: [RecordFile] { [events, groups, drivers, assignments, loanRecords].compactMap { $0 } }

    func event(_ event: EventData) throws {
        try events?.record { json in
            try json.key("id"); try json.string(event.id)
            try json.key("name"); try json.string(event.name)
            try json.key("starts_on"); try json.date(event.startsOn)
            try json.key("ends_on"); try json.date(event.endsOn)
            if let zone = event.zone { try json.key("timezone"); try json.string(zone.identifier) }
            try json.key("opens_at"); try json.string(Self.clockText(event.opensAt))
            try json.key("closes_at"); try json.string(Self.clockText(event.closesAt))
        }
    }

    /// `HH:MM`.
    static func clockText(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }

    func group(id: Int, eventId: String, name: String) throws {
        try groups?.record { json in
            try json.key("id"); try json.int(id)
            try json.key("event_id"); try json.string(eventId)
            try json.key("name"); try json.string(name)
        }
    }

    func driver(id: Int, name: String, company: String?) throws {
        try drivers?.record { json in
            try json.key("id"); try json.int(id)
            try json.key("name"); try json.string(name)
            if let company { try json.key("company"); try json.string(company) }
        }
    }

    func assignment(_ assignment: AssignmentData) throws {
        try assignments?.record { json in
            try json.key("id"); try json.int(assignment.id)
            try json.key("event_id"); try json.string(assignment.eventId)
            if let groupId = assignment.groupId { try json.key("group_id"); try json.int(groupId) }
            if let driverId = assignment.driverId { try json.key("driver_id"); try json.int(driverId) }
            try json.key("brand_name"); try json.string(assignment.brand)
            if let model = assignment.model { try json.key("model_name"); try json.string(model) }
            try json.key("license_plate_number"); try json.string(assignment.plate)
            try json.key("planned_time_out"); try json.timestamp(assignment.plannedOut)
            try json.key("planned_time_in"); try json.timestamp(assignment.plannedIn)
            if let cancelled = assignment.cancelled { try json.key("cancelled"); try json.bool(cancelled) }
            if let record = assignment.checkOut {
                try json.key("check_out_record"); try json.beginObject(); try Self.members(of: record, json);
                try json.endObject()
            }
            if let record = assignment.checkIn {
                try json.key("check_in_record"); try json.beginObject(); try Self.members(of: record, json);
                try json.endObject()
            }
        }
    }

    /// A record of the `loan_records` kind: a LoanRecord plus its assignment and kind.
    func loanRecord(_ record: LoanRecordData, assignmentId: Int, kind: String) throws {
        try loanRecords?.record { json in
            try json.key("assignment_id"); try json.int(assignmentId)
            try json.key("kind"); try json.string(kind)
            try Self.members(of: record, json)
        }
    }

    private static func members(of record: LoanRecordData, _ json: JSONWriter) throws {
        try json.key("id"); try json.int(record.id)
        try json.key("recorded_at"); try json.timestamp(record.recordedAt)
        if let mileage = record.mileageKilometres { try json.key("mileage_km"); try json.int(mileage) }
        try json.key("oil_level"); try json.int(record.oilLevel)
        try json.key("interior_cleanliness"); try json.int(record.interiorCleanliness)
        try json.key("exterior_cleanliness"); try json.int(record.exteriorCleanliness)
        if let signature = record.signature {
            try json.key("signature")
            try json.beginArray()
            for segment in signature {
                try json.beginArray()
                for point in segment { try pair(point, json) }
                try json.endArray()
            }
            try json.endArray()
        }
        if let impacts = record.impacts {
            try json.key("impacts")
            try json.beginArray()
            for impact in impacts {
                try json.beginObject()
                try json.key("type"); try json.string(impact.type)
                try json.key("x"); try json.fixed(impact.point.xTenths, decimals: 1)
                try json.key("y"); try json.fixed(impact.point.yTenths, decimals: 1)
                try json.endObject()
            }
            try json.endArray()
        }
        if let photos = record.photos {
            try json.key("photos")
            try json.beginArray()
            for photo in photos { try json.string(photo) }
            try json.endArray()
        }
        if let comment = record.comment { try json.key("comment"); try json.string(comment) }
    }

    private static func pair(_ point: DiagramPoint, _ json: JSONWriter) throws {
        try json.beginArray()
        if point.xTenths % 10 == 0 {
            try json.int(point.xTenths / 10)
        } else {
            try json.fixed(point.xTenths, decimals: 1)
        }
        if point.yTenths % 10 == 0 {
            try json.int(point.yTenths / 10)
        } else {
            try json.fixed(point.yTenths, decimals: 1)
        }
        try json.endArray()
    }
}
