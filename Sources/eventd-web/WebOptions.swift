import Foundation
import CommandLineKit
import Diagnostics
import RuntimeDirectories
import WebGateway

/// `eventd-web` options (docs/web-gateway.md), declared once (CommandLineKit).
enum WebOptions {
    static let listen = Option.value(
        "--listen", "ADDRESS", help: "127.0.0.1:PORT, [::1]:PORT or unix:PATH (default: 127.0.0.1:8787).",
        details: """
        Another address with a port only with --token-file. A Unix socket gets mode 0660 (owner and group).
        Ignored when systemd passes the socket.
        """,
        validation: .custom(listenProblem))
    static let socket = Option.value("--socket", "PATH", help: "eventd's socket (default: \(PathDefaults.socketHelp)).",
                                     details: PathDefaults.firstApplies, completion: .file())
    static let tokenFile = Option.value(
        "--token-file", "PATH", help: "Require the token in this file (default: a random one made at start).",
        details: """
        The file holds one line of at least 16 characters, is not readable by others and is writable by its
        owner only. The token comes as "Authorization: Bearer"; the page opened with ?token= keeps it in its
        origin's storage and sends it so.
        Needed to listen on an address that is not loopback. Without it eventd-web makes a random token in
        $RUNTIME_DIRECTORY, $XDG_RUNTIME_DIR/eventd-web or /tmp/eventd-web-UID (file token, mode 0600) and
        prints the dashboard's address with it on standard output.
        """,
        completion: .file())
    static let noAuth = Option.flag(
        "--no-auth", help: "Require no token (only with --listen unix:PATH).",
        details: "The socket's mode (0660) and its directory then decide who may read the calendar.")
    static let allowHosts = Option.values("--allow-host", "NAME", help: "Also accept this Host header (a reverse proxy's name).")
    static let allowUsers = Option.values(
        "--allow-user", "USER", help: "On loopback, also answer this local account (a reverse proxy's).",
        details: """
        On a loopback address eventd-web answers connections only from its own account and root (the owner of
        the connecting socket, from /proc/net/tcp); any other account gets 403, whatever token it sends.
        """)
    static let allowGroups = Option.values(
        "--allow-group", "GROUP", help: "On loopback, also answer the members of this group (the system unit: eventd).")
    static let maxStreams = Option.value("--max-streams", "N", as: Int.self, help: "Answers in flight at once, event streams included (default: 256).",
                                         validation: .integer(1...65_536))
    static let assets = Option.value("--assets", "DIR", help: "The dashboard's files (default: share/eventd/web beside the program's bin/).",
                                     completion: .directory)
    static let logLevel = Option.logLevel

    static let spec = CommandSpec(
        "eventd-web", abstract: "Serve the eventd feed to browsers: a live dashboard and Server-Sent Events.",
        overview: "Serve the eventd feed to browsers: a live dashboard and Server-Sent Events.",
        discussion: """
        Each browser stream is one subscription on eventd's socket; a reconnect with
        Last-Event-ID resumes it. Every request needs a token (a random one unless
        --token-file is given); loopback only unless --token-file is given.
        """,
        options: [listen, socket, tokenFile, noAuth, allowHosts, allowUsers, allowGroups, maxStreams, assets] + UpstreamOptions.all + [logLevel, Option.version],
        examples: [
            "eventd-web",
            "eventd-web --listen '[::1]:9000' --max-streams 64",
            "eventd-web --listen unix:/run/eventd-web/http.sock --allow-host calendar.example.org",
            "eventd-web --upstream redis://eventd-web@redis.example:6379/0 --redis-password-file /etc/eventd/redis-password --token-file /etc/eventd/web-token --listen 0.0.0.0:8787",
        ])

    @Sendable static func listenProblem(_ text: String) -> String? {
        ListenAddress(text) == nil ? "invalid value '\(text)' for --listen: expected 127.0.0.1:PORT, [::1]:PORT or unix:PATH" : nil
    }

    /// The dashboard's directory: `--assets`, else `share/eventd/web` beside the directory
    /// of the program's real file (`/proc/self/exe`, symbolic links resolved: the
    /// multi-call binary's `bin/`). Never from `argv[0]` or the working directory (run
    /// by its bare name, `argv[0]` is resolved against the working directory, which may
    /// be another account's), nor the source tree it was built from.
    static func assetsDirectory(_ arguments: ParsedArguments) -> String {
        if let given = arguments[Self.assets] { return given }
        return installedAssets(executable: realExecutablePath() ?? "/proc/self/exe")
    }

    /// `share/eventd/web` beside the directory of `executable` (a resolved path).
    static func installedAssets(executable: String) -> String {
        URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/eventd/web").standardized.path
    }

