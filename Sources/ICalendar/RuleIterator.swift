import CLibical
import Glibc

/// An RRULE being walked by libical's recurrence iterator; owns the
/// `icalrecur_iterator` and frees it in `deinit`. Callers hold `LibICal.lock`.
final class RuleIterator {
    /// libical's iterator, or nil when `weekNumbered` walks the rule.
    private let handle: OpaquePointer?
    private var weekNumbered: WeekNumberRule?
    /// The rule as libical parsed it.
    let rule: icalrecurrencetype
    private let isDate: Bool
    private let zone: OpaquePointer?

    /// Starts iterating `rrule` from `start` (wall clock in `zone`, or floating/date when nil).
    /// `dateZone` dates a UTC UNTIL on an all-day series, that date included. The parser
    /// already dates it in the file's own zone (`VEventReader`); a rule stored before it
    /// did is dated in UTC, never in the view's zone, so every view shows the same days.
    init?(rrule: String, start: CivilDateTime, isDate: Bool, zone: OpaquePointer?, dateZone: Zone? = nil) {
        let summary = RuleSummary(Substring(rrule))
        let text = Self.everyMonth(Self.workingAround794(rrule, summary: summary, start: start.date), summary: summary)
        let rule = icalrecurrencetype_from_string(text)
        guard rule.freq != ICAL_NO_RECURRENCE, !(summary?.isTooCostly ?? false) else {
            free(rule.rscale)
            return nil
        }
        // libical (built with ICU) walks a zoned DTSTART in a calendar of that zone, which
        // moves a nonexistent local time (02:30 on a spring-forward day) past the gap and
        // keeps the moved time for every later instance. Walk the wall clock instead, with
        // a UTC UNTIL read as this zone's wall-clock time.
        var walked = rule
        var walkZone = zone
        if isDate, let dateZone, icaltime_is_null_time(rule.until) == 0, rule.until.is_date == 0,
           icaltime_is_utc(rule.until) != 0 {
            let local = dateZone.local(atUTC: rule.until.civil.secondsAsIfUTC)
            walked.until = icaltimetype(civil: CivilDateTime(date: local.date), isDate: true)
        }
        if let zone, zone != LibICal.utc {
            if icaltime_is_null_time(rule.until) == 0, rule.until.is_date == 0, icaltime_is_utc(rule.until) != 0 {
                var until = rule.until
                icaltimezone_convert_time(&until, LibICal.utc, zone)
                until.zone = nil
                walked.until = until
            }
            walkZone = nil
        }
        let until = icaltime_is_null_time(walked.until) == 0 ? walked.until.civil : nil
        if let own = WeekNumberRule(text, start: start, isDate: isDate, until: until) {
            self.weekNumbered = own
            self.handle = nil
        } else {
            var dtstart = icaltimetype(civil: start, isDate: isDate)
            dtstart.zone = walkZone
            guard let iterator = icalrecur_iterator_new(walked, dtstart) else {
                free(rule.rscale)
                return nil
            }
            self.handle = iterator
        }
        self.rule = rule
        self.isDate = isDate
        self.zone = walkZone
    }

    /// `FREQ=YEARLY;BYWEEKNO=n` without BYDAY: RFC 5545 takes what a rule leaves open from
    /// DTSTART, so the instance is DTSTART's weekday of week n (libical's reading since its
    /// pull request 455, ical.net's and lib-recur's; python-dateutil takes the whole week).
    static func workingAround794(_ rrule: String, summary: RuleSummary?, start: CivilDate) -> String {
        guard let summary, summary.freq == "YEARLY",
              summary.parts["BYWEEKNO"] != nil, summary.parts["BYDAY"] == nil,
              summary.parts["BYMONTHDAY"] == nil, summary.parts["BYYEARDAY"] == nil else { return rrule }
        let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        return rrule + ";BYDAY=" + names[start.weekday]
    }

    /// `FREQ=YEARLY;BYMONTHDAY=8,9` without BYMONTH: RFC 5545 3.3.10's table has BYMONTHDAY
    /// *expand* a YEARLY rule, so the days repeat in every month of the year (ical.net's
    /// and python-dateutil's reading: 2007-01-08 from a series that started in May);
    /// libical keeps them to DTSTART's month. Naming every month says the same to libical.
    /// (With BYYEARDAY or BYWEEKNO the days limit those, and the rule is left as it is.)
    static func everyMonth(_ rrule: String, summary: RuleSummary?) -> String {
        guard let summary, summary.freq == "YEARLY", summary.parts["BYMONTHDAY"] != nil,
              summary.parts["BYMONTH"] == nil, summary.parts["BYYEARDAY"] == nil,
              summary.parts["BYWEEKNO"] == nil else { return rrule }
        return rrule + ";BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12"
    }

    deinit {
        LibICal.locked {
            if let handle { icalrecur_iterator_free(handle) }
            // icalrecurrencetype_from_string strdup()s RSCALE; nothing else frees it.
            free(rule.rscale)
        }
    }

    /// True when the rule has a COUNT.
    var hasCount: Bool { rule.count > 0 }

    /// Skips ahead so the next instance is at or after `local` (rules without COUNT only).
    @discardableResult
    func skip(to local: CivilDateTime) -> Bool {
        guard !hasCount else { return false }
        if weekNumbered != nil {
            weekNumbered?.skip(to: local)
            return true
        }
        var t = icaltimetype(civil: local, isDate: isDate)
        t.zone = zone
        return icalrecur_iterator_set_start(handle, t) != 0
    }

    /// The next instance's wall-clock start, or nil at the end of the rule.
    func next() -> CivilDateTime? {
        if weekNumbered != nil { return weekNumbered?.next() }
        let t = icalrecur_iterator_next(handle)
        guard icaltime_is_null_time(t) == 0 else { return nil }
        let civil = t.civil
        guard civil.date.isValid else { return nil }
        return civil
    }

    /// UNTIL as a wall-clock/UTC value, if the rule has one.
    var until: (CivilDateTime, isUTC: Bool, isDate: Bool)? {
        guard icaltime_is_null_time(rule.until) == 0 else { return nil }
        return (rule.until.civil, icaltime_is_utc(rule.until) != 0, rule.until.is_date != 0)
    }
}
