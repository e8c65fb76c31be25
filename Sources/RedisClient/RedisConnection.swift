import CHiredis
#if canImport(Glibc)
import Glibc
#endif

/// One blocking hiredis connection, owned: connected (and logged in, and on its
/// database) in `init`, freed in `deinit`. Every hiredis return code goes through
/// `check`. Reads and writes wait at most `ioTimeout`, so a stopped server (`SIGSTOP`)
/// turns into an `.io` error rather than a thread stuck for ever.
///
/// Blocking on purpose: each connection lives on a thread of its own (the publisher's,
/// a gateway reader's) behind a bounded channel, so no event loop ever waits on Redis.
/// After an error that `losesConnection`, the connection is unusable (hiredis keeps a
/// context's first error): drop it and connect again.
public final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>
    /// Where it is connected.
    public let url: RedisURL
    /// Whether the server answered a command sent before any `AUTH`: any account that
    /// can reach it may then read and write its keys.
    public private(set) var acceptsAnyone = false

    /// Connects to `url`, sends `AUTH` when there is a password (`AUTH USER PASSWORD`
    /// with the URL's user), then `SELECT` the URL's database (or `PING` for database 0),
    /// so that a refused login or database fails here with its own error kind. Before
    /// `AUTH`, a `PING` says whether the server answers anyone (`acceptsAnyone`); with
    /// `requireAuthentication` such a server is refused (`.authentication`).
    public init(url: RedisURL, password: RedisPassword?, connectTimeout: Duration = .seconds(5), ioTimeout: Duration = .seconds(5),
                requireAuthentication: Bool = false) throws(RedisError) {
        self.url = url
        guard let context = redisConnectWithTimeout(url.host, Int32(url.port), Self.timeval(connectTimeout)) else {
            throw RedisError(.connection, operation: "connect", message: "out of memory")
        }
        self.context = context
        try check(context.pointee.err == 0 ? REDIS_OK : REDIS_ERR, "connect")
        try setTimeout(ioTimeout)
        acceptsAnyone = try send(RedisCommand(["PING"])).errorMessage == nil
        if requireAuthentication, acceptsAnyone {
            throw RedisError(.authentication, operation: "PING",
                             message: "the server answers commands without a password; refused (--redis-require-auth)")
        }
        try logIn(password: password)
        try selectDatabase()
    }

    deinit { redisFree(context) }

    /// The connection's socket (for `poll`, or to shut it down from another thread).
    public var fileDescriptor: Int32 { context.pointee.fd }

    /// Changes how long a read or write may wait (a blocking `XREAD BLOCK ms` needs more
    /// than `ms`).
    public func setTimeout(_ timeout: Duration) throws(RedisError) {
        try check(redisSetTimeout(context, Self.timeval(timeout)), "set timeout")
    }

    /// Sends one command and returns its reply; an error reply is returned as `.error`.
    public func send(_ command: RedisCommand) throws(RedisError) -> RedisReply {
        try pipeline([command])[0]
    }

    /// Sends one command; throws `.reply` for an error reply.
    @discardableResult
    public func call(_ command: RedisCommand) throws(RedisError) -> RedisReply {
        let reply = try send(command)
        if let message = reply.errorMessage { throw RedisError(.reply, operation: command.name, message: message) }
        return reply
    }

    /// Sends `commands` in one write and reads their replies, in order (error replies
    /// included, as values). A `MULTI`…`EXEC` block is one pipeline.
    public func pipeline(_ commands: [RedisCommand]) throws(RedisError) -> [RedisReply] {
        for command in commands { try append(command) }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for command in commands { replies.append(try readReply(command.name)) }
        return replies
    }

    /// Waits for the next reply without sending anything (a `SUBSCRIBE`d connection's
    /// messages).
    public func readReply(operation: String) throws(RedisError) -> RedisReply {
        try readReply(operation)
    }

    // MARK: - hiredis calls

    private func append(_ command: RedisCommand) throws(RedisError) {
        // One contiguous copy of every argument, and argv pointing into it.
        // (One byte more, so that the buffer has an address even when every argument is empty.)
        // Built with `append(contentsOf:)` (a memcpy per argument): `Array(joined())`
        // walks a flattened sequence a byte at a time, which a snapshot makes megabytes.
        var joined: [UInt8] = []
        joined.reserveCapacity(command.arguments.reduce(1) { $0 + $1.count })
        for argument in command.arguments { joined.append(contentsOf: argument) }
        joined.append(0)
        let code: Int32 = joined.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            var offsets: [Int] = []
            var offset = 0
            for argument in command.arguments {
                offsets.append(offset)
                offset += argument.count
            }
            var argv: [UnsafePointer<CChar>?] = offsets.map { base.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
            var lengths: [Int] = command.arguments.map(\.count)
            return redisAppendCommandArgv(context, Int32(command.arguments.count), &argv, &lengths)
        }
        try check(code, command.name)
    }

    private func readReply(_ operation: String) throws(RedisError) -> RedisReply {
        var raw: UnsafeMutableRawPointer?
        try check(redisGetReply(context, &raw), operation)
        guard let raw else { throw RedisError(.protocol, operation: operation, message: "no reply") }
        defer { freeReplyObject(raw) }
        return RedisReply(copying: raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Throws for any code but `REDIS_OK`, with hiredis's error kind and message.
    private func check(_ code: Int32, _ operation: String) throws(RedisError) {
        guard code != REDIS_OK else { return }
        let message = String(cString: eventd_redis_errstr(context))
        let kind: RedisError.Kind
        switch context.pointee.err {
        case REDIS_ERR_PROTOCOL, REDIS_ERR_OOM: kind = .protocol
        case REDIS_ERR_IO, REDIS_ERR_EOF: kind = operation == "connect" ? .connection : .io
        default: kind = operation == "connect" ? .connection : .io
        }
        throw RedisError(kind, operation: operation,
                         message: message.isEmpty ? "hiredis error \(context.pointee.err)" : message)
    }

    // MARK: - Login

    private func logIn(password: RedisPassword?) throws(RedisError) {
        guard let password else {
            if url.user != nil {
                throw RedisError(.authentication, operation: "AUTH",
                                 message: "user \(url.user!) given without a password (--redis-password-file)")
            }
            return
        }
        var auth = RedisCommand(["AUTH"])
        if let user = url.user { auth = auth.appending(user) }
        auth = auth.appending(bytes: password.bytes)
        let reply = try send(auth)
        if let message = reply.errorMessage { throw RedisError(.authentication, operation: "AUTH", message: message) }
    }

    private func selectDatabase() throws(RedisError) {
        let probe = url.database == 0 ? RedisCommand(["PING"]) : RedisCommand(["SELECT", String(url.database)])
        let reply = try send(probe)
        guard let message = reply.errorMessage else { return }
        if message.hasPrefix("NOAUTH") {
            throw RedisError(.authentication, operation: probe.name,
                             message: "\(message) (give the password with --redis-password-file)")
        }
        if url.database != 0 {
            throw RedisError(.database, operation: "SELECT", message: "database \(url.database): \(message)")
        }
        throw RedisError(.reply, operation: probe.name, message: message)
    }

    private static func timeval(_ timeout: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = timeout.components
        guard seconds >= 0, attoseconds >= 0 else { return Glibc.timeval(tv_sec: 0, tv_usec: 0) }
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}
