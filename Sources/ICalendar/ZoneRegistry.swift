import Synchronization

/// Every zone eventd has met, by key: system zones by IANA name, in-file definitions
/// by `vtz:HASH` of their text. A definition is registered when a parse first uses it or
/// when the store loads it for the events a query read (`EventStore.ensureZones`); the
/// same text always gets the same key.
///
/// In-file definitions are bounded: past `capacity`, the oldest registered is dropped
/// (the store loads it again when a query needs it), and the store drops those whose
/// last event went (`forget`). Far more than one database may store fit
/// (`EventStore.maxStoredZones`), so a query's zones stay while it runs.
public final class ZoneRegistry: ZoneResolver, Sendable {
    /// The process-wide registry.
    public static let shared = ZoneRegistry()

    /// Most in-file definitions held at once.
    public let capacity: Int

    private struct Table {
        /// Each definition with the serial of its registration.
        var zones: [String: (zone: Zone, serial: Int)] = [:]
        /// Registrations in order (some gone: `forget`; a key registered again has a
        /// later serial, so its earlier entry evicts nothing).
        var order: [(key: String, serial: Int)] = []
        var head = 0
        var serial = 0
    }

    private let definitions = Mutex(Table())

    /// An empty registry (tests; eventd uses `shared`).
    public init(capacity: Int = 2048) {
        self.capacity = capacity
    }

    /// The zone stored under `key`, or nil when it is an unknown system name or a
    /// definition that has not been registered.
    public func zone(forKey key: String) -> Zone? {
        if key.hasPrefix("vtz:") {
            return definitions.withLock { $0.zones[key]?.zone }
        }
        return Zone.fixed(key: key) ?? Zone.system(key)
    }

    /// True when `key` can be resolved without loading anything.
    public func isLoaded(_ key: String) -> Bool {
        !key.hasPrefix("vtz:") || definitions.withLock { $0.zones[key] != nil }
    }

    /// The number of in-file definitions held.
    public var definitionCount: Int { definitions.withLock { $0.zones.count } }

    /// Creates (once) the zone for VTIMEZONE `text` under `key`.
    @discardableResult
    public func register(text: String, key: String) -> Zone? {
        if let existing = definitions.withLock({ $0.zones[key]?.zone }) { return existing }
        guard let zone = Zone.definition(text, key: key) else { return nil }
        // Released outside the lock: freeing a zone takes libical's lock.
        var evicted: [Zone] = []
        let registered: Zone = definitions.withLock { table in
            if let existing = table.zones[key] { return existing.zone }
            while table.zones.count >= capacity, table.head < table.order.count {
                let oldest = table.order[table.head]
                if table.zones[oldest.key]?.serial == oldest.serial, let old = table.zones.removeValue(forKey: oldest.key) {
                    evicted.append(old.zone)
                }
                table.head += 1
            }
            table.serial += 1
            table.zones[key] = (zone, table.serial)
            table.order.append((key, table.serial))
            if table.head > 1024, table.head * 2 > table.order.count {
                table.order.removeFirst(table.head)
                table.head = 0
            }
            return zone
        }
        evicted.removeAll()
        return registered
    }

    /// Drops the definitions under `keys` (their last event went).
    public func forget<S: Sequence>(_ keys: S) where S.Element == String {
        var dropped: [Zone] = []
        definitions.withLock { table in
            for key in keys { if let held = table.zones.removeValue(forKey: key) { dropped.append(held.zone) } }
            // The order keeps only registrations still held once it is mostly stale.
            if table.order.count - table.head > 2 * max(table.zones.count, 512) {
                table.order = table.order[table.head...].filter { table.zones[$0.key]?.serial == $0.serial }
                table.head = 0
            }
        }
        dropped.removeAll()
    }
}
