// Copied from Tests/DaemonTests/Support/ChildProcess.swift (test targets cannot share code).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
enum ProcessExit: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    init(waitStatus status: Int32) {
        if status & 0x7f == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signaled(status & 0x7f)
        }
    }

    var description: String {
        switch self {
        case .exited(let code): return "exit \(code)"
        case .signaled(let signal): return "signal \(signal)"
        }
    }
}

/// Errors of the test helpers.
struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Sleeps without blocking a cooperative thread (tests run in parallel on few cores).
func pause(_ seconds: Double) async throws {
    try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
}

/// Seconds on a monotonic clock.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Double, every interval: Double = 0.02,
                _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = monotonicNow() + timeout
    while true {
        if try await condition() { return true }
        if monotonicNow() >= deadline { return false }
        try await pause(interval)
    }
}

/// A child started with `posix_spawn` (no Foundation `Process`, so nothing else reaps
/// it): standard input from /dev/null, standard output and error appended to files.
/// Every descriptor the tests open is close-on-exec, so children inherit none of them.
enum ChildProcess {
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                      stdoutPath: String, stderrPath: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A clean signal state: nothing blocked, the usual signals at their defaults
        // (the test runner may ignore SIGPIPE, and ignored signals survive exec).
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, s) }
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
        guard rc == 0 else { throw HarnessError("cannot start \(executable): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// Reaps `pid` if it has exited (non-blocking).
    static func poll(_ pid: pid_t) -> ProcessExit? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        return r == pid ? ProcessExit(waitStatus: status) : nil
    }

    /// Waits (without blocking a thread) until `pid` exits or `timeout` passes.
    static func wait(_ pid: pid_t, timeout: Double) async throws -> ProcessExit? {
        let deadline = monotonicNow() + timeout
        while true {
            if let exit = poll(pid) { return exit }
            if monotonicNow() >= deadline { return nil }
            try await pause(0.01)
        }
    }

    /// SIGKILL and a blocking reap: the last resort of cleanup paths.
    static func killAndReap(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    struct Result {
        var exit: ProcessExit
        var stdout: String
        var stderr: String
        var succeeded: Bool { exit == .exited(0) }
    }

    /// Runs a program to completion (killed after `timeout`), capturing its output in
    /// files under `directory`.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    directory: String, timeout: Double = 30) async throws -> Result {
        let tag = UUID().uuidString.prefix(8)
        let out = "\(directory)/run-\(tag).out", err = "\(directory)/run-\(tag).err"
        defer { unlink(out); unlink(err) }
        let pid = try spawn(executable, arguments, environment: environment, stdoutPath: out, stderrPath: err)
        var exit: ProcessExit?
        do {
            exit = try await wait(pid, timeout: timeout)
        } catch {
            killAndReap(pid)
            throw error
        }
        guard let exit else {
            killAndReap(pid)
            throw HarnessError("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        return Result(exit: exit,
                      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}
