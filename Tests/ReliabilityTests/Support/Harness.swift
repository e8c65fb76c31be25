import Foundation
import Testing
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Scale, reports, randomness

/// Knobs shared by every reliability test.
enum Rel {
    /// `EVENTD_STRESS_SCALE` (default 1: the bounded run of `make test`; `make stress` sets 20).
    static let scale: Int = {
        let raw = ProcessInfo.processInfo.environment["EVENTD_STRESS_SCALE"] ?? ""
        return max(1, Int(raw) ?? Int(Double(raw) ?? 1))
    }()

    /// Prints one `reliability: <test>: key=value ...` line (the figures a test measured).
    static func report(_ test: String, _ fields: [(String, Any)]) {
        let line = "reliability: \(test): " + fields.map { "\($0.0)=\(format($0.1))" }.joined(separator: " ")
        print(line)
        fflush(nil)
        // Also appended to $EVENTD_RELIABILITY_REPORT (scripts/stress.sh collects them there).
        if let file = ProcessInfo.processInfo.environment["EVENTD_RELIABILITY_REPORT"], !file.isEmpty {
            let fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 {
                let bytes = Array((line + "\n").utf8)
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
    }

    private static func format(_ value: Any) -> String {
        if let d = value as? Double { return String(format: "%.3f", d) }
        return "\(value)"
    }

    /// The seed of a test's random choices: `EVENTD_STRESS_SEED` (to repeat a run), else random.
    static func seed() -> UInt64 {
        if let s = ProcessInfo.processInfo.environment["EVENTD_STRESS_SEED"].flatMap(UInt64.init) { return s }
        return UInt64.random(in: 1...UInt64.max)
    }
}

/// SplitMix64: a small seeded generator, so that a failing run can be repeated.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - Time

func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func sleepSeconds(_ s: Double) {
    guard s > 0 else { return }
    usleep(useconds_t(min(s, 3600) * 1_000_000))
}

/// Polls `condition` (on the calling, non-cooperative thread) until it holds or `timeout` passes.
func waitUntil(timeout: Double, every: Double = 0.05, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = monotonicNow() + timeout
    while true {
        if try condition() { return true }
        if monotonicNow() >= deadline { return false }
        sleepSeconds(every)
    }
}

// MARK: - Failures and checks

/// A failure that ends a test body.
struct RelError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Collects check failures on the test's worker thread; the async test records them
/// as issues afterwards (Swift Testing attributes issues through task-locals, which a
/// plain `Thread` does not have).
final class Checks: @unchecked Sendable {
    struct Failure: Sendable {
        var message: String
        var location: SourceLocation
    }
    private let failures = Mutex<[Failure]>([])

    /// Records a failure unless `condition` holds; returns `condition`.
    @discardableResult
    func check(_ condition: Bool, _ message: @autoclosure () -> String,
               fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) -> Bool {
        if !condition {
            let m = message()
            print("reliability: CHECK FAILED: \(m)")
            failures.withLock {
                $0.append(Failure(message: m, location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)))
            }
        }
        return condition
    }

    func fail(_ message: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        check(false, message, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    var all: [Failure] { failures.withLock { $0 } }
    var count: Int { failures.withLock { $0.count } }
}

/// Runs a test body on its own thread (it blocks: waits for processes, polls sockets),
/// so that the cooperative pool, shared with every other test, is never tied up.
/// The sandbox (processes, mounts, temporary directory) is cleaned up whatever happens.
func runIsolated(_ name: String, timeLimit: Double = 600,
                 _ body: @escaping @Sendable (Sandbox, Checks) throws -> Void) async throws {
    let checks = Checks()
    let outcome: Result<Void, RelError> = await withCheckedContinuation { continuation in
        let thread = Thread {
            let result: Result<Void, RelError>
            do {
                let sandbox = try Sandbox(name)
                defer { sandbox.cleanUp() }
                do {
                    try body(sandbox, checks)
                    result = .success(())
                } catch {
                    print("reliability: \(name): failed with \(error); daemon logs follow")
                    sandbox.dumpLogs()
                    result = .failure(RelError("\(error)"))
                }
                if result.isSuccess, checks.count > 0 { sandbox.dumpLogs() }
            } catch {
                result = .failure(RelError("cannot set up: \(error)"))
            }
            continuation.resume(returning: result)
        }
        thread.name = "reliability-\(name)"
        thread.stackSize = 16 << 20
        thread.start()
    }
    for failure in checks.all {
        Issue.record(Comment(rawValue: failure.message), sourceLocation: failure.location)
    }
    if case .failure(let error) = outcome {
        Issue.record(Comment(rawValue: "\(name): \(error.description)"))
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { return true }; return false }
}

// MARK: - Binaries

enum Binaries {
    /// The directory holding the built products, found by walking up from the test bundle.
    static let productsDirectory: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("eventctl").path),
               FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("eventd").path) {
                return url
            }
        }
        return URL(fileURLWithPath: ".build/debug")
    }()

    static var eventd: String { productsDirectory.appendingPathComponent("eventd").path }
    static var eventctl: String { productsDirectory.appendingPathComponent("eventctl").path }
}

