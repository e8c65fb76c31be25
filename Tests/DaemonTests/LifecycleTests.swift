import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Signals and the socket file: SIGTERM, SIGHUP, crashes, a second daemon, symlinks.
@Suite(.timeLimit(.minutes(1)))
struct LifecycleTests {
    static let calendar = icsCalendar([
        TestEvent("l1@x", "20261130T100000Z", "20261130T110000Z", "Lifecycle"),
        TestEvent("l2@x", "20261201T100000Z", "20261201T110000Z", "Second"),
    ])

    static func fileType(_ path: String) -> mode_t? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return st.st_mode & S_IFMT
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stopSignalEndsCleanlyWithSubscribersConnected(signal: Int32) async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(Self.calendar)
            try await daemon.start()
            let (a, _) = try await daemon.subscribe()
            let (b, _) = try await daemon.subscribe(["tz": "Europe/Berlin", "days": 3])
            let idle = try await daemon.connect()
            #expect(Self.fileType(daemon.socketPath) == S_IFSOCK)

            let signalled = monotonicNow()
            daemon.signal(signal)
            let exit = try await daemon.waitForExit(timeout: 5)
            #expect(exit == .exited(0), "eventd should exit 0 on signal \(signal), got \(exit.map { "\($0)" } ?? "still running")")
            #expect(monotonicNow() - signalled < 3, "stopping took \(monotonicNow() - signalled) s")
            #expect(Self.fileType(daemon.socketPath) == nil, "the socket file must be removed")
            for client in [a, b, idle] {
                #expect(await client.readUntilClosed(timeout: 2) == .eof)
            }
            #expect(daemon.log.contains(signal == SIGTERM ? "received SIGTERM" : "received SIGINT"))
            #expect(daemon.log.contains("stopped"))
        }
    }

    @Test func staleSocketIsReplacedLiveOneRefusedSymlinkNotFollowed() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(Self.calendar)
            try await daemon.start()
            var mode = stat()
            #expect(lstat(daemon.socketPath, &mode) == 0)
            #expect(mode.st_mode & 0o7777 == 0o660, "socket mode \(String(mode.st_mode & 0o7777, radix: 8))")

            // A crash leaves the socket file behind; the next run replaces it.
            daemon.crash()
            #expect(Self.fileType(daemon.socketPath) == S_IFSOCK, "SIGKILL leaves a stale socket file")
            try await daemon.start()
            let client = try await daemon.connect()
            #expect(try await client.request(["op": "ping"])["type"] == "pong")

            // A second daemon on the same socket while the first lives: refused.
            let (secondExit, secondLog) = try await daemon.runSecondDaemon(logName: "second.log")
            #expect(secondExit != nil && secondExit != .exited(0), "second daemon: \(secondExit.map { "\($0)" } ?? "still running")")
            #expect(secondExit == .exited(69), "an unavailable socket is EX_UNAVAILABLE")
            #expect(secondLog.contains("already listening"), "second daemon said: \(secondLog)")
            #expect(try await client.request(["op": "ping"])["type"] == "pong", "the first daemon keeps serving")
            #expect(Self.fileType(daemon.socketPath) == S_IFSOCK)
        }

        // A symlink planted at the socket path is refused and not followed.
        try await DaemonHarness.with { daemon in
            let target = daemon.directory + "/elsewhere.sock"
            #expect(symlink(target, daemon.socketPath) == 0)
            let (exit, said) = try await daemon.runSecondDaemon(logName: "symlink.log")
            #expect(exit != nil && exit != .exited(0), "eventd must refuse a symlinked socket path: \(exit.map { "\($0)" } ?? "still running")")
            #expect(said.contains("symbolic link"), "eventd said: \(said)")
            #expect(Self.fileType(daemon.socketPath) == S_IFLNK, "the symlink is left alone")
            #expect(Self.fileType(target) == nil, "nothing was created through the symlink")

            // A symlink to a real file: the file is untouched.
            let file = daemon.directory + "/precious.txt"
            try "keep me".write(toFile: file, atomically: true, encoding: .utf8)
            unlink(daemon.socketPath)
            #expect(symlink(file, daemon.socketPath) == 0)
            let (againExit, _) = try await daemon.runSecondDaemon(logName: "symlink.log")
            #expect(againExit != nil && againExit != .exited(0))
            #expect((try? String(contentsOfFile: file, encoding: .utf8)) == "keep me")
            #expect(Self.fileType(daemon.socketPath) == S_IFLNK)
        }
    }

    @Test func sighupReopensTheDatabaseAndKeepsServing() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(Self.calendar)
            try await daemon.start()
            let (client, first) = try await daemon.subscribe()
            var state = first
            daemon.signal(SIGHUP)
            #expect(try await daemon.waitForLog("reopening the database", timeout: 5), "log:\n\(daemon.log)")
            #expect(try await client.request(["op": "ping"])["type"] == "pong")
            // Same data after the reopen: no diff.
            let spurious = try await client.messageWithin(0.5)
            #expect(spurious.map(FeedClient.brief) == nil, "reopening an unchanged database sent \(spurious.map(FeedClient.brief) ?? "")")
            // Imports still reach subscribers through the reopened database.
            try await daemon.importCalendar(icsCalendar([
                TestEvent("l1@x", "20261130T100000Z", "20261130T110000Z", "Lifecycle after SIGHUP"),
            ]))
            try state.apply(try await client.next("diff", timeout: 3))
            #expect(state.item(uid: "l1@x")?.item["summary"] == "Lifecycle after SIGHUP")
            #expect(state.items(uid: "l2@x").isEmpty)
            let status = try await daemon.status()
            #expect(status["healthy"] == true)
            #expect(status["events"] == 1)
            #expect(daemon.pid != nil && kill(daemon.pid!, 0) == 0, "still running")
        }
    }
}
