import Foundation
import CommandLineKit
import CalendarGenerator
import EventStore
import Threads

/// The benchmark driver: one subcommand per figure the issues name.
enum Bench {
    static let usage = """
    OVERVIEW: Measure eventd's speed (build with -c release).

    USAGE: eventd-bench <subcommand> [options]

    SUBCOMMANDS:
      import [FILE] [--events N] [--seed S] [--rounds R] [--rss no]
                                              Import a calendar into a fresh database
                                              (default: a generated 100,000-event file);
                                              then the peak RSS of a child `eventctl import`.
      snapshot [--events N] [--days D] [--tz ZONE]
      snapshot --one-change [--days D] [--tz ZONE] [--protocol 1|2] [--runs N]
                                              Recompute a D-day view over a store holding
                                              the generated calendar (default 100,000, 30).
      diff [--items N] [--sections S] [--stdlib-runs R]
                                              Our sectioned diff against Swift's
                                              CollectionDifference on 100,000 items.
      fanout [--subscribers N] [--events N] [--days D] [--idle-seconds S] [--against redis] [--rounds R]
                                              1,000 subscribers on one 14-day view of the
                                              100,000-event store: diff latency after
                                              one change, daemon RSS, idle CPU (over
                                              --idle-seconds, default 30: one heartbeat
                                              period). --publish redis: the daemon
                                              also publishes the view to a redis-server
                                              the bench starts. --rounds: R changes
                                              (and R publishes of the anchor), medians.
      fanout --via redis [--gateways G] [--subscribers N] [--days D] [--batch B]
                                              eventd publishes the view to Redis; N
                                              (20,000) event streams over G (4)
                                              eventd-web --upstream gateways, joining B
                                              (200) at a time: diff latency, gateways'
                                              RSS, Redis's used_memory; then Redis's
                                              own PUB/SUB of the same diff line to N
                                              subscribers, read the same way.
      sources [--only reimport|url|vdir] [--sources N] [--rounds R] [--files F] [--changes C]
                                              Live sources: 200 URL sources answering 304
                                              (CPU per poll), a 10,000-file vdir with one
                                              file changed (time to the diff), unchanged
                                              100,000-event re-import. Run from the
                                              repository (it starts scripts/test_http_server.py).
      memory [--events N] [--days D]           Daemon peak RSS with one subscriber on a
                                              365-day view of a 20,000-event calendar.
      soak [--minutes M | --rounds R] [--events N] [--changes C] [--views V] [--subscribers S]
           [--days D] [--interval-ms I] [--daemon-args "ARGS"] [--samples yes]
                                              Subscribers on several views of a calendar
                                              renamed C events at a time, every I ms:
                                              the daemon's RSS over time, and its growth
                                              over the second half.
      views [FILE...] [--views N] [--days D] [--past-days P] [--grace S] [--daemon-args "ARGS"]
                                              One connection subscribes to N distinct
                                              views in turn (default 256 zones, 3,660
                                              days, 366 past days, of sample-calendars/):
                                              RSS at the peak and after they expire.
      watch-idle [--events N] [--days D] [--idle-seconds S]
                                              eventctl watch in a pseudo-terminal on a
                                              14-day view of the 100,000-event store:
                                              its CPU while nothing changes (over S, 60).
      generate --out FILE [--events N] [--seed S]
                                              Write the generated calendar to FILE.
    """

