import Digests
import Synchronization

/// One VTIMEZONE of a file, kept as text until an event names its TZID: a definition
/// costs libical tens of KiB once read, so a file's definitions are read only when used
/// (a feed may carry thousands that no event names).
struct FileZone: Sendable {
    /// The registry key of the text (`vtz:HASH`).
    let key: String
    /// The `BEGIN:VTIMEZONE ... END:VTIMEZONE` text as the file has it.
    let text: String
    /// The line of its `BEGIN`.
    let line: Int

    /// The registry key of a VTIMEZONE text: the same for the same definition however its
    /// lines end or fold.
    static func key(of text: String) -> String {
        "vtz:" + String(SHA256.hexDigest(CalendarParser.normalisedZoneText(text)).prefix(24))
    }

    /// The TZID a VTIMEZONE text names (its first `TZID` property, lines unfolded), nil
    /// when it has none.
    static func tzid(of text: String) -> String? {
        let unfolded = text.removingCarriageReturns().replacingFolds()
        for line in unfolded.split(separator: "\n") {
            guard line.count > 4, line.prefix(4).uppercased() == "TZID" else { continue }
            let rest = line.dropFirst(4)
            guard let first = rest.first, first == ":" || first == ";", let colon = rest.firstIndex(of: ":") else { continue }
            let value = unescaped(rest[rest.index(after: colon)...])
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// A TEXT value with its escapes read (RFC 5545 3.3.11): TZID is TEXT, and Exchange
    /// writes `TZID:Pacific Time (US & Canada)\, Tijuana` in the definition where the
    /// events' parameter quotes the same name, `TZID="Pacific Time (US & Canada), Tijuana"`.
    static func unescaped(_ value: Substring) -> String {
        guard value.contains("\\") else { return String(value) }
        var out = "", escaping = false
        for c in value {
            if escaping {
                out.append(c == "n" || c == "N" ? "\n" : c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        if escaping { out.append("\\") }
        return out
    }
}

/// How many of a file's VTIMEZONE definitions its events may use: each one read costs
/// the process memory (libical's component and its table of offset changes) and, once
/// stored, a row that every process reading the events loads. Past the bound, a TZID
/// naming one more definition is read as if the file had none (the system's zone of
/// that name, a Windows name's zone, or floating), and the file gets one warning.
///
/// One budget is shared by every `ReaderContext` of a parse (the parser's two threads
/// included), so the bound holds for the file as a whole.
final class FileZoneBudget: Sendable {
    /// Most definitions one file's events may use.
    static let maxDefinitions = 64
    /// Most bytes of definition text one file's events may use.
    static let maxBytes = 128 << 10

    private struct State {
        var admitted: Set<String> = []
        var bytes = 0
        /// Definitions refused for the bound, and the first one's line.
        var refused: Set<String> = []
        var firstRefusedLine = Int.max
        /// Definitions libical could not read, and their lines.
        var unreadable: Set<String> = []
        var unreadableLines: [Int] = []
    }

    private let state = Mutex(State())

    init() {}

    /// The zone of `entry`, read now if it was not yet; nil when it is over the bound or
    /// cannot be read (recorded for `warnings`).
    func zone(for entry: FileZone) -> Zone? {
        enum Decision { case admitted, refused, seen }
        let decision: Decision = state.withLock { s in
            if s.admitted.contains(entry.key) { return .seen }
            if s.refused.contains(entry.key) || s.unreadable.contains(entry.key) { return .refused }
            let bytes = entry.text.utf8.count
            guard s.admitted.count < Self.maxDefinitions, s.bytes + bytes <= Self.maxBytes else {
                s.refused.insert(entry.key)
                s.firstRefusedLine = min(s.firstRefusedLine, entry.line)
                return .refused
            }
            s.admitted.insert(entry.key)
            s.bytes += bytes
            return .admitted
        }
        if decision == .refused { return nil }
        if let zone = ZoneRegistry.shared.register(text: entry.text, key: entry.key) { return zone }
        state.withLock { s in
            if s.unreadable.insert(entry.key).inserted { s.unreadableLines.append(entry.line) }
        }
        return nil
    }

    /// The warnings of the definitions that could not be used.
    var warnings: [ImportIssue] {
        state.withLock { s in
            var issues = s.unreadableLines.sorted().map {
                ImportIssue(line: $0, message: "VTIMEZONE could not be read; its TZID falls back to the system zone database")
            }
            if !s.refused.isEmpty {
                issues.append(ImportIssue(line: s.firstRefusedLine, message: "the file's events use more VTIMEZONE definitions than "
                    + "eventd keeps for one file (\(Self.maxDefinitions), \(Self.maxBytes >> 10) KiB): \(s.refused.count) "
                    + "more ignored, their TZIDs read as if the file did not define them"))
            }
            return issues
        }
    }
}
