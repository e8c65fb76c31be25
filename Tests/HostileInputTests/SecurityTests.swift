@testable import EventStore
import Foundation
import CanonicalJSON
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's attack surface: file modes, what the socket lets a client do, request
/// and connection limits, refresh coalescing, symlinks at the socket path.
extension HostileInputTests {
    @Suite struct Security {
        static func mode(_ path: String) -> mode_t? {
            var st = stat()
            guard lstat(path, &st) == 0 else { return nil }
            return st.st_mode & 0o7777
        }

        static func octal(_ m: mode_t?) -> String { m.map { "0" + String($0, radix: 8) } ?? "missing" }

        /// Runs eventd with `arguments` expecting it to exit on its own (a refusal).
        static func refusedStart(_ daemon: DaemonHarness, _ arguments: [String]) async throws -> (ProcessExit?, String) {
            let log = daemon.directory + "/refused-\(UUID().uuidString.prefix(6)).log"
            let pid = try daemon.spawnOther(DaemonHarness.eventd, daemon.daemonArguments(arguments),
                                            environment: daemon.daemonEnvironment(), output: log)
            let exit = try await daemon.waitOther(pid, timeout: 10)
            return (exit, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }

        @Test func socketIsGroupOnlyAndWorldWritableModesAreRefused() async throws {
            try await DaemonHarness.with { daemon in
                for bad in ["0666", "0777", "0602", "666", "0o660", "9999", "-1", ""] {
                    let (exit, log) = try await Self.refusedStart(daemon, ["--socket-mode", bad])
                    #expect(exit == .exited(64), "--socket-mode '\(bad)': \(exit.map { "\($0)" } ?? "still running"): \(log)")
                    #expect(Self.mode(daemon.socketPath) == nil, "--socket-mode \(bad) left a socket file")
                }
                try await daemon.start()
                let socketMode = Self.mode(daemon.socketPath)
                #expect(socketMode == 0o660, "socket mode \(Self.octal(socketMode))")
                #expect((socketMode ?? 0o777) & 0o007 == 0, "the socket is accessible to others")
                await daemon.stop()
                try await daemon.start(["--socket-mode", "0600"])
                #expect(Self.mode(daemon.socketPath) == 0o600)
                Hostile.report("socketIsGroupOnlyAndWorldWritableModesAreRefused",
                               ["default_mode": Self.octal(socketMode), "refused_modes": 8])
            }
        }

        @Test func writeOperationsAreUnknownAndChangeNothing() async throws {
            try await DaemonHarness.with { daemon in
                try await daemon.start()
                try await daemon.importCalendar(FuzzCalendars.team(renamed: false), file: "team.ics", calendar: "team")
                let before = try await daemon.eventctl(["export"])
                let beforeCalendars = try await daemon.eventctl(["calendars", "--json"])
                #expect(before.succeeded && beforeCalendars.succeeded)
                let client = try await daemon.connect()
                let hostile: [JSONValue] = [
                    ["op": "import", "path": .string(daemon.directory + "/team.ics"), "calendar": "evil"],
                    ["op": "import", "ics": .string(FuzzCalendars.team(renamed: true)), "calendar": "team"],
                    ["op": "remove", "calendar": "team"],
                    ["op": "delete", "calendar": "team"],
                    ["op": "exec", "argv": ["/bin/sh", "-c", "touch /tmp/eventd-hostile-pwned"]],
                    ["op": "export"], ["op": "calendars"], ["op": "shutdown"], ["op": "reload"], ["op": "sql", "query": "DROP TABLE event"],
                    ["op": "Refresh"], ["op": "refresh "], ["op": "PING"], ["op": "subscribe\u{0}import"],
                ]
                var codes: [String] = []
                for request in hostile {
                    let answer = try await client.request(request)
                    codes.append(answer["code"]?.stringValue ?? answer["type"]?.stringValue ?? "?")
                    #expect(answer["type"]?.stringValue == "error" && answer["code"]?.stringValue == "unknown_op",
                            "\(request.canonicalString()) got \(FeedClient.brief(answer))")
                }
                // Still alive and serving; nothing changed on disk.
                #expect(try await client.request(["op": "ping"])["type"]?.stringValue == "pong")
                let after = try await daemon.eventctl(["export"])
                let afterCalendars = try await daemon.eventctl(["calendars", "--json"])
                #expect(after.stdout == before.stdout, "the export changed")
                #expect(afterCalendars.stdout == beforeCalendars.stdout, "the calendars changed")
                #expect(!FileManager.default.fileExists(atPath: "/tmp/eventd-hostile-pwned"))
                Hostile.report("writeOperationsAreUnknownAndChangeNothing",
                               ["requests": hostile.count, "unknown_op": codes.filter { $0 == "unknown_op" }.count])
            }
        }

