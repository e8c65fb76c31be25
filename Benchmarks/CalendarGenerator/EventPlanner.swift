// MARK: - EventPlanner

/// Makes every random decision of the generator, one event at a time, from a single
/// ``SplitMix64`` stream. The sequence of draws is part of the output format: changing it
/// changes the output for every seed.
struct EventPlanner {

    // MARK: - State

    private var rng: SplitMix64
    private let firstDay: Int
    private let spanDays: Int
    private let vocabulary = Vocabulary.shared

    /// Shares of the shapes as cumulative per-mille thresholds.
    private static let shapeThresholds: [(EventShape, Int)] = {
        var total = 0
        return EventShape.allCases.map { shape in
            total += shape.perMille
            return (shape, total)
        }
    }()

    /// Per mille of *all* events that recur; drawn among the shapes that may recur, so the
    /// overall share stays 15 %.
    static let recurringPerMille = 150

    init(configuration: CalendarGenerator.Configuration) {
        rng = SplitMix64(seed: configuration.seed)
        firstDay = configuration.firstDate.daysSinceEpoch
        spanDays = configuration.spanDays
    }

    // MARK: - Events

    /// Plans event number `number` (1-based).
    mutating func plan(number: Int) -> EventPlan {
        let shape = nextShape()
        let timing = nextTiming(for: shape)
        let stampSeconds = (firstDay - 60 + rng.next(below: 60)) * 86_400 + rng.next(below: 86_400)
        var plan = EventPlan(
            number: number, shape: shape, timing: timing,
            stampSeconds: stampSeconds,
            hasLastModified: rng.chance(1, in: 5),
            sequence: rng.chance(3, in: 10) ? rng.next(below: 5) : nil,
            summary: rng.next(below: vocabulary.summaryCount(for: shape)),
            location: rng.chance(2, in: 5) ? rng.next(below: vocabulary.locations.count) : nil,
            descriptionSeed: rng.chance(3, in: 10) ? rng.next() : nil,
            status: nil,
            transparent: timing.base == .date && rng.chance(1, in: 2),
            rule: nil, exceptionInstances: [], exceptionsOnSeparateLines: false, overrides: [])

        let recurs = shape.mayRecur
            && rng.chance(Self.recurringPerMille, in: 1_000 - EventShape.crossZone.perMille)
        if recurs {
            plan.rule = nextRule(for: shape, timing: timing)
            addExceptions(to: &plan)
        }

        let statusRoll = rng.next(below: 1_000)
        switch statusRoll {
        case 0..<30: plan.status = .tentative
        case 30..<35: plan.status = recurs ? .confirmed : .cancelled
        case 35..<285: plan.status = .confirmed
        default: plan.status = nil
        }
        return plan
    }

    private mutating func nextShape() -> EventShape {
        let roll = rng.next(below: 1_000)
        for (shape, threshold) in Self.shapeThresholds where roll < threshold {
            return shape
        }
        return .zoned
    }

    // MARK: - Timing

    /// A quarter-hour start in 07:00 … 20:00, as minutes of the day.
    private mutating func businessStart() -> Int {
        7 * 60 + 15 * rng.next(in: 0...52)
    }

    /// A DTEND or, one time in seven, a DURATION for a timed event of `minutes`.
    private mutating func timedEnd(start: Int, minutes: Int, zone: GeneratorZone?) -> EventTiming.End {
        rng.chance(1, in: 7) ? .duration(minutes: minutes) : .dtend(minutes: start + minutes, zone: zone)
    }

    private mutating func nextTiming(for shape: EventShape) -> EventTiming {
        let dayStart = (firstDay + rng.next(below: spanDays)) * 1_440
        switch shape {
        case .zoned, .utc, .floating:
            let zone: GeneratorZone? = shape == .zoned ? GeneratorZone.random(using: &rng) : nil
            let base: TimeBase = zone.map { .zone($0) } ?? (shape == .utc ? .utc : .floating)
            let start = dayStart + businessStart()
            let minutes = 30 + 15 * rng.next(in: 0...10)
            return EventTiming(base: base, start: start,
                               end: timedEnd(start: start, minutes: minutes, zone: zone))
        case .allDay:
            let roll = rng.next(below: 20)
            let end: EventTiming.End = switch roll {
            case 0..<11: .dtend(minutes: dayStart + 1_440, zone: nil)
            case 11..<17: .none
            default: .duration(minutes: 1_440)
            }
            return EventTiming(base: .date, start: dayStart, end: end)
        case .multiDayAllDay:
            let days = rng.next(in: 2...5)
            let end: EventTiming.End = rng.chance(1, in: 5)
                ? .duration(minutes: days * 1_440)
                : .dtend(minutes: dayStart + days * 1_440, zone: nil)
            return EventTiming(base: .date, start: dayStart, end: end)
        case .multiDayTimed:
            let zone = GeneratorZone.random(using: &rng)
            let start: Int
            let minutes: Int
            if rng.chance(1, in: 2) {
                // Overnight: 18:00–23:45 until 00:15–08:00 the next morning.
                let startOfDay = 18 * 60 + 15 * rng.next(in: 0...23)
                start = dayStart + startOfDay
                minutes = 1_440 - startOfDay + 15 * rng.next(in: 1...32)
            } else {
                // Over several days: 08:00–12:00 until 12:00–18:00 one or two days later.
                let startOfDay = 8 * 60 + 15 * rng.next(in: 0...16)
                let endOfDay = 12 * 60 + 15 * rng.next(in: 0...24)
                start = dayStart + startOfDay
                minutes = rng.next(in: 1...2) * 1_440 + endOfDay - startOfDay
            }
            return EventTiming(base: .zone(zone), start: start,
                               end: timedEnd(start: start, minutes: minutes, zone: zone))
        case .zeroDuration:
            let zone = GeneratorZone.random(using: &rng)
            return EventTiming(base: .zone(zone), start: dayStart + businessStart(), end: .none)
        case .crossZone:
            let from = GeneratorZone.random(using: &rng)
            var to = GeneratorZone.random(using: &rng)
            if to == from {
                to = GeneratorZone.allCases[(from.rawValue + 1 + rng.next(below: 3)) % 4]
            }
            let start = dayStart + 6 * 60 + 15 * rng.next(in: 0...64)
            let minutes = 15 * rng.next(in: 8...56)
            // Wall-clock arrival from standard offsets: the real elapsed time differs from
            // `minutes` by at most an hour when a zone observes DST, so it stays >= 1 h.
            let end = start - from.standardOffsetMinutes + minutes + to.standardOffsetMinutes
            return EventTiming(base: .zone(from), start: start, end: .dtend(minutes: end, zone: to))
        case .offHours:
            let zone = GeneratorZone.random(using: &rng)
            let startOfDay = rng.chance(1, in: 2)
                ? 5 * 60 + 15 * rng.next(in: 0...7)
                : 20 * 60 + 15 * rng.next(in: 1...11)
            let start = dayStart + startOfDay
            let minutes = 15 * rng.next(in: 1...4)
            return EventTiming(base: .zone(zone), start: start,
                               end: timedEnd(start: start, minutes: minutes, zone: zone))
        }
    }