    static func main(_ args: [String]) -> Int32 {
        guard let command = args.first else {
            print(usage)
            return 64
        }
        if command == "-h" || command == "--help" {
            print(usage)
            return 0
        }
        guard let spec = spec.subcommand(command) else {
            FileHandle.standardError.write(Data("eventd-bench: unknown subcommand '\(command)'\n".utf8))
            return 64
        }
        var options: Options
        do {
            options = Options(try spec.parse(Array(args.dropFirst())), command: command)
        } catch {
            FileHandle.standardError.write(Data("eventd-bench: \(error.line)\n".utf8))
            return 64
        }
        do {
            switch command {
            case "import": try ImportBench.run(&options)
            case "snapshot": try SnapshotBench.run(&options)
            case "diff": try DiffBench.run(&options)
            case "fanout": try FanoutBench.run(&options)
            case "sources": try SourcesBench.run(&options)
            case "memory": try MemoryBench.run(&options)
            case "soak": try SoakBench.run(&options)
            case "views": try ViewsBench.run(&options)
            case "watch-idle": try WatchIdleBench.run(&options)
            case "generate": try generate(&options)
            case "echo-feed": try EchoFeed.serve(&options)
            default: break
            }
        } catch {
            FileHandle.standardError.write(Data("eventd-bench: \(error)\n".utf8))
            return 70
        }
        return 0
    }

    static func generate(_ options: inout Options) throws {
        guard let out = options.value("--out") else { throw BenchError("generate needs --out FILE") }
        let bytes = generatedCalendar(events: options.int("--events") ?? 100_000, seed: UInt64(options.int("--seed") ?? 42))
        try Data(bytes).write(to: URL(fileURLWithPath: out))
        print("bytes=\(bytes.count) file=\(out)")
    }

    /// The project's deterministic calendar.
    static func generatedCalendar(events: Int, seed: UInt64, firstDate: GeneratorDate = GeneratorDate(year: 2025, month: 1, day: 1),
                                  spanDays: Int = 1095) -> [UInt8] {
        let generator = CalendarGenerator(.init(events: events, seed: seed, firstDate: firstDate, spanDays: spanDays))
        var bytes: [UInt8] = []
        _ = generator.write(into: &bytes)
        return bytes
    }

    /// Seconds since an arbitrary start, monotonic.
    static func now() -> Double { MonotonicInstant.now().seconds }

    static func format(_ v: Double) -> String { String(format: "%.4f", v) }

    /// Imports a generated calendar's `bytes` into `store` as the calendar `bench`, as
    /// every bench over a generated store does.
    static func importGenerated(_ bytes: [UInt8], into store: EventStore) throws {
        _ = try store.importCalendars([ImportInput(path: "/bench/calendar.ics", displayName: "generated", bytes: bytes, calendar: "bench")])
    }

