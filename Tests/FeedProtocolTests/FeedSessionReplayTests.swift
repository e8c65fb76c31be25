import Foundation
import Testing
import Threads
import CanonicalJSON
import FeedProtocol
import TestSupport

/// One real feed session (recorded by scripts/record_feed_session.sh: hello, snapshot,
/// diffs with moves, heartbeats, eventd's restart, resync, snapshot) replayed through
/// the three clients: the Swift machine, docs/feed_client.py and web/feed.js. Each
/// states the seq and digest of its local copy after every snapshot and diff; all must
/// agree with each other and with the daemon's digests. One session is of protocol 1
/// (a subscriber that does not ask), one of protocol 2 (per-section digests).
@Suite struct FeedSessionReplayTests {
    static let sessions = ["feed-session.ndjson", "feed-session-v2.ndjson"]

    static func url(_ name: String) -> URL { Bundle.module.resourceURL!.appendingPathComponent("Fixtures/\(name)") }

    static func lines(_ name: String) throws -> [[UInt8]] {
        try Data(contentsOf: url(name)).split(separator: 10).map(Array.init)
    }

    /// What the daemon said each state's digest is.
    static func expected(_ name: String) throws -> [String] {
        try lines(name).compactMap { line in
            switch try FeedMessage.decode(line) {
            case .snapshot(let s): return "\(s.seq) \(s.digest)"
            case .diff(let d): return "\(d.seq) \(d.digest)"
            default: return nil
            }
        }
    }

    @Test(arguments: zip(sessions, [Int64(1), 2]))
    func theSessionHasWhatTheReplayIsAbout(session: String, version: Int64) throws {
        let messages = try Self.lines(session).map { try FeedMessage.decode($0) }
        let types = messages.map(\.type)
        #expect(types.filter { $0 == "diff" }.count >= 3)
        #expect(types.contains("heartbeat") && types.contains("resync") && types.filter { $0 == "snapshot" }.count == 2)
        #expect(try String(contentsOf: Self.url(session), encoding: .utf8).contains(#""moved":[{"from""#))
        for case .diff(let diff) in messages { #expect(diff.protocolVersion == version) }
        for case .snapshot(let snapshot) in messages { #expect(snapshot.protocolVersion == version) }
    }

    @Test(arguments: sessions)
    func theSwiftMachineAgrees(session: String) throws {
        var machine = SubscriptionMachine(.init(view: ["days": 3, "tz": "UTC"]))
        var states: [String] = []
        var resumedFrom: Request.Resume?
        var now = at(0)
        _ = machine.handle(.start, now: now)
        _ = machine.handle(.connected, now: now)
        var connections = 0
        for line in try Self.lines(session) {
            now = now + .seconds(1)
            if case .hello = try FeedMessage.decode(line) {
                connections += 1
                if connections > 1 {
                    // eventd restarted here: the connection ended and was made again.
                    _ = machine.handle(.disconnected("closed"), now: now)
                    now = machine.deadline!
                    _ = machine.handle(.timer, now: now)
                    for case .send(.subscribe(_, let resume, _, _)) in machine.handle(.connected, now: now) { resumedFrom = resume }
                }
            }
            for effect in machine.handle(.line(line), now: now) {
                switch effect {
                case .snapshot(let s), .diff(_, let s): states.append("\(s.seq) \(s.digest)")
                case .digestMismatch, .failed, .lost: Issue.record("unexpected \(effect)")
                default: break
                }
            }
        }
        #expect(states == (try Self.expected(session)))
        #expect(resumedFrom?.seq == 5, "the reconnect resumes from the last diff")
    }

    @Test(arguments: sessions)
    func thePythonClientAgrees(session: String) async throws {
        let python = try #require(Products.which("python3"))
        let script = Products.repositoryRoot.appendingPathComponent("docs/feed_client.py").path
        let result = try await ChildProcess.run(python, [script, "--replay", Self.url(session).path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == (try Self.expected(session)))
    }

    @Test(arguments: sessions)
    func theBrowserClientAgrees(session: String) async throws {
        let node = try #require(Products.which("node"))
        let feed = Products.repositoryRoot.appendingPathComponent("web/feed.js")
        // feed.js is an ES module: a small driver imports it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let driver = directory.appendingPathComponent("replay.mjs")
        try """
        import { applyChanges, digestOf } from '\(feed.absoluteString)';
        import { readFileSync } from 'node:fs';
        let sections = null, seq = null;
        for (const line of readFileSync(process.argv[2], 'utf8').split('\\n')) {
          if (!line) continue;
          const m = JSON.parse(line);
          if (m.type === 'snapshot') { sections = m.sections; seq = m.seq; }
          else if (m.type === 'diff' && sections) {
            if (m.base_seq !== seq) throw new Error(`diff for ${m.base_seq} at ${seq}`);
            sections = applyChanges(sections, m.changes); seq = m.seq;
          } else continue;
          console.log(`${seq} ${await digestOf(sections, m.protocol)}`);
        }
        """.write(to: driver, atomically: true, encoding: .utf8)
        let result = try await ChildProcess.run(node, [driver.path, Self.url(session).path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == (try Self.expected(session)))
    }
}
