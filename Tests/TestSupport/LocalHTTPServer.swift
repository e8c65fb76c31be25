import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The tests' local HTTP server (`scripts/test_http_server.py`, Python's standard
/// library): loopback only, on a free port, serving the files of its own temporary
/// directory and the misbehaving routes the live-source tests need (slow, 500, HTML,
/// truncated, oversize, endless, redirect loops). It stops with `stop()`, when the
/// object goes, or by itself when the test process is gone.
public final class LocalHTTPServer: @unchecked Sendable {
    // `@unchecked Sendable`: every property is set in `init`; `stop` is idempotent
    // through `pid`, which only the test that owns the server calls.
    /// The directory the server serves `/files/NAME` from.
    public let root: String
    public let port: Int
    private var pid: pid_t?

    /// Whether it speaks TLS (with a self-signed certificate no client should trust).
    public let tls: Bool

    /// Starts the server with the `.venv` Python when there is one, else `python3`;
    /// with `tls`, behind a self-signed certificate made with `openssl`.
    public init(tls: Bool = false) throws {
        self.tls = tls
        root = NSTemporaryDirectory() + "eventd-http-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let venv = Products.repositoryRoot.appendingPathComponent(".venv/bin/python").path
        guard let python = FileManager.default.isExecutableFile(atPath: venv) ? venv : Products.which("python3") else {
            throw HarnessError("no python3 for the local HTTP server")
        }
        let script = Products.repositoryRoot.appendingPathComponent("scripts/test_http_server.py").path
        let out = root + "/server.out"
        var arguments = [script, root, "600"]
        if tls {
            guard let openssl = Products.which("openssl") else { throw HarnessError("no openssl for a test certificate") }
            let made = try ChildProcess.runBlocking(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                                                              "-subj", "/CN=127.0.0.1", "-keyout", root + "/key.pem",
                                                              "-out", root + "/cert.pem"],
                                                    environment: ChildProcess.isolatedEnvironment())
            guard made.succeeded else { throw HarnessError("openssl req failed: \(made.stderr)") }
            arguments += [root + "/cert.pem", root + "/key.pem"]
        }
        let child = try ChildProcess.spawn(python, arguments, environment: ChildProcess.isolatedEnvironment(),
                                           stdoutPath: out, stderrPath: root + "/server.err")
        pid = child
        let deadline = Date().addingTimeInterval(30)  // Python starts slowly on a loaded machine
        var found: Int?
        while found == nil, Date() < deadline {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            found = text.split(separator: "\n").first { $0.hasPrefix("PORT ") }.flatMap { Int($0.dropFirst(5)) }
            if found == nil { usleep(20_000) }
        }
        guard let found else {
            _ = ChildProcess.killAndReap(child)
            throw HarnessError("the local HTTP server did not start: \((try? String(contentsOfFile: root + "/server.err", encoding: .utf8)) ?? "")")
        }
        port = found
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> String { (tls ? "https" : "http") + "://127.0.0.1:\(port)" + path }

    /// Writes a file the server serves at `/files/NAME`.
    public func serve(_ name: String, _ text: String) throws {
        try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8)
    }

    /// The requests so far, one `path status` line each.
    public var requests: [String] {
        ((try? String(contentsOfFile: root + "/requests.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Every request head received so far (request line and header lines), in order.
    public var heads: [String] {
        ((try? String(contentsOfFile: root + "/heads.log", encoding: .utf8)) ?? "").components(separatedBy: "\n\n").filter { !$0.isEmpty }
    }

    /// Stops the server and removes its directory.
    public func stop() {
        if let pid { _ = ChildProcess.killAndReap(pid) }
        pid = nil
        try? FileManager.default.removeItem(atPath: root)
    }
}
