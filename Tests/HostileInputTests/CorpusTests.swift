import EventStore
import Foundation
import ICalendar
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every file of the hostile corpus — the hand-made malformed calendars
/// (Corpus/malformed, scripts/make_hostile_corpus.py), the huge ones generated here
/// (HugeInputs), the fuzzer's regression inputs (Corpus/fuzz-crashes) and its kept
/// corpus (Corpus/fuzz-corpus) — goes through the import path twice: in process
/// (parse, expand, store, query: what fuzz/ drives) and through the real
/// `eventctl import` followed by `eventctl agenda --json --days 30`.
extension HostileInputTests {
    @Suite struct Corpus {
        /// Debug-build bounds against a hang, not speed figures (those are eventd-bench's):
        /// a CI machine took 21 s for an agenda that takes 8 s here, so they are generous.
        static let importLimit = 60.0
        static let agendaLimit = 60.0
        /// Killed after this long (the assertion above reports it first).
        static let killAfter = 90.0
        /// Peak RSS bound for one eventctl run, KiB (the address space is capped at 2 GB too).
        static let rssLimitKiB = 1_500_000

        struct Input: Sendable {
            var name: String
            var group: String
            var bytes: [UInt8]
            /// `reject-` inputs must be refused (exit 65).
            var mustReject: Bool { name.hasPrefix("reject-") }
            /// `repair-` inputs must be imported with warnings (the repairs of docs/data-model.md).
            var mustRepair: Bool { name.hasPrefix("repair-") }
        }

        static func inputs() -> [Input] {
            var out: [Input] = []
            for group in ["malformed", "fuzz-crashes", "fuzz-corpus"] {
                for url in Hostile.files(in: Hostile.corpus.appendingPathComponent(group)) {
                    guard let data = FileManager.default.contents(atPath: url.path) else { continue }
                    out.append(Input(name: url.lastPathComponent, group: group, bytes: [UInt8](data)))
                }
            }
            for (name, bytes) in HugeInputs.all() { out.append(Input(name: name, group: "generated", bytes: bytes)) }
            return out
        }

