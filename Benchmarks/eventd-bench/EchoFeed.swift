import Foundation
import Glibc
import FeedProtocol
import RuntimeDirectories

/// A stand-in for eventd that does no work: it sends every subscriber a snapshot line
/// and then, when the control connection asks, a diff line, of the sizes the real daemon
/// sent. The benchmark reads it exactly as it reads eventd, so its latencies are the
/// floor that the client and the kernel cost, and the rest of the real figure is eventd's.
enum EchoFeed {
    /// `eventd-bench echo-feed --socket P --subscribers N --snapshot-bytes B --diff-bytes D`:
    /// the server in a process of its own, as eventd is (in the benchmark's process, its
    /// 10,000 accepted sockets and the client's 10,000 would share one descriptor limit).
    static func serve(_ options: inout Options) throws {
        guard let path = options.value("--socket"), let subscribers = options.int("--subscribers"),
              let snapshotBytes = options.int("--snapshot-bytes"), let diffBytes = options.int("--diff-bytes") else {
            throw BenchError("echo-feed needs --socket, --subscribers, --snapshot-bytes and --diff-bytes")
        }
        let thread = try start(path: path, subscribers: subscribers, snapshotBytes: snapshotBytes, diffBytes: diffBytes)
        while !thread.isFinished { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// Runs `serve` in a child process (this binary) and waits (at most 10 s) for its socket.
    static func spawn(path: String, subscribers: Int, snapshotBytes: Int, diffBytes: Int) throws -> Process {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["echo-feed", "--socket", path, "--subscribers", "\(subscribers)",
                           "--snapshot-bytes", "\(snapshotBytes)", "--diff-bytes", "\(diffBytes)"]
        try child.run()
        var waited = 0.0
        while !FileManager.default.fileExists(atPath: path), waited < 10 { Thread.sleep(forTimeInterval: 0.05); waited += 0.05 }
        return child
    }

    /// Starts the echo server on `path` for `subscribers` subscriptions and a control
    /// connection; returns when it listens. The thread ends after the diff went out.
    static func start(path: String, subscribers: Int, snapshotBytes: Int, diffBytes: Int) throws -> Thread {
        guard let address = UnixSocketAddress(path: path) else { throw BenchError("socket path too long: \(path)") }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0, address.withSockaddr({ bind(listener, $0, $1) }) == 0, listen(listener, 4096) == 0 else {
            throw BenchError("echo server: cannot listen on \(path)")
        }
        let snapshot = line(type: .snapshot, bytes: snapshotBytes)
        let diff = line(type: .diff, bytes: diffBytes)
        let thread = Thread {
            defer { close(listener) }
            var clients: [Int32] = []
            for _ in 0..<subscribers {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else {
                    FileHandle.standardError.write(Data("eventd-bench echo-feed: accept: \(String(cString: strerror(errno)))\n".utf8))
                    return
                }
                _ = readLine(fd)
                clients.append(fd)
            }
            // Only once everyone is connected (the client reads after it has subscribed all).
            for fd in clients { writeAll(fd, snapshot) }
            let control = accept(listener, nil, nil)
            guard control >= 0 else { return }
            writeAll(control, Array("{\"type\":\"hello\"}\n".utf8))
            _ = readLine(control)
            for fd in clients { writeAll(fd, diff) }
            close(control)
            for fd in clients { close(fd) }
        }
        thread.name = "bench-echo"
        thread.start()
        return thread
    }

    /// `{"type":"TYPE","pad":"xxx…"}` plus a newline, `bytes` long in all.
    static func line(type: FeedMessage.Kind, bytes: Int) -> [UInt8] {
        let head = FeedMessage.head(type) + Array(",\"pad\":\"".utf8), tail = Array("\"}\n".utf8)
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, bytes - head.count - tail.count)) + tail
    }

    private static func readLine(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1 { if byte == 10 { return true } }
        return false
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}
