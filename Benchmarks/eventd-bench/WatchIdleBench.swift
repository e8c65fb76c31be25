import Foundation
import Glibc
import EventStore
import CLinux

/// `eventd-bench watch-idle`: `eventctl watch` on a 14-day view (`--days`) of the
/// generated store (`--events`, 100,000), in a pseudo-terminal of 120 × 40 whose output
/// a thread drains; once the first paint is out, the CPU eventctl uses over
/// `--idle-seconds` (60: a turn of the minute and two heartbeats fall in it) while
/// nothing changes. The watch sleeps in `poll` between minute ticks and feed messages.
enum WatchIdleBench {
    static func run(_ options: inout Options) throws {
        let events = options.int("--events") ?? 100_000
        let days = options.int("--days") ?? 14
        let idleSeconds = Double(options.int("--idle-seconds") ?? 60)
        let dir = try BenchDirectory("eventd-watch"); defer { dir.remove() }
        let db = dir.databasePath, socketPath = dir.socketPath
        try Bench.importGenerated(Bench.generatedCalendar(events: events, seed: 42), into: EventStore(path: db))
        let daemon = try Bench.startDaemon(db: db, socketPath: socketPath, arguments: ["--tz", "Europe/Berlin"])
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }

        var master: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw BenchError("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        defer { close(master) }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)

        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("eventctl")
        watch.arguments = ["--db", db, "--socket", socketPath, "watch", "--days", "\(days)", "--tz", "Europe/Berlin"]
        var env = ProcessInfo.processInfo.environment
        try BenchClock.move(&env)
        env["TERM"] = "xterm-256color"
        env["LANG"] = "C.UTF-8"
        watch.environment = env
        watch.standardInput = terminal
        watch.standardOutput = terminal
        watch.standardError = terminal
        try watch.run()
        try? terminal.close()
        defer { if watch.isRunning { watch.terminate(); watch.waitUntilExit() } }

        let written = OutputCounter(fd: master)
        // The first paint of the view: the title says live, then the output stops for a second.
        let start = Bench.now()
        while Bench.now() - start < 120 && (!written.sawLive || Bench.now() - written.last < 1) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard watch.isRunning, written.sawLive else { throw BenchError("eventctl watch did not paint the view") }
        let paintBytes = written.total
        let cpu0 = FanoutBench.cpuSeconds(pid: watch.processIdentifier)
        let bytes0 = written.total
        Thread.sleep(forTimeInterval: idleSeconds)
        let cpuMS = (FanoutBench.cpuSeconds(pid: watch.processIdentifier) - cpu0) / idleSeconds * 1000
        print(String(format: "watch_first_paint_bytes=%d watch_idle_bytes=%d watch_idle_seconds=%.0f watch_idle_cpu_ms_per_s=%.4f",
                     paintBytes, written.total - bytes0, idleSeconds, cpuMS))
    }

    /// Drains a pseudo-terminal's master on a thread of its own, counting the bytes.
    final class OutputCounter: @unchecked Sendable { // @unchecked: the counters are written by the reader thread under `lock` only
        private let lock = NSLock()
        private var bytes = 0
        private var lastTime = 0.0
        private var seenLive = false

        init(fd: Int32) {
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = read(fd, &buffer, buffer.count)
                    if n <= 0 { return }
                    let live = buffer[0..<n].withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self).contains("● live") }
                    lock.lock(); bytes += n; lastTime = Bench.now(); seenLive = seenLive || live; lock.unlock()
                }
            }
            thread.start()
        }

        var total: Int { lock.lock(); defer { lock.unlock() }; return bytes }
        var last: Double { lock.lock(); defer { lock.unlock() }; return lastTime }
        /// Whether the title has said live (the view's snapshot is on screen).
        var sawLive: Bool { lock.lock(); defer { lock.unlock() }; return seenLive }
    }
}
