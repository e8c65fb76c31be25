import EventStore
import Foundation
import ICalendar
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Knobs and reporting shared by the hostile-input suites.
enum Hostile {
    /// `EVENTD_STRESS_SCALE` (default 1; `make stress` uses about 20).
    static let scale: Int = {
        let raw = ProcessInfo.processInfo.environment["EVENTD_STRESS_SCALE"].flatMap { Int($0) } ?? 1
        return max(1, raw)
    }()

    /// Prints `hostile: <test>: key=value ...` (one line per test, for the report).
    static func report(_ test: String, _ fields: KeyValuePairs<String, Any>) {
        let text = fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        print("hostile: \(test): \(text)")
    }

    /// Seconds with millisecond precision, for reports.
    static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

    /// The Corpus directory copied into the test bundle.
    static var corpus: URL {
        if let url = Bundle.module.resourceURL?.appendingPathComponent("Corpus"),
           FileManager.default.fileExists(atPath: url.path) {
            return url
        }
        // Fallback: the source tree (when resources are not bundled).
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus")
    }

    /// The repository root.
    static var repositoryRoot: URL { Products.repositoryRoot }

    /// Every regular file below `directory`, sorted by path (none if it is missing).
    static func files(in directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var out: [URL] = []
        for case let url as URL in walker {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
               !url.lastPathComponent.hasPrefix(".") {
                out.append(url)
            }
        }
        return out.sorted { $0.path < $1.path }
    }

    /// A fresh temporary directory.
    static func temporaryDirectory(_ prefix: String) throws -> String { try makeTemporaryDirectory(prefix) }
}

// MARK: - The import path, in process

/// The path the fuzzer drives (fuzz/Sources/ImportFuzzer): parse, expand every series
/// over a fixed year and over 90 days around its own start; then import into an
/// in-memory store and read the window back.
enum ImportPath {
    static let fixedFrom = Int64(1_767_225_600)   // 2026-01-01
    static let fixedTo = Int64(1_798_761_600)     // 2027-01-01
    static let berlin = Zone.system("Europe/Berlin") ?? .utc

    struct Outcome {
        var parsed: Bool
        var syntaxError: ICalendarSyntaxError?
        var events = 0
        var warnings = 0
        var occurrences = 0
        var imported = false
        var storedSeries = 0
    }

    static func run(_ bytes: [UInt8], store: EventStore? = nil) -> Outcome {
        var outcome = Outcome(parsed: false)
        switch Result(catching: { () throws(ICalendarSyntaxError) -> ParsedCalendar in try CalendarParser.parse(bytes) }) {
        case .failure(let error):
            outcome.syntaxError = error
        case .success(let parsed):
            outcome.parsed = true
            outcome.events = parsed.events.count
            outcome.warnings = parsed.warnings.count
            for (_, series) in parsed.series() { outcome.occurrences += expandAll(series) }
        }
        if let store {
            let input = ImportInput(path: "/hostile/input.ics", displayName: "input.ics", bytes: bytes, calendar: "hostile")
            if (try? store.importCalendars([input], options: ImportOptions(replace: true))) != nil {
                outcome.imported = true
                // Read back what the store holds for the window (decoding every stored row).
                outcome.storedSeries = (try? store.series(fromMinute: fixedFrom / 60, toMinute: fixedTo / 60))?.count ?? 0
            }
        }
        return outcome
    }

    static func expandAll(_ series: Series) -> Int {
        let zones = ZoneRegistry.shared
        var total = Expander.expand(series, from: fixedFrom, to: fixedTo, floatingZone: .utc, zones: zones).count
        if let start = (series.master ?? series.overrides.first)?.start {
            let at = start.instant(zones: zones, floatingZone: berlin)
            let from = max(-62_135_596_800, min(at, 253_402_300_799) - 30 * 86_400)
            total += Expander.expand(series, from: from, to: from + 90 * 86_400, floatingZone: berlin, zones: zones).count
        }
        return total
    }
}

// MARK: - Running eventctl under limits

/// A finished child with its resource use.
struct MeasuredRun {
    var exit: ProcessExit
    var stdout: String
    var stderr: String
    var seconds: Double
    /// Peak resident set, KiB (VmHWM, sampled every 5 ms until the child exits).
    var peakKiB: Int
    /// True when it was killed for running out of time.
    var timedOut: Bool
}

enum Limited {
    /// Address-space limit for every eventctl run (2 GB), via prlimit(1) when present.
    static let addressSpace = "2000000000"
    static let prlimit: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") ? "/usr/bin/prlimit" : nil

    /// Runs `executable` with `arguments` under the address-space limit, killed after
    /// `timeout` seconds; measures wall time and peak RSS with wait4.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    directory: String, timeout: Double, stdin: String? = nil) async throws -> MeasuredRun {
        let tag = UUID().uuidString.prefix(8)
        let out = "\(directory)/run-\(tag).out", err = "\(directory)/run-\(tag).err"
        defer { unlink(out); unlink(err) }
        var program = executable
        var args = arguments
        if let prlimit {
            program = prlimit
            args = ["--as=\(addressSpace)", "--", executable] + arguments
        }
        let started = monotonicNow()
        let pid = try ChildProcess.spawn(program, args, environment: environment, stdoutPath: out, stderrPath: err)
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        // ru_maxrss would count the test process itself (posix_spawn shares its memory
        // until exec); the child's own high-water mark is VmHWM once it runs the program.
        let comm = String(((executable as NSString).lastPathComponent).prefix(15))
        var peakKiB = 0
        while true {
            if let hwm = highWaterKiB(pid, comm: comm) { peakKiB = max(peakKiB, hwm) }
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid { break }
            if r < 0 && errno != EINTR { throw HarnessError("wait4: \(String(cString: strerror(errno)))") }
            if monotonicNow() - started > timeout {
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                timedOut = true
                break
            }
            try await pause(0.005)
        }
        let seconds = monotonicNow() - started
        return MeasuredRun(exit: ProcessExit(waitStatus: status),
                           stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                           stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
                           seconds: seconds, peakKiB: peakKiB, timedOut: timedOut)
    }

    /// VmHWM of `pid` (KiB) when it runs the program named `comm`.
    static func highWaterKiB(_ pid: pid_t, comm: String) -> Int? {
        guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
              name.trimmingCharacters(in: .whitespacesAndNewlines) == comm,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}

/// An eventctl with its own database, every run measured and limited.
struct EventctlSandbox {
    let directory: String
    let database: String
    let socket: String

    init(_ name: String) throws {
        directory = try Hostile.temporaryDirectory(name)
        database = directory + "/events.db"
        socket = directory + "/feed.sock"
    }

    static var eventctl: String { DaemonHarness.eventctl }

    var environment: [String: String] {
        ChildProcess.isolatedEnvironment(["EVENTD_FAKE_NOW": DaemonHarness.defaultNow])
    }

    func run(_ args: [String], timeout: Double) async throws -> MeasuredRun {
        try await Limited.run(Self.eventctl, ["--db", database, "--socket", socket] + args,
                              environment: environment, directory: directory, timeout: timeout)
    }

    func resetDatabase() {
        DatabaseFiles.remove(database)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
}