        @Test func corpusIsPresentAndSmall() throws {
            let files = Hostile.files(in: Hostile.corpus)
            let malformed = files.filter { $0.path.contains("/malformed/") }
            let bytes = files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1.path)[.size] as? Int) ?? 0) }
            let fuzzKept = files.filter { $0.path.contains("/fuzz-corpus/") }
                .reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1.path)[.size] as? Int) ?? 0) }
            Hostile.report("corpusIsPresentAndSmall", ["files": files.count, "malformed": malformed.count,
                                                       "bytes": bytes, "fuzz_corpus_bytes": fuzzKept])
            #expect(malformed.count >= 150, "run scripts/make_hostile_corpus.py")
            #expect(bytes < 7_000_000, "the corpus must stay small on disk (malformed < 5 MB, fuzz-corpus < 2 MB)")
            #expect(fuzzKept < 2_000_000)
        }

        /// In process: parse + expand + store + query, every input. Rejections must be
        /// `ICalendarSyntaxError`s naming a line inside the file.
        @Test func everyInputThroughTheImportPathInProcess() throws {
            let store = try EventStore(path: ":memory:")
            var slowest = (name: "", seconds: 0.0)
            var rejected = 0, accepted = 0, occurrences = 0
            var badRejections: [String] = []
            var shouldHaveRejected: [String] = []
            var shouldHaveRepaired: [String] = []
            let started = monotonicNow()
            // An input that hangs in process cannot be killed: say which, and stop the run.
            let watchdog = Watchdog(limit: Self.killAfter)
            defer { watchdog.cancel() }
            for input in Self.inputs() {
                let t0 = monotonicNow()
                watchdog.arm("\(input.group)/\(input.name)")
                let outcome = ImportPath.run(input.bytes, store: store)
                watchdog.disarm()
                let took = monotonicNow() - t0
                if took > slowest.seconds { slowest = (input.group + "/" + input.name, took) }
                #expect(took < Self.importLimit, "\(input.group)/\(input.name): the in-process import path took \(took) s")
                occurrences += outcome.occurrences
                if let error = outcome.syntaxError {
                    rejected += 1
                    if input.mustRepair { shouldHaveRepaired.append("\(input.name): \(error)") }
                    let lines = input.bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
                    if error.line < 1 || error.line > lines || error.message.isEmpty || error.message.contains("\n") {
                        badRejections.append("\(input.name): line \(error.line) of \(lines): \(error.message.prefix(200))")
                    }
                } else {
                    accepted += 1
                    if input.mustReject { shouldHaveRejected.append(input.name) }
                    if input.mustRepair, outcome.warnings == 0 { shouldHaveRepaired.append("\(input.name): no warning") }
                }
            }
            #expect(badRejections.isEmpty, "\(badRejections)")
            #expect(shouldHaveRejected.isEmpty, "parsed although structurally broken: \(shouldHaveRejected)")
            #expect(shouldHaveRepaired.isEmpty, "not repaired with a warning: \(shouldHaveRepaired)")
            Hostile.report("everyInputThroughTheImportPathInProcess",
                           ["inputs": accepted + rejected, "accepted": accepted, "rejected": rejected,
                            "occurrences": occurrences, "seconds": Hostile.seconds(monotonicNow() - started),
                            "slowest": slowest.name, "slowest_seconds": Hostile.seconds(slowest.seconds)])
        }

        /// One input through `eventctl import` and `eventctl agenda`, in a fresh database.
        struct CLIOutcome: Sendable {
            var name: String
            var importRun: MeasuredRun
            var agendaRun: MeasuredRun?
            var problems: [String]
        }

        static func runCLI(_ input: Input, in sandbox: EventctlSandbox, index: Int) async throws -> CLIOutcome {
            sandbox.resetDatabase()
            let path = "\(sandbox.directory)/in-\(index).ics"
            _ = FileManager.default.createFile(atPath: path, contents: Data(input.bytes))
            defer { unlink(path) }
            var problems: [String] = []
            let label = "\(input.group)/\(input.name)"
            let imported = try await sandbox.run(["import", path, "--calendar", "hostile"], timeout: killAfter)
            if imported.timedOut { problems.append("\(label): import killed after \(killAfter) s") }
            if case .signaled(let s) = imported.exit { problems.append("\(label): import died of signal \(s): \(imported.stderr.suffix(400))") }
            if imported.seconds > importLimit { problems.append("\(label): import took \(imported.seconds) s") }
            if imported.peakKiB > rssLimitKiB { problems.append("\(label): import peak RSS \(imported.peakKiB) KiB") }
            switch imported.exit {
            case .exited(0):
                if input.mustReject { problems.append("\(label): imported although structurally broken") }
                if input.mustRepair, !imported.stderr.contains(": warning: ") {
                    problems.append("\(label): imported without a warning: \(imported.stderr.prefix(300))")
                }
            case .exited(65) where input.mustRepair:
                problems.append("\(label): rejected although docs/data-model.md repairs it: \(imported.stderr.prefix(300))")
            case .exited(65):
                let lines = imported.stderr.split(separator: "\n", omittingEmptySubsequences: true)
                let prefix = "eventctl: \(path):"
                if lines.count != 1 || !lines[0].hasPrefix(prefix) {
                    problems.append("\(label): exit 65 must come with one line 'eventctl: FILE:LINE: ...', got: \(imported.stderr.prefix(300))")
                } else {
                    let rest = lines[0].dropFirst(prefix.count)
                    let number = rest.prefix { $0.isNumber }
                    if number.isEmpty || !rest.dropFirst(number.count).hasPrefix(": ") {
                        problems.append("\(label): no line number in \(lines[0].prefix(300))")
                    }
                }
            default:
                problems.append("\(label): import exit \(imported.exit), expected 0 or 65: \(imported.stderr.prefix(300))")
            }
            // The database afterwards (whatever the import did) must still answer.
            let agenda = try await sandbox.run(["agenda", "--json", "--days", "30", "--tz", "UTC"], timeout: killAfter)
            if agenda.timedOut { problems.append("\(label): agenda killed after \(killAfter) s") }
            if agenda.seconds > agendaLimit { problems.append("\(label): agenda took \(agenda.seconds) s") }
            if agenda.peakKiB > rssLimitKiB { problems.append("\(label): agenda peak RSS \(agenda.peakKiB) KiB") }
            let tooLarge = agenda.exit == .exited(65) && agenda.stderr.hasPrefix("eventctl: the window holds more than ")
                && agenda.stderr.split(separator: "\n").count == 1
            if tooLarge {
                // SnapshotEngine.maxItems: refused as a data error, in bounded time and memory.
            } else if agenda.exit != .exited(0) {
                problems.append("\(label): agenda exit \(agenda.exit): \(agenda.stderr.prefix(300))")
            } else if !agenda.stdout.hasPrefix("{") || !agenda.stdout.contains("\"digest\"") {
                problems.append("\(label): agenda printed no snapshot: \(agenda.stdout.prefix(200))")
            }
            return CLIOutcome(name: label, importRun: imported, agendaRun: agenda, problems: problems)
        }

        /// Random damage to corpus files (byte flips, cuts, duplicated and swapped lines,
        /// hostile values), through eventctl: 40 inputs, times EVENTD_STRESS_SCALE.
        @Test func mutatedInputsThroughEventctl() async throws {
            var sources = Self.inputs().filter { $0.bytes.count < 100_000 && $0.group != "generated" && !$0.mustReject }
            for url in Hostile.files(in: Hostile.repositoryRoot.appendingPathComponent("sample-calendars")) where url.pathExtension == "ics" {
                if let data = FileManager.default.contents(atPath: url.path) {
                    sources += Array(repeating: Input(name: url.lastPathComponent, group: "sample", bytes: [UInt8](data)), count: 10)
                }
            }
            try #require(!sources.isEmpty)
            var rng = SeededRandom(seed: 0xC0FFEE)
            let count = 40 * Hostile.scale
            var inputs: [Input] = []
            for i in 0..<count {
                let source = sources[Int.random(in: 0..<sources.count, using: &rng)]
                inputs.append(Input(name: "mutated-\(i)-of-\(source.name)", group: "mutated",
                                    bytes: Self.mutate(source.bytes, &rng)))
            }
            let outcomes = try await Self.runAll(inputs, workers: 2, tag: "hostile-mut")
            for o in outcomes { for p in o.problems { Issue.record("\(p)") } }
            let slow = outcomes.max { $0.importRun.seconds + ($0.agendaRun?.seconds ?? 0) < $1.importRun.seconds + ($1.agendaRun?.seconds ?? 0) }
            Hostile.report("mutatedInputsThroughEventctl",
                           ["inputs": outcomes.count, "imported": outcomes.filter { $0.importRun.exit == .exited(0) }.count,
                            "rejected": outcomes.filter { $0.importRun.exit == .exited(65) }.count,
                            "slowest": slow?.name ?? "", "slowest_seconds": Hostile.seconds((slow?.importRun.seconds ?? 0) + (slow?.agendaRun?.seconds ?? 0))])
        }

        static func mutate(_ input: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
            var bytes = input
            let hostile = ["FREQ=SECONDLY", "FREQ=MINUTELY;BYMONTH=2", "00000101T000000Z", "99991231T235959Z", "20261301",
                           "P99999999W", "\\", "", "../../etc/passwd", String(repeating: "A", count: 5000),
                           "FREQ=YEARLY;BYSETPOS=-1000;BYDAY=MO", "FREQ=DAILY;INTERVAL=0;COUNT=2147483647"]
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                guard !bytes.isEmpty else { break }
                var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
                switch Int.random(in: 0..<7, using: &rng) {
                case 0:
                    let i = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes[i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                    continue
                case 1:
                    bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
                    continue
                case 2: lines.insert(lines[Int.random(in: 0..<lines.count, using: &rng)], at: Int.random(in: 0...lines.count, using: &rng))
                case 3: lines.remove(at: Int.random(in: 0..<lines.count, using: &rng))
                case 4: lines.swapAt(Int.random(in: 0..<lines.count, using: &rng), Int.random(in: 0..<lines.count, using: &rng))
                case 5:
                    let i = Int.random(in: 0..<lines.count, using: &rng)
                    if let colon = lines[i].firstIndex(of: 58) {
                        lines[i] = Array(lines[i][...colon]) + Array(hostile[Int.random(in: 0..<hostile.count, using: &rng)].utf8) + [13]
                    }
                default:
                    let i = Int.random(in: 0...bytes.count, using: &rng)
                    bytes.insert(contentsOf: (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: i)
                    continue
                }
                bytes = Array(lines.joined(separator: [10]))
            }
            return bytes
        }

        /// Runs `inputs` through eventctl with `workers` sandboxes at once.
        static func runAll(_ inputs: [Input], workers: Int, tag: String) async throws -> [CLIOutcome] {
            let sandboxes = try (0..<workers).map { try EventctlSandbox("\(tag)-\($0)") }
            defer { sandboxes.forEach { $0.cleanUp() } }
            return try await withThrowingTaskGroup(of: [CLIOutcome].self) { group in
                for w in 0..<workers {
                    let sandbox = sandboxes[w]
                    group.addTask {
                        var mine: [CLIOutcome] = []
                        for (i, input) in inputs.enumerated() where i % workers == w {
                            mine.append(try await Self.runCLI(input, in: sandbox, index: i))
                        }
                        return mine
                    }
                }
                var all: [CLIOutcome] = []
                for try await part in group { all += part }
                return all
            }
        }

        @Test func everyInputThroughEventctlImportAndAgenda() async throws {
            let inputs = Self.inputs()
            let started = monotonicNow()
            let outcomes = try await Self.runAll(inputs, workers: 2, tag: "hostile-cli")
            var statuses: [String: Int] = [:]
            for o in outcomes { statuses["\(o.importRun.exit)", default: 0] += 1 }
            for o in outcomes { for p in o.problems { Issue.record(Comment(rawValue: p)) } }
            let slowImport = outcomes.max { $0.importRun.seconds < $1.importRun.seconds }!
            let slowAgenda = outcomes.max { ($0.agendaRun?.seconds ?? 0) < ($1.agendaRun?.seconds ?? 0) }!
            let fattest = outcomes.max { max($0.importRun.peakKiB, $0.agendaRun?.peakKiB ?? 0) < max($1.importRun.peakKiB, $1.agendaRun?.peakKiB ?? 0) }!
            Hostile.report("everyInputThroughEventctlImportAndAgenda",
                           ["inputs": outcomes.count, "imported": statuses["exit 0"] ?? 0, "rejected": statuses["exit 65"] ?? 0,
                            "other": outcomes.count - (statuses["exit 0"] ?? 0) - (statuses["exit 65"] ?? 0),
                            "seconds": Hostile.seconds(monotonicNow() - started),
                            "slowest_import": slowImport.name, "slowest_import_seconds": Hostile.seconds(slowImport.importRun.seconds),
                            "slowest_agenda": slowAgenda.name, "slowest_agenda_seconds": Hostile.seconds(slowAgenda.agendaRun?.seconds ?? 0),
                            "peak_rss_kib": max(fattest.importRun.peakKiB, fattest.agendaRun?.peakKiB ?? 0), "peak_rss_input": fattest.name])
        }
    }
}

/// Aborts the test process when one in-process step runs longer than `limit` seconds
/// (a hang in libical cannot be interrupted), after printing what it was doing.
// @unchecked: `current` and `cancelled` are only read and written under `lock`.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var current: (String, Double)?
    private var cancelled = false

    init(limit: Double) {
        let thread = Thread { [self] in
            while true {
                usleep(200_000)
                lock.lock()
                let (state, stop) = (current, cancelled)
                lock.unlock()
                if stop { return }
                if let (what, since) = state, monotonicNow() - since > limit {
                    let message = "hostile: HANG: \(what) ran for more than \(Int(limit)) s in process; aborting the test run\n"
                    _ = message.withCString { write(2, $0, strlen($0)) }
                    abort()
                }
            }
        }
        thread.start()
    }

    func arm(_ what: String) { lock.lock(); current = (what, monotonicNow()); lock.unlock() }
    func disarm() { lock.lock(); current = nil; lock.unlock() }
    func cancel() { lock.lock(); cancelled = true; lock.unlock() }
}
