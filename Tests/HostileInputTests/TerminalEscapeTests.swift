import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Calendar text that would drive the reader's terminal (escape sequences, C1 controls,
/// bidirectional overrides, a 1 MB summary, invalid UTF-8), imported and shown by every
/// human-readable command: no raw control byte reaches standard output or standard
/// error, and the text is still shown (with its stand-ins), not dropped.
extension HostileInputTests {
    @Suite struct TerminalEscapes {
        /// Hostile texts, each with a marker word that must still be shown.
        static let texts: [(marker: String, text: String)] = [
            ("sgr", "\u{1B}[31mRED\u{1B}[0m sgr"),
            ("osctitle", "\u{1B}]0;owned\u{07} osctitle"),
            ("oscst", "\u{1B}]8;;http://evil.example/\u{1B}\\link\u{1B}]8;;\u{1B}\\ oscst"),
            ("dcs", "\u{1B}P$q\"p\u{1B}\\ dcs"),
            ("clear", "\u{1B}[2J\u{1B}[H\u{1B}c clear"),
            ("c1csi", "\u{9B}31m c1csi \u{9D}0;t\u{9C}"),
            ("bidi", "\u{202E}gnp.exe\u{202C} \u{2066}iso\u{2069} bidi"),
            ("controls", "bell\u{07}back\u{08}del\u{7F}nul-free\u{0E}\u{0F} controls"),
        ]

        /// The calendar: one event per text (summary and location), a 1 MB summary of
        /// escapes, and a broken property whose value the import warning quotes.
        static func calendar(day: String, suffix: String = "") -> [UInt8] {
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//eventd//hostile text//EN"]
            for (i, t) in texts.enumerated() {
                lines += ["BEGIN:VEVENT", "UID:text-\(i)", "DTSTAMP:20261101T000000Z",
                          "DTSTART:\(day)T\(String(format: "%02d", 8 + i))0000Z", "DTEND:\(day)T\(String(format: "%02d", 8 + i))3000Z",
                          "SUMMARY:\(t.text)\(suffix)", "LOCATION:\(t.text)", "END:VEVENT"]
            }
            let huge = String(repeating: "\u{1B}[5m\u{1B}]2;x\u{07}", count: 1 << 20 / 12)
            lines += ["BEGIN:VEVENT", "UID:huge", "DTSTAMP:20261101T000000Z", "DTSTART:\(day)T200000Z",
                      "SUMMARY:hugemarker \(huge)\(suffix)", "END:VEVENT"]
            lines += ["BEGIN:VEVENT", "UID:warn", "DTSTAMP:20261101T000000Z", "DTSTART:\(day)T210000Z",
                      "SUMMARY:warnmarker", "EXDATE:\u{1B}]0;warned\u{07}\u{1B}[31m", "END:VEVENT"]
            return Array((lines.joined(separator: "\r\n") + "\r\n" + "END:VCALENDAR\r\n").utf8)
        }

        /// A calendar with invalid UTF-8 in a summary (a Latin-1 CSI byte, 0xFF, a raw
        /// escape sequence): refused whole today (exit 65), read as Windows-1252 once
        /// liberal parsing lands; either way nothing raw may reach the terminal.
        static func latinCalendar(day: String) -> [UInt8] {
            var bytes = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd//latin//EN\r\n".utf8)
            bytes += Array("BEGIN:VEVENT\r\nUID:latin\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:\(day)T220000Z\r\nSUMMARY:latinmarker ".utf8)
                + [0x9B, 0x33, 0x31, 0x6D, 0xFF, 0x1B, 0x5B, 0x32, 0x4A] + Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            return bytes
        }

