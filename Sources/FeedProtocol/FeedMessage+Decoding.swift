import CanonicalJSON

extension FeedMessage {
    /// Why a line is not a feed message.
    public struct Malformed: Error, CustomStringConvertible, Sendable {
        public var description: String

        /// A failure saying `description`.
        public init(_ description: String) { self.description = description }
    }

    /// Decodes one message line (without its newline).
    public static func decode(_ line: some Collection<UInt8>) throws(Malformed) -> FeedMessage {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line, maxDepth: 64)
        } catch {
            throw Malformed("not JSON: \(error.message) at byte \(error.offset)")
        }
        return try FeedMessage(json: value)
    }

    /// The message a parsed line holds.
    public init(json: JSONValue) throws(Malformed) {
        guard case .object(var fields) = json, let type = fields["type"]?.stringValue else {
            throw Malformed("a message must be a JSON object with a string \"type\"")
        }
        func string(_ key: String) throws(Malformed) -> String {
            guard let s = fields[key]?.stringValue else { throw Malformed("\(type) without a string \"\(key)\"") }
            return s
        }
        func int(_ key: String) throws(Malformed) -> Int64 {
            guard let n = fields[key]?.intValue else { throw Malformed("\(type) without an integer \"\(key)\"") }
            return n
        }
        switch Kind(rawValue: type) {
        case .hello:
            self = .hello(Hello(epoch: try string("epoch"), protocolVersion: fields["protocol"]?.intValue ?? 0,
                                server: fields["server"]?.stringValue ?? ""))
        case .snapshot:
            guard let sections = fields["sections"]?.arrayValue else { throw Malformed("snapshot without \"sections\"") }
            do {
                self = .snapshot(try Snapshot(digest: try string("digest"), epoch: try string("epoch"), sectionObjects: sections,
                                              seq: try int("seq"), view: ViewFields(fields["view"] ?? .null),
                                              protocolVersion: fields["protocol"]?.intValue ?? 1))
            } catch let failure as Malformed {
                throw failure
            } catch {
                throw Malformed("snapshot: \(error)")
            }
        case .diff:
            guard let json = fields["changes"], json.objectValue != nil else { throw Malformed("diff without \"changes\"") }
            let changes: FeedModelChanges
            do { changes = try FeedChanges.read(json) } catch { throw Malformed("diff: \(error)") }
            self = .diff(Diff(baseSeq: try int("base_seq"), changes: changes, digest: try string("digest"),
                              epoch: try string("epoch"), seq: try int("seq"),
                              protocolVersion: fields["protocol"]?.intValue ?? 1))
        case .heartbeat:
            self = .heartbeat(Heartbeat(epoch: try string("epoch"), seq: try int("seq"), time: fields["time"]?.stringValue ?? ""))
        case .resync:
            self = .resync(reason: ResyncReason(fields["reason"]?.stringValue ?? ""))
        case .error:
            self = .error(RequestError(code: ErrorCode(fields["code"]?.stringValue ?? "error"), message: fields["message"]?.stringValue ?? "",
                                       unknownCalendar: fields["unknown_calendar"]?.stringValue))
        case .ok:
            self = .ok
        case .pong:
            self = .pong
        case .synced:
            self = .synced(sources: (fields["sources"]?.arrayValue ?? []).map(SyncOutcome.init))
        case .calendars:
            self = .calendars(CalendarList(names: fields["names"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                                           colors: fields["colors"]?.objectValue?.compactMapValues(\.stringValue) ?? [:]))
        case .status:
            fields["type"] = nil
            self = .status(FeedStatus(fields: fields))
        case nil:
            self = .other(type: type, json)
        }
    }
}
