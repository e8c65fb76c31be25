import Foundation
import Testing
@testable import ICalendar
import TestSupport

/// Issue 52, point 5: an `ATTACH;VALUE=BINARY` of one long line cost time quadratic in
/// its length (libical's string reader); such lines are now left out as `DESCRIPTION` is.
@Suite struct AttachmentCostTests {
    static func calendar(_ property: String) -> [UInt8] {
        Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a@x\r\nDTSTAMP:20260101T000000Z\r\n"
               + "DTSTART:20260601T090000Z\r\n\(property)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
    }

    /// ATTACH's own value types are read as with every line given to libical; another
    /// type still is given to it (and warned about).
    @Test(arguments: ["ATTACH;VALUE=BINARY;ENCODING=BASE64:aGVsbG8=", "ATTACH;ENCODING=BASE64;VALUE=binary;FMTTYPE=\"a/b\":@@@",
                      "ATTACH;VALUE=URI:http://example.org/a", "ATTACH;VALUE=TEXT:hi", "ATTACH;VALUE=BINARY", "ATTACH;VALUE=\"BINARY\":x",
                      "ATTACH;VALUE=BINARY;ENCODING=BASE64:aGVs\r\n bG8="])
    func attachmentsAreReadAsWithEveryLine(_ property: String) {
        ParserFeedTests.expectSameReading(Self.calendar(property), property)
    }

    @Test func aLongBinaryAttachmentCostsAboutWhatADescriptionDoes() throws {
        let value = String(repeating: "QUJD", count: (4 << 20) / 4)
        func seconds(_ property: String) throws -> Double {
            let bytes = Self.calendar(property + value)
            let t0 = monotonicNow()
            let parsed = try CalendarParser.parse(bytes)
            #expect(parsed.warnings.isEmpty && parsed.skipped == 0, "\(parsed.warnings)")
            return monotonicNow() - t0
        }
        let description = try seconds("DESCRIPTION:")
        let attachment = try seconds("ATTACH;VALUE=BINARY;ENCODING=BASE64:")
        #expect(attachment <= 3 * description + 0.2, "4 MiB: ATTACH \(attachment) s, DESCRIPTION \(description) s")
    }
}
