import FeedProtocol
@testable import RedisFeed
import Testing

/// The hand-over from the feed side never blocks and never grows past its bounds: what
/// does not fit becomes one "skipped" item with the view's latest state.
@Suite struct PublisherInboxTests {
    static let view = PublishedView(view: .object(["days": .int(7)]))
    static let other = PublishedView(view: .object(["days": .int(3)]))

    static func line(_ seq: Int64, size: Int = 10) -> FeedLine {
        FeedLine(type: .diff, epoch: "e", seq: seq, line: [UInt8](repeating: 65, count: size),
                 snapshot: [UInt8](repeating: 66, count: size))
    }

    static func summary(_ items: [PublisherInbox.Item]?) -> [String] {
        (items ?? []).map { item in
            switch item {
            case .line(let v, let l): return "line \(v.key == view.key ? "view" : "other") \(l.seq)"
            case .skipped(let v, let l): return "skipped \(v.key == view.key ? "view" : "other") \(l.seq)"
            case .announcement: return "announcement"
            case .status(let l): return "status \(String(decoding: l, as: UTF8.self))"
            }
        }
    }

    @Test func onlyTheLatestStatusIsTaken() {
        let inbox = PublisherInbox(capacity: 4)
        inbox.offerStatus(Array("s1".utf8))
        inbox.offer(Self.line(1), of: Self.view)
        inbox.offerStatus(Array("s2".utf8))
        #expect(Self.summary(inbox.take(waitingAtMost: .zero)) == ["line view 1", "status s2"])
        #expect(Self.summary(inbox.take(waitingAtMost: .zero)).isEmpty)
    }

    @Test func pastItsCountTheViewIsOwedItsLatestState() {
        let inbox = PublisherInbox(capacity: 2)
        #expect(inbox.offer(Self.line(1), of: Self.view))
        #expect(inbox.offer(Self.line(2), of: Self.view))
        #expect(!inbox.offer(Self.line(3), of: Self.view))
        #expect(!inbox.offer(Self.line(4), of: Self.view))
        inbox.announce()
        inbox.announce()
        #expect(Self.summary(inbox.take(waitingAtMost: .zero)) == ["line view 1", "line view 2", "announcement", "skipped view 4"])
        // Taken: room again.
        #expect(inbox.offer(Self.line(5), of: Self.view))
    }

    @Test func pastItsBytesToo() {
        let inbox = PublisherInbox(capacity: 100, byteCapacity: 50)
        // 20 bytes a line with its snapshot: two fit, the third does not.
        #expect(inbox.offer(Self.line(1), of: Self.view))
        #expect(inbox.offer(Self.line(2), of: Self.other))
        #expect(!inbox.offer(Self.line(3), of: Self.view))
        // Once a view has skipped, its later lines wait as the skip too (no gap in order).
        #expect(Self.summary(inbox.take(waitingAtMost: .zero)) == ["line view 1", "line other 2", "skipped view 3"])
        // A line larger than the whole bound still goes when nothing else waits.
        #expect(inbox.offer(Self.line(4, size: 100), of: Self.view))
        inbox.stop()
        #expect(inbox.take(waitingAtMost: .zero) == nil)
    }
}
