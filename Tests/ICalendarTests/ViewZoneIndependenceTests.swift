import Foundation
import Testing
@testable import ICalendar

/// docs/data-model.md, "Recurrence": which dates an event occurs on never depends on the
/// view's zone. Each real-world file is expanded in three views (UTC, Berlin, Auckland:
/// offsets of 0, +1/+2 and +12/+13 hours); the set of (UID, date) must be the same in all
/// three. A date is the date of an all-day occurrence, the wall-clock date of a floating
/// one (read in the view's zone by design, so its date is the same everywhere), and the
/// UTC date of a timed one.
@Suite struct ViewZoneIndependenceTests {
    static let views: [Zone] = [.utc, Zone.system("Europe/Berlin")!, Zone.system("Pacific/Auckland")!]
    static let from = utcSeconds(2015, 1, 1), to = utcSeconds(2028, 1, 1)

    /// The exporters whose all-day series end with a UTC UNTIL (Outlook, Exchange, Apple).
    static let directories = ["icalevents", "node-ical", "khal", "icalnet", "icalendar", "ics-parser"]

    static func files() -> [URL] {
        let root = ICS.repositoryRoot.appendingPathComponent("Tests/ICalendarTests/RealWorld")
        return directories.flatMap { directory -> [URL] in
            let url = root.appendingPathComponent(directory)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { $0.hasSuffix(".ics") }.sorted().map { url.appendingPathComponent($0) }
        }
    }

    /// `uid date` of every occurrence of `parsed` in `view`, well inside the window (an
    /// all-day occurrence's instants move with the view, so the window's edges would).
    static func days(_ parsed: ParsedCalendar, view: Zone) -> Set<String> {
        var out = Set<String>()
        for (uid, series) in parsed.series() {
            for o in Expander.expand(series, from: from - 2 * 86_400, to: to + 2 * 86_400, floatingZone: view,
                                     zones: ZoneRegistry.shared) {
                let date = o.startDate ?? (o.isFloating ? view : Zone.utc).local(atUTC: o.start).date
                guard date > CivilDateTime(secondsAsIfUTC: from).date, date < CivilDateTime(secondsAsIfUTC: to).date else { continue }
                out.insert("\(uid) \(date.iso)")
            }
        }
        return out
    }

    @Test func theSameFileHasTheSameDaysInEveryView() throws {
        let files = Self.files()
        #expect(files.count > 100, "the real-world corpus was not found")
        var compared = 0, withAllDayUntil = 0
        for file in files {
            guard let parsed = try? CalendarParser.parse(Array(try Data(contentsOf: file))) else { continue }
            compared += 1
            if parsed.warnings.contains(where: { $0.message.hasPrefix("UTC UNTIL on an all-day series") }) { withAllDayUntil += 1 }
            let first = Self.days(parsed, view: Self.views[0])
            for view in Self.views.dropFirst() {
                let other = Self.days(parsed, view: view)
                let here = other.subtracting(first).sorted().prefix(3), inUTC = first.subtracting(other).sorted().prefix(3)
                #expect(other == first, "\(file.lastPathComponent) in \(view): only here \(here), only in UTC \(inUTC)")
            }
        }
        #expect(compared > 100)
        // The files this is about are among them.
        #expect(withAllDayUntil >= 4, "\(withAllDayUntil)")
    }
}
