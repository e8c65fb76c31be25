import CanonicalJSON
import Digests
import FeedProtocol

/// One view as every host names it: its canonical parameters (the `view` object of a
/// `subscribe` request, calendars sorted and without repeats, in canonical JSON) and the
/// key derived from them. eventd and every gateway derive the same key from the same
/// parameters, whichever order a URL gave them in.
public struct PublishedView: Sendable, Hashable, CustomStringConvertible {
    /// The canonical parameters, as the `subscribe` request's `view`.
    public let view: ViewFields
    /// `view` in canonical JSON: the member of the wanted set.
    public let canonical: String
    /// The first 32 hex digits of the SHA-256 of `canonical`: the `K` of `PREFIX:view:K`.
    public let key: String

    /// The published view for a `subscribe` request's `view` object.
    public init(view: ViewFields) {
        self.view = view.withCalendarSet
        canonical = self.view.json.canonicalString()
        key = String(SHA256.hexDigest(canonical).prefix(32))
    }

    /// A member of the wanted set (canonical JSON of a view object); nil when it is not one.
    public init?(wantedMember bytes: [UInt8]) {
        guard let value = try? JSONParser(maxDepth: 4).parse(bytes), value.objectValue != nil else { return nil }
        self.init(view: ViewFields(value))
    }

    public var description: String { "view \(key) \(canonical)" }
}

/// The Redis keys of the feed, all under one prefix (`eventd:` by default).
public struct FeedKeys: Sendable, Equatable {
    /// The prefix, with its trailing colon.
    public let prefix: String

    /// `eventd:`, the default prefix.
    public static let defaultPrefix = "eventd:"

    /// Keys under `prefix` (a colon is added when it does not end in one).
    public init(prefix: String = FeedKeys.defaultPrefix) {
        self.prefix = prefix.hasSuffix(":") ? prefix : prefix + ":"
    }

    /// The view's stream: one entry per feed message.
    public func stream(_ view: PublishedView) -> String { prefix + "view:" + view.key }
    /// The view's latest snapshot line.
    public func snapshot(_ view: PublishedView) -> String { prefix + "view:" + view.key + ":snapshot" }
    /// The sorted set of wanted views (score: expiry, Unix milliseconds), also the
    /// channel on which a gateway announces a view it starts wanting.
    public var wanted: String { prefix + "wanted" }
    /// eventd's status, redacted (`StatusKey`).
    public var status: String { prefix + "status" }
}
