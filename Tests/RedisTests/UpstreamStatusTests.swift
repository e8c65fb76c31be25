import CanonicalJSON
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `/api/status` and `/healthz` of a gateway reading Redis: eventd's status key, its age,
/// and 503 once it is gone or Redis does not answer.
@Suite(.timeLimit(.minutes(2)))
struct UpstreamStatusTests {
    @Test func statusAndHealthComeFromEventdsStatusKey() async throws {
        // Through README's Redis users: a command missing from their lists fails this.
        let users = try await ReadmeRedisUsers.start()
        defer { users.remove() }
        let redis = users.redis
        try await DaemonHarness.with(running: PublishEndToEndTests.base, arguments: users.eventdArguments) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon, arguments: users.gatewayArguments)
            // eventd writes its status every 5 s.
            let healthy = try await eventually(timeout: 15, every: 0.2) { (try? await web.get("/healthz"))?.status == 200 }
            #expect(healthy)

            let answer = try await web.get("/api/status")
            #expect(answer.status == 200, "\(answer.text)")
            let status = try JSONValue.parse(answer.body)
            let age = status["age"].flatMap { value -> Double? in
                if case .double(let d) = value { return d }
                if case .int(let i) = value { return Double(i) }
                return nil
            }
            #expect(age != nil && age! >= 0 && age! <= 15, "\(status)")
            #expect(status["database"] == nil && status["socket"] == nil)
            // The fields a socket client gets, redacted, plus the age.
            let client = try await daemon.connect()
            let direct = try await client.request(["op": "status"])
            client.close()
            let keys = Set(status.objectValue?.keys.map { $0 } ?? []).subtracting(["age"])
            let socketKeys = Set(direct.objectValue?.keys.map { $0 } ?? []).subtracting(["database", "socket"])
            #expect(keys == socketKeys)
            #expect(status["healthy"] == direct["healthy"])

            // eventd gone and its key with it: unhealthy at once, and no status to serve.
            _ = await daemon.stop()
            _ = try await redis.cli(["DEL", "eventd:status"])
            let gone = try await web.get("/healthz")
            #expect(gone.status == 503)
            #expect(gone.text.contains("no recent status from eventd in Redis"), "\(gone.text)")
            #expect(try await web.get("/api/status").status == 503)

            // Redis not answering: 503 too, after the gateway's 2 s I/O timeout.
            try await daemon.start()
            #expect(try await eventually(timeout: 15, every: 0.2) { (try? await web.get("/healthz"))?.status == 200 })
            redis.suspend()
            defer { redis.resume() }
            let silent = try await web.get("/healthz", timeout: 15)
            #expect(silent.status == 503)
            #expect(silent.text.contains("Redis did not answer"), "\(silent.text)")
        }
    }

    /// A gateway reading Redis stops as one reading the socket does: its streams end
    /// with their last words and it exits 0 within 2 s, its watchers and its status
    /// reader (both running here) stopped and joined.
    @Test func sigtermStopsTheWatchersAndExitsZeroWithinTwoSeconds() async throws {
        let users = try await ReadmeRedisUsers.start()
        defer { users.remove() }
        try await DaemonHarness.with(running: PublishEndToEndTests.base, arguments: users.eventdArguments) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon, arguments: users.gatewayArguments)
            let stream = try await web.stream(query: UpstreamEndToEndTests.query)
            _ = try await stream.next("snapshot", timeout: 30)
            _ = try await web.get("/healthz")
            let signalled = monotonicNow()
            #expect(kill(web.pid, SIGTERM) == 0)
            let exit = try await daemon.waitOther(web.pid, timeout: 2)
            #expect(exit == .exited(0), "eventd-web should exit 0 on SIGTERM, got \(exit.map { "\($0)" } ?? "still running")")
            #expect(monotonicNow() - signalled < 2, "stopping took \(monotonicNow() - signalled) s")
            #expect(try await stream.waitForEnd(timeout: 1).last?.event == "offline")
            #expect(web.log.contains("stopped"), "log:\n\(web.log)")
            #expect(!web.log.contains("did not stop"), "log:\n\(web.log)")
        }
    }
}
