import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real `redis-server` (Debian's) on a free loopback port, in a temporary directory of
/// its own, for the tests of the Redis client, publisher and upstream. Nothing is saved
/// unless a test asks (`--save ""`, no AOF), so a restart is empty unless `save()` ran.
/// Killed and its directory removed when released; `stop`, `suspend`/`resume` (SIGSTOP,
/// SIGCONT) and `restart` are the fault tests' levers.
public final class RedisServerProcess {
    /// The port it listens on (the same across restarts).
    public private(set) var port: Int
    /// Ports given up at the first start because another test took them first.
    private var portRetries = 0
    /// Whether it ever listened: after that a restart keeps its port.
    private var listened = false
    /// Its working directory (dump file, log).
    public let directory: String
    /// The arguments given at start, after the defaults (kept for `restart`).
    public let extraArguments: [String]
    /// Its pid, or 0 once stopped.
    public private(set) var pid: pid_t = 0

    /// `redis://127.0.0.1:PORT/DATABASE`, with `USER@` when given.
    public func url(user: String? = nil, database: Int = 0) -> String {
        "redis://" + (user.map { $0 + "@" } ?? "") + "127.0.0.1:\(port)/\(database)"
    }

    /// Its log file.
    public var logPath: String { directory + "/redis.log" }

    /// Starts a server with `arguments` added to the defaults (`--requirepass x`, …), and
    /// waits until it answers.
    public init(arguments: [String] = []) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw HarnessError("\(Self.executable) is missing: apt-get install redis-server")
        }
        port = Int(try WebGatewayHarness.freePort())
        directory = DatabaseFiles.scratchPath("redis")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        extraArguments = arguments
        try await start()
    }

    deinit {
        if pid != 0 { ChildProcess.killAndReap(pid) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `/usr/bin/redis-server`.
    public static let executable = "/usr/bin/redis-server"

    private func start() async throws {
        let arguments = ["--port", String(port), "--bind", "127.0.0.1", "--dir", directory, "--save", "",
                         "--appendonly", "no", "--daemonize", "no", "--logfile", logPath] + extraArguments
        pid = try ChildProcess.spawn(Self.executable, arguments, environment: ChildProcess.isolatedEnvironment(),
                                     stdoutPath: directory + "/stdout", stderrPath: directory + "/stderr")
        let deadline = monotonicNow() + 20
        while !Self.listens(port) {
            if let exit = ChildProcess.poll(pid) {
                pid = 0
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                // freePort checks before redis binds: a test running beside this one may
                // take the port in between. Another port, a few times, then the failure.
                if !listened, log.contains("Address already in use"), portRetries < 5 {
                    portRetries += 1
                    port = Int(try WebGatewayHarness.freePort())
                    try? FileManager.default.removeItem(atPath: logPath)
                    return try await start()
                }
                throw HarnessError("redis-server exited (\(exit)) at start: \(log.suffix(600))")
            }
            if monotonicNow() > deadline { throw HarnessError("redis-server did not listen on \(port) in 20 s") }
            try await pause(0.02)
        }
        listened = true
    }

    /// SIGKILL (nothing saved).
    public func stop() {
        guard pid != 0 else { return }
        ChildProcess.killAndReap(pid)
        pid = 0
    }

    /// SIGSTOP: the server keeps its socket but answers nothing.
    public func suspend() { if pid != 0 { kill(pid, SIGSTOP) } }

    /// SIGCONT after `suspend`.
    public func resume() { if pid != 0 { kill(pid, SIGCONT) } }

    /// Kills the server and starts it again on the same port: empty unless `keepData`
    /// (then it saves first, and the new one loads the dump).
    public func restart(keepData: Bool = false) async throws {
        if keepData { _ = try await cli(["SAVE"]) } else { unlink(directory + "/dump.rdb") }
        stop()
        try await start()
    }

    /// Kills the server (SIGKILL) without saving; `startAgain` then loads its last
    /// `SAVE`: what was written since is lost, as after a crash.
    public func crash() { stop() }

    /// Starts the killed server again on the same port, from its dump when there is one.
    public func startAgain() async throws {
        guard pid == 0 else { return }
        try await start()
    }

    /// Runs `redis-cli` against it (with `-a password` when given) and returns its output.
    public func cli(_ arguments: [String], password: String? = nil) async throws -> String {
        var args = ["-h", "127.0.0.1", "-p", String(port), "--no-auth-warning"]
        if let password { args += ["-a", password] }
        let result = try await ChildProcess.run("/usr/bin/redis-cli", args + arguments,
                                                environment: ChildProcess.isolatedEnvironment(), timeout: 20)
        guard result.exit == .exited(0) else { throw HarnessError("redis-cli \(arguments) failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port` and answers PING.
    private static func listens(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return false }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let ping = Array("PING\r\n".utf8)
        guard write(fd, ping, ping.count) == ping.count else { return false }
        var answer = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &answer, answer.count)
        // "+PONG" or "-NOAUTH …": either way the server is up and reading commands.
        return n > 0 && (answer[0] == UInt8(ascii: "+") || answer[0] == UInt8(ascii: "-"))
    }
}
