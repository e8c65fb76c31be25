import Synchronization

/// Every zone eventd has met, by key: system zones by IANA name, in-file definitions
/// by `vtz:HASH` of their text. Definitions are registered when a file is parsed or
/// when the store loads them; the same text always gets the same key.
public final class ZoneRegistry: ZoneResolver, Sendable {
    /// The process-wide registry.
    public static let shared = ZoneRegistry()

    private let definitions = Mutex<[String: Zone]>([:])

    /// An empty registry (tests; eventd uses `shared`).
    public init() {}

    /// The zone stored under `key`, or nil when it is an unknown system name or a
    /// definition that has not been registered.
    public func zone(forKey key: String) -> Zone? {
        if key.hasPrefix("vtz:") {
            return definitions.withLock { $0[key] }
        }
        return Zone.fixed(key: key) ?? Zone.system(key)
    }

    /// True when `key` can be resolved without loading anything.
    public func isLoaded(_ key: String) -> Bool {
        !key.hasPrefix("vtz:") || definitions.withLock { $0[key] != nil }
    }

    /// Creates (once) the zone for VTIMEZONE `text` under `key`.
    @discardableResult
    public func register(text: String, key: String) -> Zone? {
        if let existing = definitions.withLock({ $0[key] }) { return existing }
        guard let zone = Zone.definition(text, key: key) else { return nil }
        return definitions.withLock { table in
            if let existing = table[key] { return existing }
            table[key] = zone
            return zone
        }
    }
}