    /// The program's own file, every link resolved; nil without `/proc`.
    static func realExecutablePath() -> String? {
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The token in `path`: one line of visible ASCII (no quotes, separators or
    /// spaces, so it fits a header), at least 16 bytes, not readable by everyone and not
    /// writable by anyone but its owner (another account could set the token it then
    /// knows).
    static func token(path: String) throws -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { throw UsageError("cannot read --token-file \(path): \(String(cString: strerror(errno)))") }
        guard st.st_mode & 0o004 == 0 else { throw UsageError("--token-file \(path) is readable by everyone; chmod o-r it") }
        guard st.st_mode & 0o022 == 0 else { throw UsageError("--token-file \(path) is writable by others; chmod go-w it") }
        let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let forbidden: Set<UInt8> = Set(";,\"\\".utf8)
        let visible = text.utf8.allSatisfy { byte in byte > 0x20 && byte < 0x7F && !forbidden.contains(byte) }
        guard text.utf8.count >= 16, visible else {
            throw UsageError("--token-file \(path): the token must be one line of at least 16 visible ASCII characters without ; , \" or \\")
        }
        return text
    }

    /// The token required (nil only with `--no-auth`), and where it was made when it
    /// is eventd-web's own.
    static func secret(_ arguments: ParsedArguments, listen: ListenAddress,
                       environment: [String: String]) throws -> (token: String, made: String?)? {
        if arguments[Self.noAuth] {
            guard case .unix = listen else { throw UsageError("--no-auth needs --listen unix:PATH", hint: "a token guards every other address") }
            guard arguments[Self.tokenFile] == nil else { throw UsageError("--no-auth and --token-file exclude each other", hint: "see 'eventd-web --help'") }
            return nil
        }
        if let path = arguments[Self.tokenFile] { return (try token(path: path), nil) }
        let made = try DefaultToken.load(environment: environment, uid: getuid())
        return (made.token, made.path)
    }

    /// The accounts a loopback listener answers: its own, root's, `--allow-user` and
    /// the members of `--allow-group`.
    static func peerPolicy(_ arguments: ParsedArguments) throws -> PeerPolicy {
        var uids: Set<UInt32> = [geteuid(), 0]
        for name in arguments[Self.allowUsers] {
            guard let uid = UserDatabase.uid(of: name) ?? UInt32(name) else { throw UsageError("unknown user '\(name)' for --allow-user") }
            uids.insert(uid)
        }
        var gids: Set<UInt32> = []
        for name in arguments[Self.allowGroups] {
            guard let gid = UserDatabase.gid(ofGroup: name) ?? UInt32(name) else { throw UsageError("unknown group '\(name)' for --allow-group") }
            gids.insert(gid)
        }
        return PeerPolicy(uids: uids, gids: gids)
    }

    /// The gateway's configuration from checked arguments and the environment.
    static func configuration(_ arguments: ParsedArguments, environment: [String: String],
                              systemdSocket: (fd: Int32, address: ListenAddress?, localOnly: Bool)?)
        throws -> (config: GatewayConfiguration, madeToken: String?) {
        // Under socket activation the passed socket's address is the one browsers name.
        let listen = systemdSocket?.address ?? arguments[Self.listen].flatMap(ListenAddress.init) ?? .defaultAddress
        let localOnly = systemdSocket?.localOnly ?? listen.isLocalOnly
        guard localOnly || arguments[Self.tokenFile] != nil else {
            throw UsageError("listening on \(systemdSocket == nil ? listen.description : "a non-loopback address") needs --token-file")
        }
        let secret = try self.secret(arguments, listen: listen, environment: environment)
        let paths = RuntimePaths.resolve(socket: arguments[Self.socket], environment: environment, uid: getuid())
        var config = GatewayConfiguration(socketPath: paths.socket,
                                          access: AccessPolicy(listen: listen, allowHosts: arguments[Self.allowHosts], token: secret?.token))
        // A client of eventd's socket like eventctl: the same checks (docs/data-model.md).
        config.socketDirectoryPolicy = paths.socketDirectoryPolicy(uid: getuid())
        config.trustedPeers = paths.trustedPeers(uid: getuid())
        config.listen = listen
        if localOnly, listen.isTCP { config.peerPolicy = try peerPolicy(arguments) }
        if let n = arguments[Self.maxStreams] { config.maxStreams = n }
        #if DEBUG
        // Tests shorten the slow-loris deadline instead of waiting 10 s, and the output
        // budget instead of queuing 256 MiB. Test hooks: a release build reads neither.
        if let seconds = environment["EVENTD_WEB_HEAD_TIMEOUT"].flatMap(Double.init), seconds > 0 { config.headTimeout = .seconds(seconds) }
        if let bytes = environment["EVENTD_WEB_OUTPUT_BUDGET"].flatMap(Int.init), bytes > 0 { config.outputBudget = bytes }
        #endif
        return (config, secret?.made == nil ? nil : secret?.token)
    }

    /// What `make run` shows: the page's address with the token, and on a line of its
    /// own the file that holds the token (for curl and scripts): the directory
    /// `DefaultToken` chose from this process's environment. When standard output is the
    /// journal (`JOURNAL_STREAM` names it), which other accounts read (the adm and
    /// systemd-journal groups), the address goes without its token.
    static func dashboardLine(_ listen: ListenAddress, token: String,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let directory = DefaultToken.directory(environment: environment, uid: getuid()).path
        let path = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path + "/" + DefaultToken.fileName
        let file = "token file: " + path
        let shown = outputIsTheJournal(environment) ? "$(cat \(path))" : token
        if case .unix = listen { return "dashboard: open /?token=\(shown) through the reverse proxy\n" + file }
        return "dashboard: \(listen.url)?token=\(shown)\n" + file
    }

    /// Whether standard output is the journal: `JOURNAL_STREAM` (`DEVICE:INODE`, set by
    /// systemd) names the stream standard output is.
    static func outputIsTheJournal(_ environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":")
        var st = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), fstat(1, &st) == 0 else { return false }
        return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
    }

    static func logLevel(_ arguments: ParsedArguments) -> LogLevel { arguments[Self.logLevel] ?? .info }
}