        /// Every raw control byte in `bytes` (line feeds apart), C1 control and
        /// bidirectional override, described with its offset.
        static func rawControls(_ bytes: [UInt8]) -> [String] {
            var found: [String] = []
            var i = 0
            while i < bytes.count, found.count < 5 {
                let b = bytes[i]
                if (b < 0x20 && b != 0x0A) || b == 0x7F { found.append("byte 0x\(String(b, radix: 16)) at \(i)") }
                if b == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) { found.append("C1 at \(i)") }
                if b == 0xE2, i + 2 < bytes.count,
                   (bytes[i + 1] == 0x80 && (0xAA...0xAE).contains(bytes[i + 2])) || (bytes[i + 1] == 0x81 && (0xA6...0xA9).contains(bytes[i + 2])) {
                    found.append("bidi control at \(i)")
                }
                i += 1
            }
            return found
        }

        static func expectClean(_ result: ProcessResult, _ what: String, markers: [String], mayFail: Bool = false) {
            #expect(result.succeeded || mayFail, "\(what): \(result.exit) \(result.stderr.prefix(300))")
            let out = rawControls(result.stdoutBytes), err = rawControls(Array(result.stderr.utf8))
            #expect(out.isEmpty, "\(what) wrote raw controls to standard output: \(out)")
            #expect(err.isEmpty, "\(what) wrote raw controls to standard error: \(err)")
            for marker in markers {
                #expect(result.stdout.contains(marker), "\(what) did not show \(marker)")
            }
        }

