import Foundation
import Glibc

/// A `redis-server` the Redis benchmarks start: loopback, a temporary directory, no
/// persistence, room for `clients` connections. Stopped by `stop()` (and on release).
final class BenchRedis {
    let port: UInt16
    let process: Process
    private let directory: String

    /// `redis://127.0.0.1:PORT/0`.
    var url: String { "redis://127.0.0.1:\(port)/0" }

    /// With `unixSocket`, the server also listens on that path (as eventd's readers do).
    init(directory: String, clients: Int, unixSocket: String? = nil) throws {
        let executable = "/usr/bin/redis-server"
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchError("\(executable) is missing: apt-get install redis-server")
        }
        port = try LoopbackTCP.freePort()
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--port", "\(port)", "--bind", "127.0.0.1", "--dir", directory, "--save", "",
                             "--appendonly", "no", "--daemonize", "no", "--logfile", directory + "/redis.log",
                             "--maxclients", "\(clients + 64)", "--tcp-backlog", "4096"]
            + (unixSocket.map { ["--unixsocket", $0, "--unixsocketperm", "700"] } ?? [])
        try process.run()
        let deadline = Bench.now() + 20
        while !LoopbackTCP.listens(port) {
            guard process.isRunning else { throw BenchError("redis-server exited at start: see \(directory)/redis.log") }
            guard Bench.now() < deadline else { throw BenchError("redis-server did not listen on \(port) in 20 s") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit { stop() }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    /// One command on a connection of its own; its reply's bytes (a bulk string's
    /// contents, or the whole line of a simple reply; with `whole`, the first read as is).
    func command(_ arguments: [[UInt8]], whole: Bool = false) throws -> [UInt8] {
        let fd = try LoopbackTCP.connect(port: port)
        defer { close(fd) }
        try LoopbackTCP.send(fd, Self.encode(arguments))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw BenchError("redis-server closed the connection mid-reply") }
            reply += buffer[0..<n]
            guard let lineEnd = reply.firstIndex(of: 10) else { continue }
            // An array (`KEYS`) of a few short strings: one read holds it.
            if whole { return reply }
            guard reply.first == UInt8(ascii: "$") else { return Array(reply[0..<lineEnd]) }
            let length = Int(String(decoding: reply[1..<lineEnd - 1], as: UTF8.self)) ?? 0
            if reply.count >= lineEnd + 1 + length { return Array(reply[(lineEnd + 1)..<(lineEnd + 1 + length)]) }
        }
    }

    /// A connection blocked in `XREAD BLOCK 0` on the one view stream eventd publishes
    /// (found with `KEYS`, fine in a bench): its reply is the next entry. The caller closes it.
    func streamReader(prefix: String = "eventd:view:") throws -> Int32 {
        let reply = String(decoding: try command([Array("KEYS".utf8), Array((prefix + "*").utf8)], whole: true), as: UTF8.self)
        let keys = reply.split(whereSeparator: \.isNewline).filter { $0.hasPrefix(prefix) && !$0.hasSuffix(":snapshot") }
        guard keys.count == 1, let key = keys.first else { throw BenchError("expected one view stream, found \(keys)") }
        let fd = try LoopbackTCP.connect(port: port)
        try LoopbackTCP.send(fd, Self.encode(["XREAD", "BLOCK", "0", "STREAMS", String(key), "$"].map { Array($0.utf8) }))
        return fd
    }

    /// A field of `INFO section` (`used_memory`, …) as a number.
    func info(_ section: String, _ field: String) throws -> Double {
        let text = String(decoding: try command([Array("INFO".utf8), Array(section.utf8)]), as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix(field + ":") {
            return Double(line.dropFirst(field.count + 1)) ?? 0
        }
        throw BenchError("INFO \(section) has no \(field): \(text.prefix(200))")
    }

    /// A command in RESP (binary-safe).
    static func encode(_ arguments: [[UInt8]]) -> [UInt8] {
        var out = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            out += Array("$\(argument.count)\r\n".utf8)
            out += argument
            out += [13, 10]
        }
        return out
    }
}
