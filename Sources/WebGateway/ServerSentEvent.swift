/// The Server-Sent Events framing of feed messages (docs/web-gateway.md): `event:` the
/// message's `type`, `data:` its NDJSON line (one line: the feed never puts a newline
/// inside one), and for `snapshot` and `diff` an `id:` of `EPOCH.SEQ`.
public enum ServerSentEvent {
    /// One event.
    public static func frame(event: String, id: String?, data: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + event.utf8.count + (id?.utf8.count ?? 0) + 24)
        bytes += Array("event: \(event)\n".utf8)
        if let id { bytes += Array("id: \(id)\n".utf8) }
        bytes += Array("data: ".utf8)
        bytes += data
        bytes += [10, 10]
        return bytes
    }

    /// A comment: ignored by EventSource, it keeps proxies and NAT from timing out.
    public static let keepAlive: [UInt8] = Array(": keep-alive\n\n".utf8)

    /// How long EventSource waits before it reconnects.
    public static func retry(milliseconds: Int) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }

    /// The event id of a feed position.
    public static func id(epoch: String, seq: Int64) -> String { "\(epoch).\(seq)" }

    /// The feed position of a `Last-Event-ID` (`EPOCH.SEQ`), or nil when malformed.
    public static func position(lastEventID: String) -> (epoch: String, seq: Int64)? {
        guard let dot = lastEventID.lastIndex(of: ".") else { return nil }
        let epoch = String(lastEventID[..<dot])
        guard !epoch.isEmpty, epoch.utf8.count <= 128,
              epoch.utf8.allSatisfy({ HTTPHeadParser.isTokenByte($0) && $0 != UInt8(ascii: ".") }),
              let seq = Int64(lastEventID[lastEventID.index(after: dot)...]), seq >= 0 else { return nil }
        return (epoch, seq)
    }
}
