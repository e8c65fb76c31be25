import Foundation
import Testing
import TestSupport
@testable import LiveSources

/// Issue 52, point 9: a feed's redirect may not lead from a public host to this machine
/// or a private network, and header values with control characters are never sent back.
/// (Tests stay on loopback: the first host is called public by the test's classifier.)
@Suite struct RedirectPolicyTests {
    @Test(arguments: [("127.0.0.1", AddressClass.internalHost), ("127.8.9.1", .internalHost), ("::1", .internalHost),
                      ("0.0.0.0", .internalHost), ("::", .internalHost), ("169.254.169.254", .internalHost),
                      ("fe80::1", .internalHost), ("10.1.2.3", .internalHost), ("172.16.0.1", .internalHost),
                      ("172.31.255.255", .internalHost), ("192.168.1.1", .internalHost), ("100.64.0.1", .internalHost),
                      ("fd12:3456::1", .internalHost), ("::ffff:127.0.0.1", .internalHost), ("::ffff:10.0.0.1", .internalHost),
                      ("93.184.216.34", .publicHost), ("172.32.0.1", .publicHost), ("100.128.0.1", .publicHost),
                      ("2606:4700::1111", .publicHost), ("::ffff:8.8.8.8", .publicHost), ("not an address", .internalHost)])
    func addressesAreClassified(_ ip: String, _ expected: AddressClass) {
        #expect(AddressClass(ip: ip) == expected, "\(ip)")
    }

    @Test func onlyPublicToInternalIsRefused() {
        #expect(!RedirectPolicy.allows(first: .publicHost, next: .internalHost))
        #expect(RedirectPolicy.allows(first: .publicHost, next: .publicHost))
        #expect(RedirectPolicy.allows(first: .internalHost, next: .internalHost))
        #expect(RedirectPolicy.allows(first: .internalHost, next: .publicHost))
    }

    /// The first request's address is called public; the redirect's (the same loopback
    /// server, the real class) is internal: refused, as it is not without a redirect.
    @Test func aRedirectFromAPublicHostToLoopbackIsRefused() throws {
        let server = try LocalHTTPServer()
        try server.serve("r.ics", Fixture.calendar(1))
        final class Calls: @unchecked Sendable { // @unchecked: used by one transfer's thread at a time
            var count = 0
        }
        let calls = Calls()
        let firstIsPublic: @Sendable (String) -> AddressClass = { ip in
            calls.count += 1
            return calls.count == 1 ? .publicHost : AddressClass(ip: ip)
        }
        let direct = try HTTPFetcher(classify: firstIsPublic)
        guard case .body = try direct.fetch(server.url("/files/r.ics"), etag: nil, lastModified: nil) else {
            Issue.record("no body"); return
        }
        calls.count = 0
        let fetcher = try HTTPFetcher(classify: firstIsPublic)
        #expect {
            _ = try fetcher.fetch(server.url("/redirect/1/r.ics?key=secret"), etag: nil, lastModified: nil)
        } throws: { error in
            guard let failure = error as? FetchFailure else { return false }
            return failure.kind == .redirectRefused && failure.message.contains("127.0.0.1") && !failure.message.contains("secret")
        }
        // With the real classes (all loopback), the same redirect is followed.
        guard case .body = try HTTPFetcher().fetch(server.url("/redirect/1/r.ics"), etag: nil, lastModified: nil) else {
            Issue.record("no body"); return
        }
    }

    @Test func anETagWithACarriageReturnIsNotKeptNorSent() throws {
        let server = try LocalHTTPServer()
        let result = try HTTPFetcher().fetch(server.url("/badetag"), etag: nil, lastModified: nil)
        guard case .body(_, let etag, _) = result else { Issue.record("no body"); return }
        #expect(etag == nil)
        #expect(!Transfer.isSafeHeaderValue("\"a\rb\"") && !Transfer.isSafeHeaderValue("a\nb") && Transfer.isSafeHeaderValue("\"abc\""))
    }
}
