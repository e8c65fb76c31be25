import Testing
@testable import Feed

/// Shorthands of the hub tests' clients: a connection past its hello, resume requests,
/// and the answer a client is owed after it closed its side.
extension HubHarness {
    /// A new connection whose `hello` has been read (and dropped).
    mutating func connectPastHello() -> ConnectionID {
        let id = connect()
        _ = kinds(id)
        return id
    }

    /// A subscribe of the default Berlin view that resumes from `seq` of `epoch`.
    static func resume(epoch: String, seq: Int) -> String {
        #"{"op":"subscribe","view":{"tz":"Europe/Berlin"},"resume":{"epoch":"\#(epoch)","seq":\#(seq)}}"#
    }

    /// A client asks with `line`, then closes its side before the answer: it stays open
    /// until `answer` (made from the hub as it then is) is handled, receives `expected`,
    /// and is then closed.
    mutating func expectAnswerAfterPeerClosed(asking line: String, answer: (HubHarness) -> FeedEvent,
                                              receives expected: [String],
                                              sourceLocation: SourceLocation = #_sourceLocation) {
        let c = connectPastHello()
        request(c, line)
        handle(.connection(.peerClosed(c)))
        #expect(!closed.contains(c), "closed before its answer", sourceLocation: sourceLocation)
        handle(answer(self))
        #expect(kinds(c) == expected, sourceLocation: sourceLocation)
        #expect(closed.contains(c), "not closed after its answer", sourceLocation: sourceLocation)
    }
}
