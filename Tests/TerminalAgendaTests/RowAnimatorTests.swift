import XCTest
@testable import TerminalAgenda

/// Frames of one change at chosen instants (a fake clock): rows slide by whole lines,
/// never share a line, and keep their identity.
final class RowAnimatorTests: XCTestCase {
    func rows(_ ids: [String]) -> [AgendaRow] {
        ids.map { AgendaRow(id: $0, kind: $0.hasPrefix("h") ? .header : .event, spans: [.init($0)]) }
    }

    func lines(_ frame: [RowAnimator.Placed]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: frame.map { ($0.row.id, $0.line) })
    }

    /// Every frame from the change to the end: no two rows on one line, and every row
    /// that stays moves by whole lines one way only, never crossing another.
    func frames(_ animator: inout RowAnimator, from start: Double) -> [[RowAnimator.Placed]] {
        var all: [[RowAnimator.Placed]] = []
        var t = start
        while true {
            let frame = animator.drawFrame(at: t)
            XCTAssertEqual(Set(frame.map(\.line)).count, frame.count, "two rows on one line at \(t)")
            all.append(frame)
            guard let next = animator.nextChange(after: t), next <= start + RowAnimator.duration + 1e-9 else { break }
            t = next
        }
        return all
    }

    func testInsertSlidesRowsBelowDownAndHighlightsTheNewRow() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b", "h2", "c"]))
        animator.transition(to: rows(["h1", "n1", "n2", "n3", "a", "b", "h2", "c"]), at: 10)
        let all = frames(&animator, from: 10)
        XCTAssertEqual(all.count, RowAnimator.steps + 1)
        XCTAssertEqual(lines(all[0]), ["h1": 0, "a": 1, "b": 2, "h2": 3, "c": 4])
        // The rows below slide 3 lines in steps of whole lines, in order, without a jump back.
        let path = all.map { lines($0)["c"]! }
        XCTAssertEqual(path.first, 4)
        XCTAssertEqual(path.last, 7)
        XCTAssertEqual(path, path.sorted())
        XCTAssertTrue(Set(path).count > 2, "c should pass through intermediate lines: \(path)")
        for frame in all.dropFirst().dropLast() { XCTAssertNil(lines(frame)["n1"], "an inserted row waits for its room") }
        let last = all.last!
        XCTAssertEqual(last.first { $0.row.id == "n2" }?.mark, .fresh)
        XCTAssertEqual(last.first { $0.row.id == "c" }?.mark, RowAnimator.Mark.none)
        // The highlight ends a moment after the slide.
        let end = animator.nextChange(after: 10 + RowAnimator.duration)!
        XCTAssertEqual(end, 10 + RowAnimator.duration + RowAnimator.highlight, accuracy: 1e-9)
        XCTAssertEqual(animator.frame(at: end).first { $0.row.id == "n2" }?.mark, RowAnimator.Mark.none)
        XCTAssertNil(animator.nextChange(after: end))
    }

    func testDeleteCollapses() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b", "c", "d"]))
        animator.transition(to: rows(["h1", "a", "d"]), at: 0)
        let all = frames(&animator, from: 0)
        XCTAssertEqual(all[0].first { $0.row.id == "b" }?.mark, .leaving)
        XCTAssertEqual(all[0].first { $0.row.id == "c" }?.mark, .leaving)
        let path = all.map { lines($0)["d"]! }
        XCTAssertEqual(path.first, 4)
        XCTAssertEqual(path.last, 2)
        XCTAssertEqual(path, path.sorted(by: >))
        for frame in all.dropFirst() { XCTAssertNil(lines(frame)["b"]) }
    }

    func testMoveLeavesAndArrivesHighlighted() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b", "c", "h2", "d"]))
        animator.transition(to: rows(["h1", "b", "c", "h2", "d", "a"]), at: 0)
        let all = frames(&animator, from: 0)
        XCTAssertEqual(lines(all[0])["a"], 1)
        for frame in all.dropFirst().dropLast() { XCTAssertNil(lines(frame)["a"], "a moved row is not drawn over the others") }
        XCTAssertEqual(all.last!.first { $0.row.id == "a" }, RowAnimator.Placed(row: rows(["a"])[0], line: 5, mark: .fresh))
        XCTAssertEqual(lines(all.last!)["b"], 1)
    }

    func testRenameRedrawsAtOnceAndHighlights() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b"]))
        var renamed = rows(["h1", "a", "b"])
        renamed[1].spans = [.init("A!")]
        animator.transition(to: renamed, at: 5)
        XCTAssertFalse(animator.isSliding(at: 5))
        let frame = animator.frame(at: 5)
        XCTAssertEqual(frame.map(\.row.plainText), ["h1", "A!", "b"])
        XCTAssertEqual(frame[1].mark, .fresh)
        XCTAssertEqual(frame[2].mark, RowAnimator.Mark.none)
    }

    func testClockDrivenChangesSlideWithoutHighlight() {
        var animator = RowAnimator(rows: rows(["h1", "a", "now", "b"]))
        var next = rows(["h1", "a", "b", "now"])
        next[1].spans = [.init("a 50%")]
        animator.transition(to: next, at: 0, highlight: false)
        var end: [RowAnimator.Placed] = []
        for _ in 0...RowAnimator.steps { end = animator.drawFrame(at: RowAnimator.duration) }
        XCTAssertEqual(end.map(\.mark), Array(repeating: RowAnimator.Mark.none, count: 4))
        XCTAssertNil(animator.nextChange(after: RowAnimator.duration), "nothing to redraw once the slide ends")
    }

    func testALateWakeUpDrawsTheNextStepNotALaterOne() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b", "c", "d"]))
        animator.transition(to: rows(["h1", "d"]), at: 0)
        XCTAssertEqual(animator.drawFrame(at: 0).first { $0.row.id == "d" }?.line, 4)
        // Woken long after the whole slide was due: every step is still drawn, in turn.
        var lines: [Int] = []
        for _ in 0..<RowAnimator.steps {
            XCTAssertEqual(animator.nextChange(after: 1), 1, "behind: the next frame at once")
            lines.append(animator.drawFrame(at: 1).first { $0.row.id == "d" }!.line)
        }
        XCTAssertEqual(lines, [3, 3, 2, 1])
        XCTAssertNil(animator.nextChange(after: 1))
    }
}
