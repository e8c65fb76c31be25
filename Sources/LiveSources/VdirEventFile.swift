import EventStore
import Foundation
import ICalendar
import Diagnostics
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// One event's `.ics` file in a vdir, as `eventctl new`/`edit`/`delete` and watch's
/// `n`/`e`/`d` write it: the text of a new event, the check an edited text passes, and
/// the writes, atomic (a dot-file in the vdir, fsync, rename, fsync of the directory)
/// and never over a file that changed since it was read. Files are as khal and
/// vdirsyncer write them: CRLF, folded at 75 octets, VERSION and PRODID, a VTIMEZONE
/// for the TZID used (UTC times without one), UID and DTSTAMP; named `<UID>.ics`.
public enum VdirEventFile {
    /// What a new event says.
    public struct Draft: Sendable {
        public var summary: String
        /// Local times in `zone` (all-day: the dates, `end` exclusive).
        public var start: CivilDateTime
        public var end: CivilDateTime
        public var allDay: Bool
        public var location: String?
        /// An IANA name (`UTC`: times written with `Z`).
        public var zone: String
        public var uid: String

        public init(summary: String, start: CivilDateTime, end: CivilDateTime, allDay: Bool = false,
                    location: String? = nil, zone: String, uid: String = VdirEventFile.freshUID()) {
            (self.summary, self.start, self.end, self.allDay) = (summary, start, end, allDay)
            (self.location, self.zone, self.uid) = (location, zone, uid)
        }
    }

    /// Why a file cannot be written or read back.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    public static let prodID = "-//eventd//eventd \(ProductVersion.number)//EN"

    /// A UID no other event has: a random UUID (also a safe file name).
    public static func freshUID() -> String { UUID().uuidString.lowercased() }

