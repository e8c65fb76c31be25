import Foundation
import Glibc
import EventStore
import Feed
import ICalendar
import LiveSources
import Synchronization
import Threads

/// `eventd-bench sources`: the live-source figures of issue 10. 200 URL sources on a
/// local server all answering 304 (our CPU per poll); a 10,000-file vdir with one file
/// changed (time until a subscriber has the diff); re-importing an unchanged 100,000-event
/// file, and one with one event changed.
enum SourcesBench {
    static func run(_ options: inout Options) throws {
        let dir = try Bench.temporaryDirectory("eventd-sources")
        defer { try? FileManager.default.removeItem(at: dir) }
        if options.value("--only") == nil || options.value("--only") == "reimport" { try reimport(options, dir: dir) }
        if options.value("--only") == nil || options.value("--only") == "url" { try urlPolls(options, dir: dir) }
        if options.value("--only") == nil || options.value("--only") == "vdir" { try vdirChange(options, dir: dir) }
    }

    // MARK: - Re-import

    static func reimport(_ options: Options, dir: URL) throws {
        let events = options.int("--events") ?? 100_000
        let bytes = Bench.generatedCalendar(events: events, seed: 42)
        let store = try EventStore(path: dir.appendingPathComponent("reimport.db").path)
        let input = ImportInput(path: "/bench/calendar.ics", displayName: "generated", bytes: bytes, calendar: "bench")
        var t0 = Bench.now()
        _ = try store.importCalendars([input])
        let first = Bench.now() - t0
        var unchanged = Double.infinity
        var same = false
        for _ in 0..<5 {
            t0 = Bench.now()
            same = try store.importCalendars([input])[0].sameBytes
            unchanged = min(unchanged, Bench.now() - t0)
        }
        // One event changed: its SUMMARY line gets a suffix.
        var changed = bytes
        let needle = Array("SUMMARY:".utf8)
        if let at = (0..<(changed.count - needle.count)).first(where: { changed[$0..<($0 + needle.count)].elementsEqual(needle) }) {
            changed.insert(contentsOf: Array("Changed ".utf8), at: at + needle.count)
        }
        t0 = Bench.now()
        let result = try store.importCalendars([ImportInput(path: input.path, displayName: "generated", bytes: changed, calendar: "bench")])[0]
        let oneChanged = Bench.now() - t0
        // Where that time goes: the parse alone with every stored digest known (repair,
        // scan, one SHA-256 per block, one block read); the rest is loading the stored
        // rows' keys and digests, confirming them, and the one write.
        var known = Set<BlockDigest>()
        _ = try CalendarParser.parse(bytes, batchSize: 256, known: []) { part in
            if case .events(let batch) = part { for record in batch { if let d = record.blockDigest { known.insert(d) } } }
        }
        t0 = Bench.now()
        _ = try CalendarParser.parse(changed, batchSize: 256, known: known) { _ in }
        let skippingParse = Bench.now() - t0
        print("reimport events=\(events) bytes=\(bytes.count) first_import_seconds=\(Bench.format(first)) "
              + "unchanged_reimport_seconds=\(Bench.format(unchanged)) skipped_parse=\(same) "
              + "one_changed_seconds=\(Bench.format(oneChanged)) updated=\(result.updated) reused_blocks=\(result.reusedBlocks) "
              + "one_changed_vs_first=\(String(format: "%.3f", oneChanged / first)) "
              + "one_changed_parse_seconds=\(Bench.format(skippingParse))")
    }

    // MARK: - 200 URL sources answering 304

    static func urlPolls(_ options: Options, dir: URL) throws {
        let count = options.int("--sources") ?? 200
        let rounds = options.int("--rounds") ?? 5
        let root = dir.appendingPathComponent("www").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(Bench.generatedCalendar(events: 50, seed: 7)).write(to: URL(fileURLWithPath: root + "/cal.ics"))
        let server = try spawnServer(root: root, options: options)
        defer { server.process.terminate(); server.process.waitUntilExit() }
        let db = dir.appendingPathComponent("urls.db").path
        let store = try EventStore(path: db)
        for i in 0..<count {
            try store.addLiveSource(LiveSource(name: "s\(i)", kind: .url, location: "http://127.0.0.1:\(server.port)/files/cal.ics?n=\(i)",
                                               calendar: "s\(i)", everySeconds: 86_400))
        }
        let reports = BenchReports()
        var configuration = SourceRunner.Configuration(databasePath: db, wall: WallInstant.now)
        configuration.jitter = { 0 }
        let runner = try SourceRunner(configuration, log: { _, _ in }, report: reports.append)
        defer { runner.stop() }
        try reports.waitForSync(runner, token: 1, timeout: 120)
        let self0 = FanoutBench.cpuSeconds(pid: getpid())
        let t0 = Bench.now()
        for round in 0..<rounds { try reports.waitForSync(runner, token: 100 + round, timeout: 120) }
        let wall = Bench.now() - t0
        let cpu = FanoutBench.cpuSeconds(pid: getpid()) - self0
        let notModified = reports.notModified
        print("url sources=\(count) rounds=\(rounds) polls=\(count * rounds) not_modified=\(notModified) "
              + "cpu_ms_per_poll=\(String(format: "%.3f", cpu / Double(count * rounds) * 1000)) "
              + "wall_seconds_per_round=\(Bench.format(wall / Double(rounds)))")
    }

    static func spawnServer(root: String, options: Options) throws -> (process: Process, port: Int) {
        let cwd = FileManager.default.currentDirectoryPath
        let script = options.value("--server-script") ?? cwd + "/scripts/test_http_server.py"
        let venv = cwd + "/.venv/bin/python"
        let python = FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, root, "900"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var line = ""
        while !line.contains("\n") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.first == "PORT", words.count > 1, let port = Int(words[1]) else {
            process.terminate()
            throw BenchError("the local HTTP server did not start (\(script)): \(line)")
        }
        return (process, port)
    }
}

/// Collects a runner's reports for the benchmark.
final class BenchReports: Sendable {
    private let state = Mutex<(synced: Set<Int>, notModified: Int)>(([], 0))
    private let signal = DispatchSemaphore(value: 0)

    func append(_ report: SourceRunner.Report) {
        guard case .synced(let token, let reports) = report else { return }
        state.withLock {
            $0.synced.insert(token)
            $0.notModified += reports.filter { $0.summary == "not modified" }.count
        }
        signal.signal()
    }

    var notModified: Int { state.withLock { $0.notModified } }

    /// Syncs every source and waits for the answer.
    func waitForSync(_ runner: SourceRunner, token: Int, timeout: Double) throws {
        runner.sync(names: [], token: token)
        let deadline = Bench.now() + timeout
        while !state.withLock({ $0.synced.contains(token) }) {
            guard Bench.now() < deadline else { throw BenchError("sync \(token) timed out") }
            _ = signal.wait(timeout: .now() + .milliseconds(100))
        }
    }
}
