/// A DATE or DATE-TIME value as an event states it, before any view is applied.
public enum TimeValue: Hashable, Sendable, CustomStringConvertible {
    /// `VALUE=DATE`: an all-day date.
    case date(CivilDate)
    /// A floating wall-clock time, read in the view's zone.
    case floating(CivilDateTime)
    /// A UTC instant, seconds since the epoch.
    case utc(Int64)
    /// A wall-clock time in a zone, identified by its zone key (see `Zone.key`).
    case zoned(CivilDateTime, zoneKey: String)

    /// True for a DATE value.
    public var isDate: Bool { if case .date = self { return true } else { return false } }
    /// True for a UTC time (`…Z`).
    var isUTC: Bool { if case .utc = self { return true } else { return false } }
    /// The zone key of a zoned time.
    var zoneKey: String? { if case .zoned(_, let key) = self { return key } else { return nil } }

    /// Storage form: `20261129`, `20261129T090000`, `20261129T080000Z`, `20261129T090000@Europe/Berlin`.
    public var encoded: String {
        switch self {
        case .date(let d): return d.basic
        case .floating(let t): return t.basic
        case .utc(let s): return CivilDateTime(secondsAsIfUTC: s).basic(followedBy: UInt8(ascii: "Z"))
        case .zoned(let t, let key): return t.basic(followedBy: UInt8(ascii: "@"), key)
        }
    }

    /// The storage form (`encoded`).
    public var description: String { encoded }

    /// Parses the storage form.
    public init?(encoded text: some StringProtocol) {
        let s = Substring(text)
        if let at = s.firstIndex(of: "@") {
            guard let t = CivilDateTime(basic: s[..<at]) else { return nil }
            self = .zoned(t, zoneKey: String(s[s.index(after: at)...]))
        } else if s.hasSuffix("Z") {
            guard let t = CivilDateTime(basic: s.dropLast()) else { return nil }
            self = .utc(t.secondsAsIfUTC)
        } else if s.utf8.count == 8 {
            guard let d = CivilDate(basic: s) else { return nil }
            self = .date(d)
        } else {
            guard let t = CivilDateTime(basic: s) else { return nil }
            self = .floating(t)
        }
    }

    /// The identity of an instance's original start, as `recurrence_id` is written:
    /// a UTC `YYYYMMDDTHHMMSSZ` for zoned and UTC times, `YYYYMMDD` for dates, and the
    /// wall-clock `YYYYMMDDTHHMMSS` for floating times.
    public func recurrenceKey(zones: ZoneResolver) -> String {
        switch self {
        case .date(let d): return d.basic
        case .floating(let t): return t.basic
        case .utc(let s): return CivilDateTime(secondsAsIfUTC: s).basic(followedBy: UInt8(ascii: "Z"))
        case .zoned(let t, let key):
            let zone = zones.zone(forKey: key) ?? .utc
            return CivilDateTime(secondsAsIfUTC: zone.instant(forLocal: t)).basic(followedBy: UInt8(ascii: "Z"))
        }
    }

    /// The instant this value denotes, reading dates and floating times in `floatingZone`.
    public func instant(zones: ZoneResolver, floatingZone: Zone) -> Int64 {
        switch self {
        case .date(let d): return floatingZone.instant(forLocal: CivilDateTime(date: d))
        case .floating(let t): return floatingZone.instant(forLocal: t)
        case .utc(let s): return s
        case .zoned(let t, let key): return (zones.zone(forKey: key) ?? .utc).instant(forLocal: t)
        }
    }

    /// The wall-clock time of the value in its own frame (UTC for `.utc`).
    public var wallClock: CivilDateTime {
        switch self {
        case .date(let d): return CivilDateTime(date: d)
        case .floating(let t), .zoned(let t, _): return t
        case .utc(let s): return CivilDateTime(secondsAsIfUTC: s)
        }
    }

    /// A value of the same kind (and zone) as this one, at the wall-clock time `local`.
    @inline(__always)
    func withWallClock(_ local: CivilDateTime) -> TimeValue {
        switch self {
        case .zoned(_, let key): return .zoned(local, zoneKey: key)
        case .utc: return .utc(local.secondsAsIfUTC)
        case .date: return .date(local.date)
        case .floating: return .floating(local)
        }
    }
}

/// Looks zones up by the key stored with an event.
public protocol ZoneResolver: Sendable {
    func zone(forKey key: String) -> Zone?
}
