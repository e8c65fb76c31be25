import Feed
import FeedProtocol
import Foundation
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif


/// Generates hostile request lines: binary garbage, deep nesting, wrong types for every
/// field, absurd views, unicode, NUL bytes, CRLF, several requests on one line, and
/// random mutations of valid requests. A line never contains `\n` (the framing); huge
/// lines are sent on their own connections (see `SocketFuzz`).
struct RequestFuzzer {
    var rng: SeededRandom
    /// Calendars that exist in the daemon's database.
    var calendars: [String]
    private(set) var categoryCounts: [String: Int] = [:]

    init(seed: UInt64, calendars: [String]) {
        rng = SeededRandom(seed: seed)
        self.calendars = calendars
    }

    static let validTemplates: [String] = [
        #"{"op":"ping"}"#,
        #"{"op":"status"}"#,
        #"{"op":"snapshot","view":{"tz":"UTC","days":3}}"#,
        #"{"op":"snapshot","view":{"tz":"Europe/Berlin","days":7,"calendars":["team"],"empty_days":"placeholder"}}"#,
        #"{"op":"snapshot","view":{"tz":"UTC","from":"2026-12-01","days":2}}"#,
        #"{"op":"subscribe","view":{"tz":"UTC","days":7}}"#,
        #"{"op":"subscribe","view":{"tz":"America/New_York","past_days":2,"days":5},"resume":{"epoch":"0000","seq":3}}"#,
        #"{"op":"refresh"}"#,
        #"{"op":"ping","extra":[1,2,{"a":null}]}"#,
    ]

    static let hostileValues: [String] = [
        "null", "true", "false", "0", "-1", "1e18", "-1e18", "1e309", "-0", "0.5", "3661", "367", "9223372036854775807",
        "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890", "\"\"", "\"14\"", "[]", "{}",
        "[1,2,3]", "{\"a\":1}", "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"../../etc/passwd\"",
        "\"/etc/localtime\"", "\"Europe/../../etc/shadow\"", "\"UTC\\u0000\"", "\"🙂\"", "\"\u{202E}UTC\"",
        "\"\(String(repeating: "A", count: 5000))\"", "1.0", "1E2", "\"2026-02-30\"", "\"2026-13-01\"", "\"0000-01-01\"",
        "\"9999-12-31\"", "\"-2026-01-01\"", "\"2026-1-1\"", "\"omit\"", "\"placeholder\"", "\"OMIT\"",
    ]

    /// `"c0","c1",…` lists of 0, 1, 100 and 10,000 names (the last makes a line over 64 KiB).
    static let calendarLists: [String] = [0, 1, 100, 10_000].map { n in (0..<n).map { "\"c\($0)\"" }.joined(separator: ",") }

    static let viewFields = ["tz", "from", "past_days", "days", "calendars", "empty_days", "bogus"]
    static let ops = ["ping", "status", "refresh", "snapshot", "subscribe", "import", "remove", "delete", "exec",
                      "shutdown", "PING", "ping ", "", "sub\u{0}scribe", "💥", "__proto__", "constructor"]

