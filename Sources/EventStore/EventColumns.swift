/// The column lists of the `event` queries and writes, each declared once (see
/// `ResultColumns`).
enum EventColumns {
    /// What `EventStore.decode` reads to rebuild an `EventRecord` (without its text).
    enum Record: Int32, ResultColumns {
        case id, calendarID, uid, recurrenceID, thisAndFuture, dtstart, durationDays, durationSeconds
        case rrule, rdates, exdates, status, summary, location, sequence, modified

        static let selectList = makeSelectList()

        var sql: String {
            switch self {
            case .id: "id"
            case .calendarID: "calendar_id"
            case .uid: "uid"
            case .recurrenceID: "recurrence_id"
            case .thisAndFuture: "this_and_future"
            case .dtstart: "dtstart"
            case .durationDays: "duration_days"
            case .durationSeconds: "duration_seconds"
            case .rrule: "rrule"
            case .rdates: "rdates"
            case .exdates: "exdates"
            case .status: "status"
            case .summary: "summary"
            case .location: "location"
            case .sequence: "sequence"
            case .modified: "modified"
            }
        }
    }

    /// What a series fingerprint is made of: identity, content hash, and whether the
    /// row is a recurring master (which brings its overrides).
    enum Fingerprint: Int32, ResultColumns {
        case id, calendarID, uid, contentHash, isRecurringMaster

        static let selectList = makeSelectList()

        var sql: String {
            switch self {
            case .id: "id"
            case .calendarID: "calendar_id"
            case .uid: "uid"
            case .contentHash: "content_hash"
            case .isRecurringMaster: "(recurrence_id = '' AND (rrule IS NOT NULL OR rdates IS NOT NULL))"
            }
        }
    }

    /// A calendar's existing rows, as an import compares them.
    enum Existing: Int32, ResultColumns {
        case id, sourceID, uid, recurrenceID, sequence, modified, contentHash

        static let selectList = makeSelectList()

        var sql: String {
            switch self {
            case .id: "id"
            case .sourceID: "source_id"
            case .uid: "uid"
            case .recurrenceID: "recurrence_id"
            case .sequence: "sequence"
            case .modified: "modified"
            case .contentHash: "content_hash"
            }
        }
    }

    /// The columns an import writes for one event (after `calendar_id`/`source_id`).
    enum Written: Int32, ResultColumns {
        case uid, recurrenceID, thisAndFuture, dtstart, allDay, durationDays, durationSeconds, rrule, rdates
        case exdates, status, summary, location, sequence, modified, importSerial, firstMinute, lastMinute
        case spanClass, defaultZone, contentHash, vevent

        static let selectList = makeSelectList()

        var sql: String {
            switch self {
            case .uid: "uid"
            case .recurrenceID: "recurrence_id"
            case .thisAndFuture: "this_and_future"
            case .dtstart: "dtstart"
            case .allDay: "all_day"
            case .durationDays: "duration_days"
            case .durationSeconds: "duration_seconds"
            case .rrule: "rrule"
            case .rdates: "rdates"
            case .exdates: "exdates"
            case .status: "status"
            case .summary: "summary"
            case .location: "location"
            case .sequence: "sequence"
            case .modified: "modified"
            case .importSerial: "import_serial"
            case .firstMinute: "first_minute"
            case .lastMinute: "last_minute"
            case .spanClass: "span_class"
            case .defaultZone: "default_tz"
            case .contentHash: "content_hash"
            case .vevent: "vevent"
            }
        }
    }

    /// What an export reads per event (joined with `calendar c`).
    enum Export: Int32, ResultColumns {
        case vevent, dtstart, rdates, exdates, defaultZone, sourceID

        static let selectList = makeSelectList()

        var sql: String {
            switch self {
            case .vevent: "e.vevent"
            case .dtstart: "e.dtstart"
            case .rdates: "e.rdates"
            case .exdates: "e.exdates"
            case .defaultZone: "e.default_tz"
            case .sourceID: "e.source_id"
            }
        }
    }
}
