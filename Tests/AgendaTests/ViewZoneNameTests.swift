import Testing
import Agenda
import ICalendar
import CanonicalJSON
import FeedProtocol

/// Zone names in views: every spelling of one zone is that zone's one name.
@Suite struct ViewZoneNameTests {
    @Test(arguments: ["Europe////Berlin", "posix/Europe/Berlin", "right/Europe//Berlin", "Europe/Berlin/",
                      "posix/right/Europe/Berlin", "/freeassociation.sourceforge.net/Europe///Berlin"])
    func spellingsAreCanonical(_ spelling: String) throws {
        let view = try View.parse(ViewFields(try JSONValue.parse(#"{"tz":"\#(spelling)"}"#)), defaultZone: "UTC", knownCalendars: nil)
        #expect(view.timeZone == "Europe/Berlin")
        #expect(Zone.system(spelling)?.identifier == "Europe/Berlin")
        #expect(Zone.system(spelling) === Zone.system("Europe/Berlin"))
    }

    @Test func unknownSpellingsAreRefused() {
        for name in ["posix", "Europe/../Europe/Berlin", "//Europe/Berlin", "Europe/Berlinn", "posix/"] {
            #expect(throws: ViewError.self, "\(name)") {
                try View.parse(ViewFields(try JSONValue.parse(#"{"tz":"\#(name)"}"#)), defaultZone: "UTC", knownCalendars: nil)
            }
        }
    }

    /// A view refused for its calendars never loads its zone (no other test names this one).
    @Test func aRefusedViewLoadsNoZone() {
        let zone = "America/Argentina/ComodRivadavia"
        #expect(throws: ViewError.self) {
            try View.parse(ViewFields(try JSONValue.parse(#"{"tz":"posix/\#(zone)","calendars":["nope"]}"#)),
                           defaultZone: "UTC", knownCalendars: ["work"])
        }
        #expect(!Zone.isSystemZoneLoaded(zone))
        #expect(throws: ViewError.self) {
            try View.parse(ViewFields(try JSONValue.parse(#"{"tz":"\#(zone)","days":0}"#)), defaultZone: "UTC", knownCalendars: ["work"])
        }
        #expect(!Zone.isSystemZoneLoaded(zone))
    }

    @Test func utcKeepsItsName() throws {
        let view = try View.parse(ViewFields(try JSONValue.parse(#"{"tz":"Etc//UTC"}"#)), defaultZone: "UTC", knownCalendars: nil)
        #expect(view.timeZone == "Etc/UTC")
    }
}
