import EventStore
import Testing
@testable import LiveSources

/// `--every` and calendar durations, body checks, and URL redaction.
@Suite struct DurationAndBodyTests {
    @Test func durationsInBothForms() {
        #expect(DurationText.seconds("30s") == 30)
        #expect(DurationText.seconds("15m") == 900)
        #expect(DurationText.seconds("2h") == 7200)
        #expect(DurationText.seconds("1d") == 86_400)
        #expect(DurationText.seconds("PT15M") == 900)
        #expect(DurationText.seconds("P1DT1H") == 90_000)
        #expect(DurationText.seconds("P1W") == 604_800)
        for bad in ["", "15", "m", "-5m", "PT", "P1H", "PT1D", "0s", "PTM"] { #expect(DurationText.seconds(bad) == nil, "\(bad)") }
    }

    @Test func refreshIntervalComesFromTheCalendarHeader() {
        let body = Array("BEGIN:VCALENDAR\r\nX-PUBLISHED-TTL:PT1H\r\nREFRESH-INTERVAL;VALUE=DURATION:PT2H\r\nBEGIN:VEVENT\r\nREFRESH-INTERVAL;VALUE=DURATION:PT9H\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        #expect(CalendarBody.refreshInterval(body) == 7200)
        #expect(CalendarBody.refreshInterval(Array("BEGIN:VCALENDAR\nX-PUBLISHED-TTL:P1D\nEND:VCALENDAR\n".utf8)) == 86_400)
        #expect(CalendarBody.refreshInterval(Array("BEGIN:VCALENDAR\nEND:VCALENDAR\n".utf8)) == nil)
    }

    @Test func htmlTruncatedAndEmptyBodiesAreRefused() {
        func kind(_ text: String) -> FetchFailure.Kind? {
            do { try CalendarBody.check(Array(text.utf8), shown: "https://h/…"); return nil } catch { return error.kind }
        }
        #expect(kind("\u{FEFF}BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n\r\n") == nil)
        #expect(kind("<!DOCTYPE html><html>login</html>") == .notICalendar)
        #expect(kind("") == .notICalendar)
        #expect(kind("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x") == .truncated)
        // Bare VEVENTs, as the import reads them; cut short, they are refused too.
        #expect(kind("BEGIN:VEVENT\r\nUID:x\r\nEND:VEVENT\r\n") == nil)
        #expect(kind("BEGIN:VEVENT\r\nUID:x\r\n") == .truncated)
    }

    @Test func urlsAreShownAsSchemeAndHostOnly() {
        #expect(LiveSource.redact(url: "https://calendar.google.com/calendar/ical/me%40x/private-0123abcd/basic.ics") == "https://calendar.google.com/…")
        #expect(LiveSource.redact(url: "https://user:secret@cloud.example.org:8443/remote.php/dav?token=t") == "https://cloud.example.org:8443/…")
        #expect(LiveSource.redact(url: "http://[::1]:8080/x") == "http://[::1]:8080/…")
        #expect(LiveSource.redact(url: "http://127.0.0.1:8765/x.ics?key=secret") == "http://127.0.0.1:8765/…")
        #expect(LiveSource.redact(url: "http://me:pw@127.0.0.1:8765") == "http://127.0.0.1:8765/…")
        #expect(LiveSource.redact(url: "http://host:80x/a") == "http://host/…")
        #expect(LiveSource.redact(url: "not a url token=abc") == "…")
        #expect(SourcePlanner.normalizedURL("webcal://example.org/a.ics") == "https://example.org/a.ics")
        #expect(SourcePlanner.normalizedURL("ftp://example.org/a.ics") == nil)
        #expect(SourcePlanner.nameFromURL("https://example.org/cal/holidays.ics?token=x") == "holidays")
        #expect(SourcePlanner.nameFromURL("https://example.org/0123456789abcdef0123456789abcdef0123/basic.ics") == "example.org")
        // URLs libcurl could never fetch are refused when added, not retried forever.
        for bad in ["https://[::1", "https://[::1]x/a", "http://example.org:99999/a.ics", "https://:80/a", "https:///a.ics",
                    "http://example.org:0/", "http://example.org:8o/", "https://user:pw@/x"] {
            #expect(SourcePlanner.authorityProblem(bad) != nil, "\(bad)")
            #expect(throws: SourcePlanner.Problem.self, "\(bad)") { try SourcePlanner.plan(bad, calendar: nil, every: 900) }
        }
        for good in ["https://[::1]:8443/a.ics", "https://[::1]/a", "http://127.0.0.1:8765/x.ics?key=secret", "https://u:p@example.org/a",
                     "https://example.org", "https://example.org:443?x=1"] {
            #expect(SourcePlanner.authorityProblem(good) == nil, "\(good)")
        }
        // A secret as the last path word (issue 52): the next word, else the host.
        #expect(SourcePlanner.nameFromURL("https://cloud.example.org/remote.php/dav/public-calendars/k2nMr3D5c5k4kLPF?export")
                == "cloud.example.org")
        #expect(SourcePlanner.nameFromURL("https://example.org/team/k2nMr3D5c5k4kLPF.ics") == "team")
        #expect(SourcePlanner.nameFromURL("https://calendar.google.com/calendar/ical/me%40example.org/private-0a1b2c3d4e/basic.ics")
                == "calendar")
        #expect(SourcePlanner.nameFromURL("https://u:pw@example.org/feeds/dGhpcyBpcyBzZWNyZXQ=") == "feeds")
        for secret in ["k2nMr3D5c5k4kLPF", "private-0a1b2c3d", "0123456789abcdef", "me%40example.org", "YWJjZA=="] {
            #expect(SourcePlanner.looksSecret(secret), "\(secret)")
        }
        for word in ["holidays", "team-calendar", "work", "de", "school_2026"] {
            #expect(!SourcePlanner.looksSecret(word), "\(word)")
        }
    }
}
