import ICalendar

/// Why an import run failed as a whole. Nothing was written.
public enum ImportError: Error, CustomStringConvertible {
    /// The file is not usable iCalendar (`FILE:LINE: message`).
    case syntax(file: String, line: Int, message: String)
    /// `--strict` and there were warnings.
    case strict(file: String, issues: [ImportIssue])
    /// Invalid calendar name.
    case invalidCalendarName(String)
    /// The file is an input the live source `source` owns in `calendar` (docs/data-model.md,
    /// "Ownership"): imported there, its events would go with the source.
    case ownedByLiveSource(file: String, source: String, calendar: String)
    /// The time zone definitions the file's events use would take the database past its
    /// bound (`EventStore.maxStoredZones`, `maxStoredZoneBytes`).
    case zoneBound(file: String, definitions: Int, bytes: Int)

    /// The failure as one message.
    public var description: String {
        switch self {
        case .syntax(let file, let line, let message): return "\(file):\(line): \(message)"
        case .strict(let file, let issues):
            let first = issues.first.map { "\(file):\($0.line): \($0.message)" } ?? file
            return "\(first) (--strict: \(issues.count) warning\(issues.count == 1 ? "" : "s"), nothing imported)"
        case .invalidCalendarName(let name):
            return StoreError.invalidCalendarName(name).description
        case .ownedByLiveSource(let file, let source, let calendar):
            return "\(file) is read by source \(source) into calendar \(calendar); nothing imported "
                + "(import it into another calendar with --calendar, or remove the source first)"
        case .zoneBound(let file, let definitions, let bytes):
            return "\(file): its VTIMEZONE definitions would take the database past its bound of \(definitions) "
                + "definitions (\(bytes >> 10) KiB) in use; nothing imported"
        }
    }
}
