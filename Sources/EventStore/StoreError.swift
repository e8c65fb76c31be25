/// Failures of the event store that are not raw SQLite errors.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// The database was written by a newer eventd.
    case newerSchema(found: Int, supported: Int)
    /// No calendar of that name.
    case unknownCalendar(String)
    /// A calendar name outside `A-Z a-z 0-9 . _ -`, or longer than 64 characters.
    case invalidCalendarName(String)
    /// A colour that is not `#rgb` or `#rrggbb`.
    case invalidColor(String)

    /// The failure as one message.
    public var description: String {
        switch self {
        case .newerSchema(let found, let supported):
            return "database schema version \(found) is newer than this eventd supports (\(supported)); upgrade eventd"
        case .unknownCalendar(let name):
            return "no calendar named \"\(name)\""
        case .invalidCalendarName(let name):
            return "invalid calendar name \"\(name)\": use 1-64 characters of A-Z a-z 0-9 . _ -"
        case .invalidColor(let color):
            return "invalid colour \"\(color)\": use #rgb or #rrggbb"
        }
    }
}

/// Calendar name rule of docs/data-model.md.
public func isValidCalendarName(_ name: String) -> Bool {
    guard (1...64).contains(name.utf8.count) else { return false }
    return name.utf8.allSatisfy { c in
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57)
            || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }
}
