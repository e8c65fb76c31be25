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
