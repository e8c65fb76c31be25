import ICalendar

/// One input of an import run.
public struct ImportInput: Sendable {
    /// The source identity: an absolute path, or `-` for standard input.
    public var path: String
    /// How messages name the file.
    public var displayName: String
    public var bytes: [UInt8]
    /// Target calendar.
    public var calendar: String

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

    public init(replace: Bool = false, strict: Bool = false) {
        self.replace = replace
        self.strict = strict
    }
}

/// What an import did to one file's events.
public struct FileImportResult: Sendable, Equatable {
    public var path: String
    public var displayName: String
    public var calendar: String
    public var added = 0
    public var updated = 0
    public var removed = 0
    public var unchanged = 0
    public var skipped = 0
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