    /// The calendar of one VEVENT for `draft`, stamped `now`.
    public static func text(_ draft: Draft, now: WallInstant) -> String {
        let utc = Zone.ianaName(for: draft.zone) == "UTC"
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + prodID]
        var zoneText: String?
        if !draft.allDay, !utc { zoneText = Zone.vtimezoneText(forTZID: draft.zone) }
        let stamp = Zone.utc.local(atUTC: now.unixSeconds)
        var event = ["BEGIN:VEVENT", "UID:" + draft.uid, "DTSTAMP:" + basic(stamp) + "Z"]
        if draft.allDay {
            event += ["DTSTART;VALUE=DATE:" + basic(draft.start.date), "DTEND;VALUE=DATE:" + basic(draft.end.date)]
        } else if let zoneText, !zoneText.isEmpty {
            event += ["DTSTART;TZID=\(draft.zone):" + basic(draft.start), "DTEND;TZID=\(draft.zone):" + basic(draft.end)]
        } else {
            // UTC, or a zone with no definition to write: the instants in UTC.
            let zone = Zone.system(draft.zone) ?? .utc
            let start = Zone.utc.local(atUTC: zone.instant(forLocal: draft.start))
            let end = Zone.utc.local(atUTC: zone.instant(forLocal: draft.end))
            event += ["DTSTART:" + basic(start) + "Z", "DTEND:" + basic(end) + "Z"]
            zoneText = nil
        }
        event.append("SUMMARY:" + escaped(draft.summary))
        if let location = draft.location, !location.isEmpty { event.append("LOCATION:" + escaped(location)) }
        event.append("END:VEVENT")
        var out = lines.map(fold).joined()
        if let zoneText {
            out += zoneText.withCRLFLineEndings().components(separatedBy: "\r\n").filter { !$0.isEmpty }.map(fold).joined()
        }
        lines = event + ["END:VCALENDAR"]
        return out + lines.map(fold).joined()
    }

    /// What a checked text holds.
    public struct Checked: Sendable, Equatable {
        public var uid: String
        public var summary: String?
    }

    /// The text as an event file: one VEVENT (or a series with its overrides, one UID),
    /// read by the project's own parser without a skipped component.
    public static func check(_ bytes: [UInt8]) -> Result<Checked, Failure> {
        let parsed: ParsedCalendar
        do { parsed = try CalendarParser.parse(bytes) } catch {
            return .failure(Failure("not iCalendar (\(error))"))
        }
        if parsed.skipped > 0, let first = parsed.warnings.first {
            return .failure(Failure("a component could not be read: line \(first.line): \(first.message)"))
        }
        let uids = Set(parsed.events.map(\.uid))
        guard let uid = uids.first, !uid.isEmpty else { return .failure(Failure("no VEVENT with a UID")) }
        guard uids.count == 1 else { return .failure(Failure("\(uids.count) events (UIDs): a file holds one")) }
        let master = parsed.events.first { $0.recurrenceID == nil } ?? parsed.events[0]
        return .success(Checked(uid: uid, summary: master.summary))
    }

    /// `<UID>.ics` in `directory`, or the UID's hash where the UID is no safe file name.
    public static func path(forUID uid: String, in directory: String) -> String {
        let safe = !uid.isEmpty && uid.count <= 200 && !uid.hasPrefix(".")
            && uid.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_@.+=".unicodeScalars.contains($0)) }
        let name = safe ? uid : String(uid.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }, radix: 16)
        return (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/" + name + ".ics"
    }

    /// Writes `bytes` as `path` atomically: a dot-file beside it (which vdir readers
    /// skip), fsync, rename over `path`, fsync of the directory. With `exclusive`, an
    /// existing `path` is kept and `Failure` thrown.
    public static func write(_ bytes: [UInt8], to path: String, exclusive: Bool = false) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array((directory + "/." + name + ".XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw Failure("\(directory): cannot create a file (\(String(cString: strerror(errno))))") }
        let temporary = String(cString: template)
        var ok = fchmod(fd, 0o644) == 0
        ok = ok && bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok else {
            unlink(temporary)
            throw Failure("\(path): cannot write (\(reason))")
        }
        // link(2) fails when the name exists: the exclusive way to put the file in place.
        let placed = exclusive ? link(temporary, path) == 0 && unlink(temporary) == 0 : rename(temporary, path) == 0
        guard placed else {
            let why = errno == EEXIST ? "a file of that name exists" : String(cString: strerror(errno))
            unlink(temporary)
            throw Failure("\(path): cannot write (\(why))")
        }
        let dir = open(directory, O_RDONLY | O_DIRECTORY)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }

    /// How `replace` ended.
    public enum Replaced: Sendable, Equatable {
        case written
        /// The file changed since it was read: the edit is written beside it (this path).
        case keptBoth(String)
    }

    /// Writes `bytes` over `path` only if the file still holds `expected` (the bytes read
    /// before the edit); else beside it, as `<name>-edited-<n>.ics`, keeping both.
    public static func replace(_ path: String, expected: [UInt8], with bytes: [UInt8]) throws(Failure) -> Replaced {
        let now = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        if now == expected {
            try write(bytes, to: path)
            return .written
        }
        let base = String(path.dropLast(path.lowercased().hasSuffix(".ics") ? 4 : 0))
        for n in 1...100 {
            let beside = "\(base)-edited-\(n).ics"
            do {
                try write(bytes, to: beside, exclusive: true)
                return .keptBoth(beside)
            } catch where FileManager.default.fileExists(atPath: beside) {
                continue
            }
        }
        throw Failure("\(path): changed since it was read, and no free name beside it")
    }

    /// Deletes the event file `path`, and syncs its directory.
    public static func delete(_ path: String) throws(Failure) {
        guard unlink(path) == 0 else { throw Failure("\(path): cannot delete (\(String(cString: strerror(errno))))") }
        let dir = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }

    // MARK: - Text

    /// A content line with CRLF, folded as an export folds it.
    static func fold(_ line: String) -> String { ExportDocument.fold(line) }

    /// A TEXT value (RFC 5545 3.3.11): `\`, `;`, `,` and newlines escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            case "\r": break
            default: out.append(c)
            }
        }
        return out
    }

    static func basic(_ date: CivilDate) -> String {
        String(format: "%04d%02d%02d", date.year, date.month, date.day)
    }

    static func basic(_ time: CivilDateTime) -> String {
        basic(time.date) + String(format: "T%02d%02d%02d", time.hour, time.minute, time.second)
    }
}

// MARK: - Editing through $EDITOR

extension VdirEventFile {
    /// How an edit ended, said in one line (`description`).
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// A new event's file (`path`, its UID).
        case created(path: String, uid: String)
        case written(path: String)
        /// The file changed meanwhile: both are kept (the edit at `path`).
        case keptBoth(path: String)
        case unchanged
        /// The editor left no valid event: nothing written; the text kept at `kept`.
        case invalid(String, kept: String)
        /// The editor failed (its status): nothing written; the text kept at `kept`.
        case editorFailed(Int32, kept: String)
        case deleted(path: String)

        /// Whether nothing was written because of an error.
        public var failed: Bool {
            switch self {
            case .invalid, .editorFailed: return true
            default: return false
            }
        }