    mutating func pick<T>(_ array: [T]) -> T { array[Int.random(in: 0..<array.count, using: &rng)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    /// The next line (without its newline) and its category.
    mutating func next() -> (bytes: [UInt8], category: String) {
        let category: String
        var line: [UInt8]
        switch int(0...14) {
        case 0:
            category = "binary"
            line = (0..<int(1...200)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        case 1:
            category = "nesting"
            let depth = pick([33, 64, 1000, 10_000])
            let open = pick(["[", "{\"a\":", "{\"op\":\"ping\",\"x\":"])
            line = Array((open == "[" ? String(repeating: "[", count: depth)
                          : (open == "{\"a\":" ? String(repeating: "{\"a\":", count: depth)
                             : open + String(repeating: "[", count: depth))).utf8)
            if chance(50) { line += Array(String(repeating: "]", count: depth).utf8) }
        case 2, 3:
            category = "wrong-type"
            let field = pick(["op", "view", "resume", "view.field", "resume.epoch", "resume.seq"])
            let value = pick(Self.hostileValues)
            switch field {
            case "op": line = Array("{\"op\":\(value)}".utf8)
            case "view": line = Array("{\"op\":\"\(pick(["snapshot", "subscribe"]))\",\"view\":\(value)}".utf8)
            case "resume": line = Array("{\"op\":\"subscribe\",\"resume\":\(value)}".utf8)
            case "resume.epoch": line = Array("{\"op\":\"subscribe\",\"resume\":{\"epoch\":\(value),\"seq\":1}}".utf8)
            case "resume.seq": line = Array("{\"op\":\"subscribe\",\"resume\":{\"epoch\":\"x\",\"seq\":\(value)}}".utf8)
            default:
                line = Array("{\"op\":\"snapshot\",\"view\":{\"\(pick(Self.viewFields))\":\(value)}}".utf8)
            }
        case 4, 5:
            category = "absurd-view"
            var fields: [String] = []
            for name in Self.viewFields.filter({ _ in chance(40) }) {
                switch name {
                case "tz": fields.append("\"tz\":\(pick(["\"../../etc/passwd\"", "\"\"", "\"UTC\"", "\"Europe/Berlin\"", "\"Mars/Olympus\"", "\"/etc/localtime\"", "\"posix/Europe/Berlin\"", "\"right/UTC\"", "\"\(String(repeating: "Z", count: 3000))\""]))")
                case "days": fields.append("\"days\":\(pick(["1e18", "-5", "0", "1", "3660", "3661", "14", "2147483648", "1.5"]))")
                case "past_days": fields.append("\"past_days\":\(pick(["366", "367", "-1", "0", "1e18"]))")
                case "from": fields.append("\"from\":\(pick(["\"2026-12-01\"", "\"0001-01-01\"", "\"9999-12-31\"", "\"10000-01-01\"", "\"2026-02-29\"", "\"yesterday\"", "null"]))")
                case "calendars":
                    let many = pick(Self.calendarLists)
                    fields.append("\"calendars\":\(pick(["[\(many)]", "[\"team\",\"team\"]", "[\"team\"]", "[\"../x\"]", "null", "[\"\"]"]))")
                case "empty_days": fields.append("\"empty_days\":\(pick(["\"omit\"", "\"placeholder\"", "\"all\""]))")
                default: fields.append("\"\(pick(["bogus", "__proto__", "tz ", "TZ"]))\":1")
                }
            }
            line = Array("{\"op\":\"\(pick(["snapshot", "subscribe"]))\",\"view\":{\(fields.joined(separator: ","))}}".utf8)
        case 6:
            category = "unknown-op"
            line = Array("{\"op\":\"\(pick(Self.ops))\"\(chance(30) ? ",\"calendar\":\"team\",\"path\":\"/etc/passwd\"" : "")}".utf8)
        case 7:
            category = "unicode"
            let pieces = ["\u{0}", "\u{7F}", "é", "e\u{301}", "\u{FEFF}", "\u{202E}", "🙂", "\u{10FFFF}", "\\u0000", "\\ud83d\\ude42", "\\ud800", "\u{2028}"]
            var s = "{\"op\":\""
            for _ in 0..<int(1...8) { s += pick(pieces) }
            s += "\"}"
            line = Array(s.utf8)
            if chance(30) { line.insert(pick([0xC0, 0xFF, 0xED, 0x80, 0xF4]), at: int(0...line.count)) }
        case 8:
            category = "nul"
            line = Array(pick(Self.validTemplates).utf8)
            line.insert(0, at: int(0...line.count))
        case 9:
            category = "crlf"
            line = Array(pick(Self.validTemplates).utf8) + (chance(50) ? [13] : [13, 13])
        case 10:
            category = "many-per-line"
            let count = int(2...50)
            line = (0..<count).flatMap { _ in Array(pick(Self.validTemplates).utf8) + (chance(30) ? [32] : []) }
        case 11:
            category = "blank"
            line = (0..<int(0...5)).map { _ in pick([32, 9]) }
        case 12:
            category = "valid"
            line = Array(pick(Self.validTemplates).utf8)
        default:
            category = "mutated"
            line = Array(pick(Self.validTemplates).utf8)
            for _ in 0..<int(1...6) {
                guard !line.isEmpty else { line = [123]; continue }
                let i = int(0...(line.count - 1))
                switch int(0...5) {
                case 0: line[i] ^= UInt8(1) << UInt8(int(0...7))
                case 1: line.remove(at: i)
                case 2: line.insert(pick(Array("{}[]\",:\\0123456789-eE.tfn \u{0}".utf8)), at: i)
                case 3: line.insert(contentsOf: line[i...].prefix(int(1...20)), at: i)
                case 4: line = Array(line.prefix(i))
                default: line[i] = UInt8.random(in: 0...255, using: &rng)
                }
            }
        }
        line.removeAll { $0 == 10 }
        categoryCounts[category, default: 0] += 1
        return (line, category)
    }
}