// MARK: - Processes

/// How a child ended.
enum ProcessExit: Equatable, CustomStringConvertible, Sendable {
    case exited(Int32)
    case signaled(Int32)

    init(waitStatus status: Int32) {
        self = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }

    var description: String {
        switch self {
        case .exited(let c): return "exit \(c)"
        case .signaled(let s): return "signal \(s)"
        }
    }
}

/// The output of a finished command.
struct CommandResult: Sendable {
    var exit: ProcessExit
    var stdout: String
    var stderr: String
    var seconds: Double
    var succeeded: Bool { exit == .exited(0) }
}

/// A test's private world: a temporary directory, the processes it started and the
/// file systems it mounted. `cleanUp` kills, unmounts and removes all of it.
final class Sandbox: @unchecked Sendable {
    let directory: String
    let name: String
    private let lock = NSLock()
    private var children: Set<pid_t> = []
    private var mounts: [String] = []
    private var logs: [String] = []
    private var counter = 0

    init(_ name: String) throws {
        self.name = name
        var template = Array("/tmp/eventd-rel-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RelError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
    }

    func path(_ component: String) -> String { directory + "/" + component }

    /// A fresh subdirectory.
    func makeDirectory(_ component: String) throws -> String {
        let p = path(component)
        try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    func registerLog(_ path: String) { lock.withLock { logs.append(path) } }

    /// The environment children start with: ours without anything that would redirect
    /// them (systemd variables, EVENTD_*), UTC, no colours.
    static func childEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("EVENTD_") || key.hasPrefix("LISTEN_") || key.hasPrefix("WATCHDOG_") {
            env[key] = nil
        }
        for key in ["NOTIFY_SOCKET", "STATE_DIRECTORY", "RUNTIME_DIRECTORY"] { env[key] = nil }
        env["TZ"] = "UTC"
        env["NO_COLOR"] = "1"
        env.merge(extra) { $1 }
        return env
    }

    /// Starts a child (posix_spawn: nothing else reaps it) with standard input from
    /// /dev/null and standard output/error appended to files.
    func spawn(_ executable: String, _ arguments: [String], environment: [String: String] = Sandbox.childEnvironment(),
               stdout: String, stderr: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // Descriptors this target opens are close-on-exec, so children inherit none of them.

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGXFSZ] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw RelError("cannot start \(executable): \(String(cString: strerror(rc)))") }
        lock.withLock { _ = children.insert(pid) }
        return pid
    }

    /// Reaps `pid` if it has exited.
    func poll(_ pid: pid_t) -> ProcessExit? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        guard r == pid else { return nil }
        lock.withLock { _ = children.remove(pid) }
        return ProcessExit(waitStatus: status)
    }

    /// Waits until `pid` exits or `timeout` passes.
    func wait(_ pid: pid_t, timeout: Double) -> ProcessExit? {
        let deadline = monotonicNow() + timeout
        var delay = 0.001
        while true {
            if let e = poll(pid) { return e }
            if monotonicNow() >= deadline { return nil }
            sleepSeconds(delay)
            delay = min(delay * 2, 0.02)
        }
    }

    /// SIGKILL and a blocking reap.
    @discardableResult
    func kill9(_ pid: pid_t) -> ProcessExit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        lock.withLock { _ = children.remove(pid) }
        return ProcessExit(waitStatus: status)
    }

    /// SIGTERM, then SIGKILL after `timeout`.
    @discardableResult
    func terminate(_ pid: pid_t, timeout: Double = 5) -> ProcessExit {
        kill(pid, SIGTERM)
        if let e = wait(pid, timeout: timeout) { return e }
        return kill9(pid)
    }

    /// Runs a program to completion (SIGKILLed after `timeout`).
    func run(_ executable: String, _ arguments: [String], environment: [String: String] = Sandbox.childEnvironment(),
             timeout: Double = 120) throws -> CommandResult {
        let tag = lock.withLock { () -> Int in counter += 1; return counter }
        let out = path(".run-\(tag).out"), err = path(".run-\(tag).err")
        defer { unlink(out); unlink(err) }
        let started = monotonicNow()
        let pid = try spawn(executable, arguments, environment: environment, stdout: out, stderr: err)
        guard let exit = wait(pid, timeout: timeout) else {
            kill9(pid)
            throw RelError("\((executable as NSString).lastPathComponent) \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        return CommandResult(exit: exit, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                             stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
                             seconds: monotonicNow() - started)
    }

    /// `eventctl --db DB [--socket SOCK] ARGS`.
    func eventctl(db: String, socket: String? = nil, _ arguments: [String], timeout: Double = 120) throws -> CommandResult {
        var args = ["--db", db]
        args += ["--socket", socket ?? path("no-daemon.sock")]
        return try run(Binaries.eventctl, args + arguments, timeout: timeout)
    }

    /// `eventctl import` that must succeed.
    @discardableResult
    func importOK(db: String, socket: String? = nil, _ arguments: [String]) throws -> CommandResult {
        let r = try eventctl(db: db, socket: socket, ["import"] + arguments)
        guard r.succeeded else { throw RelError("eventctl import \(arguments.joined(separator: " ")) failed (\(r.exit)): \(r.stderr)") }
        return r
    }

    // MARK: Mounts

    /// Runs `mount ARGS`; returns nil on success, else its message.
    func mount(_ arguments: [String], target: String) -> String? {
        guard let r = try? run("/bin/mount", arguments, timeout: 30) else { return "mount did not run" }
        if r.succeeded {
            lock.withLock { if !mounts.contains(target) { mounts.append(target) } }
            return nil
        }
        return (r.stderr + r.stdout).trimmingCharacters(in: .whitespacesAndNewlines) + " (\(r.exit))"
    }

    func unmount(_ target: String) {
        _ = try? run("/bin/umount", [target], timeout: 30)
        if isMountPoint(target) { _ = try? run("/bin/umount", ["-l", target], timeout: 30) }
        lock.withLock { mounts.removeAll { $0 == target } }
    }

    func isMountPoint(_ path: String) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == path }
    }

    // MARK: Clean-up

    func dumpLogs() {
        for log in lock.withLock({ logs }) {
            guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            print("---- \(log) (last 60 of \(lines.count) lines)\n" + lines.suffix(60).joined(separator: "\n"))
        }
    }

    private var cleanedUp = false

    func cleanUp() {
        guard !lock.withLock({ () -> Bool in defer { cleanedUp = true }; return cleanedUp }) else { return }
        let pids = lock.withLock { Array(children) }
        for pid in pids { kill(pid, SIGTERM) }
        for pid in pids where wait(pid, timeout: 3) == nil { kill9(pid) }
        for m in lock.withLock({ mounts }).reversed() { unmount(m) }
        if ProcessInfo.processInfo.environment["EVENTD_RELIABILITY_KEEP"] == nil {
            try? FileManager.default.removeItem(atPath: directory)
        } else {
            print("reliability: \(name): kept \(directory)")
        }
    }

    deinit { cleanUp() }
}

