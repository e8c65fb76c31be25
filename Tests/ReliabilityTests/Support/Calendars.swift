import Foundation
import CalendarGenerator
import TestSupport

/// Generated iCalendar text.
enum Calendars {
    /// `events` masters (plus overrides) from `CalendarGenerator`, starting `firstDate`
    /// over `spanDays` days; UIDs get `prefix` so that calendars from different seeds
    /// do not share keys.
    static func generated(events: Int, seed: UInt64, prefix: String? = nil,
                          firstDate: GeneratorDate = GeneratorDate(year: 2026, month: 11, day: 22),
                          spanDays: Int = 45) -> [UInt8] {
        var bytes: [UInt8] = []
        CalendarGenerator(.init(events: events, seed: seed, firstDate: firstDate, spanDays: spanDays)).write(into: &bytes)
        guard let prefix else { return bytes }
        return Array(String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: "\r\nUID:gen-", with: "\r\nUID:\(prefix)-gen-").utf8)
    }

    /// A small hand-written calendar: `count` one-hour UTC events, one per day from
    /// 2026-11-29, with summaries `"\(tag) n"`.
    static func simple(_ tag: String, count: Int, uidPrefix: String? = nil, startDay: Int = 0) -> [UInt8] {
        var events: [[String]] = []
        for i in 0..<count {
            let day = date(offset: startDay + i % 14)
            let hour = 8 + (i / 14) % 10
            let h = hour < 10 ? "0\(hour)" : "\(hour)"
            let h2 = hour + 1 < 10 ? "0\(hour + 1)" : "\(hour + 1)"
            events.append(["UID:\(uidPrefix ?? tag)-\(i)@reliability.test", "DTSTAMP:20261101T000000Z",
                           "DTSTART:\(day)T\(h)0000Z", "DTEND:\(day)T\(h2)0000Z", "SUMMARY:\(tag) \(i)"])
        }
        return Array(icsCalendar(events: events, prodID: "-//eventd reliability tests//EN").utf8)
    }

    /// `YYYYMMDD` of 2026-11-29 + offset days.
    static func date(offset: Int) -> String {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        let base = c.date(from: DateComponents(year: 2026, month: 11, day: 29))!
        let d = c.dateComponents([.year, .month, .day], from: c.date(byAdding: .day, value: offset, to: base)!)
        return String(format: "%04d%02d%02d", d.year!, d.month!, d.day!)
    }
}

/// A generated calendar that can be edited like a user's: events (with their
/// overrides) modified, moved, deleted and added, then written out again.
struct EditableCalendar {
    var header: String
    var groups: [[String]]  // each: the lines of one UID's VEVENTs (master first)
    var reserve: [[String]]
    private var serial = 0

    init(events: Int, seed: UInt64, reserveEvents: Int) {
        (header, groups) = Self.split(String(decoding: Calendars.generated(events: events, seed: seed), as: UTF8.self))
        reserve = Self.split(String(decoding: Calendars.generated(events: reserveEvents, seed: seed &+ 1, prefix: "added"), as: UTF8.self)).1
    }

    var bytes: [UInt8] {
        var text = header
        for g in groups { text += g.joined(separator: "\r\n") + "\r\n" }
        return Array((text + "END:VCALENDAR\r\n").utf8)
    }

    /// Splits generated text into the header (VCALENDAR properties, VTIMEZONEs) and
    /// per-UID groups of VEVENT lines (unfolded lines are kept as they are).
    static func split(_ text: String) -> (String, [[String]]) {
        let lines = text.components(separatedBy: "\r\n")
        var header = ""
        var groups: [[String]] = []
        var current: [String] = []
        var currentUID: String?
        var inEvent = false
        var seenEvent = false
        var eventLines: [String] = []
        for line in lines where !line.isEmpty {
            if line == "BEGIN:VEVENT" { inEvent = true; seenEvent = true; eventLines = [line]; continue }
            if inEvent {
                eventLines.append(line)
                if line == "END:VEVENT" {
                    inEvent = false
                    let uid = eventLines.first { $0.hasPrefix("UID:") }
                    if uid != currentUID, !current.isEmpty { groups.append(current); current = [] }
                    currentUID = uid
                    current += eventLines
                }
                continue
            }
            if line == "END:VCALENDAR" { continue }
            if !seenEvent { header += line + "\r\n" }
        }
        if !current.isEmpty { groups.append(current) }
        return (header, groups)
    }

    /// Applies `modify` summary changes, `move` date shifts, `delete` removals and
    /// `add` insertions at random places; returns how many of each were done.
    mutating func mutate<R: RandomNumberGenerator>(modify: Int, move: Int, delete: Int, add: Int,
                                                   using rng: inout R) -> (modified: Int, moved: Int, deleted: Int, added: Int) {
        var done = (modified: 0, moved: 0, deleted: 0, added: 0)
        guard !groups.isEmpty else { return done }
        for _ in 0..<modify {
            serial += 1
            let i = Int.random(in: 0..<groups.count, using: &rng)
            groups[i] = Self.replacingSummary(groups[i], with: "Changed \(serial)")
            done.modified += 1
        }
        for _ in 0..<move {
            let i = Int.random(in: 0..<groups.count, using: &rng)
            let g = groups[i]
            // Only single events without recurrence: their overrides would lose their instance.
            guard g.filter({ $0 == "BEGIN:VEVENT" }).count == 1, !g.contains(where: { $0.hasPrefix("RRULE") }) else { continue }
            groups[i] = Self.shiftingDates(g, days: Int.random(in: -3...3, using: &rng))
            done.moved += 1
        }
        for _ in 0..<delete where groups.count > 1 {
            groups.remove(at: Int.random(in: 0..<groups.count, using: &rng))
            done.deleted += 1
        }
        for _ in 0..<add where !reserve.isEmpty {
            groups.insert(reserve.removeLast(), at: Int.random(in: 0...groups.count, using: &rng))
            done.added += 1
        }
        return done
    }

    static func replacingSummary(_ lines: [String], with summary: String) -> [String] {
        var out: [String] = []
        var skippingContinuation = false
        var replaced = false
        for line in lines {
            if skippingContinuation, line.hasPrefix(" ") || line.hasPrefix("\t") { continue }
            skippingContinuation = false
            if !replaced, line.hasPrefix("SUMMARY") {
                out.append("SUMMARY:" + summary)
                replaced = true
                skippingContinuation = true
                continue
            }
            if !replaced, line == "END:VEVENT" {
                out.append("SUMMARY:" + summary)
                replaced = true
            }
            out.append(line)
        }
        return out
    }

    static func shiftingDates(_ lines: [String], days: Int) -> [String] {
        lines.map { line in
            guard line.hasPrefix("DTSTART") || line.hasPrefix("DTEND"), let colon = line.lastIndex(of: ":") else { return line }
            let value = line[line.index(after: colon)...]
            guard value.count >= 8, let y = Int(value.prefix(4)), let m = Int(value.dropFirst(4).prefix(2)),
                  let d = Int(value.dropFirst(6).prefix(2)) else { return line }
            var c = Calendar(identifier: .gregorian)
            c.timeZone = TimeZone(identifier: "UTC")!
            guard let date = c.date(from: DateComponents(year: y, month: m, day: d)),
                  let shifted = c.date(byAdding: .day, value: days, to: date) else { return line }
            let p = c.dateComponents([.year, .month, .day], from: shifted)
            let newDate = String(format: "%04d%02d%02d", p.year!, p.month!, p.day!)
            return String(line[...colon]) + newDate + String(value.dropFirst(8))
        }
    }
}