/// What the daemon must answer to one line, decided by the protocol: nothing for a
/// blank line; an error with the decoder's code; pong/ok/status; for snapshot and
/// subscribe either `invalid_view` at once, or (later, asynchronously) a snapshot.
enum ExpectedAnswer: Equatable, CustomStringConvertible {
    case nothing
    case error(String)
    case pong, ok, status
    /// `invalid_view` now, or a valid view whose answer comes asynchronously.
    case viewRequest

    init(line: [UInt8]) {
        var body = line[...]
        if body.last == 13 { body = body.dropLast() }
        if body.allSatisfy({ $0 == 32 || $0 == 9 }) { self = .nothing; return }
        switch Request.decode(body) {
        case .failure(let error): self = .error(error.code.rawValue)
        case .success(.ping): self = .pong
        case .success(.refresh): self = .ok
        case .success(.status): self = .status
        // A valid `sync` is answered asynchronously too (`synced`, when its sources are done).
        case .success(.snapshot), .success(.subscribe), .success(.sync): self = .viewRequest
        }
    }

    var description: String {
        switch self {
        case .nothing: return "nothing"
        case .error(let code): return "error \(code)"
        case .pong: return "pong"
        case .ok: return "ok"
        case .status: return "status"
        case .viewRequest: return "snapshot or invalid_view"
        }
    }
}

/// One fuzzing connection, driven synchronously with poll(2) on its own thread: it
/// writes its lines in random-sized pieces (some a byte at a time) while reading every
/// answer, and checks that the synchronous answers (error, pong, ok, status) come in
/// the order of the lines, one per line.
final class FuzzConnection {
    let fd: Int32
    var outgoing: [UInt8] = []
    var sent = 0
    var expected: [(answer: ExpectedAnswer, line: Int)] = []
    var expectedHead = 0
    var inbox: [UInt8] = []
    var problems: [String] = []
    var answers = 0
    var asyncMessages = 0
    var closedByDaemon = false
    var lastError: String?
    private var linesSeen = 0

