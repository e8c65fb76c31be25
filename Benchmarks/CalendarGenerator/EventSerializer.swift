// MARK: - EventSerializer

/// Turns an ``EventPlan`` into VEVENT components: the master (or standalone event) first,
/// then its overrides. Uses no randomness of its own except the description's sub-stream,
/// which the plan seeds.
struct EventSerializer {

    private let vocabulary = Vocabulary.shared

    // MARK: - Components

    /// Writes the plan's master VEVENT followed by its override VEVENTs.
    func write(_ plan: EventPlan, to writer: inout ContentLineWriter) {
        writeMaster(plan, to: &writer)
        for override in plan.overrides {
            writeOverride(override, of: plan, to: &writer)
        }
    }

    private func writeMaster(_ plan: EventPlan, to writer: inout ContentLineWriter) {
        let timing = plan.timing
        writer.line("BEGIN:VEVENT")
        writeUID(plan.number, to: &writer)
        writeStamp("DTSTAMP:", seconds: plan.stampSeconds, to: &writer)
        if plan.hasLastModified {
            writeStamp("LAST-MODIFIED:", seconds: plan.stampSeconds, to: &writer)
        }
        if let sequence = plan.sequence {
            writer.begin("SEQUENCE:")
            writer.append(number: sequence)
            writer.end()
        }
        writeTiming(timing, to: &writer)
        if let rule = plan.rule {
            rule.write(to: &writer, base: timing.base)
        }
        writeExceptionDates(plan, to: &writer)
        writeSummaryAndLocation(of: plan, prefix: nil, to: &writer)
        if let seed = plan.descriptionSeed {
            writeDescription(seed: seed, to: &writer)
        }
        switch plan.status {
        case .confirmed?: writer.line("STATUS:CONFIRMED")
        case .tentative?: writer.line("STATUS:TENTATIVE")
        case .cancelled?: writer.line("STATUS:CANCELLED")
        case nil: break
        }
        if plan.transparent {
            writer.line("TRANSP:TRANSPARENT")
        }
        writer.line("END:VEVENT")
    }

    /// SUMMARY (after `prefix`, for an override) and LOCATION of `plan`.
    private func writeSummaryAndLocation(of plan: EventPlan, prefix: [UInt8]?, to writer: inout ContentLineWriter) {
        writer.begin("SUMMARY:")
        if let prefix { writer.append(prefix) }
        writer.append(vocabulary.summary(plan.summary, shape: plan.shape, timing: plan.timing))
        writer.end()
        if let location = plan.location {
            writer.begin("LOCATION:")
            writer.append(vocabulary.locations[location])
            writer.end()
        }
    }

    private func writeOverride(_ override: OverridePlan, of plan: EventPlan,
                               to writer: inout ContentLineWriter) {
        let original = plan.instanceStart(override.instance)
        let timing = plan.timing.shifted(by: original - plan.timing.start + override.shiftMinutes)
        writer.line("BEGIN:VEVENT")
        writeUID(plan.number, to: &writer)
        writeDateTime("RECURRENCE-ID", base: plan.timing.base, minutes: original, to: &writer)
        // Modified a while after the master, in instance order.
        writeStamp("DTSTAMP:", seconds: plan.stampSeconds + 3_600 * (1 + override.instance),
                   to: &writer)
        writer.begin("SEQUENCE:")
        writer.append(number: (plan.sequence ?? 0) + 1)
        writer.end()
        writeTiming(timing, to: &writer)
        writeSummaryAndLocation(of: plan, prefix: override.cancelled ? vocabulary.cancelledPrefix
                                                                     : vocabulary.movedPrefixes[override.summaryPrefix],
                                to: &writer)
        if override.cancelled {
            writer.line("STATUS:CANCELLED")
        }
        writer.line("END:VEVENT")
    }

    // MARK: - Properties

