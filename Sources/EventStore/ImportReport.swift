import ICalendar

/// One input of an import run.
public struct ImportInput: Sendable {
    /// The source identity: an absolute path, or `-` for standard input.
    public var path: String
    /// How messages name the file.
    public var displayName: String
    /// The file's content.
    public var bytes: [UInt8]
    /// Target calendar.
    public var calendar: String

    /// Creates an input.
    public init(path: String, displayName: String, bytes: [UInt8], calendar: String) {
        self.path = path
        self.displayName = displayName
        self.bytes = bytes
        self.calendar = calendar
    }
}

/// Options of an import run.
public struct ImportOptions: Sendable {
    /// Make each target calendar hold exactly the events of this run's files.
    public var replace = false
    /// Treat any warning as a failure (nothing is written).
    public var strict = false

    /// Creates options (both off by default).
    public init(replace: Bool = false, strict: Bool = false) {
        self.replace = replace
        self.strict = strict
    }
}

/// What an import did to one file's events.
public struct FileImportResult: Sendable, Equatable {
    /// The source identity (as in `ImportInput.path`).
    public var path: String
    /// How messages name the file.
    public var displayName: String
    /// The target calendar.
    public var calendar: String
    /// Events new to the calendar.
    public var added = 0
    /// Events whose stored row was rewritten.
    public var updated = 0
    /// Events removed (gone from the file, or not in the run with `replace`).
    public var removed = 0
    /// Events already stored as they are.
    public var unchanged = 0
    /// Components that could not be used.
    public var skipped = 0
    /// Problems that did not stop the import, in file order.
    public var warnings: [ImportIssue] = []

    /// True when the run changed any row for this file.
    public var changedAnything: Bool { added + updated + removed > 0 }
}

/// Why an import run failed as a whole. Nothing was written.
public enum ImportError: Error, CustomStringConvertible {
    /// The file is not usable iCalendar (`FILE:LINE: message`).
    case syntax(file: String, line: Int, message: String)
    /// `--strict` and there were warnings.
    case strict(file: String, issues: [ImportIssue])
    /// Invalid calendar name.
    case invalidCalendarName(String)

    /// The failure as one message.
    public var description: String {
        switch self {
        case .syntax(let file, let line, let message): return "\(file):\(line): \(message)"
        case .strict(let file, let issues):
            let first = issues.first.map { "\(file):\($0.line): \($0.message)" } ?? file
            return "\(first) (--strict: \(issues.count) warning\(issues.count == 1 ? "" : "s"), nothing imported)"
        case .invalidCalendarName(let name):
            return StoreError.invalidCalendarName(name).description
        }
    }
}