    // MARK: - Recurrence

    private mutating func nextRule(for shape: EventShape, timing: EventTiming) -> RecurrenceRule {
        let startDay = timing.startDay
        let date = GeneratorDate(daysSinceEpoch: startDay)
        let weekday = date.weekday
        // Events spanning days never recur daily, so their instances cannot overlap.
        let roll = shape.spansDays ? 25 + rng.next(below: 75) : rng.next(below: 100)
        let pattern: RecurrenceRule.Pattern
        switch roll {
        case 0..<25:
            pattern = .daily(interval: rng.chance(1, in: 5) ? 2 : 1)
        case 25..<50:
            pattern = .weekly(interval: rng.chance(1, in: 4) ? 2 : 1)
        case 50..<70:
            var days = UInt8(1) << weekday
            for _ in 0..<rng.next(in: 1...2) {
                days |= UInt8(1) << rng.next(in: 1...5) // another weekday, Monday … Friday
            }
            pattern = shape.spansDays
                ? .weekly(interval: 1)
                : .weeklyOnDays(interval: rng.chance(1, in: 5) ? 2 : 1, days: days)
        case 70..<80:
            pattern = .monthlyOnDay(date.day)
        case 80..<90:
            let daysInMonth = GeneratorDate.daysInMonth(year: date.year, month: date.month)
            var ordinal = (date.day - 1) / 7 + 1
            if ordinal == 5 || (date.day + 7 > daysInMonth && rng.chance(1, in: 2)) {
                ordinal = -1
            }
            pattern = .monthlyOnWeekday(ordinal: ordinal, weekday: weekday)
        default:
            pattern = rng.chance(1, in: 2) ? .yearly : .yearlyOnDate(month: date.month, day: date.day)
        }
        // Most series end (COUNT or UNTIL); one in ten runs on without an end, as a
        // weekly meeting or a birthday does, and open-ended series never repeat daily.
        let limit: RecurrenceRule.Limit
        switch rng.next(below: 20) {
        case 0..<9: limit = .count(rng.next(in: 5...30))
        case 9..<18: limit = .until(day: startDay + rng.next(in: 14...182))
        default: limit = .open
        }
        if case .open = limit, case .daily = pattern {
            return RecurrenceRule(pattern: .weekly(interval: 1), limit: limit)
        }
        return RecurrenceRule(pattern: pattern, limit: limit)
    }

    /// Adds EXDATEs (30 % of simple rules) and overrides (40 % of simple rules, which makes
    /// about 20 % of all recurring events) on distinct, really existing instances.
    private mutating func addExceptions(to plan: inout EventPlan) {
        guard let rule = plan.rule,
              let last = rule.lastSafeInstance(startDay: plan.timing.startDay),
              last >= 1
        else { return }
        var used: [Int] = []
        func pick(_ rng: inout SplitMix64) -> Int? {
            for _ in 0..<8 {
                let instance = rng.next(in: 1...last)
                if !used.contains(instance) {
                    used.append(instance)
                    return instance
                }
            }
            return nil
        }
        if rng.chance(3, in: 10) {
            for _ in 0..<rng.next(in: 1...3) {
                if let instance = pick(&rng) { plan.exceptionInstances.append(instance) }
            }
            plan.exceptionsOnSeparateLines = rng.chance(1, in: 4)
        }
        if rng.chance(2, in: 5) {
            for _ in 0..<rng.next(in: 1...2) {
                guard let instance = pick(&rng) else { continue }
                let cancelled = rng.chance(3, in: 20)
                let shift: Int
                if cancelled {
                    shift = 0
                } else if plan.timing.base == .date {
                    shift = (rng.chance(1, in: 2) ? 1 : -1) * rng.next(in: 1...2) * 1_440
                } else if rng.chance(1, in: 4) {
                    shift = rng.chance(2, in: 3) ? 1_440 : -1_440
                } else {
                    shift = (rng.chance(1, in: 2) ? 1 : -1) * 15 * rng.next(in: 1...8)
                }
                plan.overrides.append(OverridePlan(
                    instance: instance, shiftMinutes: shift, cancelled: cancelled,
                    summaryPrefix: rng.next(below: vocabulary.movedPrefixes.count)))
            }
        }
    }
}