        @Test func refreshBurstIsCoalesced() async throws {
            try await DaemonHarness.with(arguments: ["--log-level", "debug"]) { daemon in
                try await daemon.start()
                try await daemon.importCalendar(FuzzCalendars.team(renamed: false), file: "team.ics", calendar: "team")
                let (subscriber, _) = try await daemon.subscribe()
                _ = subscriber
                // Another writer commits all the time, so that every refresh finds the
                // database changed and would recompute if refreshes were not coalesced.
                let writer = try EventStore(path: daemon.dbPath)
                try writer.db.execute("CREATE TABLE IF NOT EXISTS hostile_touch (n INTEGER)")
                let counted = "refresh: database changed"
                try await pause(0.3)
                let linesBefore = daemon.logLineCount(containing: counted)
                let client = try await daemon.connect()
                let requests = 1000
                let line = Array(#"{"op":"refresh"}"#.utf8) + [10]
                let burstStart = monotonicNow()
                var oks = 0
                var writes = 0
                var pending = [UInt8]()
                for _ in 0..<requests { pending += line }
                // Ten refreshes every 10 ms for about a second, with a commit before each
                // slice: uncoalesced, that would be a hundred recomputes.
                var offset = 0
                while offset < pending.count {
                    let end = min(pending.count, offset + line.count * 10)
                    try writer.db.execute("INSERT INTO hostile_touch VALUES (\(writes))")
                    writes += 1
                    try await client.sendRaw(Array(pending[offset..<end]))
                    offset = end
                    try await pause(0.01)
                }
                while oks < requests {
                    let answer = try await client.next(timeout: 10)
                    if answer["type"]?.stringValue == "ok" { oks += 1 }
                }
                let burst = monotonicNow() - burstStart
                try await pause(0.5)
                let recomputes = daemon.logLineCount(containing: counted) - linesBefore
                let allowed = Int((burst + 0.5) / 0.1) + 2
                #expect(oks == requests)
                #expect(recomputes >= 1, "no recompute at all after a refresh burst")
                #expect(recomputes <= allowed, "\(recomputes) recomputes for \(requests) refreshes in \(burst) s (allowed \(allowed))")
                Hostile.report("refreshBurstIsCoalesced",
                               ["refreshes": requests, "burst_seconds": Hostile.seconds(burst), "commits": writes,
                                "recomputes": recomputes, "allowed": allowed])
            }
        }

        @Test func requestLineLimitAndConnectionLimitHold() async throws {
            try await DaemonHarness.with(arguments: ["--max-clients", "5"]) { daemon in
                try await daemon.start()
                // Exactly 64 KiB is a request; one byte more is line_too_long and a close.
                let exact = try await daemon.connect()
                try await exact.sendRaw(Array(#"{"op":"ping""#.utf8) + [UInt8](repeating: 32, count: 65536 - 13) + Array("}\n".utf8))
                #expect(try await exact.next(timeout: 5)["type"]?.stringValue == "pong")
                exact.close()
                let over = try await daemon.connect()
                try await over.sendRaw(Array(#"{"op":"ping""#.utf8) + [UInt8](repeating: 32, count: 65537 - 13) + Array("}\n".utf8))
                let error = try await over.next(timeout: 5)
                #expect(error["code"]?.stringValue == "line_too_long")
                #expect(await over.readUntilClosed(timeout: 5).isClosed)
                over.close()
                // No newline at all: the partial line is cut off too.
                let endless = try await daemon.connect()
                try? await endless.sendRaw([UInt8](repeating: 65, count: 200_000), timeout: 5)
                let endlessAnswer = try? await endless.next(timeout: 5)
                #expect(endlessAnswer?["code"]?.stringValue == "line_too_long")
                #expect(await endless.readUntilClosed(timeout: 5).isClosed)
                endless.close()

                // --max-clients 5: the sixth is told overloaded and closed; a slot frees on close.
                try await pause(0.2)
                var clients: [FeedClient] = []
                for _ in 0..<5 { clients.append(try await daemon.connect()) }
                let sixth = try await FeedClient.connect(path: daemon.socketPath, readHello: false)
                let refusal = try await sixth.next(timeout: 5)
                #expect(refusal["code"]?.stringValue == "overloaded", "\(FeedClient.brief(refusal))")
                #expect(await sixth.readUntilClosed(timeout: 5).isClosed)
                for c in clients { #expect(try await c.request(["op": "ping"])["type"]?.stringValue == "pong") }
                clients.removeLast().close()
                var admitted = false
                _ = try await eventually(timeout: 5, every: 0.05) {
                    guard let again = try? await daemon.connect() else { return false }
                    admitted = (try? await again.request(["op": "ping"]))?["type"]?.stringValue == "pong"
                    again.close()
                    return admitted
                }
                #expect(admitted, "no connection admitted after one of five closed")
                Hostile.report("requestLineLimitAndConnectionLimitHold",
                               ["max_line": 65536, "max_clients": 5, "sixth": refusal["code"]?.stringValue ?? "?"])
            }
        }

        @Test func symlinkAtTheSocketPathIsNeverFollowed() async throws {
            try await DaemonHarness.with { daemon in
                let precious = daemon.directory + "/precious.txt"
                try "do not touch\n".write(toFile: precious, atomically: false, encoding: .utf8)
                chmod(precious, 0o644)
                let missing = daemon.directory + "/nowhere/feed.sock"
                var outcomes: [String] = []
                for target in [precious, missing, daemon.directory, "/etc/passwd"] {
                    unlink(daemon.socketPath)
                    #expect(symlink(target, daemon.socketPath) == 0)
                    let (exit, log) = try await Self.refusedStart(daemon, [])
                    outcomes.append("\(exit.map { "\($0)" } ?? "running")")
                    #expect(exit != nil && exit != .exited(0), "eventd started with a symlink to \(target) at its socket path")
                    if case .signaled = exit { Issue.record("eventd crashed on a symlinked socket path: \(log)") }
                    var st = stat()
                    #expect(lstat(daemon.socketPath, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK, "the symlink was replaced")
                    #expect(log.contains("symbolic link"), "no clear message: \(log)")
                }
                #expect((try? String(contentsOfFile: precious, encoding: .utf8)) == "do not touch\n")
                #expect(Self.mode(precious) == 0o644)
                #expect(!FileManager.default.fileExists(atPath: missing))
                let passwd = Self.mode("/etc/passwd")
                #expect(passwd == 0o644, "/etc/passwd mode \(Self.octal(passwd))")
                unlink(daemon.socketPath)
                Hostile.report("symlinkAtTheSocketPathIsNeverFollowed", ["targets": 4, "exits": outcomes.joined(separator: ",")])
            }
        }

        @Test func databaseFilesArePrivate() async throws {
            try await DaemonHarness.with { daemon in
                // eventctl creates the database, under the most permissive umask.
                let ics = daemon.directory + "/team.ics"
                try FuzzCalendars.team(renamed: false).write(toFile: ics, atomically: true, encoding: .utf8)
                let script = "umask 000; exec \"$0\" \"$@\""
                let env = daemon.daemonEnvironment()
                let made = try await ChildProcess.run("/bin/sh", ["-c", script, DaemonHarness.eventctl, "--db", daemon.dbPath,
                                                                 "--socket", daemon.socketPath, "import", ics, "--calendar", "team"],
                                                      environment: env, directory: daemon.directory)
                #expect(made.succeeded, "\(made.stderr)")
                var seen: [String: String] = [:]
                func check(_ who: String) {
                    for suffix in ["", "-wal", "-shm"] {
                        let m = Self.mode(daemon.dbPath + suffix)
                        guard let m else { continue }
                        seen[who + (suffix.isEmpty ? ":db" : ":" + suffix.dropFirst())] = Self.octal(m)
                        #expect(m == 0o600 || m == 0o640, "\(who): \(daemon.dbPath + suffix) has mode \(Self.octal(m))")
                    }
                }
                check("eventctl")
                // eventd opens it (and creates -wal/-shm while it runs).
                try await daemon.start()
                _ = try await daemon.status()
                check("eventd-existing")
                await daemon.stop()
                // eventd creates a database of its own, also under umask 000.
                let fresh = daemon.directory + "/fresh/events.db"
                let log = daemon.directory + "/fresh.log"
                let pid = try daemon.spawnOther("/bin/sh", ["-c", script, DaemonHarness.eventd, "--db", fresh,
                                                            "--socket", daemon.directory + "/fresh.sock", "--tz", "UTC"],
                                                environment: env, output: log)
                let listening = try await eventually(timeout: 10) {
                    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("listening on")
                }
                #expect(listening, "eventd did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
                let client = try? await FeedClient.connect(path: daemon.directory + "/fresh.sock")
                _ = try? await client?.request(["op": "status"])
                for suffix in ["", "-wal", "-shm"] {
                    guard let m = Self.mode(fresh + suffix) else { continue }
                    seen["eventd-created:" + (suffix.isEmpty ? "db" : String(suffix.dropFirst()))] = Self.octal(m)
                    #expect(m == 0o600 || m == 0o640, "eventd created \(fresh + suffix) with mode \(Self.octal(m))")
                }
                let directoryMode = Self.mode((fresh as NSString).deletingLastPathComponent)
                #expect((directoryMode ?? 0) & 0o002 == 0, "eventd created a world-writable directory")
                kill(pid, SIGTERM)
                _ = try await daemon.waitOther(pid, timeout: 5)
                #expect(Self.mode(fresh) != nil, "eventd did not create its database")
                Hostile.report("databaseFilesArePrivate", ["modes": seen.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")])
            }
        }
    }
}