// MARK: - Files

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        throw RelError("cannot write \(path)")
    }
}

func readText(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

/// Removes a database with its WAL and shared-memory files.
func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
}

/// Copies a (closed) database file; the copy has no WAL.
func copyDatabase(_ from: String, to: String) throws {
    removeDatabase(to)
    try FileManager.default.copyItem(atPath: from, toPath: to)
}

/// Free bytes of the file system holding `path`.
func freeBytes(_ path: String) -> Int {
    var s = statvfs()
    guard statvfs(path, &s) == 0 else { return -1 }
    return Int(s.f_bavail) * Int(s.f_frsize)
}

/// (dev, inode) of a path, nil when absent.
func fileIdentity(_ path: String) -> String? {
    var st = stat()
    guard lstat(path, &st) == 0 else { return nil }
    return "\(st.st_dev):\(st.st_ino)"
}

func isSocketFile(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
}

// MARK: - /proc

/// VmRSS of `pid`, KiB.
func processResidentKiB(_ pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
}

/// Number of open descriptors of `pid`.
func processDescriptorCount(_ pid: pid_t) -> Int? {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
}

/// Raises this process's descriptor limit to at least `wanted` (up to the hard limit).
func ensureDescriptorLimit(_ wanted: Int) -> Int {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    if Int(limit.rlim_cur) < wanted {
        var raised = limit
        raised.rlim_cur = rlim_t(min(Int(limit.rlim_max), wanted))
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) != 0, Int(limit.rlim_max) < wanted {
            // Root may raise the hard limit too.
            raised.rlim_max = rlim_t(wanted)
            raised.rlim_cur = rlim_t(wanted)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
        }
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return Int(limit.rlim_cur)
}

/// Size of a file in bytes (0 when absent).
func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}