        /// Issue 43, point 4: `export` to a terminal shows calendar text as `agenda` does;
        /// to a pipe or a file it writes the exact iCalendar, escapes and CRLFs included.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
        func exportIsSafeOnATerminalAndExactElsewhere() async throws {
            try await DaemonHarness.with { daemon in
                let env = daemon.daemonEnvironment()
                var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//eventd//hostile export//EN"]
                for (i, t) in Self.texts.enumerated() {
                    lines += ["BEGIN:VEVENT", "UID:export-\(i)", "DTSTAMP:20261101T000000Z", "DTSTART:20261130T0\(i)0000Z",
                              "SUMMARY:\(t.text)", "LOCATION:\(t.text)", "END:VEVENT"]
                }
                let ics = daemon.directory + "/export.ics"
                try (lines.joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n").write(toFile: ics, atomically: true, encoding: .utf8)
                let base = [DaemonHarness.eventctl, "--db", daemon.dbPath]
                let imported = try await ChildProcess.run(DaemonHarness.eventctl, ["--db", daemon.dbPath, "import", ics, "--calendar", "hostile"],
                                                          environment: env, directory: daemon.directory)
                #expect(imported.succeeded, "\(imported.stderr)")

                // To a pipe and to a file: the same bytes, the calendar's own escapes in them.
                let piped = try await ChildProcess.run(DaemonHarness.eventctl, ["--db", daemon.dbPath, "export"], environment: env,
                                                       directory: daemon.directory)
                #expect(piped.succeeded)
                let file = daemon.directory + "/out.ics"
                let command = (base + ["export"]).joined(separator: " ") + " | cat > " + file
                let toFile = try await ChildProcess.run("/bin/sh", ["-c", command], environment: env, directory: daemon.directory)
                #expect(toFile.succeeded)
                let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
                #expect(written == piped.stdoutBytes)
                let exact = String(decoding: written, as: UTF8.self)
                #expect(exact.contains("\u{1B}]0;owned\u{07}") && exact.contains("\u{1B}[2J") && exact.contains("END:VCALENDAR\r\n"))

                // On a terminal (script(1) gives it a pseudo-terminal): no raw control.
                let shown = try await ChildProcess.run("/usr/bin/script", ["-qec", (base + ["export"]).joined(separator: " "), "/dev/null"],
                                                       environment: env, directory: daemon.directory)
                #expect(shown.succeeded, "\(shown.stderr)")
                // (The terminal itself ends each line with CR LF.)
                let bytes = shown.stdoutBytes.filter { $0 != 0x0D }
                let raw = Self.rawControls(bytes)
                #expect(raw.isEmpty, "export wrote raw controls to a terminal: \(raw)")
                let text = String(decoding: bytes, as: UTF8.self)
                for t in Self.texts { #expect(text.contains(t.marker), "\(t.marker) not shown") }
                #expect(text.contains("SUMMARY:^[]0;owned^G osctitle") && text.contains("BEGIN:VCALENDAR\nVERSION:2.0\n"))
            }
        }

        @Test func hostileTextNeverReachesTheTerminalRaw() async throws {
            try await DaemonHarness.with { daemon in
                let env = daemon.daemonEnvironment()
                func eventctl(_ arguments: [String], timeout: Double = 60) async throws -> ProcessResult {
                    try await ChildProcess.run(DaemonHarness.eventctl, ["--db", daemon.dbPath, "--socket", daemon.socketPath] + arguments,
                                               environment: env, directory: daemon.directory, timeout: timeout)
                }
                let ics = daemon.directory + "/hostile.ics"
                FileManager.default.createFile(atPath: ics, contents: Data(Self.calendar(day: "20261130")))
                let imported = try await eventctl(["import", ics, "--calendar", "hostile"])
                Self.expectClean(imported, "import", markers: [])
                #expect(imported.stderr.contains("^["), "the warning quoting the file shows no stand-in: \(imported.stderr.prefix(300))")

                let latin = daemon.directory + "/latin.ics"
                FileManager.default.createFile(atPath: latin, contents: Data(Self.latinCalendar(day: "20261130")))
                let latinImport = try await eventctl(["import", latin, "--calendar", "latin"])
                Self.expectClean(latinImport, "import of invalid UTF-8", markers: [], mayFail: true)
                var markers = Self.texts.map(\.marker) + ["hugemarker", "warnmarker"]
                if latinImport.succeeded { markers.append("latinmarker") }
                let agenda = try await eventctl(["agenda", "--from", "2026-11-30", "--days", "1", "--tz", "UTC"])
                Self.expectClean(agenda, "agenda", markers: markers + ["^["])
                Self.expectClean(try await eventctl(["calendars"]), "calendars", markers: ["hostile"])
                Self.expectClean(try await eventctl(["agenda", "--from", "2026-11-30", "--days", "1", "--tz", "UTC", "--calendar", "hostile"]),
                                 "agenda --calendar", markers: ["sgr"])

                // subscribe --format pretty: the snapshot, then a diff that updates every item.
                try await daemon.start()
                Self.expectClean(try await eventctl(["status"]), "status", markers: [])
                let output = daemon.directory + "/pretty.out"
                let subscriber = try daemon.spawnOther(DaemonHarness.eventctl,
                                                       ["--db", daemon.dbPath, "--socket", daemon.socketPath, "subscribe", "--format", "pretty",
                                                        "--from", "2026-11-30", "--days", "1", "--tz", "UTC"],
                                                       environment: env, output: output)
                defer { kill(subscriber, SIGTERM) }
                #expect(try await eventually(timeout: 30) { ((try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()).count > 1000 })
                FileManager.default.createFile(atPath: ics, contents: Data(Self.calendar(day: "20261130", suffix: " changed\u{1B}[1m")))
                Self.expectClean(try await eventctl(["import", ics, "--calendar", "hostile"]), "second import", markers: [])
                let diffed = try await eventually(timeout: 30) {
                    ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("changed^[[1m")
                }
                #expect(diffed, "no diff reached the pretty subscriber")
                kill(subscriber, SIGTERM)
                _ = try await daemon.waitOther(subscriber, timeout: 5)
                let pretty = (try? Data(contentsOf: URL(fileURLWithPath: output))).map { [UInt8]($0) } ?? []
                let raw = Self.rawControls(pretty)
                #expect(raw.isEmpty, "subscribe --format pretty wrote raw controls: \(raw)")
                for marker in markers { #expect(String(decoding: pretty, as: UTF8.self).contains(marker), "pretty did not show \(marker)") }

                let removed = try await eventctl(["remove", "--calendar", "hostile"])
                Self.expectClean(removed, "remove", markers: ["hostile"])
                Hostile.report("hostileTextNeverReachesTheTerminalRaw",
                               ["texts": Self.texts.count + 3, "agenda_bytes": agenda.stdoutBytes.count, "pretty_bytes": pretty.count])
            }
        }
    }
}