    private func writeUID(_ number: Int, to writer: inout ContentLineWriter) {
        writer.begin("UID:gen-")
        writer.append(number: number)
        writer.append("@eventd.test")
        writer.end()
    }

    private func writeStamp(_ name: StaticString, seconds: Int, to writer: inout ContentLineWriter) {
        let minutes = seconds >= 0 ? seconds / 60 : (seconds - 59) / 60
        writer.begin(name)
        writer.append(dateTime: minutes, seconds: seconds - minutes * 60)
        writer.append("Z")
        writer.end()
    }

    /// Writes DTSTART and, when present, DTEND or DURATION.
    private func writeTiming(_ timing: EventTiming, to writer: inout ContentLineWriter) {
        writeDateTime("DTSTART", base: timing.base, minutes: timing.start, to: &writer)
        switch timing.end {
        case .none:
            break
        case .dtend(let minutes, let zone):
            let base = zone.map { TimeBase.zone($0) } ?? timing.base
            writeDateTime("DTEND", base: base, minutes: minutes, to: &writer)
        case .duration(let minutes):
            writer.begin("DURATION:")
            writer.append(durationMinutes: minutes, days: timing.base == .date)
            writer.end()
        }
    }

    /// Writes `NAME;params:value` for one date or date-time.
    private func writeDateTime(_ name: StaticString, base: TimeBase, minutes: Int,
                               to writer: inout ContentLineWriter) {
        writer.begin(name)
        appendParameters(base, to: &writer)
        appendValue(base, minutes: minutes, to: &writer)
        writer.end()
    }

    /// Writes EXDATE values: one comma-separated line, or one line per value.
    private func writeExceptionDates(_ plan: EventPlan, to writer: inout ContentLineWriter) {
        guard !plan.exceptionInstances.isEmpty else { return }
        let base = plan.timing.base
        if plan.exceptionsOnSeparateLines {
            for instance in plan.exceptionInstances {
                writeDateTime("EXDATE", base: base, minutes: plan.instanceStart(instance), to: &writer)
            }
            return
        }
        writer.begin("EXDATE")
        appendParameters(base, to: &writer)
        for (position, instance) in plan.exceptionInstances.enumerated() {
            if position > 0 { writer.append(",") }
            appendValue(base, minutes: plan.instanceStart(instance), to: &writer)
        }
        writer.end()
    }

    private func appendParameters(_ base: TimeBase, to writer: inout ContentLineWriter) {
        switch base {
        case .zone(let zone):
            writer.append(";TZID=")
            writer.append(zone.identifier)
            writer.append(":")
        case .date:
            writer.append(";VALUE=DATE:")
        case .utc, .floating:
            writer.append(":")
        }
    }

    private func appendValue(_ base: TimeBase, minutes: Int, to writer: inout ContentLineWriter) {
        switch base {
        case .date:
            writer.append(date: minutes >= 0 ? minutes / 1_440 : (minutes - 1_439) / 1_440)
        case .utc:
            writer.append(dateTime: minutes)
            writer.append("Z")
        case .zone, .floating:
            writer.append(dateTime: minutes)
        }
    }

    // MARK: - Description

    /// One to three sentences, or (one time in four) five to ten, long enough to fold.
    private func writeDescription(seed: UInt64, to writer: inout ContentLineWriter) {
        var rng = SplitMix64(seed: seed)
        let count = rng.chance(1, in: 4) ? rng.next(in: 5...10) : rng.next(in: 1...3)
        let separatedByLines = rng.chance(1, in: 3)
        let sentences = vocabulary.sentences
        var previous = -1
        writer.begin("DESCRIPTION:")
        for index in 0..<count {
            if index > 0 {
                if separatedByLines { writer.append("\\n") } else { writer.append(" ") }
            }
            var sentence = rng.next(below: sentences.count)
            if sentence == previous {
                sentence = (sentence + 1) % sentences.count
            }
            writer.append(sentences[sentence])
            previous = sentence
        }
        writer.end()
    }
}
