// MARK: - CalendarGenerator

/// A deterministic, seeded generator of realistic iCalendar (RFC 5545) text for benchmarks
/// and tests.
///
/// The output is one `VCALENDAR` (`VERSION:2.0`, a `PRODID`) with CRLF line endings, lines
/// folded at 75 octets (never inside a UTF-8 character), four `VTIMEZONE` components
/// (Europe/Berlin, America/New_York, Australia/Sydney, Asia/Seoul, with their current
/// rules) and then the events. Everything is derived from ``SplitMix64`` seeded with
/// ``Configuration/seed``: an equal configuration gives byte-identical output on every
/// platform.
///
/// ## What `events` counts
/// ``Configuration/events`` is the number of *masters and standalone events* — VEVENTs
/// without `RECURRENCE-ID`, with UIDs `gen-1@eventd.test` … `gen-N@eventd.test`. Overrides
/// (VEVENTs with a master's UID and a `RECURRENCE-ID`) come on top, each right after its
/// master; ``generatedComponentCount`` (or ``Statistics/componentCount``) is the total
/// number of VEVENTs.
///
/// ## The mix
/// Start dates are uniform over `[firstDate, firstDate + spanDays)`. Of the events:
/// 55 % timed with `TZID` (quarter-hour starts 07:00–20:00, 30 min–3 h), 10 % UTC, 5 %
/// floating (both shaped the same way), 15 % all-day single days (some with
/// `DURATION:P1D`, some with no end at all), 3 % multi-day (half all-day over 2–5 days,
/// half timed across midnight), and — the remaining 12 % — 4 % zero-duration timed events,
/// 3 % travel with `DTSTART` and `DTEND` in different zones, 5 % early-morning or evening
/// timed events. About one timed end in seven is a `DURATION`. 15 % of events recur
/// (`DAILY`, `WEEKLY` with or without `BYDAY`, `MONTHLY` by day or by weekday, `YEARLY`;
/// `COUNT`, `UNTIL` within six months, or open-ended, a third each). Daily and weekly rules
/// without `BYDAY` sometimes get EXDATEs and overrides (about 20 % of all recurring events
/// get overrides, 15 % of those are `STATUS:CANCELLED`), always on real instances. About
/// 3 % of events are `STATUS:TENTATIVE`, 0.5 % (standalone only) `STATUS:CANCELLED`.
/// Events appear in no particular date order, each override right after its master. Starts,
/// EXDATEs and RECURRENCE-IDs never fall into a DST gap; the end of an overnight or travel
/// event rarely may, which RFC 5545 §3.3.5 resolves with the offset before the gap.
public struct CalendarGenerator: Sendable {

    // MARK: - Configuration

    /// What to generate.
    public struct Configuration: Sendable, Hashable {
        /// The number of masters and standalone events (overrides are extra).
        public var events: Int
        /// The PRNG seed; equal seeds give equal output.
        public var seed: UInt64
        /// The first date on which events start.
        public var firstDate: GeneratorDate
        /// The number of days over which starts are spread.
        public var spanDays: Int

        /// Creates a configuration. The defaults spread events over the three years
        /// 2025–2027, so 100,000 events make about 90 per day.
        public init(events: Int = 1_000, seed: UInt64 = 42,
                    firstDate: GeneratorDate = GeneratorDate(year: 2025, month: 1, day: 1),
                    spanDays: Int = 1_095) {
            self.events = events
            self.seed = seed
            self.firstDate = firstDate
            self.spanDays = spanDays
        }
    }

    // MARK: - Statistics

    /// Counts describing one generated calendar.
    public struct Statistics: Sendable, Hashable {
        /// Masters and standalone events (equals ``Configuration/events``).
        public var events = 0
        /// Masters with an RRULE.
        public var recurringEvents = 0
        /// Masters with at least one override.
        public var eventsWithOverrides = 0
        /// Override VEVENTs (with RECURRENCE-ID).
        public var overrides = 0
        /// Overrides with `STATUS:CANCELLED`.
        public var cancelledOverrides = 0
        /// EXDATE values.
        public var exceptionDates = 0
        /// Masters and standalone events with `STATUS:CANCELLED`.
        public var cancelledEvents = 0

        /// The total number of VEVENT components: ``events`` + ``overrides``.
        public var componentCount: Int { events + overrides }

        /// Creates empty statistics.
        public init() {}

        mutating func add(_ plan: EventPlan) {
            events += 1
            if plan.rule != nil { recurringEvents += 1 }
            if !plan.overrides.isEmpty { eventsWithOverrides += 1 }
            overrides += plan.overrides.count
            cancelledOverrides += plan.overrides.count { $0.cancelled }
            exceptionDates += plan.exceptionInstances.count
            if plan.status == .cancelled { cancelledEvents += 1 }
        }
    }

    // MARK: - Properties

    /// The configuration this generator was created with.
    public let configuration: Configuration

    /// The TZIDs that generated events use; the output has a VTIMEZONE for each.
    public static let timeZoneIdentifiers: [String] =
        GeneratorZone.allCases.map { $0.identifier.description }

    /// Creates a generator.
    /// - Precondition: `events >= 0`, `spanDays >= 1`, and all dates stay within the years
    ///   1900 … 9000.
    public init(_ configuration: Configuration) {
        precondition(configuration.events >= 0, "events must not be negative")
        precondition(configuration.spanDays >= 1, "spanDays must be positive")
        precondition(configuration.firstDate.year >= 1900
                     && configuration.firstDate.adding(days: configuration.spanDays).year <= 9000,
                     "dates must stay within 1900 ... 9000")
        self.configuration = configuration
    }

    // MARK: - Generating

    /// The whole calendar as a string.
    public func generate() -> String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the whole calendar, as UTF-8 bytes, to `bytes` and returns its statistics.
    @discardableResult
    public func write(into bytes: inout [UInt8]) -> Statistics {
        var writer = ContentLineWriter()
        swap(&writer.bytes, &bytes)
        writer.bytes.reserveCapacity(writer.bytes.count + 4_096 + configuration.events * 320)

        writer.line("BEGIN:VCALENDAR")
        writer.line("VERSION:2.0")
        writer.line("PRODID:-//eventd//CalendarGenerator 1.0//EN")
        writer.line("CALSCALE:GREGORIAN")
        writer.begin("X-WR-CALNAME:Generated calendar (seed ")
        writer.append(Array(String(configuration.seed).utf8))
        writer.append(")")
        writer.end()
        for zone in GeneratorZone.allCases {
            zone.writeDefinition(to: &writer)
        }

        var statistics = Statistics()
        var planner = EventPlanner(configuration: configuration)
        let serializer = EventSerializer()
        for number in stride(from: 1, through: configuration.events, by: 1) {
            let plan = planner.plan(number: number)
            statistics.add(plan)
            serializer.write(plan, to: &writer)
        }
        writer.line("END:VCALENDAR")

        swap(&writer.bytes, &bytes)
        return statistics
    }

    // MARK: - Counting without writing

    /// The statistics of the calendar ``generate()`` produces, computed by running the
    /// planner without writing any text (O(events), much cheaper than generating).
    public var statistics: Statistics {
        var statistics = Statistics()
        var planner = EventPlanner(configuration: configuration)
        for number in stride(from: 1, through: configuration.events, by: 1) {
            statistics.add(planner.plan(number: number))
        }
        return statistics
    }

    /// The number of VEVENT components in the output: ``Configuration/events`` masters and
    /// standalone events plus all overrides.
    public var generatedComponentCount: Int {
        statistics.componentCount
    }
}
