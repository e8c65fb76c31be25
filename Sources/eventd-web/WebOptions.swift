import Foundation
import CommandLineKit
import Diagnostics
import RuntimeDirectories
import WebGateway

/// `eventd-web` options (docs/web-gateway.md), declared once (CommandLineKit).
enum WebOptions {
    static let listen = Option.value(
        "--listen", "ADDRESS", help: "127.0.0.1:PORT, [::1]:PORT or unix:PATH (default: 127.0.0.1:8787).",
        details: "Another address with a port only with --token-file. Ignored when systemd passes the socket.",
        validation: .custom(listenProblem))
    static let socket = Option.value("--socket", "PATH", help: "eventd's socket (default: \(PathDefaults.socketHelp)).",
                                     details: PathDefaults.firstApplies, completion: .file())
    static let tokenFile = Option.value(
        "--token-file", "PATH", help: "Require the token in this file on every request.",
        details: """
        The file holds one line of at least 16 characters and is not readable by others. The token comes as
        "Authorization: Bearer", as ?token=, or in the cookie a ?token= request sets.
        Needed to listen on an address that is not loopback.
        """,
        completion: .file())
    static let allowHosts = Option.values("--allow-host", "NAME", help: "Also accept this Host header (a reverse proxy's name).")
    static let maxStreams = Option.value("--max-streams", "N", as: Int.self, help: "Answers in flight at once, event streams included (default: 256).",
                                         validation: .integer(1...65_536))
    static let assets = Option.value("--assets", "DIR", help: "The dashboard's files (default: ../share/eventd/web beside the program).",
                                     completion: .directory)
    static let logLevel = Option.logLevel

    static let spec = CommandSpec(
        "eventd-web", abstract: "Serve the eventd feed to browsers: a live dashboard and Server-Sent Events.",
        overview: "Serve the eventd feed to browsers: a live dashboard and Server-Sent Events.",
        discussion: """
        Each browser stream is one subscription on eventd's socket; a reconnect with
        Last-Event-ID resumes it. Loopback only unless --token-file is given.
        """,
        options: [listen, socket, tokenFile, allowHosts, maxStreams, assets, logLevel, Option.version],
        examples: [
            "eventd-web",
            "eventd-web --listen '[::1]:9000' --max-streams 64",
            "eventd-web --listen unix:/run/eventd-web/http.sock --allow-host calendar.example.org",
        ])

    @Sendable static func listenProblem(_ text: String) -> String? {
        ListenAddress(text) == nil ? "invalid value '\(text)' for --listen: expected 127.0.0.1:PORT, [::1]:PORT or unix:PATH" : nil
    }

    /// The dashboard's directory: `--assets`, the installed `share/eventd/web`, or the
    /// source tree's `web/` for a program run from its build directory.
    static func assetsDirectory(_ arguments: ParsedArguments) -> String {
        if let given = arguments[Self.assets] { return given }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().appendingPathComponent("../share/eventd/web").standardized.path
        if FileManager.default.fileExists(atPath: installed + "/index.html") { return installed }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../web").standardized.path
    }

    /// The token in `path`: one line of visible ASCII (no quotes, separators or
    /// spaces, so it fits a header and a cookie), at least 16 bytes, not world-readable.
    static func token(path: String) throws -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { throw UsageError("cannot read --token-file \(path): \(String(cString: strerror(errno)))") }
        guard st.st_mode & 0o004 == 0 else { throw UsageError("--token-file \(path) is readable by everyone; chmod o-r it") }
        let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let forbidden: Set<UInt8> = Set(";,\"\\".utf8)
        let visible = text.utf8.allSatisfy { byte in byte > 0x20 && byte < 0x7F && !forbidden.contains(byte) }
        guard text.utf8.count >= 16, visible else {
            throw UsageError("--token-file \(path): the token must be one line of at least 16 visible ASCII characters without ; , \" or \\")
        }
        return text
    }

    /// The gateway's configuration from checked arguments and the environment.
    static func configuration(_ arguments: ParsedArguments, environment: [String: String],
                              systemdSocket: (fd: Int32, address: ListenAddress?, localOnly: Bool)?) throws -> GatewayConfiguration {
        // Under socket activation the passed socket's address is the one browsers name.
        let listen = systemdSocket?.address ?? arguments[Self.listen].flatMap(ListenAddress.init) ?? .defaultAddress
        var secret: String?
        if let path = arguments[Self.tokenFile] { secret = try token(path: path) }
        let localOnly = systemdSocket?.localOnly ?? listen.isLocalOnly
        guard localOnly || secret != nil else {
            throw UsageError("listening on \(systemdSocket == nil ? listen.description : "a non-loopback address") needs --token-file")
        }
        let paths = RuntimePaths.resolve(socket: arguments[Self.socket], environment: environment, uid: getuid())
        var config = GatewayConfiguration(socketPath: paths.socket,
                                          access: AccessPolicy(listen: listen, allowHosts: arguments[Self.allowHosts], token: secret))
        // A client of eventd's socket like eventctl: the same checks (docs/data-model.md).
        config.socketDirectoryPolicy = paths.socketDirectoryPolicy(uid: getuid())
        config.trustedPeers = paths.trustedPeers(uid: getuid())
        config.listen = listen
        if let n = arguments[Self.maxStreams] { config.maxStreams = n }
        // Tests shorten the slow-loris deadline instead of waiting 10 s.
        if let seconds = environment["EVENTD_WEB_HEAD_TIMEOUT"].flatMap(Double.init), seconds > 0 { config.headTimeout = seconds }
        // ... and the output budget instead of queuing 256 MiB.
        if let bytes = environment["EVENTD_WEB_OUTPUT_BUDGET"].flatMap(Int.init), bytes > 0 { config.outputBudget = bytes }
        return config
    }

    static func logLevel(_ arguments: ParsedArguments) -> LogLevel { arguments[Self.logLevel] ?? .info }
}