    /// A new empty directory `prefix-UUID` in the temporary directory; the caller removes it.
    static func temporaryDirectory(_ prefix: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

extension Bench {
    /// Starts the `eventd` next to this binary on `db` and `socketPath` with `arguments`,
    /// at the benchmarks' fixed date, and waits (at most 10 s) for its socket. Its log
    /// goes to this process's stderr at `warning`, or at `EVENTD_BENCH_LOG_LEVEL`.
    static func startDaemon(db: String, socketPath: String, arguments: [String]) throws -> Process {
        let daemonPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("eventd").path
        let daemon = Process()
        var env = ProcessInfo.processInfo.environment
        let level = env["EVENTD_BENCH_LOG_LEVEL"] ?? "warning"
        let daemonArguments = ["--db", db, "--socket", socketPath, "--log-level", level] + arguments
        // EVENTD_BENCH_WRAPPER runs the daemon under a tool ("heaptrack -o /tmp/h"); the
        // figures about its process are then the tool's, only the tool's output counts.
        if let wrapper = env["EVENTD_BENCH_WRAPPER"]?.split(separator: " ").map(String.init), let tool = wrapper.first {
            daemon.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            daemon.arguments = [tool] + wrapper.dropFirst() + [daemonPath] + daemonArguments
        } else {
            daemon.executableURL = URL(fileURLWithPath: daemonPath)
            daemon.arguments = daemonArguments
        }
        try BenchClock.move(&env)
        daemon.environment = env
        try daemon.run()
        var waited = 0.0
        while !FileManager.default.fileExists(atPath: socketPath), waited < 10 { Thread.sleep(forTimeInterval: 0.05); waited += 0.05 }
        return daemon
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A subcommand's options and files, parsed by CommandLineKit from `Bench.spec`: an
/// unknown option or a missing value is a usage error (64), as for every command.
struct Options {
    let arguments: ParsedArguments
    let command: String

    init(_ arguments: ParsedArguments, command: String) { (self.arguments, self.command) = (arguments, command) }

    var positionals: [String] { arguments.positionals }

    /// The value of `name`, which the subcommand must declare in `Bench.options`.
    func value(_ name: String) -> String? {
        guard let key = Bench.optionKeys[name], Bench.options[command]?.contains(name) == true else {
            preconditionFailure("eventd-bench \(command) reads \(name) without declaring it")
        }
        return arguments[key]
    }

    func int(_ name: String) -> Int? { value(name).flatMap { Int($0.replacingOccurrences(of: "_", with: "")) } }

    /// Whether the flag `name` (declared in `Bench.flags`) was given.
    func flag(_ name: String) -> Bool {
        guard let key = Bench.flagKeys[name], Bench.flags[command]?.contains(name) == true else {
            preconditionFailure("eventd-bench \(command) reads \(name) without declaring it")
        }
        return arguments[key]
    }
}

extension Bench {
    /// Each subcommand's options (all `--name VALUE`), and those that take files.
    static let options: [String: [String]] = [
        "import": ["--events", "--seed", "--rounds", "--rss"],
        "snapshot": ["--days", "--db", "--events", "--one-changed", "--profile-unchanged", "--protocol", "--runs", "--seed", "--tz"],
        "diff": ["--items", "--sections", "--runs", "--stdlib-runs", "--seed"],
        "fanout": ["--against", "--days", "--events", "--idle-seconds", "--publish", "--subscribers", "--via", "--batch", "--gateways", "--rounds"],
        "sources": ["--events", "--only", "--rounds", "--server-script", "--sources", "--changes", "--files"],
        "memory": ["--days", "--events", "--hold", "--span-days"],
        "soak": ["--changes", "--daemon-args", "--days", "--events", "--interval-ms", "--minutes", "--rounds", "--samples",
                 "--subscribers", "--views"],
        "views": ["--daemon-args", "--days", "--grace", "--hold", "--past-days", "--views", "--zones"],
        "generate": ["--out", "--events", "--seed"],
        "echo-feed": ["--diff-bytes", "--snapshot-bytes", "--socket", "--subscribers"],
    ]
    /// Each subcommand's options that take no value.
    static let flags: [String: [String]] = ["snapshot": ["--one-change"]]
    static let takesFiles: Set<String> = ["import", "views"]

    /// One key per option name (an option means the same in every subcommand).
    static let optionKeys: [String: OptionKey<String?>] = Dictionary(
        uniqueKeysWithValues: Set(options.values.joined()).map { ($0, Option.value($0, "VALUE", help: "See eventd-bench --help.")) })
    static let flagKeys: [String: OptionKey<Bool>] = Dictionary(
        uniqueKeysWithValues: Set(flags.values.joined()).map { ($0, Option.flag($0, help: "See eventd-bench --help.")) })

    /// The command as CommandLineKit parses it (`usage` is its help).
    static let spec = CommandSpec(
        "eventd-bench", abstract: "Measure eventd's speed.", overview: "Measure eventd's speed (build with -c release).",
        options: [], examples: [],
        subcommands: options.keys.sorted().map { name in
            CommandSpec("eventd-bench \(name)", abstract: name, overview: name,
                        arguments: takesFiles.contains(name) ? [Positional("FILE", help: "A calendar file.", repeatable: true, optional: true)] : [],
                        options: options[name]!.map { optionKeys[$0]! as any OptionDeclaring }
                            + (flags[name] ?? []).map { flagKeys[$0]! as any OptionDeclaring }, examples: [])
        })
}
