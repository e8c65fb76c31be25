import Testing
@testable import ICalendar

/// `Zone.canonicalName`: one spelling per zone before any lookup.
@Suite struct ZoneNameTests {
    @Test(arguments: [("Europe////Berlin", "Europe/Berlin"), ("posix/Asia///Tokyo", "Asia/Tokyo"),
                      ("right/Asia/Tokyo", "Asia/Tokyo"), ("posix/right/UTC", "UTC"), ("Asia/Tokyo/", "Asia/Tokyo"),
                      ("/mozilla.org/20050126_1/Europe//Berlin", "Europe/Berlin"), ("posix", "posix"),
                      ("/Europe/Berlin", "/Europe/Berlin"), ("Europe/Berlin", "Europe/Berlin")])
    func canonicalNames(_ name: String, _ canonical: String) {
        #expect(Zone.canonicalName(name) == canonical)
    }

    /// A TZID in another spelling is the system's zone, stored under its one key.
    @Test func spelledTZIDsShareOneZone() throws {
        let (start, parsed) = try ZoneResolutionTests.start("posix/Europe///Berlin")
        #expect(start == .zoned(civil(2026, 7, 1, 9), zoneKey: "Europe/Berlin"))
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
    }
}
