import CanonicalJSON

extension Request {
    /// Decodes one request line (without its newline).
    public static func decode(_ line: ArraySlice<UInt8>) -> Result<Request, RequestError> {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line, maxDepth: 32)
        } catch {
            return .failure(RequestError(code: .badRequest, message: "not JSON: \(error.message) at byte \(error.offset)"))
        }
        guard let object = value.objectValue else {
            return .failure(RequestError(code: .badRequest, message: "a request must be a JSON object"))
        }
        guard let opValue = object["op"] else {
            return .failure(RequestError(code: .badRequest, message: "missing \"op\""))
        }
        guard let op = opValue.stringValue else {
            return .failure(RequestError(code: .badRequest, message: "\"op\" must be a string"))
        }
        switch op {
        case "subscribe":
            var resume: Resume?
            if let r = object["resume"], !r.isNull {
                guard let epoch = r["epoch"]?.stringValue, let seq = r["seq"]?.intValue else {
                    return .failure(RequestError(code: .badRequest, message: "resume must be {\"epoch\": string, \"seq\": integer}"))
                }
                resume = Resume(epoch: epoch, seq: seq)
            }
            var version: Int64 = 1
            if let v = object["protocol"], !v.isNull {
                guard let n = v.intValue, FeedMessage.protocolVersions.contains(n) else {
                    return .failure(RequestError(code: .badRequest, message: "protocol must be 1 or 2"))
                }
                version = n
            }
            var calendars = false
            if let c = object["calendars"], !c.isNull {
                guard case .bool(let wanted) = c else {
                    return .failure(RequestError(code: .badRequest, message: "calendars must be true or false"))
                }
                calendars = wanted
            }
            return .success(.subscribe(view: object["view"].map(ViewFields.init), resume: resume, protocolVersion: version,
                                       calendars: calendars))
        case "snapshot": return .success(.snapshot(view: object["view"].map(ViewFields.init)))
        case "refresh": return .success(.refresh)
        case "status": return .success(.status)
        case "ping": return .success(.ping)
        case "sync": return decodeSync(object["sources"])
        default:
            let shown = op.count > 40 ? String(op.prefix(40)) + "…" : op
            return .failure(RequestError(code: .unknownOp, message: "unknown op \"\(shown)\""))
        }
    }
}

extension Request {
    /// Most source names one `sync` may list.
    public static let maxSyncNames = 256

    static func decodeSync(_ value: JSONValue?) -> Result<Request, RequestError> {
        guard let value, !value.isNull else { return .success(.sync(sources: [])) }
        let problem = RequestError(code: .badRequest, message: "sources must be an array of at most \(maxSyncNames) source names")
        guard let array = value.arrayValue, array.count <= maxSyncNames else { return .failure(problem) }
        var names: [String] = []
        for element in array {
            guard let name = element.stringValue, (1...64).contains(name.utf8.count) else { return .failure(problem) }
            names.append(name)
        }
        return .success(.sync(sources: names))
    }
}
