/// The status of an event or instance (`STATUS`).
public enum EventStatus: String, Sendable, Equatable {
    case confirmed, tentative, cancelled
}

/// One RDATE value: a start, and for `VALUE=PERIOD` an explicit end.
public struct RecurrenceDate: Hashable, Sendable {
    /// The start.
    public var start: TimeValue
    /// The end of a `VALUE=PERIOD` date.
    public var end: TimeValue?

    /// Creates a recurrence date.
    public init(start: TimeValue, end: TimeValue? = nil) {
        self.start = start
        self.end = end
    }

    /// Storage form: `START` or `START/END`, each as `TimeValue.encoded`.
    public var encoded: String { end.map { start.encoded + "/" + $0.encoded } ?? start.encoded }

    /// Reads the storage form (`encoded`); nil when malformed.
    public init?(encoded text: Substring) {
        if let slash = text.firstIndex(of: "/"), let s = TimeValue(encoded: text[..<slash]),
           let e = TimeValue(encoded: text[text.index(after: slash)...]) {
            self.init(start: s, end: e)
        } else if let s = TimeValue(encoded: text) {
            self.init(start: s)
        } else {
            return nil
        }
    }
}

/// One VEVENT, normalised: the fields that snapshots and conflict rules need, plus
/// the original text for export.
public struct EventRecord: Sendable, Equatable {
    /// The UID (synthesized from the content when the VEVENT has none).
    public var uid: String
    /// The original start of the instance this VEVENT overrides (nil for a master or single event).
    public var recurrenceID: TimeValue?
    /// `RANGE=THISANDFUTURE` on the RECURRENCE-ID.
    public var thisAndFuture: Bool = false
    /// The start.
    public var start: TimeValue
    /// Nominal days of the duration (all-day events, `DURATION:P1D`).
    public var durationDays: Int = 0
    /// Exact seconds of the duration.
    public var durationSeconds: Int64 = 0
    /// The RRULE value, normalised by libical (nil when not recurring).
    public var rrule: String?
    /// RDATE values.
    public var rdates: [RecurrenceDate] = []
    /// EXDATE values.
    public var exdates: [TimeValue] = []
    /// STATUS, when given.
    public var status: EventStatus?
    /// SUMMARY, unescaped.
    public var summary: String?
    /// LOCATION, unescaped.
    public var location: String?
    /// DESCRIPTION, unfolded and unescaped (`EventText`: read from `text`, not by libical).
    /// A record read back from the store has its first 1,025 characters only.
    public var description: String?
    /// URL, as written (`EventText`); any scheme: clients choose which they link.
    public var url: String?
    /// SEQUENCE (0 when absent).
    public var sequence: Int = 0
    /// LAST-MODIFIED, else DTSTAMP, as seconds since the epoch.
    public var modified: Int64?
    /// The VEVENT exactly as it appeared in the file (folded lines, CRLF).
    public var text: String
    /// 1-based line of `BEGIN:VEVENT` in its file.
    public var line: Int
    /// A conservative bound of every instant this record can occupy, in minutes since the
    /// epoch (`Int64(Int32.max)` for an open end). Used for the window index.
    public var firstMinute: Int64 = 0
    /// The end of that bound (see `firstMinute`).
    public var lastMinute: Int64 = 0
    /// `recurrenceKey(zones:)` as computed when the record was read (`""` for a master).
    public var ridKey: String = ""
    /// A 64-bit fingerprint (hex) of the text and the resolved start, set when read:
    /// equal fingerprints mean an unchanged event.
    public var contentHash: String = ""
    /// The `X-WR-TIMEZONE` of the VCALENDAR the event came from (floating times were read in it).
    public var defaultZone: String?
    /// Its `VALARM`s with `ACTION:DISPLAY`, as seconds before the start (600 for
    /// `TRIGGER:-PT10M`; `RELATED=END` is counted from the end), in order, without
    /// repeats. Triggers after the start and absolute ones are not kept: `eventctl remind`
    /// reminds before events, not during them.
    public var alarms: [Int64] = []
    /// The digest of the block this record was read from, when it was read without
    /// warnings in a parse that computed digests (see `BlockDigest`).
    public var blockDigest: BlockDigest?

    /// A record with its required fields; the rest defaults to empty.
    public init(uid: String, start: TimeValue, text: String, line: Int) {
        self.uid = uid
        self.start = start
        self.text = text
        self.line = line
    }

    /// All-day event (DTSTART is a DATE).
    public var isAllDay: Bool { start.isDate }
    /// Carries a recurrence rule or recurrence dates.
    public var isRecurring: Bool { rrule != nil || !rdates.isEmpty }
    /// The key of `recurrenceID` (`""` for a master), unique with (calendar, uid).
    public func recurrenceKey(zones: ZoneResolver) -> String { recurrenceID?.recurrenceKey(zones: zones) ?? "" }

    /// Sentinel for an open-ended span.
    public static let openEndMinute = Int64(Int32.max)
}

/// FNV-1a 64 over strings (with a separator, ignoring carriage returns so that CRLF
/// and LF files compare equal), as 16 hex digits. Not cryptographic: it only tells
/// whether stored content changed.
public func contentFingerprint(_ parts: String...) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for part in parts {
        var s = part
        s.withUTF8 { fnv1a(&h, skippingCarriageReturns: $0) }
        h = (h ^ 0xFF) &* fnvPrime
    }
    let digits: StaticString = "0123456789abcdef"
    return String(unsafeUninitializedCapacity: 16) { out in
        digits.withUTF8Buffer { hex in
            for i in 0..<16 { out[i] = hex[Int(truncatingIfNeeded: h >> UInt64(60 - 4 * i)) & 0xF] }
        }
        return 16
    }
}

private let fnvPrime: UInt64 = 0x0000_0100_0000_01B3

/// Feeds `bytes` but their CRs into `h`. Each byte waits for the last one's multiply,
/// so the loop is kept to that chain: the runs between CRs are found with memchr
/// rather than tested byte by byte (an event's text is hashed on every import).
private func fnv1a(_ h: inout UInt64, skippingCarriageReturns bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    var hash = h
    var i = 0
    while i < bytes.count {
        let end = ByteSearch.index(of: 13, in: bytes, from: i, to: bytes.count)
        var p = base + i
        let stop = base + end
        while p < stop {
            hash = (hash ^ UInt64(p.pointee)) &* fnvPrime
            p += 1
        }
        i = end + 1
    }
    h = hash
}
