/// The column lists of the `event` queries and writes, each declared once (see
/// `ResultColumns`; a case name is its column's name in camel case).
enum EventColumns {
    /// What `EventStore.decode` reads to rebuild an `EventRecord` (without its text).
    enum Record: Int32, ResultColumns {
        case id, calendarID, uid, recurrenceID, thisAndFuture, dtstart, durationDays, durationSeconds
        case rrule, rdates, exdates, status, summary, location, sequence, modified, description, url

        static let selectList = makeSelectList()

        /// The description's first 1,025 characters: items carry at most 1,024 bytes of
        /// it (`SnapshotBuilder.maxDescriptionBytes`), and records are held for as long
        /// as their views, so a long description is not read whole. 1,025 characters are
        /// more than 1,024 bytes, so the feed cuts it exactly as the whole text.
        var sql: String { self == .description ? "substr(description, 1, 1025)" : name }
    }

    /// What a series fingerprint is made of: identity, content hash, and whether the
    /// row is a recurring master (which brings its overrides).
    enum Fingerprint: Int32, ResultColumns {
        case id, calendarID, uid, contentHash, isRecurringMaster

        static let selectList = makeSelectList()

        var sql: String {
            guard self == .isRecurringMaster else { return name }
            return "(recurrence_id = '' AND (rrule IS NOT NULL OR rdates IS NOT NULL))"
        }
    }

    /// What the window scan of `seriesFingerprints` reads: only columns of the window
    /// index, so that the scan never reads a table row (schema migration 5 -> 6).
    enum WindowFingerprint: Int32, ResultColumns {
        case id, calendarID, uid, contentHash

        static let selectList = makeSelectList()
    }

    /// A calendar's existing rows, as an import compares them.
    enum Existing: Int32, ResultColumns {
        case id, sourceID, uid, recurrenceID, sequence, modified, contentHash, blockHash

        static let selectList = makeSelectList()
    }

    /// The columns an import writes for one event (after `calendar_id`/`source_id`).
    enum Written: Int32, ResultColumns {
        case uid, recurrenceID, thisAndFuture, dtstart, allDay, durationDays, durationSeconds, rrule, rdates
        case exdates, status, summary, location, sequence, modified, importSerial, firstMinute, lastMinute
        case spanClass, defaultTZ, contentHash, vevent, blockHash, alarms, description, url

        static let selectList = makeSelectList()
        /// Every case, built once (the synthesized `allCases` builds an array per call).
        static let all = allCases
    }

    /// What `EventStore.alarms(uids:)` reads.
    enum Alarm: Int32, ResultColumns {
        case uid, recurrenceID, alarms

        static let selectList = makeSelectList()
    }

    /// What an export reads per event (`event e` joined with `calendar c`).
    enum Export: Int32, ResultColumns {
        case vevent, dtstart, rdates, exdates, defaultTZ, sourceID

        static let selectList = makeSelectList()
        static var tableAlias: String { "e." }
    }
}
