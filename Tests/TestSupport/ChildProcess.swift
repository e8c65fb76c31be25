import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one process runner of the tests: children started with `posix_spawn` (no
/// Foundation `Process`, so nothing else reaps them), standard input from a file
/// (`/dev/null` by default), standard output and error appended to files, so that no
/// pipe can fill up and block a child. Every descriptor the tests open is
/// close-on-exec, so children inherit none of them.
///
/// `run` waits with async sleeps (for tests on the cooperative pool); `runBlocking`
/// waits on the calling thread (for tests that run their bodies on their own threads,
/// and for quick synchronous tools).
public enum ChildProcess {
    /// The result type of `run` and `runBlocking`.
    public typealias Result = ProcessResult

    /// Starts `executable` (a path) and returns its pid. Its signal state is clean:
    /// nothing blocked, the usual signals at their defaults (the test runner may ignore
    /// SIGPIPE, and ignored signals survive exec). `workingDirectory` is entered through
    /// `/bin/sh` (glibc's `posix_spawn_file_actions_addchdir_np` is not imported).
    public static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                             stdinPath: String = "/dev/null", stdoutPath: String, stderrPath: String,
                             workingDirectory: String? = nil) throws -> pid_t {
        var program = executable, args = arguments
        if let workingDirectory {
            program = "/bin/sh"
            args = ["-c", #"cd "$0" && exec "$@""#, workingDirectory, executable] + arguments
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        // SIGXFSZ too: the disk-full tests need a child to see EFBIG, as in production.
        for s in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGXFSZ] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + args).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw HarnessError("cannot start \(executable): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// Reaps `pid` if it has exited (non-blocking).
    public static func poll(_ pid: pid_t) -> ProcessExit? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        return r == pid ? ProcessExit(waitStatus: status) : nil
    }

    /// Waits (without blocking a thread) until `pid` exits or `timeout` passes.
    public static func wait(_ pid: pid_t, timeout: Double) async throws -> ProcessExit? {
        let deadline = monotonicNow() + timeout
        while true {
            if let exit = poll(pid) { return exit }
            if monotonicNow() >= deadline { return nil }
            try await pause(0.01)
        }
    }

    /// Waits on the calling thread until `pid` exits or `timeout` passes (polling from
    /// 1 ms up to every 20 ms, so quick commands return quickly).
    public static func waitBlocking(_ pid: pid_t, timeout: Double) -> ProcessExit? {
        let deadline = monotonicNow() + timeout
        var delay = 0.001
        while true {
            if let exit = poll(pid) { return exit }
            if monotonicNow() >= deadline { return nil }
            sleepSeconds(delay)
            delay = min(delay * 2, 0.02)
        }
    }

    /// SIGKILL and a blocking reap: the last resort of cleanup paths.
    @discardableResult
    public static func killAndReap(_ pid: pid_t) -> ProcessExit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return ProcessExit(waitStatus: status)
    }

    // MARK: - Running to completion

    /// Runs a program to completion (SIGKILLed after `timeout`), waiting with async
    /// sleeps. Output goes through files in `directory` (the system's temporary
    /// directory by default); `stdin` is fed from a file too.
    public static func run(_ executable: String, _ arguments: [String],
                           environment: [String: String] = ProcessInfo.processInfo.environment,
                           directory: String? = nil, workingDirectory: String? = nil,
                           stdin: [UInt8]? = nil, timeout: Double = 30) async throws -> ProcessResult {
        let files = try Files(directory: directory, stdin: stdin)
        defer { files.remove() }
        let started = monotonicNow()
        let pid = try files.spawn(executable, arguments, environment: environment, workingDirectory: workingDirectory)
        let exit: ProcessExit?
        do {
            exit = try await wait(pid, timeout: timeout)
        } catch {
            killAndReap(pid)
            throw error
        }
        return try files.result(exit, pid: pid, started: started, timeout: timeout, command: [executable] + arguments)
    }

    /// `run`, waiting on the calling thread.
    public static func runBlocking(_ executable: String, _ arguments: [String],
                                   environment: [String: String] = ProcessInfo.processInfo.environment,
                                   directory: String? = nil, workingDirectory: String? = nil,
                                   stdin: [UInt8]? = nil, timeout: Double = 120) throws -> ProcessResult {
        let files = try Files(directory: directory, stdin: stdin)
        defer { files.remove() }
        let started = monotonicNow()
        let pid = try files.spawn(executable, arguments, environment: environment, workingDirectory: workingDirectory)
        let exit = waitBlocking(pid, timeout: timeout)
        return try files.result(exit, pid: pid, started: started, timeout: timeout, command: [executable] + arguments)
    }

    /// The temporary files of one `run`.
    private struct Files {
        let stdin: String?, stdout: String, stderr: String

        init(directory: String?, stdin input: [UInt8]?) throws {
            let base = (directory ?? NSTemporaryDirectory()) + "/.run-\(UUID().uuidString.prefix(12))"
            stdout = base + ".out"
            stderr = base + ".err"
            if let input {
                stdin = base + ".in"
                guard FileManager.default.createFile(atPath: base + ".in", contents: Data(input)) else {
                    throw HarnessError("cannot write \(base).in")
                }
            } else {
                stdin = nil
            }
        }

        func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                   workingDirectory: String?) throws -> pid_t {
            try ChildProcess.spawn(executable, arguments, environment: environment, stdinPath: stdin ?? "/dev/null",
                                   stdoutPath: stdout, stderrPath: stderr, workingDirectory: workingDirectory)
        }

        func result(_ exit: ProcessExit?, pid: pid_t, started: Double, timeout: Double,
                    command: [String]) throws -> ProcessResult {
            guard let exit else {
                killAndReap(pid)
                let name = (command[0] as NSString).lastPathComponent
                throw HarnessError("\(name) \(command.dropFirst().joined(separator: " ")) did not finish in \(timeout) s")
            }
            return ProcessResult(exit: exit,
                                 stdoutBytes: FileManager.default.contents(atPath: stdout).map { [UInt8]($0) } ?? [],
                                 stderr: (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "",
                                 seconds: monotonicNow() - started)
        }

        func remove() {
            for path in [stdin, stdout, stderr].compactMap({ $0 }) { unlink(path) }
        }
    }

    // MARK: - Environment

    /// The environment a program under test starts with: ours, minus anything that would
    /// redirect or reconfigure it (systemd's socket-activation, notify and watchdog
    /// variables, `EVENTD_*`, systemd's directories), plus UTC, no colours and `extra`.
    /// A developer's shell (or a test runner under systemd) then cannot change what a
    /// test sees.
    public static func isolatedEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
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
}
