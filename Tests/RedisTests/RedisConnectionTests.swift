import RedisClient
import Testing
import TestSupport

/// The client against a real redis-server each test starts on a free loopback port.
@Suite struct RedisConnectionTests {
    @Test func commandsArePipelinedAndBinarySafe() async throws {
        let server = try await RedisServerProcess()
        let redis = try RedisConnection(url: try RedisURL(parsing: server.url()), password: nil)
        let value: [UInt8] = [0, 13, 10, 0xFF, 0x25, 0x73] + Array("%s %b\r\n*1\r\n".utf8)
        let replies = try redis.pipeline([RedisCommand(["SET", "k"]).appending(bytes: value),
                                          RedisCommand(["GET", "k"]), RedisCommand(["GET", "missing"]),
                                          RedisCommand(["RPUSH", "list", "a", "b"]), RedisCommand(["LRANGE", "list", "0", "-1"]),
                                          RedisCommand(["INCRBY", "k"])])
        #expect(replies[0] == .status("OK"))
        #expect(replies[1] == .string(value))
        #expect(replies[2] == .null)
        #expect(replies[3] == .integer(2))
        #expect(replies[4] == .array([.string(Array("a".utf8)), .string(Array("b".utf8))]))
        #expect(replies[5].errorMessage?.hasPrefix("ERR") == true)
        let thrown = #expect(throws: RedisError.self) { try redis.call(RedisCommand(["INCR", "k"])) }
        #expect(thrown?.kind == .reply)
        #expect(thrown?.operation == "INCR")
        // An error reply leaves the connection usable.
        #expect(try redis.call(RedisCommand(["PING"])) == .status("PONG"))
    }

    @Test func theURLsDatabaseIsSelected() async throws {
        let server = try await RedisServerProcess()
        let three = try RedisConnection(url: try RedisURL(parsing: server.url(database: 3)), password: nil)
        try three.call(RedisCommand(["SET", "where", "three"]))
        #expect(try await server.cli(["-n", "3", "GET", "where"]) == "three")
        #expect(try await server.cli(["-n", "0", "EXISTS", "where"]) == "0")
    }

    @Test func aWrongDatabaseIsAClearError() async throws {
        let server = try await RedisServerProcess(arguments: ["--databases", "4"])
        let thrown = #expect(throws: RedisError.self) {
            try RedisConnection(url: try RedisURL(parsing: server.url(database: 9)), password: nil)
        }
        #expect(thrown?.kind == .database)
        #expect(thrown?.description.contains("database 9") == true, "\(String(describing: thrown))")
        #expect(thrown?.description.contains("out of range") == true, "\(String(describing: thrown))")
    }

    @Test func theDefaultUsersPasswordIsSentAndAWrongOneRefused() async throws {
        let server = try await RedisServerProcess(arguments: ["--requirepass", "right-one"])
        let url = try RedisURL(parsing: server.url())
        let redis = try RedisConnection(url: url, password: RedisPassword(bytes: Array("right-one".utf8)))
        #expect(try redis.call(RedisCommand(["PING"])) == .status("PONG"))

        let refused = #expect(throws: RedisError.self) {
            try RedisConnection(url: url, password: RedisPassword(bytes: Array("wrong-one".utf8)))
        }
        #expect(refused?.kind == .authentication)
        #expect(refused?.description.contains("WRONGPASS") == true, "\(String(describing: refused))")
        #expect(refused?.description.contains("wrong-one") == false)

        let missing = #expect(throws: RedisError.self) { try RedisConnection(url: url, password: nil) }
        #expect(missing?.kind == .authentication)
        #expect(missing?.description.contains("--redis-password-file") == true, "\(String(describing: missing))")
    }

    /// An ACL user limited to a few commands: its login works, and a command outside its
    /// list is refused with Redis's NOPERM, as a reply error (the connection survives).
    @Test func anACLUserLogsInWithItsPassword() async throws {
        let server = try await RedisServerProcess()
        _ = try await server.cli(["ACL", "SETUSER", "feed", "on", ">feed-pass", "~eventd:*", "&eventd:*", "-@all", "+ping", "+get", "+set"])
        let url = try RedisURL(parsing: server.url(user: "feed"))
        let redis = try RedisConnection(url: url, password: RedisPassword(bytes: Array("feed-pass".utf8)))
        try redis.call(RedisCommand(["SET", "eventd:x", "1"]))
        let denied = #expect(throws: RedisError.self) { try redis.call(RedisCommand(["FLUSHALL"])) }
        #expect(denied?.kind == .reply)
        #expect(denied?.message.hasPrefix("NOPERM") == true, "\(String(describing: denied))")
        #expect(try redis.call(RedisCommand(["GET", "eventd:x"])) == .string(Array("1".utf8)))

        let wrong = #expect(throws: RedisError.self) {
            try RedisConnection(url: url, password: RedisPassword(bytes: Array("nope".utf8)))
        }
        #expect(wrong?.kind == .authentication)
    }

    @Test func noServerIsAConnectionError() async throws {
        let port = try WebGatewayHarness.freePort()
        let thrown = #expect(throws: RedisError.self) {
            try RedisConnection(url: RedisURL(host: "127.0.0.1", port: Int(port)), password: nil)
        }
        #expect(thrown?.kind == .connection)
        #expect(thrown?.losesConnection == true)
    }

    /// A stopped server (SIGSTOP) keeps its socket but answers nothing: the read gives up
    /// after the I/O timeout with an `.io` error, instead of blocking the thread for ever;
    /// a killed one gives `.io` at once.
    @Test func aStoppedOrKilledServerIsAnIOError() async throws {
        let server = try await RedisServerProcess()
        let redis = try RedisConnection(url: try RedisURL(parsing: server.url()), password: nil, ioTimeout: .milliseconds(500))
        server.suspend()
        defer { server.resume() }
        let stalled = #expect(throws: RedisError.self) { try redis.call(RedisCommand(["PING"])) }
        #expect(stalled?.kind == .io)
        #expect(stalled?.losesConnection == true)
        server.resume()

        let again = try RedisConnection(url: try RedisURL(parsing: server.url()), password: nil, ioTimeout: .seconds(2))
        server.stop()
        let lost = #expect(throws: RedisError.self) { try again.call(RedisCommand(["PING"])) }
        #expect(lost?.kind == .io)
    }
}
