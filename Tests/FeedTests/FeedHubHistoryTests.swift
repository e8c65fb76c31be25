import Agenda
import CanonicalJSON
import Testing
import TestSupport
@testable import Feed

/// The resume history's bounds: a count per view, the bytes of the view's snapshot per
/// view, and `historyBytes` across views (oldest first); a resume from a trimmed
/// position is a resync with a snapshot.
@Suite struct FeedHubHistoryTests {
    let berlin = HubHarness.view()
    let week = HubHarness.view(days: 7)
    /// Every diff line of the harness for seq 2...9 has this many bytes.
    let diffSize = HubHarness.diffLine(seq: 5).count

    func subscribe(_ view: View) -> String {
        #"{"op":"subscribe","view":{"tz":"Europe/Berlin","days":\#(view.days)}}"#
    }

    func resume(_ view: View, from seq: Int) -> String {
        #"{"op":"subscribe","view":{"tz":"Europe/Berlin","days":\#(view.days)},"resume":{"epoch":"e1","seq":\#(seq)}}"#
    }

    /// A harness with `views` subscribed, each at its first snapshot (seq 1).
    func harness(_ views: [View], configure: (inout DaemonConfiguration) -> Void = { _ in }) -> HubHarness {
        var h = HubHarness(configure: configure)
        for view in views {
            let c = h.connect()
            h.request(c, subscribe(view))
            h.publish(view, seq: 1, diff: false)
        }
        return h
    }

    @Test func aViewKeepsNoMoreDiffBytesThanItsSnapshot() {
        var h = harness([berlin])
        // Room for three diffs: the fourth pushes out the oldest.
        for seq in 2...5 { h.publish(berlin, seq: Int64(seq), snapshotBytes: 3 * diffSize) }
        #expect(h.hub.views[berlin]?.history.count == 3)
        #expect(h.hub.historyBytes == 3 * diffSize)
        let b = h.connect()
        _ = h.kinds(b)
        h.request(b, resume(berlin, from: 2))
        #expect(h.kinds(b) == ["diff@3", "diff@4", "diff@5"])
        h.request(b, resume(berlin, from: 1))
        #expect(h.kinds(b) == ["resync:expired", "snapshot@5"])
        // A snapshot smaller than one diff: no resume is worth a diff.
        h.publish(berlin, seq: 6, snapshotBytes: diffSize - 1)
        #expect(h.hub.views[berlin]?.history.count == 0)
        #expect(h.hub.historyBytes == 0)
    }

    @Test func theDaemonWideBoundTakesTheOldestDiffOfAnyView() {
        var h = harness([berlin, week]) { $0.historyBytes = 4 * HubHarness.diffLine(seq: 5).count }
        h.publish(berlin, seq: 2)
        h.publish(berlin, seq: 3)
        h.publish(week, seq: 2)
        h.publish(week, seq: 3)
        #expect(h.hub.historyBytes == 4 * diffSize)
        // Over the bound: berlin's diff@2 is the oldest of all, then berlin's diff@3.
        h.publish(week, seq: 4)
        #expect(h.hub.views[berlin]?.history.count == 1)
        h.publish(week, seq: 5)
        #expect(h.hub.views[berlin]?.history.count == 0)
        #expect(h.hub.views[week]?.history.count == 4)
        #expect(h.hub.historyBytes == 4 * diffSize)
        let b = h.connect()
        _ = h.kinds(b)
        h.request(b, resume(berlin, from: 2))
        #expect(h.kinds(b) == ["resync:expired", "snapshot@3"])
        h.request(b, resume(week, from: 1))
        #expect(h.kinds(b) == ["diff@2", "diff@3", "diff@4", "diff@5"])
    }

    @Test func aViewThatGoesTakesItsHistoryBytesWithIt() {
        var h = HubHarness { $0.viewGrace = .seconds(5) }
        let c = h.connect()
        h.request(c, subscribe(berlin))
        h.publish(berlin, seq: 1, diff: false)
        for seq in 2...4 { h.publish(berlin, seq: Int64(seq)) }
        #expect(h.hub.historyBytes == 3 * diffSize)
        h.handle(.connection(.peerClosed(c)))
        h.advance(6)
        #expect(h.hub.views[berlin] == nil)
        #expect(h.hub.historyBytes == 0)
    }

    @Test func statusReportsHistoryBytesInAllAndPerView() throws {
        var h = harness([berlin, week])
        for seq in 2...4 { h.publish(berlin, seq: Int64(seq)) }
        h.publish(week, seq: 2)
        let c = h.connect()
        _ = h.kinds(c)
        h.request(c, #"{"op":"status"}"#)
        let history = try #require(h.messages(c).first?["history"])
        #expect(history["bytes"]?.intValue == Int64(4 * diffSize))
        #expect(history["limit_bytes"]?.intValue == 64 << 20)
        let views = try #require(history["views"]?.arrayValue)
        #expect(views.map { $0["diffs"]?.intValue } == [3, 1])
        #expect(views.first?["view"]?["days"]?.intValue == 14)
    }

    /// Appends and removals in any order keep the history equal to a plain model: the
    /// newest entries within both bounds, and a byte count equal to their sum.
    @Test func historyMatchesAModelUnderRandomChurn() {
        var random = SplitMix64(seed: 34)
        for _ in 0..<200 {
            var history = ViewHistory()
            var model: [(seq: Int64, size: Int)] = []
            let maxCount = Int(random.next() % 8) + 1, maxBytes = Int(random.next() % 400) + 1
            for step in 1...Int64(random.next() % 60 + 1) {
                if random.next() % 5 == 0 {
                    history.removeOldest()
                    if !model.isEmpty { model.removeFirst() }
                } else {
                    let size = Int(random.next() % 120) + 1
                    _ = history.append(seq: step, bytes: Array(repeating: 120, count: size), stamp: UInt64(step),
                                       maxCount: maxCount, maxBytes: maxBytes)
                    model.append((step, size))
                    while !model.isEmpty, model.count > maxCount || model.reduce(0, { $0 + $1.size }) > maxBytes {
                        model.removeFirst()
                    }
                }
                #expect(history.count == model.count)
                #expect(history.byteCount == model.reduce(0) { $0 + $1.size })
                #expect(history.oldestStamp == model.first.map { UInt64($0.seq) })
                if let first = model.first {
                    #expect(history.diffs(after: first.seq - 1)?.map(\.seq) == model.map(\.seq))
                    #expect(history.diffs(after: first.seq - 2) == nil || first.seq == 1)
                }
            }
        }
    }
}
