import CLibical
import Foundation

extension Zone {
    /// Whether the importer reads TZID `tzid` as the system's zone of that name, before
    /// any definition a file gives (`ReaderContext.zone(forTZID:)`).
    public static func isSystemName(_ tzid: String) -> Bool {
        let name = ReaderContext.normalise(tzid)
        return !name.hasPrefix("/") && Zone.system(name) != nil
    }

    /// A VTIMEZONE under `tzid` for the zone the importer reads `tzid` as, when no
    /// definition of the file's own is at hand: the tz database's rules for an IANA,
    /// Windows, display or vendor-prefixed name (libical writes them from the system's
    /// zoneinfo), a constant offset for `UTC+01:00`-style names. Nil for a name the
    /// importer does not know (it reads such times as floating).
    ///
    /// `eventctl export` writes one for every TZID it uses (RFC 5545, 3.2.19), so that
    /// other programs read the times as eventd does.
    ///
    /// `definitions`: the file's own VTIMEZONE texts by TZID, used where the importer
    /// used them (a name the system does not know as an IANA zone).
    public static func vtimezoneText(forTZID tzid: String, definitions: [String: String] = [:]) -> String? {
        if !isSystemName(tzid), let own = definitions[tzid] ?? definitions[ReaderContext.normalise(tzid)] { return own }
        if let iana = ianaName(for: tzid), iana != "UTC" {
            return LibICal.locked {
                guard let handle = icaltimezone_get_builtin_timezone(iana),
                      let own = icaltimezone_get_component(handle), let copy = icalcomponent_new_clone(own) else { return nil }
                defer { icalcomponent_free(copy) }
                guard let property = icalcomponent_get_first_property(copy, ICAL_TZID_PROPERTY) else { return nil }
                icalproperty_set_tzid(property, tzid)
                guard let text = icalcomponent_as_ical_string_r(copy) else { return nil }
                defer { free(text) }
                return String(cString: text)
            }
        }
        guard let offset = ianaName(for: tzid) == "UTC" ? 0 : ReaderContext.fixedOffset(ReaderContext.normalise(tzid)) else { return nil }
        let hours: Int = abs(offset) / 3600
        let minutes: Int = abs(offset) % 3600 / 60
        let utcOffset: String = (offset < 0 ? "-" : "+") + twoDigits(hours) + twoDigits(minutes)
        return ["BEGIN:VTIMEZONE", "TZID:" + tzid, "BEGIN:STANDARD", "DTSTART:19700101T000000",
                "TZOFFSETFROM:" + utcOffset, "TZOFFSETTO:" + utcOffset, "END:STANDARD", "END:VTIMEZONE", ""]
            .joined(separator: "\r\n")
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
}
