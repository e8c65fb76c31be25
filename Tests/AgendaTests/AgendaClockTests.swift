import Foundation
import Testing
@testable import Agenda

/// The system zone for views that name none (`--tz`, else the system's zone).
@Suite struct AgendaClockTests {
    @Test func aValidTZWinsAndAnInvalidOneFallsBackToTheSystemFiles() throws {
        #expect(AgendaClock.systemZoneName(environment: ["TZ": ":Europe/Berlin"]) == "Europe/Berlin")
        #expect(AgendaClock.systemZoneName(environment: ["TZ": "America/New_York"]) == "America/New_York")
        #expect(AgendaClock.zoneNameFromTZ(["TZ": "Mars/Olympus"]) == nil)
        #expect(AgendaClock.zoneNameFromTZ([:]) == nil)
        // Without TZ: where /etc/localtime points, after "zoneinfo/" (Foundation's answer
        // is the oracle), else /etc/timezone, else UTC.
        let expected: String
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
           let range = target.range(of: "zoneinfo/") {
            expected = String(target[range.upperBound...])
        } else if let name = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty {
            expected = name
        } else {
            expected = "UTC"
        }
        #expect(AgendaClock.systemZoneName(environment: ["TZ": "Mars/Olympus"]) == expected)
        #expect(AgendaClock.systemZoneName(environment: [:]) == expected)
    }
}
