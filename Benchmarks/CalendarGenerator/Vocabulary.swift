// MARK: - Vocabulary

/// The words the generator writes into SUMMARY, LOCATION and DESCRIPTION, stored as
/// already-escaped UTF-8 TEXT values.
///
/// The lists deliberately mix plain ASCII with non-ASCII text (Latin accents, CJK, Hangul,
/// Cyrillic, emoji outside the BMP) and with characters that TEXT escaping must handle
/// (commas, semicolons, backslashes, line feeds).
struct Vocabulary: Sendable {

    // MARK: - Shared instance

    /// The single, immutable vocabulary.
    static let shared = Vocabulary()

    /// Escaped summaries of timed events.
    let summaries: [[UInt8]]
    /// Escaped summaries of all-day events.
    let allDaySummaries: [[UInt8]]
    /// Escaped summaries of travel (cross-zone) events, ``travelTemplates`` × 4 × 4,
    /// indexed by template, departure zone and arrival zone.
    let travelSummaries: [[UInt8]]
    /// The number of travel summary templates.
    static let travelTemplates = 4
    /// Escaped locations.
    let locations: [[UInt8]]
    /// Escaped description sentences.
    let sentences: [[UInt8]]
    /// Escaped prefixes for the summaries of moved overrides (`"Moved: "`…).
    let movedPrefixes: [[UInt8]]
    /// Escaped prefix for the summaries of cancelled overrides.
    let cancelledPrefix: [UInt8]

    private init() {
        summaries = Self.summaryTexts.map(ContentLineWriter.escapedText)
        allDaySummaries = Self.allDaySummaryTexts.map(ContentLineWriter.escapedText)
        travelSummaries = Self.travelTemplateTexts.flatMap { template in
            GeneratorZone.allCases.flatMap { from in
                GeneratorZone.allCases.map { to in
                    ContentLineWriter.escapedText(template(Self.cityNames[from.rawValue],
                                                           Self.cityNames[to.rawValue]))
                }
            }
        }
        locations = Self.locationTexts.map(ContentLineWriter.escapedText)
        sentences = Self.sentenceTexts.map(ContentLineWriter.escapedText)
        movedPrefixes = Self.movedPrefixTexts.map(ContentLineWriter.escapedText)
        cancelledPrefix = ContentLineWriter.escapedText("Cancelled: ")
    }

    /// The number of summaries to choose from for events of `shape`.
    func summaryCount(for shape: EventShape) -> Int {
        switch shape {
        case .allDay, .multiDayAllDay: return allDaySummaries.count
        case .crossZone: return Self.travelTemplates
        default: return summaries.count
        }
    }

    /// Summary `index` (below ``summaryCount(for:)``) of an event with `timing`.
    func summary(_ index: Int, shape: EventShape, timing: EventTiming) -> [UInt8] {
        switch shape {
        case .allDay, .multiDayAllDay:
            return allDaySummaries[index]
        case .crossZone:
            guard case .zone(let from) = timing.base,
                  case .dtend(_, let to?) = timing.end
            else { preconditionFailure("travel events start and end in zones") }
            return travelSummaries[index * 16 + from.rawValue * 4 + to.rawValue]
        default:
            return summaries[index]
        }
    }

    // MARK: - Summaries

    private static let summaryTexts: [String] = [
        "Team standup",
        "Sprint planning",
        "Sprint review",
        "Retrospective",
        "Design review",
        "1:1 with Maria",
        "1:1 with Kenji",
        "Architecture sync",
        "Customer call",
        "Interview: backend engineer",
        "Lunch",
        "Lunch with the Berlin team",
        "Dentist",
        "Gym",
        "Yoga class",
        "Pick up kids",
        "Grocery run",
        "Quarterly business review",
        "Board meeting",
        "All hands",
        "Release planning",
        "Incident postmortem",
        "Café with Jürgen",
        "Zürich office visit",
        "Réunion d'équipe",
        "Kraków partner workshop",
        "Año nuevo planning",
        "東京チーム定例",
        "東京 office sync",
        "서울 본사 회의",
        "Встреча с клиентом",
        "Launch party 🎉",
        "Coffee ☕ break",
        "Budget review, Q3",
        "Hiring sync, EMEA, APAC",
        "Release 2.1; go/no-go",
        "Ops handover; pager rotation",
        "Backup C:\\Projects\\2025",
        "Review \\ refactor, part 2; wrap-up",
        "Train to Hamburg",
        "On call",
        "Focus time",
        "Deadline: tax return",
        "Night shift",
        "Server migration, phase 2",
    ]

    private static let allDaySummaryTexts: [String] = [
        "Birthday: Anna",
        "Vacation",
        "Public holiday",
        "Out of office",
        "Conference",
        "Company offsite, day 1",
        "Hackathon; bring snacks",
        "Tag der Deutschen Einheit",
        "Fête nationale",
        "설날 (Seollal)",
        "元日",
        "Trip to Zürich",
        "Moving day \\ boxes, tape",
        "Sick leave",
        "Working from home",
        "Release freeze",
    ]

    private static let cityNames = ["Berlin", "New York", "Sydney", "Seoul (서울)"]

    private static let travelTemplateTexts: [@Sendable (String, String) -> String] = [
        { "Flight \($0) → \($1)" },
        { "Red-eye: \($0) – \($1); seat 42K" },
        { "Trip \($0), \($1)" },
        { "✈ \($1) (from \($0))" },
    ]

    // MARK: - Locations

    private static let locationTexts: [String] = [
        "Room 4",
        "Room 12, 3rd floor",
        "Main conference room",
        "Café Central, Herrengasse 14, Wien",
        "Zürich HB, Gleis 7",
        "東京オフィス 5F",
        "서울 강남구 테헤란로 152",
        "Kraków, ul. Floriańska 3",
        "https://meet.example.com/abc-defg-hij",
        "Zoom; ID 123 456 7890",
        "Home office",
        "Building B\\Wing 2",
        "Gate A12, BER",
        "JFK Terminal 4",
        "Sydney Opera House, Bennelong Point",
    ]

    // MARK: - Description sentences

    private static let sentenceTexts: [String] = [
        "Please review the agenda beforehand.",
        "Bring your laptop, charger and the printed handouts.",
        "Dial-in details are in the invitation; the PIN is 4711.",
        "Agenda:\n1. Status\n2. Risks; mitigations\n3. AOB",
        "We will go through last quarter's numbers, the forecast and open questions.",
        "Bitte Unterlagen mitbringen: Präsentation, Zahlen für Q3, Budgetplan.",
        "Rendez-vous à l'accueil, côté gare; le café est offert.",
        "会議室は3階です。資料は共有フォルダにあります。",
        "회의 자료는 공유 드라이브에 있습니다.",
        "Пожалуйста, подготовьте отчёт заранее.",
        "Notes are kept in \\\\fileserver\\team\\notes.",
        "Parking is available behind building B.",
        "If you cannot attend, send a delegate or leave comments in the doc.",
        "This meeting is recorded.",
        "Lunch will be provided 🍕.",
        "Remember the time difference: Sydney is 9–11 hours ahead of Berlin.",
        "Follow-up from last week's discussion, see the thread in #planning.",
        "Dress code: smart casual.",
        "Travel: S-Bahn S9 to the airport, then the shuttle bus.",
        "Kickoff, deep dive, wrap-up; each about 20 minutes.",
    ]

    // MARK: - Override prefixes

    private static let movedPrefixTexts: [String] = [
        "Moved: ",
        "Rescheduled — ",
        "Verschoben: ",
        "(new time) ",
    ]
}
