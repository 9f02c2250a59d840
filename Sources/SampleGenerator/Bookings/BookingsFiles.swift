/// One service line of a booking, with the prices the customer saw.
struct BookingLine {
    let serviceId: Int
    let priceCents: Int
    let oldPriceCents: Int?
}

/// A time slot: a column of the booking screen, with its stylists available.
struct SlotEntry {
    let id: Int
    let startsAt: ZonedInstant
    let endsAt: ZonedInstant
    let capacity: Int
}

/// One booking record (SPEC §1.2).
struct BookingRecord {
    var id: Int
    var customerId: Int
    var slotId: Int?
    var startsAt: ZonedInstant
    var createdAt: ZonedInstant
    var status: String
    var lines: [BookingLine]
    var amountCents: Int
    var paidAt: ZonedInstant?
    var cancelledAt: ZonedInstant?
    var postalCode: String?
}

/// A customer as the back office exports them, contact details included (the importer drops them).
struct CustomerRecord {
    let id: Int
    let createdAt: ZonedInstant
    let postalCode: String?
    let firstName: String
    let lastName: String
    let email: String
    let phone: String
    let address: String?
}

/// The bookings output files; a kind left nil is not written.
struct BookingsFiles {
    var services: RecordFile?
    var slots: RecordFile?
    var customers: RecordFile?
    var bookings: RecordFile?

    var all: [RecordFile] { [services, slots, customers, bookings].compactMap { $0 } }

    func service(_ entry: ServiceEntry) throws {
        try services?.record { json in
            try json.key("id"); try json.int(entry.id)
            try json.key("name"); try json.string(entry.name)
            try json.key("category"); try json.string(entry.category)
            try json.key("price_cents"); try json.int(entry.priceCents)
            if let old = entry.oldPriceCents { try json.key("old_price_cents"); try json.int(old) }
            try json.key("duration_minutes"); try json.int(entry.durationMinutes)
        }
    }

    func slot(_ slot: SlotEntry) throws {
        try slots?.record { json in
            try json.key("id"); try json.int(slot.id)
            try json.key("starts_at"); try json.timestamp(slot.startsAt)
            try json.key("ends_at"); try json.timestamp(slot.endsAt)
            try json.key("capacity"); try json.int(slot.capacity)
        }
    }

    func customer(_ customer: CustomerRecord) throws {
        try customers?.record { json in
            try json.key("id"); try json.int(customer.id)
            try json.key("first_name"); try json.string(customer.firstName)
            try json.key("last_name"); try json.string(customer.lastName)
            try json.key("email"); try json.string(customer.email)
            try json.key("phone"); try json.string(customer.phone)
            if let address = customer.address { try json.key("address"); try json.string(address) }
            if let postalCode = customer.postalCode { try json.key("postal_code"); try json.string(postalCode) }
            try json.key("created_at"); try json.timestamp(customer.createdAt)
        }
    }

    func booking(_ booking: BookingRecord) throws {
        try bookings?.record { json in
            try json.key("id"); try json.int(booking.id)
            try json.key("customer_id"); try json.int(booking.customerId)
            if let slotId = booking.slotId { try json.key("slot_id"); try json.int(slotId) }
            try json.key("starts_at"); try json.timestamp(booking.startsAt)
            try json.key("created_at"); try json.timestamp(booking.createdAt)
            try json.key("status"); try json.string(booking.status)
            try json.key("services")
            try json.beginArray()
            for line in booking.lines {
                try json.beginObject()
                try json.key("service_id"); try json.int(line.serviceId)
                try json.key("price_cents"); try json.int(line.priceCents)
                if let old = line.oldPriceCents { try json.key("old_price_cents"); try json.int(old) }
                try json.endObject()
            }
            try json.endArray()
            try json.key("amount_cents"); try json.int(booking.amountCents)
            if let paidAt = booking.paidAt { try json.key("paid_at"); try json.timestamp(paidAt) }
            if let cancelledAt = booking.cancelledAt { try json.key("cancelled_at"); try json.timestamp(cancelledAt) }
            if let postalCode = booking.postalCode { try json.key("postal_code"); try json.string(postalCode) }
        }
    }
}