        public var description: String {
            switch self {
            case .created(let path, _): return "created \(path)"
            case .written(let path): return "saved \(path)"
            case .keptBoth(let path): return "the file changed meanwhile: both kept, the edit as \(path)"
            case .unchanged: return "unchanged: nothing written"
            case .invalid(let why, let kept): return "not saved: \(why); your text is in \(kept)"
            case .editorFailed(let status, let kept): return "not saved: the editor exited with \(status); your text is in \(kept)"
            case .deleted(let path): return "deleted \(path)"
            }
        }
    }

    /// Opens the editor on a copy of `template`; a valid result that differs from it is
    /// written as `<UID>.ics` in `directory` (never over an existing file).
    /// `handOver` runs just before the editor starts (the caller gives the terminal).
    public static func create(in directory: String, template: String, environment: [String: String],
                              handOver: () -> Void = {}) throws(Failure) -> Outcome {
        let copy = try scratchCopy(Array(template.utf8), name: "new")
        handOver()
        let status = runEditor(copy, environment: environment)
        guard status == 0 else { return .editorFailed(status, kept: copy) }
        let edited = [UInt8](FileManager.default.contents(atPath: copy) ?? Data())
        if edited == Array(template.utf8) {
            removeScratch(copy)
            return .unchanged
        }
        switch check(edited) {
        case .failure(let why): return .invalid(why.description, kept: copy)
        case .success(let checked):
            let path = self.path(forUID: checked.uid, in: directory)
            do { try write(edited, to: path, exclusive: true) } catch { return .invalid(error.description, kept: copy) }
            removeScratch(copy)
            return .created(path: path, uid: checked.uid)
        }
    }

    /// Opens the editor on a copy of the file `path`; a valid, changed result is written
    /// back if the file still holds what was read, else beside it (`replace`).
    public static func edit(_ path: String, environment: [String: String], handOver: () -> Void = {}) throws(Failure) -> Outcome {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure("\(path): cannot be read") }
        let before = [UInt8](data)
        let copy = try scratchCopy(before, name: ((path as NSString).lastPathComponent as NSString).deletingPathExtension)
        handOver()
        let status = runEditor(copy, environment: environment)
        guard status == 0 else { return .editorFailed(status, kept: copy) }
        let edited = [UInt8](FileManager.default.contents(atPath: copy) ?? Data())
        if edited == before {
            removeScratch(copy)
            return .unchanged
        }
        if case .failure(let why) = check(edited) { return .invalid(why.description, kept: copy) }
        let outcome: Outcome
        do {
            switch try replace(path, expected: before, with: edited) {
            case .written: outcome = .written(path: path)
            case .keptBoth(let beside): outcome = .keptBoth(path: beside)
            }
        } catch { return .invalid(error.description, kept: copy) }
        removeScratch(copy)
        return outcome
    }

    /// Runs `$EDITOR` (else `vi`) on `path` through the shell, as git does (an EDITOR
    /// may carry arguments), and waits; SIGINT and SIGQUIT are ignored here meanwhile
    /// (as `system(3)` does: Ctrl-C is the editor's). The child starts with every signal
    /// at its default and none blocked. Returns its exit status (127: not started).
    public static func runEditor(_ path: String, environment: [String: String]) -> Int32 {
        let editor = environment["VISUAL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["EDITOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let ignore = sigaction_ignoring([SIGINT, SIGQUIT])
        defer { for (signal, old) in ignore { var old = old; sigaction(signal, &old, nil) } }
        let arguments = ["/bin/sh", "-c", editor + " \"$1\"", "sh", path]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, env) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return 127 }
        }
        // WIFEXITED / WEXITSTATUS: the low 7 bits are the signal, 0 for an exit.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    static func sigaction_ignoring(_ signals: [Int32]) -> [(Int32, sigaction)] {
        signals.map { signal in
            var ignore = sigaction(), old = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            sigemptyset(&ignore.sa_mask)
            sigaction(signal, &ignore, &old)
            return (signal, old)
        }
    }

    /// A private copy for the editor (`$TMPDIR/eventd-edit-XXXXXX/NAME.ics`, 0600), so
    /// that the vdir never sees a half-edited file.
    static func scratchCopy(_ bytes: [UInt8], name: String) throws(Failure) -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/eventd-edit-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure("cannot create a directory in \(base) for the editor") }
        let path = String(cString: made) + "/" + name + ".ics"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw Failure("cannot write \(path) for the editor")
        }
        return path
    }

    static func removeScratch(_ path: String) {
        unlink(path)
        rmdir((path as NSString).deletingLastPathComponent)
    }
}
