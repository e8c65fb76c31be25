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

/// The columns of one query, declared once (GRDB's "columns declared once"): the case
/// order is the position of each column in the result and in the SELECT list, and the
/// case name is the column name (`calendarID` is `calendar_id`), so that the SQL text,
/// the binding and the decoding cannot drift apart.
///
/// Conform an `Int32`-backed enum whose cases start at 0 and run in SELECT order, and
/// keep `static let selectList = makeSelectList()`. A column that is an expression
/// rather than a name gives its own `sql`.
protocol ResultColumns: RawRepresentable, CaseIterable where RawValue == Int32 {
    /// The SQL expression of the column: by default its name, after `tableAlias`.
    var sql: String { get }
    /// The SELECT list: every column, in position order (built once per type).
    static var selectList: String { get }
    /// What precedes each column name (`"e."` in a join); empty by default.
    static var tableAlias: String { get }
}

extension ResultColumns {
    static var tableAlias: String { "" }

    var sql: String { name }

    /// The column name: the case name in snake case, after `tableAlias`.
    var name: String {
        var out = Self.tableAlias
        var previousWasLower = false
        for character in String(describing: self) {
            if character.isUppercase, previousWasLower { out.append("_") }
            previousWasLower = character.isLowercase
            out += character.lowercased()
        }
        return out
    }

    /// Builds `selectList` from the cases.
    static func makeSelectList() -> String { allCases.map(\.sql).joined(separator: ", ") }

    /// The number of columns.
    static var count: Int32 { Int32(allCases.count) }
}

extension Row {
    @inline(__always) func isNull<C: ResultColumns>(_ column: C) -> Bool { isNull(column.rawValue) }
    @inline(__always) func int<C: ResultColumns>(_ column: C) -> Int64 { int(column.rawValue) }
    @inline(__always) func text<C: ResultColumns>(_ column: C) -> String { text(column.rawValue) }
    @inline(__always) func optionalText<C: ResultColumns>(_ column: C) -> String? { optionalText(column.rawValue) }
    @inline(__always) func optionalInt<C: ResultColumns>(_ column: C) -> Int64? { optionalInt(column.rawValue) }
}

/// The columns of `live_source`, declared once (see `ResultColumns`).
enum LiveSourceColumns: Int32, ResultColumns {
    case name, kind, location, calendar, everySeconds
    case etag, lastModified, bodyHash, ttlSeconds, events, lastAttempt, lastSuccess, lastError, failures, nextAttempt

    static let selectList = makeSelectList()
    /// The state columns, written together after each attempt.
    static let stateColumns: [LiveSourceColumns] = allCases.filter { $0.rawValue >= etag.rawValue }
    /// The state columns whose change is worth a commit; the attempt times alone are
    /// not (a poll answered `304` must leave `PRAGMA data_version` alone), they are
    /// written along with the next such change.
    static let significantColumns: [LiveSourceColumns] = [.etag, .lastModified, .bodyHash, .ttlSeconds, .events, .lastError, .failures]
}

extension LiveSource {
    /// Decodes a row selected with `LiveSourceColumns.selectList`; nil for an unknown kind
    /// (written by a newer eventd).
    init?(row: Row) {
        typealias C = LiveSourceColumns
        guard let kind = Kind(rawValue: row.text(C.kind)) else { return nil }
        var state = LiveSourceState()
        state.etag = row.optionalText(C.etag)
        state.lastModified = row.optionalText(C.lastModified)
        state.bodyHash = row.optionalText(C.bodyHash)
        state.ttlSeconds = row.optionalInt(C.ttlSeconds)
        state.events = Int(row.int(C.events))
        state.lastAttempt = row.optionalInt(C.lastAttempt)
        state.lastSuccess = row.optionalInt(C.lastSuccess)
        state.lastError = row.optionalText(C.lastError)
        state.failures = Int(row.int(C.failures))
        state.nextAttempt = row.optionalInt(C.nextAttempt)
        self.init(name: row.text(C.name), kind: kind, location: row.text(C.location), calendar: row.text(C.calendar),
                  everySeconds: row.int(C.everySeconds), state: state)
    }

    /// The value of `column` in this source (for writes).
    func value(of column: LiveSourceColumns) -> SQLValue {
        func text(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
        func int(_ i: Int64?) -> SQLValue { i.map { .int($0) } ?? .null }
        switch column {
        case .name: return .text(name)
        case .kind: return .text(kind.rawValue)
        case .location: return .text(location)
        case .calendar: return .text(calendar)
        case .everySeconds: return .int(everySeconds)
        case .etag: return text(state.etag)
        case .lastModified: return text(state.lastModified)
        case .bodyHash: return text(state.bodyHash)
        case .ttlSeconds: return int(state.ttlSeconds)
        case .events: return .int(Int64(state.events))
        case .lastAttempt: return int(state.lastAttempt)
        case .lastSuccess: return int(state.lastSuccess)
        case .lastError: return text(state.lastError)
        case .failures: return .int(Int64(state.failures))
        case .nextAttempt: return int(state.nextAttempt)
        }
    }
}
