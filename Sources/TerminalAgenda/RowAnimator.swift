import SectionedDiff
import Threads

/// Animates one layout into the next the way a collection view does, in whole lines:
/// rows keep their identity (their id), a deleted row is shown dimmed and then
/// collapses, the rows that stay slide from their old line to their new one over a few
/// frames, and inserted, moved and changed rows appear at their new place highlighted
/// for a moment.
///
/// Rows that stay are those on a longest run kept in order (as the feed's diff picks
/// its moves): their order is the same before and after, so their interpolated lines,
/// rounded, never meet. The others (moved rows) leave at the first frame and arrive at
/// the last, so no row ever crosses or overlaps another.
public struct RowAnimator: Sendable {
    /// How long a change takes, and the frames after the first one.
    public static let duration: Duration = .milliseconds(150)
    public static let steps = 4
    /// How long an inserted, moved or changed row stays highlighted after the slide.
    public static let highlight: Duration = .seconds(1)

    /// How a row is drawn in a frame.
    public enum Mark: Sendable, Equatable {
        case none
        /// Inserted, moved or changed: highlighted.
        case fresh
        /// About to go: dimmed.
        case leaving
    }

    /// A row on a line of the content (before scrolling).
    public struct Placed: Sendable, Equatable {
        public var row: AgendaRow
        public var line: Int
        public var mark: Mark
    }

    /// The layout the animation ends at (the current one).
    public private(set) var rows: [AgendaRow]
    private var before: [AgendaRow] = []
    /// For each row of `rows`: its line in `before` when it slides from there.
    private var origins: [Int?] = []
    private var leaving: Set<String> = []
    /// When the slide under way started (nil: none, the new layout is shown as it is).
    private var started: MonotonicInstant?
    /// The last step drawn: a late wake-up (a loaded machine) draws the next step, not
    /// a later one, so every intermediate frame reaches the terminal.
    private var drawn = Self.steps
    /// Highlighted ids and until when.
    private var fresh: [String: MonotonicInstant] = [:]

    /// A layout shown as it is.
    public init(rows: [AgendaRow] = []) {
        self.rows = rows
    }

    /// Starts the animation from the current layout to `new` at `now`; one still under
    /// way ends where it was going first. `highlight`: whether rows new or changed stand
    /// out (a change of the feed), or only slide (the clock moved the now rule, calendars hidden).
    public mutating func transition(to new: [AgendaRow], at now: MonotonicInstant, highlight: Bool = true) {
        let old = rows
        var oldLine: [String: Int] = [:]
        for (line, row) in old.enumerated() { oldLine[row.id] = line }
        let newIDs = Set(new.map(\.id))
        let survivors = new.indices.filter { oldLine[new[$0].id] != nil }
        var kept: [Bool] = []
        LongestIncreasingSubsequence.mark(survivors.map { oldLine[new[$0].id]! }, into: &kept)
        origins = Array(repeating: nil, count: new.count)
        fresh = fresh.filter { $0.value > now }
        for (k, index) in survivors.enumerated() {
            let row = new[index]
            let line = oldLine[row.id]!
            if kept[k] { origins[index] = line }
            let changed = !kept[k] || old[line].spans != row.spans
            if highlight && changed && row.selectable { fresh[row.id] = now + Self.duration + Self.highlight }
        }
        for row in new where highlight && oldLine[row.id] == nil && row.selectable {
            fresh[row.id] = now + Self.duration + Self.highlight
        }
        leaving = Set(old.map(\.id).filter { !newIDs.contains($0) })
        let slides = new.indices.contains { origins[$0] != nil && origins[$0] != $0 }
        before = old
        rows = new
        // Nothing to slide and nothing to collapse: the new layout at once.
        started = slides || !leaving.isEmpty ? now : nil
        drawn = started == nil ? Self.steps : 0
    }

    /// The frame to draw at `now`, one step at most after the last one drawn.
    public mutating func drawFrame(at now: MonotonicInstant) -> [Placed] {
        drawn = min(step(at: now), drawn + 1)
        return frame(step: drawn, at: now)
    }

    /// The step of the slide at `now`: 0 (the old layout) to `steps` (the new one).
    func step(at now: MonotonicInstant) -> Int {
        guard let started else { return Self.steps }
        // A frame's instant, computed as `started + k × duration / steps`, is step k,
        // rounding notwithstanding.
        let steps = (now - started) / Self.duration * Double(Self.steps) + 1e-6
        if steps >= Double(Self.steps) { return Self.steps }
        return max(0, Int(steps.rounded(.down)))
    }

    /// The rows and their lines at `now`.
    public func frame(at now: MonotonicInstant) -> [Placed] { frame(step: step(at: now), at: now) }

    func frame(step: Int, at now: MonotonicInstant) -> [Placed] {
        if step == 0 {
            return before.enumerated().map { line, row in
                Placed(row: row, line: line, mark: leaving.contains(row.id) ? .leaving : .none)
            }
        }
        if step == Self.steps {
            return rows.enumerated().map { line, row in
                Placed(row: row, line: line, mark: fresh[row.id].map { $0 > now } ?? false ? .fresh : .none)
            }
        }
        let f = Double(step) / Double(Self.steps)
        return rows.indices.compactMap { index in
            guard let origin = origins[index] else { return nil }
            let line = Int((Double(origin) * (1 - f) + Double(index) * f).rounded())
            return Placed(row: rows[index], line: line, mark: .none)
        }
    }

    /// When the next frame differs from the one at `now` (nil: nothing more to draw).
    public func nextChange(after now: MonotonicInstant) -> MonotonicInstant? {
        let step = min(step(at: now), drawn)
        if step < Self.steps, let started {
            // Behind (the step due was not drawn yet): at once.
            return max(now, started + Self.duration * (step + 1) / Self.steps)
        }
        return fresh.values.filter { $0 > now }.min()
    }

    /// Whether the new layout is being slid into.
    public func isSliding(at now: MonotonicInstant) -> Bool { step(at: now) < Self.steps }
}
