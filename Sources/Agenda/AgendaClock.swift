import Foundation

/// The wall clock snapshots are computed against. Tests move it with
/// `EVENTD_FAKE_NOW` (an RFC 3339 UTC time such as `2026-11-29T23:59:50Z`, or seconds
/// since the epoch): the clock then starts there and runs at normal speed.
public struct AgendaClock: Sendable {
    private let shift: Int64

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let fake = environment["EVENTD_FAKE_NOW"], let start = AgendaClock.parse(fake) {
            shift = start - Int64(Date().timeIntervalSince1970)
        } else {
            shift = 0
        }
    }

    /// Seconds since the epoch, now.
    public func now() -> Int64 { Int64(Date().timeIntervalSince1970) + shift }

    /// Fractional seconds since the epoch, now.
    public func preciseNow() -> Double { Date().timeIntervalSince1970 + Double(shift) }

    static func parse(_ text: String) -> Int64? {
        if let seconds = Int64(text) { return seconds }
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
    }

    /// The system's zone name (IANA), for the default view; UTC when unknown.
    public static func systemZoneName(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let tz = environment["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if TimeZone(identifier: name) != nil { return name }
        }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
           let range = target.range(of: "zoneinfo/") {
            return String(target[range.upperBound...])
        }
        if let name = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
           !name.isEmpty {
            return name
        }
        return "UTC"
    }
}
