import CalendarGenerator
import Foundation
import Testing
import TestSupport

// MARK: - Interoperability

private enum Python {
    /// Whether `python3` with the `icalendar` package can be run.
    static let hasICalendar: Bool = (try? run(["-c", "import icalendar, dateutil"]).status) == 0

    /// `python3 ARGS` (through TestSupport's process runner); `output` is its standard
    /// output followed by its standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let r = try ChildProcess.runBlocking("/usr/bin/env", ["python3"] + arguments, timeout: 600)
        return (r.status, r.stdout + r.stderr)
    }

    /// Parses the file with icalendar, checks every VEVENT, compares the VTIMEZONEs with
    /// the system's tzdata, and expands rules with dateutil to check EXDATEs and
    /// RECURRENCE-IDs.
    static let checker = #"""
    import sys, datetime
    from zoneinfo import ZoneInfo
    from icalendar import Calendar
    from dateutil.rrule import rrulestr
    path, expected = sys.argv[1], int(sys.argv[2])
    cal = Calendar.from_ical(open(path, "rb").read())
    problems = []
    def naive(value):
        if isinstance(value, datetime.datetime): return value
        return datetime.datetime.combine(value, datetime.time())
    for vtz in cal.walk("VTIMEZONE"):
        name = str(vtz["TZID"]); tz = vtz.to_tz(); ref = ZoneInfo(name)
        day = datetime.datetime(2025, 1, 1, 12)
        while day.year < 2029:
            if day.replace(tzinfo=tz).utcoffset() != day.replace(tzinfo=ref).utcoffset():
                problems.append(f"{name} offset differs on {day}")
            day += datetime.timedelta(days=1)
    events = list(cal.walk("VEVENT"))
    if len(events) != expected: problems.append(f"{len(events)} VEVENTs, expected {expected}")
    masters, instances = {}, 0
    for ev in events:
        for key in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
            if key not in ev: problems.append(f"{ev.get('UID')}: no {key}")
        if getattr(ev, "errors", None): problems.append(f"{ev['UID']}: {ev.errors}")
        start = ev.decoded("DTSTART")
        if "DTEND" in ev:
            end = ev.decoded("DTEND")
            aware = isinstance(start, datetime.datetime) and start.tzinfo is not None
            if not ((end > start) if aware else (naive(end) > naive(start))):
                problems.append(f"{ev['UID']}: DTEND not after DTSTART")
        if "RECURRENCE-ID" not in ev: masters[str(ev["UID"])] = ev
    for ev in events:
        values = [ev.decoded("RECURRENCE-ID")] if "RECURRENCE-ID" in ev else []
        exdates = ev.get("EXDATE", [])
        for group in (exdates if isinstance(exdates, list) else [exdates]):
            values += [d.dt for d in group.dts]
        if not values: continue
        master = masters[str(ev["UID"])]
        rule = rrulestr(master["RRULE"].to_ical().decode(), dtstart=naive(master.decoded("DTSTART")))
        for value in values:
            instances += 1
            if naive(value) not in rule: problems.append(f"{ev['UID']}: {value} is not an instance")
    if instances == 0: problems.append("no EXDATE or RECURRENCE-ID checked")
    for problem in problems[:20]: print(problem)
    print(f"checked {len(events)} events, {instances} instances, {len(problems)} problems")
    sys.exit(1 if problems else 0)
    """#
}

@Suite struct CalendarGeneratorInteroperabilityTests {

    @Test(.enabled(if: Python.hasICalendar,
                   "python3 with the icalendar package is not available (pip install icalendar)"))
    func pythonICalendarParsesTheOutput() throws {
        let generator = CalendarGenerator(.init(events: 2_000, seed: 7))
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("calendar-generator-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: url) }
        var output: [UInt8] = []
        generator.write(into: &output)
        try Data(output).write(to: url)
        let result = try Python.run(["-c", Python.checker, url.path,
                                     String(generator.generatedComponentCount)])
        #expect(result.status == 0, "\(result.output)")
    }
}
