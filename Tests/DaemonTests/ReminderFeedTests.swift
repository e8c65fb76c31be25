import Foundation
import Glibc
import Testing
import TestSupport

/// `eventctl remind` against the real daemon and a private session bus with a
/// notification server: which notifications arrive, and none twice across a restart.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ReminderFeedTests {
    /// The daemon's and eventctl's clocks start at `DaemonHarness.defaultNow`, 12:00:00 UTC.
    static let events = [
        TestEvent("standup@x", "20261129T121002Z", "20261129T123000Z", "Standup", extra: ["LOCATION:Room 4"]),
        TestEvent("started@x", "20261129T115000Z", "20261129T122000Z", "Already under way"),
        TestEvent("cancelled@x", "20261129T120500Z", "20261129T121500Z", "Cancelled", extra: ["STATUS:CANCELLED"]),
        TestEvent("later@x", "20261129T140000Z", "20261129T150000Z", "Later"),
        // Its own VALARM, 30 minutes before: due at 12:00:03.
        TestEvent("review@x", "20261129T123003Z", "20261129T130000Z", "Review",
                  extra: ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Review", "TRIGGER:-PT30M", "END:VALARM"]),
        TestEvent("holiday@x", "20261129", "20261130", "Holiday"),
    ]

    static func remind(_ daemon: DaemonHarness, _ bus: NotificationServer, _ extra: [String], output: String) throws -> pid_t {
        try daemon.spawnOther(DaemonHarness.eventctl,
                              ["--db", daemon.dbPath, "--socket", daemon.socketPath, "remind", "--tz", "UTC",
                               "--state", daemon.directory + "/reminders.json"] + extra,
                              environment: daemon.daemonEnvironment(["DBUS_SESSION_BUS_ADDRESS": bus.address,
                                                                     "PATH": "/usr/bin:/bin"]),
                              output: output)
    }

    @Test(arguments: ["dbus", "notify-send"])
    func oneNotificationPerOccurrenceNeverTwiceAcrossARestart(way: String) async throws {
        let bus = try NotificationServer()
        defer { bus.stop() }
        try await DaemonHarness.with(running: Self.events) { daemon in
            let log = daemon.directory + "/remind.log"
            let first = try Self.remind(daemon, bus, ["--before", "10m", "--notify", way], output: log)
            let arrived = try await eventually(timeout: 8) { bus.notifications.count >= 2 }
            #expect(arrived, "notifications: \(bus.notifications); \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            #expect(bus.notifications.map { $0["summary"]?.stringValue ?? "" } == ["Standup", "Review"])
            #expect(bus.notifications.map { $0["app"]?.stringValue ?? "" } == ["eventd", "eventd"])
            #expect(bus.notifications.first?["body"]?.stringValue == "in 10 min · 12:10–12:30 · Room 4")
            #expect(bus.notifications.last?["body"]?.stringValue == "in 30 min · 12:30–13:00")
            // A restart (the standup still ahead): nothing again.
            kill(first, SIGTERM)
            _ = try await daemon.waitOther(first, timeout: 5)
            let second = try Self.remind(daemon, bus, ["--before", "10m", "--notify", way], output: log)
            try await pause(2.5)
            #expect(bus.notifications.count == 2, "\(bus.notifications)")
            kill(second, SIGTERM)
            _ = try await daemon.waitOther(second, timeout: 5)
        }
    }

    @Test func aReminderMissedWhileNothingRanComesLateOnceForTheNearestOffset() async throws {
        let bus = try NotificationServer()
        defer { bus.stop() }
        // 12:00:00 is 10 min 2 s before the standup: the 1-hour reminder was due at
        // 11:10, missed; only the nearest one due is shown, once.
        try await DaemonHarness.with(running: Self.events) { daemon in
            let log = daemon.directory + "/remind.log"
            let pid = try Self.remind(daemon, bus, ["--before", "1h", "--before", "10m"], output: log)
            _ = try await eventually(timeout: 8) { bus.notifications.count >= 2 }
            try await pause(3)
            #expect(bus.notifications.map { $0["summary"]?.stringValue ?? "" } == ["Standup", "Review"])
            kill(pid, SIGTERM)
            _ = try await daemon.waitOther(pid, timeout: 5)
        }
    }

    /// Without the database (the system service's, unreadable) the daemon checks the
    /// calendars: its refusal names the unknown one by a typed member, and that is exit
    /// 65 as everywhere else, with the daemon's words.
    @Test func anUnknownCalendarTheDaemonRefusesIs65() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let result = try await ChildProcess.run(DaemonHarness.eventctl,
                                                    ["--db", daemon.directory + "/none.db", "--socket", daemon.socketPath,
                                                     "remind", "--calendar", "nope", "--state", daemon.directory + "/reminders.json"],
                                                    environment: daemon.daemonEnvironment(), directory: daemon.directory, timeout: 10)
            #expect(result.exit == .exited(65), "\(result.exit): \(result.stderr)")
            #expect(result.stderr.hasSuffix("eventctl: daemon: invalid_view: unknown calendar \"nope\"\n"), "\(result.stderr)")
        }
    }
}
