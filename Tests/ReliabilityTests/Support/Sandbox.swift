import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A test's private world: a temporary directory, the processes it started and the
/// file systems it mounted. `cleanUp` kills, unmounts and removes all of it. Processes
/// are TestSupport's `ChildProcess`es; the sandbox only keeps track of them.
// @unchecked: every mutable property is read and written under `lock`.
final class Sandbox: @unchecked Sendable {
    let directory: String
    let name: String
    private let lock = NSLock()
    private var children: Set<pid_t> = []
    private var mounts: [String] = []
    private var logs: [String] = []
    private var cleanUps: [() -> Void] = []

    init(_ name: String) throws {
        self.name = name
        do {
            directory = try makeTemporaryDirectory("rel")
        } catch {
            throw RelError("\(error)")
        }
    }

    func path(_ component: String) -> String { directory + "/" + component }

    /// A fresh subdirectory.
    func makeDirectory(_ component: String) throws -> String {
        let p = path(component)
        try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    func registerLog(_ path: String) { lock.withLock { logs.append(path) } }

    /// Runs `body` at clean-up, before the remaining children are killed (a daemon
    /// harness stops its daemon there).
    func atCleanUp(_ body: @escaping () -> Void) { lock.withLock { cleanUps.append(body) } }

    /// The environment children start with: ours without anything that would redirect
    /// them (systemd variables, EVENTD_*), UTC, no colours.
    static func childEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        ChildProcess.isolatedEnvironment(extra)
    }

    /// Starts a child (see `ChildProcess.spawn`) that `cleanUp` will stop.
    func spawn(_ executable: String, _ arguments: [String], environment: [String: String] = Sandbox.childEnvironment(),
               stdout: String, stderr: String) throws -> pid_t {
        let pid = try ChildProcess.spawn(executable, arguments, environment: environment, stdoutPath: stdout, stderrPath: stderr)
        lock.withLock { _ = children.insert(pid) }
        return pid
    }

    /// Reaps `pid` if it has exited.
    func poll(_ pid: pid_t) -> ProcessExit? {
        guard let exit = ChildProcess.poll(pid) else { return nil }
        lock.withLock { _ = children.remove(pid) }
        return exit
    }

    /// Waits until `pid` exits or `timeout` passes.
    func wait(_ pid: pid_t, timeout: Double) -> ProcessExit? {
        guard let exit = ChildProcess.waitBlocking(pid, timeout: timeout) else { return nil }
        lock.withLock { _ = children.remove(pid) }
        return exit
    }

    /// SIGKILL and a blocking reap.
    @discardableResult
    func kill9(_ pid: pid_t) -> ProcessExit {
        let exit = ChildProcess.killAndReap(pid)
        lock.withLock { _ = children.remove(pid) }
        return exit
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
             timeout: Double = 120) throws -> ProcessResult {
        try ChildProcess.runBlocking(executable, arguments, environment: environment, directory: directory, timeout: timeout)
    }

    /// `eventctl --db DB [--socket SOCK] ARGS`.
    func eventctl(db: String, socket: String? = nil, _ arguments: [String], timeout: Double = 120) throws -> ProcessResult {
        var args = ["--db", db]
        args += ["--socket", socket ?? path("no-daemon.sock")]
        return try run(Products.eventctl, args + arguments, timeout: timeout)
    }

    /// `eventctl import` that must succeed.
    @discardableResult
    func importOK(db: String, socket: String? = nil, _ arguments: [String]) throws -> ProcessResult {
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
            // A crash report's cause (the trap's message) comes first and its backtrace
            // after, so a long log shows its start as well as its end.
            guard lines.count > 100 else {
                print("---- \(log) (\(lines.count) lines)\n" + lines.joined(separator: "\n"))
                continue
            }
            print("---- \(log) (first 20 and last 60 of \(lines.count) lines)\n" + lines.prefix(20).joined(separator: "\n")
                  + "\n...\n" + lines.suffix(60).joined(separator: "\n"))
        }
    }

    private var cleanedUp = false

    func cleanUp() {
        guard !lock.withLock({ () -> Bool in defer { cleanedUp = true }; return cleanedUp }) else { return }
        for body in lock.withLock({ cleanUps }).reversed() { body() }
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
