import Foundation
import Synchronization
import Testing
import Agenda
import EventStore
import CanonicalJSON
import Diagnostics
@testable import Feed

/// The recompute thread in-process, on a real database, with an injected wall clock.
@Suite(.serialized) struct RecomputeWorkerTests {
    /// A running recompute thread and what it published.
    final class Running: Sendable {
        let recomputer: Recomputer
        /// What the thread published, filled from its output closure.
        final class Outputs: Sendable {
            let items = Mutex<[RecomputeOutput]>([])
            let arrived = DispatchSemaphore(value: 0)
        }

        let outputs = Outputs()
        let path: String
        let fake: FakeClocks

        init(wallStart: Double) throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("eventd-worker-\(UUID().uuidString).db").path
            fake = FakeClocks(wallStart: wallStart)
            var config = DaemonConfiguration(databasePath: path, socketPath: "/nonexistent", timeZone: "UTC")
            config.logLevel = .error
            let outputs = outputs
            recomputer = Recomputer(config: config, log: Logger(level: .error), clocks: fake.clocks, epoch: "e") { output in
                outputs.items.withLock { $0.append(output) }
                outputs.arrived.signal()
            }
            try recomputer.start()
        }

        deinit {
            recomputer.stop()
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        }

        func importEvents(_ events: [(uid: String, start: String, summary: String)]) throws {
            let body = events.map {
                "BEGIN:VEVENT\r\nUID:\($0.uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:\($0.start)\r\nDURATION:PT1H\r\nSUMMARY:\($0.summary)\r\nEND:VEVENT\r\n"
            }.joined()
            let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd//tests//EN\r\n\(body)END:VCALENDAR\r\n"
            let store = try EventStore(path: path)
            _ = try store.importCalendars([ImportInput(path: "/t/work.ics", displayName: "work.ics", bytes: Array(text.utf8), calendar: "work")])
        }

        /// Waits (at most `seconds`, real time) for an output that `match` accepts.
        func next<T>(within seconds: Double = 1, _ match: (RecomputeOutput) -> T?) -> T? {
            let deadline = DispatchTime.now() + seconds
            while true {
                let found = outputs.items.withLock { box -> T? in
                    for (i, o) in box.enumerated() { if let t = match(o) { box.removeFirst(i + 1); return t } }
                    return nil
                }
                if let found { return found }
                if outputs.arrived.wait(timeout: deadline) == .timedOut { return nil }
            }
        }

        func publication(within seconds: Double = 1) -> ViewPublication? {
            next(within: seconds) { if case .published(_, let p) = $0 { return p }; return nil }
        }
    }

    static func sections(_ message: [UInt8]) -> [String] {
        let value = try? JSONValue.parse(ArraySlice(message.dropLast()), maxDepth: 64)
        return value?["sections"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    let view = View(timeZone: "UTC", days: 2, emptyDays: .placeholder)
    /// 2026-11-29T23:59:30Z.
    let lateEvening = 1_795_996_770.0

    @Test func aForwardStepPastMidnightRollsTheViewAtOnce() throws {
        let r = try Running(wallStart: lateEvening - 3600)
        r.recomputer.submit(.activate(view))
        let first = try #require(r.publication())
        #expect(Self.sections(first.snapshotMessage?.bytes ?? []) == ["2026-11-29", "2026-11-30"])
        r.fake.step(3600 + 60) // now 00:00:30 the next day
        r.recomputer.submit(.clockChanged)
        let rolled = try #require(r.publication(), "no new state within 1 s of the step")
        #expect(rolled.seq == first.seq + 1)
        #expect(rolled.snapshotMessage == nil, "a diff comes alone; its state is encoded when asked for")
        r.recomputer.submit(.encodeSnapshot(view))
        let encoded = try #require(r.next { if case .snapshot(_, let seq, let message) = $0 { return (seq, message) }; return nil })
        #expect(encoded.0 == rolled.seq)
        #expect(Self.sections(encoded.1.bytes) == ["2026-11-30", "2026-12-01"])
    }

    @Test func aStepBackDoesNotHoldRefreshesBack() throws {
        let r = try Running(wallStart: lateEvening - 6 * 3600)
        r.recomputer.submit(.activate(view))
        let first = try #require(r.publication())
        r.fake.step(-3600)
        r.recomputer.submit(.clockChanged)
        #expect(r.publication(within: 0.3) == nil, "same date: nothing to publish")
        try r.importEvents([("late", "20261129T200000Z", "Late review")])
        r.recomputer.submit(.refresh)
        let next = try #require(r.publication(), "the refresh waited for the wall clock")
        #expect(next.seq == first.seq + 1)
        #expect(String(decoding: next.diffMessage ?? [], as: UTF8.self).contains("Late review"))
    }

    /// docs/protocol.md: a `snapshot` reflects every import committed before it, even before the
    /// coalesced refresh (or the timer) ran; subscribers get the change first.
    @Test func aOneShotSnapshotReadsItsOwnWrites() throws {
        let r = try Running(wallStart: lateEvening - 6 * 3600)
        r.recomputer.submit(.activate(view))
        let first = try #require(r.publication())
        try r.importEvents([("new", "20261130T090000Z", "Just imported")])
        r.recomputer.submit(.oneShot(view, token: 7))
        let published = try #require(r.publication(), "subscribers first")
        #expect(published.seq == first.seq + 1)
        let answer = try #require(r.next { if case .oneShot(7, let m) = $0 { return m }; return nil })
        #expect(String(decoding: answer, as: UTF8.self).contains("Just imported"))
        // A view nobody subscribes to is built fresh.
        r.recomputer.submit(.oneShot(View(timeZone: "Asia/Tokyo", days: 3), token: 8))
        let other = try #require(r.next { if case .oneShot(8, let m) = $0 { return m }; return nil })
        #expect(String(decoding: other, as: UTF8.self).contains("Just imported"))
    }
}
