import Testing
import Threads
@testable import TerminalAgenda

/// Frames of one change at chosen instants (a fake clock): rows slide by whole lines,
/// never share a line, and keep their identity.
@Suite struct RowAnimatorTests {
    func rows(_ ids: [String]) -> [AgendaRow] {
        ids.map { AgendaRow(id: $0, kind: $0.hasPrefix("h") ? .header : .event, spans: [.init($0)]) }
    }

    func lines(_ frame: [RowAnimator.Placed]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: frame.map { ($0.row.id, $0.line) })
    }

    /// Every frame from the change to the end: no two rows on one line, and every row
    /// that stays moves by whole lines one way only, never crossing another.
    func frames(_ animator: inout RowAnimator, from start: MonotonicInstant) -> [[RowAnimator.Placed]] {
        var all: [[RowAnimator.Placed]] = []
        var t = start
        while true {
            let frame = animator.drawFrame(at: t)
            #expect(Set(frame.map(\.line)).count == frame.count, "two rows on one line at \(t)")
            all.append(frame)
            guard let next = animator.nextChange(after: t), next <= start + RowAnimator.duration else { break }
            t = next
        }
        return all
    }

    @Test func insertSlidesRowsBelowDownAndHighlightsTheNewRow() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b", "h2", "c"]))
        animator.transition(to: rows(["h1", "n1", "n2", "n3", "a", "b", "h2", "c"]), at: t(10))
        let all = frames(&animator, from: t(10))
        #expect(all.count == RowAnimator.steps + 1)
        #expect(lines(all[0]) == ["h1": 0, "a": 1, "b": 2, "h2": 3, "c": 4])
        // The rows below slide 3 lines in steps of whole lines, in order, without a jump back.
        let path = all.map { lines($0)["c"]! }
        #expect(path.first == 4)
        #expect(path.last == 7)
        #expect(path == path.sorted())
        #expect(Set(path).count > 2, "c should pass through intermediate lines: \(path)")
        for frame in all.dropFirst().dropLast() { #expect(lines(frame)["n1"] == nil, "an inserted row waits for its room") }
        let last = all.last!
        #expect(last.first { $0.row.id == "n2" }?.mark == .fresh)
        #expect(last.first { $0.row.id == "c" }?.mark == RowAnimator.Mark.none)
        // The highlight ends a moment after the slide.
        let end = animator.nextChange(after: t(10) + RowAnimator.duration)!
        #expect(end == t(10) + RowAnimator.duration + RowAnimator.highlight, "\(end)")
        #expect(animator.frame(at: end).first { $0.row.id == "n2" }?.mark == RowAnimator.Mark.none)
        #expect(animator.nextChange(after: end) == nil)
    }

    @Test func deleteCollapses() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b", "c", "d"]))
        animator.transition(to: rows(["h1", "a", "d"]), at: t(0))
        let all = frames(&animator, from: t(0))
        #expect(all[0].first { $0.row.id == "b" }?.mark == .leaving)
        #expect(all[0].first { $0.row.id == "c" }?.mark == .leaving)
        let path = all.map { lines($0)["d"]! }
        #expect(path.first == 4)
        #expect(path.last == 2)
        #expect(path == path.sorted(by: >))
        for frame in all.dropFirst() { #expect(lines(frame)["b"] == nil) }
    }

    @Test func moveLeavesAndArrivesHighlighted() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b", "c", "h2", "d"]))
        animator.transition(to: rows(["h1", "b", "c", "h2", "d", "a"]), at: t(0))
        let all = frames(&animator, from: t(0))
        #expect(lines(all[0])["a"] == 1)
        for frame in all.dropFirst().dropLast() { #expect(lines(frame)["a"] == nil, "a moved row is not drawn over the others") }
        #expect(all.last!.first { $0.row.id == "a" } == RowAnimator.Placed(row: rows(["a"])[0], line: 5, mark: .fresh))
        #expect(lines(all.last!)["b"] == 1)
    }

    @Test func renameRedrawsAtOnceAndHighlights() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b"]))
        var renamed = rows(["h1", "a", "b"])
        renamed[1].spans = [.init("A!")]
        animator.transition(to: renamed, at: t(5))
        #expect(!(animator.isSliding(at: t(5))))
        let frame = animator.frame(at: t(5))
        #expect(frame.map(\.row.plainText) == ["h1", "A!", "b"])
        #expect(frame[1].mark == .fresh)
        #expect(frame[2].mark == RowAnimator.Mark.none)
    }

    @Test func clockDrivenChangesSlideWithoutHighlight() {
        var animator = RowAnimator(rows: rows(["h1", "a", "now", "b"]))
        var next = rows(["h1", "a", "b", "now"])
        next[1].spans = [.init("a 50%")]
        animator.transition(to: next, at: t(0), highlight: false)
        var end: [RowAnimator.Placed] = []
        for _ in 0...RowAnimator.steps { end = animator.drawFrame(at: t(0) + RowAnimator.duration) }
        #expect(end.map(\.mark) == Array(repeating: RowAnimator.Mark.none, count: 4))
        #expect(animator.nextChange(after: t(0) + RowAnimator.duration) == nil, "nothing to redraw once the slide ends")
    }

    @Test func aLateWakeUpDrawsTheNextStepNotALaterOne() {
        var animator = RowAnimator(rows: rows(["h1", "a", "b", "c", "d"]))
        animator.transition(to: rows(["h1", "d"]), at: t(0))
        #expect(animator.drawFrame(at: t(0)).first { $0.row.id == "d" }?.line == 4)
        // Woken long after the whole slide was due: every step is still drawn, in turn.
        var lines: [Int] = []
        for _ in 0..<RowAnimator.steps {
            #expect(animator.nextChange(after: t(1)) == t(1), "behind: the next frame at once")
            lines.append(animator.drawFrame(at: t(1)).first { $0.row.id == "d" }!.line)
        }
        #expect(lines == [3, 3, 2, 1])
        #expect(animator.nextChange(after: t(1)) == nil)
    }
}

/// A made-up monotonic reading, `seconds` after the clock's start.
private func t(_ seconds: Int) -> MonotonicInstant { MonotonicInstant(sinceStart: .seconds(seconds)) }
