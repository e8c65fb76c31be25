import Foundation
import Threads

/// The wall clock snapshots are computed against. Debug builds (the tests') move it with
/// `EVENTD_FAKE_NOW` (an RFC 3339 UTC time such as `2026-11-29T23:59:50Z`, or seconds
/// since the epoch): the clock then starts there and runs at normal speed.
///
/// Release builds ignore the variable: an environment that reaches a user's eventd (a
/// unit's drop-in, a login script) must not be able to make it publish another day as
/// today. The benchmarks move a release binary's clock from outside (libfaketime).
public struct AgendaClock: Sendable {
    private let shift: Int64

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        shift = Self.fakeStart(environment).map { $0 - Int64(Date().timeIntervalSince1970) } ?? 0
    }

    /// Where `EVENTD_FAKE_NOW` starts the clock: debug builds only (see above).
    static func fakeStart(_ environment: [String: String]) -> Int64? {
        #if DEBUG
        return environment["EVENTD_FAKE_NOW"].flatMap(parse)
        #else
        return nil
        #endif
    }

    /// Seconds since the epoch, now.
    public func now() -> Int64 { Int64(Date().timeIntervalSince1970) + shift }

    /// The wall clock now, shifted as `now()`.
    public func instant() -> WallInstant { WallInstant.now() + .seconds(shift) }

    /// Fractional seconds since the epoch, now.
    public func preciseNow() -> Double { Date().timeIntervalSince1970 + Double(shift) }

    static func parse(_ text: String) -> Int64? {
        if let seconds = Int64(text) { return seconds }
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
    }

    /// The system's zone name (IANA), for the default view; UTC when unknown.
    public static func systemZoneName(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let name = zoneNameFromTZ(environment) { return name }
        if let zone = localtimeZone() { return zone }
        if let name = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
           !name.isEmpty {
            return name
        }
        return "UTC"
    }

    /// The zone `TZ` names, when it names a known one (it then wins over the system's
    /// files, and cannot change while the process runs).
    public static func zoneNameFromTZ(_ environment: [String: String]) -> String? {
        guard let tz = environment["TZ"], !tz.isEmpty else { return nil }
        let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        return TimeZone(identifier: name) != nil ? name : nil
    }

    /// The zone `/etc/localtime` links to: its target after `zoneinfo/`. (`readlink` and
    /// a byte search: the daemon asks every tick, and Foundation's
    /// `destinationOfSymbolicLink` and `range(of:)` showed in an idle daemon's profile.)
    private static func localtimeZone() -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer -> String? in
            let n = buffer.withMemoryRebound(to: CChar.self) { readlink("/etc/localtime", $0.baseAddress!, $0.count) }
            guard n > 0, n < buffer.count else { return nil }
            let target = UnsafeBufferPointer(rebasing: buffer[..<n])
            guard let range = target.firstRange(of: Array("zoneinfo/".utf8)) else { return nil }
            return String(decoding: target[range.upperBound...], as: UTF8.self)
        }
    }
}
