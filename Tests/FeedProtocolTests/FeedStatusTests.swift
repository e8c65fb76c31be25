import Testing
import CanonicalJSON
import FeedProtocol

/// The typed `status` and `synced` answers, decoded from lines as eventd writes them.
@Suite struct FeedStatusTests {
    static let statusLine = ##"{"type":"status","calendar_colors":{"home":"#3a87ad","work":7},"calendar_names":["home","work"],"calendars":2,"connections":3,"database":"/home/a/.local/share/eventd/events.db","epoch":"e1","events":42,"healthy":true,"history":{"kept":5},"last_recompute":{"duration_ms":1.5,"time":"2026-11-30T08:00:00Z"},"socket":"/run/user/1000/eventd/feed.sock","sources":[{"calendar":"work","events":12,"failures":0,"kind":"url","last_attempt":"2026-11-30T07:59:00Z","last_error":null,"last_success":"2026-11-30T07:59:00Z","location":"https://cal.example/","name":"work","next_attempt":"2026-11-30T08:14:00Z"}],"subscribers":2,"uptime_seconds":3600,"version":"0.9.0","views":1,"zz_newer":"ignored"}"##

    @Test func aStatusAnswerDecodesToItsFields() throws {
        let message = try FeedMessage.decode(Array(Self.statusLine.utf8))
        let status = try #require(FeedStatus(message))
        #expect(status.version == "0.9.0" && status.epoch == "e1" && status.uptimeSeconds == 3600)
        #expect(status.views == 1 && status.subscribers == 2 && status.connections == 3)
        #expect(status.events == 42 && status.calendars == 2 && status.healthy == true)
        #expect(status.database == "/home/a/.local/share/eventd/events.db")
        #expect(status.socket == "/run/user/1000/eventd/feed.sock")
        #expect(status.calendarNames == ["home", "work"])
        // A colour that is not text is left out; the others stay.
        #expect(status.calendarColors == ["home": "#3a87ad"])
        #expect(status.lastRecompute?.time == "2026-11-30T08:00:00Z" && status.lastRecompute?.durationMS == 1.5)
        #expect(status.problem == nil)
        #expect(status.sources.count == 1)
        let source = try #require(status.sources.first)
        #expect(source.name == "work" && source.kind == "url" && source.location == "https://cal.example/")
        #expect(source.calendar == "work" && source.events == 12 && source.failures == 0)
        #expect(source.lastAttempt == "2026-11-30T07:59:00Z" && source.nextAttempt == "2026-11-30T08:14:00Z")
        #expect(source.lastError == nil)
        // The fields as they came, unknown ones too, for --json.
        guard case .status(let decoded) = message else { Issue.record("not a status"); return }
        #expect(status == decoded)
        #expect(status.json["zz_newer"] == "ignored")
    }

    @Test func missingStatusFieldsAreNil() {
        let status = FeedStatus(fields: ["epoch": "e", "last_recompute": .null])
        #expect(status.epoch == "e" && status.version == nil && status.uptimeSeconds == nil && status.healthy == nil)
        #expect(status.lastRecompute == nil && status.calendarColors == nil)
        #expect(status.calendarNames.isEmpty && status.sources.isEmpty)
        #expect(FeedStatus(.pong) == nil)
    }

    @Test func aSyncedAnswerDecodesToOutcomes() throws {
        let line = #"{"type":"synced","sources":[{"changed":true,"name":"home","ok":true,"status":{"calendar":"home","events":3,"failures":0,"kind":"file","last_attempt":"2026-11-30T08:00:00Z","last_error":null,"last_success":"2026-11-30T08:00:00Z","location":"home.ics","name":"home","next_attempt":null},"summary":"1 added, 0 updated, 0 removed"},{"changed":false,"failure":"unreachable","name":"work","ok":false,"status":{"name":"work","last_error":"connection refused"},"summary":"connection refused","zz_newer":1},{"changed":false,"name":"nope","ok":false,"status":null,"summary":"no source named \"nope\""},{"name":"bare"}]}"#
        guard case .synced(let outcomes) = try FeedMessage.decode(Array(line.utf8)) else { Issue.record("not synced"); return }
        let objects = try JSONValue.parse(Array(line.utf8), maxDepth: 16)["sources"]?.arrayValue
        #expect(outcomes.map(\.name) == ["home", "work", "nope", "bare"])
        #expect(outcomes.map(\.ok) == [true, false, false, nil])
        #expect(outcomes.map(\.changed) == [true, false, false, nil])
        #expect(outcomes.map(\.failure) == [nil, "unreachable", nil, nil])
        #expect(outcomes[0].summary == "1 added, 0 updated, 0 removed" && outcomes[3].summary == nil)
        #expect(outcomes[0].status?.events == 3 && outcomes[0].status?.kind == "file" && outcomes[0].status?.nextAttempt == nil)
        #expect(outcomes[1].status?.lastError == "connection refused" && outcomes[1].status?.events == nil)
        // `status` null (no such source) and missing both read as nil.
        #expect(outcomes[2].status == nil && outcomes[3].status == nil)
        #expect(outcomes.map(\.json) == objects)
    }

    @Test func viewFieldsEncodeWhatIsSetAndDecodeBack() {
        let fields = ViewFields(tz: "Europe/Berlin", from: "2026-11-30", days: 7, pastDays: 1, calendars: ["work"], emptyDays: "placeholder")
        #expect(fields.json.canonicalString()
            == #"{"calendars":["work"],"days":7,"empty_days":"placeholder","from":"2026-11-30","past_days":1,"tz":"Europe/Berlin"}"#)
        #expect(ViewFields(fields.json) == fields)
        #expect(ViewFields().json == .object([:]))
        // A member of another type, or one this client does not know, is kept as it came
        // (eventd names it when it refuses the view), a `null` too.
        let odd: ViewFields = ["tz": 1, "newer": true, "from": .null, "days": 2]
        #expect(odd.tz == nil && odd.days == 2 && odd.otherMembers == ["tz": 1, "newer": true, "from": .null])
        #expect(odd.json == ["tz": 1, "newer": true, "from": .null, "days": 2])
        #expect(ViewFields([1]).notAnObject == [1] && ViewFields([1]).json == [1])
        #expect((["calendars": ["b", "a", "b"], "newer": 1] as ViewFields).withCalendarSet.json == ["calendars": ["a", "b"], "newer": 1])
        #expect((["calendars": [], "days": 2] as ViewFields).withCalendarSet.json == ["days": 2])
        // An empty list names no calendar, which is not the same as naming none.
        #expect((["calendars": []] as ViewFields).json == ["calendars": []] && ViewFields(calendars: []).json == .object([:]))
    }

    @Test func aDaysLabelReads() {
        let day = FeedDay(["date": "2026-11-30", "id": "2026-11-30", "items": [["id": "a"]], "label": "today"])
        #expect(day.id == "2026-11-30" && day.date == "2026-11-30" && day.label == "today")
        // The items are the section's, not the header's.
        #expect(day == FeedDay(["date": "2026-11-30", "id": "2026-11-30", "label": "today"]))
        #expect(day == FeedDay(date: "2026-11-30", label: "today"))
        #expect(FeedDay(["date": "2026-11-30"]).label == nil)
    }
}
