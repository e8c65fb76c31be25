import RedisClient
import Testing
import TestSupport

/// Issue 52, point 10: a Redis that answers without a password is said (a warning at
/// start) and, with `--redis-require-auth`, refused.
@Suite struct RedisOpenServerTests {
    @Test func aServerWithoutAPasswordIsSeenAndCanBeRefused() async throws {
        let open = try await RedisServerProcess()
        let url = try RedisURL(parsing: open.url())
        #expect(try RedisConnection(url: url, password: nil).acceptsAnyone)
        let refused = #expect(throws: RedisError.self) { try RedisConnection(url: url, password: nil, requireAuthentication: true) }
        #expect(refused?.kind == .authentication)
        #expect(refused?.description.contains("--redis-require-auth") == true, "\(String(describing: refused))")

        let guarded = try await RedisServerProcess(arguments: ["--requirepass", "right-one"])
        let guardedURL = try RedisURL(parsing: guarded.url())
        let redis = try RedisConnection(url: guardedURL, password: RedisPassword(bytes: Array("right-one".utf8)),
                                        requireAuthentication: true)
        #expect(!redis.acceptsAnyone)
        #expect(try redis.call(RedisCommand(["PING"])) == .status("PONG"))
    }
}