    /// `{"type":"T"` and, for errors, `,"code":"C"` at the start of a message.
    static func typeAndCode(_ line: ArraySlice<UInt8>) -> (String, String?)? {
        let prefix = Array(#"{"type":""#.utf8)
        guard line.starts(with: prefix) else { return nil }
        var i = line.startIndex + prefix.count
        guard let end = line[i...].firstIndex(of: 34) else { return nil }
        let type = String(decoding: line[i..<end], as: UTF8.self)
        guard type == "error" else { return (type, nil) }
        i = end + 1
        let codePrefix = Array(#","code":""#.utf8)
        guard line[i...].starts(with: codePrefix) else { return nil }
        i += codePrefix.count
        guard let codeEnd = line[i...].firstIndex(of: 34) else { return nil }
        return (type, String(decoding: line[i..<codeEnd], as: UTF8.self))
    }

    init(path: String) throws {
        fd = try UnixSocket.connect(path, nonBlocking: true)
    }

    deinit { close(fd) }

    /// Queues a line (a newline is added) and what it must be answered with.
    func queue(_ line: [UInt8]) {
        outgoing += line
        outgoing.append(10)
        let answer = ExpectedAnswer(line: line)
        if answer != .nothing { expected.append((answer, expected.count)) }
        if answer != .nothing && answer != .viewRequest { pendingAnswers += 1 }
    }

    /// Queues raw bytes with no expectation (a huge line is checked by the caller).
    func queueRaw(_ bytes: [UInt8]) { outgoing += bytes }

    /// Lines still owed a synchronous answer (a valid view's answer is asynchronous).
    private(set) var pendingAnswers = 0

    /// Matches one synchronous answer against the expectations.
    private func match(_ type: String, code: String?) {
        answers += 1
        while expectedHead < expected.count {
            let want = expected[expectedHead].answer
            if want == .viewRequest {
                expectedHead += 1
                if type == "error" && code == "invalid_view" { return }
                continue // a valid view: its answer is asynchronous
            }
            expectedHead += 1
            pendingAnswers -= 1
            let ok: Bool
            switch want {
            case .error(let c): ok = type == "error" && code == c
            case .pong: ok = type == "pong"
            case .ok: ok = type == "ok"
            case .status: ok = type == "status"
            default: ok = false
            }
            if !ok && problems.count < 20 {
                problems.append("line \(expected[expectedHead - 1].line): expected \(want), got \(type) \(code ?? "")")
            }
            return
        }
        if problems.count < 20 { problems.append("an answer (\(type) \(code ?? "")) with no request left to answer") }
    }

    private func consumeLines() {
        var start = 0
        while let nl = inbox[start...].firstIndex(of: 10) {
            let line = inbox[start..<nl]
            start = nl + 1
            linesSeen += 1
            // Every message starts with its type, and an error's code follows it; the
            // full parse (the slow part of this client) is done for one line in 16.
            var type = "?"
            var code: String?
            if let fast = Self.typeAndCode(line), linesSeen % 16 != 0 {
                (type, code) = fast
            } else {
                guard let message = try? JSONValue.parse(line) else {
                    if problems.count < 20 { problems.append("the daemon sent a line that is not JSON: \(String(decoding: line.prefix(200), as: UTF8.self))") }
                    continue
                }
                type = message["type"]?.stringValue ?? "?"
                code = message["code"]?.stringValue
                if let fast = Self.typeAndCode(line), fast.0 != type || fast.1 != code {
                    problems.append("message does not start with its type and code: \(String(decoding: line.prefix(200), as: UTF8.self))")
                }
            }
            switch type {
            case "error", "pong", "ok", "status":
                if type == "error" { lastError = code }
                if code == "line_too_long" || code == "overloaded" { answers += 1; continue }
                match(type, code: code)
            case "hello", "snapshot", "diff", "resync", "heartbeat", "synced":
                asyncMessages += 1
            default:
                if problems.count < 20 { problems.append("unknown message type \(type)") }
            }
        }
        inbox.removeFirst(start)
    }

    /// Writes everything queued (in pieces of `maxPiece` bytes, or byte by byte with a
    /// pause when `trickle`) while reading, until every expectation is met, the daemon
    /// closes, or `deadline` passes.
    func pump(deadline: Double, maxPiece: Int, trickle: Bool, rng: inout SeededRandom) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if sent >= outgoing.count && pendingAnswers == 0 { return }
            let now = monotonicNow()
            if now > deadline {
                problems.append("timed out: \(outgoing.count - sent) bytes unsent, \(pendingAnswers) answers missing")
                return
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN) | (sent < outgoing.count ? Int16(POLLOUT) : 0), revents: 0)
            let n = poll(&p, 1, 100)
            if n < 0 { if errno == EINTR { continue }; problems.append("poll: \(errno)"); return }
            if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let r = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if r > 0 {
                    inbox.append(contentsOf: buffer[0..<r])
                    consumeLines()
                } else if r == 0 || (errno != EAGAIN && errno != EINTR) {
                    closedByDaemon = true
                    return
                }
            }
            if sent < outgoing.count, p.revents & Int16(POLLOUT) != 0 {
                let piece = trickle ? 1 : min(outgoing.count - sent, Int.random(in: 1...maxPiece, using: &rng))
                let w = outgoing.withUnsafeBytes { send(fd, $0.baseAddress! + sent, piece, Int32(MSG_NOSIGNAL)) }
                if w > 0 { sent += w; if trickle { usleep(200) } }
                else if w < 0 && errno != EAGAIN && errno != EINTR {
                    closedByDaemon = true
                    return
                }
            }
        }
    }

    /// Reads until the daemon closes (true) or `timeout` passes (false).
    func readUntilClosed(timeout: Double) -> Bool {
        let deadline = monotonicNow() + timeout
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while monotonicNow() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 50)
            guard p.revents != 0 else { continue }
            let r = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if r > 0 { inbox.append(contentsOf: buffer[0..<r]); consumeLines(); continue }
            if r == 0 || errno == ECONNRESET { closedByDaemon = true; return true }
        }
        return false
    }
}

/// Runs a blocking body on a thread outside Swift's cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
