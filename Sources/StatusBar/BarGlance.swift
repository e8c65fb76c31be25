import ICalendar
import AgendaText

/// What a status bar shows at one moment: the current or next event, its class, the
/// progress through it, and the rest of today and tomorrow for the tooltip. Pure: the
/// same events, zone and instant give the same glance.
public struct BarGlance: Equatable, Sendable {
    /// The bar's class (Waybar's `class`, the i3bar block's `instance`).
    public enum Kind: String, Sendable, CaseIterable {
        /// An event is under way.
        case now
        /// The next event today starts within `BarOptions.soon`.
        case soon
        /// The next event today starts later than that.
        case later
        /// Nothing timed is left today.
        case free
    }

    /// A line of the tooltip.
    public struct Entry: Equatable, Sendable {
        /// `10:00–10:15`, `all day`, `…–10:15` (began the day before), `22:00–…` (goes on).
        public var time: String
        public var summary: String
        public var location: String?
    }

    public var kind: Kind
    /// The text (plain, one line, not yet escaped); empty when the day is free.
    public var text: String
    /// The summary alone (i3bar's `short_text`).
    public var shortText: String
    /// `timed`, `all-day` or `none`: what `text` shows (Waybar's `alt`, for format-icons).
    public var alt: String
    /// Progress through the current event, 0-100 (0 when none is under way).
    public var percentage: Int
    public var today: [Entry]
    public var tomorrow: [Entry]

    /// The glance at `now` (seconds since the epoch) in `zone`.
    public static func at(_ now: Int64, events: [BarEvent], zone: Zone, options: BarOptions) -> BarGlance {
        let today = zone.local(atUTC: now).date
        let tomorrow = today.adding(days: 1)
        let todayStart = zone.instant(forLocal: CivilDateTime(date: today))
        let todayEnd = zone.instant(forLocal: CivilDateTime(date: tomorrow))
        let tomorrowEnd = zone.instant(forLocal: CivilDateTime(date: tomorrow.adding(days: 1)))
        let timed = events.filter { !$0.allDay }
        let allDayToday = events.filter { $0.allDay && $0.startDate <= today && today < $0.endDate }

        // In several at once: the one begun last (the one just walked into), then the
        // one ending first.
        let current = timed.filter { $0.start <= now && now < $0.end }
            .min { ($1.start, $0.end) < ($0.start, $1.end) }
        let next = timed.filter { $0.start > now && $0.start < todayEnd }.min { ($0.start, $0.end) < ($1.start, $1.end) }

        var glance = BarGlance(kind: .free, text: "", shortText: "", alt: "none", percentage: 0, today: [], tomorrow: [])
        let describe = { (event: BarEvent, wording: String) -> String in
            options.template.map { $0.render { field in Self.value(field, of: event, now: now, zone: zone) } } ?? wording
        }
        if let event = current {
            glance.kind = .now
            glance.alt = "timed"
            glance.text = describe(event, "\(event.summary) · now, \(AgendaWords.phrase(event.end - now)) left")
            glance.shortText = event.summary
            let length = max(1, event.end - event.start)
            glance.percentage = Int(min(100, max(0, (now - event.start) * 100 / length)))
        } else if let event = next {
            glance.kind = event.start - now <= options.soon ? .soon : .later
            glance.alt = "timed"
            glance.text = describe(event, "\(AgendaWords.clock(event.start, zone)) \(event.summary) · in \(AgendaWords.phrase(event.start - now))")
            glance.shortText = event.summary
        }
        if !allDayToday.isEmpty, glance.alt == "none" || options.allDay == .always {
            let names = allDayToday.map { describe($0, $0.summary) }.joined(separator: " · ")
            if glance.alt == "none" {
                glance.text = options.template == nil ? names + " · all day" : names
                glance.shortText = allDayToday.map(\.summary).joined(separator: " · ")
                glance.alt = "all-day"
            } else {
                glance.text = names + " · " + glance.text
            }
        }

        glance.today = allDayToday.map { Entry(time: ItemTime.allDayText, summary: $0.summary, location: $0.location) }
            + timed.filter { $0.end > now && $0.start < todayEnd }
                .map { entry($0, dayStart: todayStart, dayEnd: todayEnd, zone: zone) }
        glance.tomorrow = events.filter { $0.allDay && $0.startDate <= tomorrow && tomorrow < $0.endDate }
            .map { Entry(time: ItemTime.allDayText, summary: $0.summary, location: $0.location) }
            + timed.filter { $0.start < tomorrowEnd && $0.end > todayEnd }
                .map { entry($0, dayStart: todayEnd, dayEnd: tomorrowEnd, zone: zone) }
        return glance
    }

    private static func entry(_ e: BarEvent, dayStart: Int64, dayEnd: Int64, zone: Zone) -> Entry {
        Entry(time: ItemTime(start: e.start, end: e.end, zone: zone, day: dayStart..<dayEnd).text, summary: e.summary,
              location: e.location)
    }

    static func value(_ field: BarTemplate.Field, of e: BarEvent, now: Int64, zone: Zone) -> String {
        switch field {
        case .summary: return e.summary
        case .start: return e.allDay ? ItemTime.allDayText : AgendaWords.clock(e.start, zone)
        case .end: return e.allDay ? "" : AgendaWords.clock(e.end, zone)
        case .location: return e.location ?? ""
        case .calendar: return e.calendar
        case .minutesUntil: return "\(AgendaWords.minutes(e.start - now))"
        case .minutesLeft: return "\(AgendaWords.minutes(e.end - now))"
        }
    }
}
