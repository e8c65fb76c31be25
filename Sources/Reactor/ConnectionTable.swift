/// A hash table keyed by connection id (`Int`, never `Int.min`): what the loops keep per
/// connection (the reactor's descriptors, the feed hub's connections and timers).
///
/// Why not `Dictionary`: an idle daemon with 10,000 subscribers sends 333 heartbeats a
/// second, and each goes through a dozen lookups by connection. With `Dictionary`, every
/// one hashes its `Int` with SipHash; perf showed the hashing and the probing at about a
/// sixth of the event loop's CPU while idle. Here the key is mixed with one
/// multiplication (Fibonacci hashing: ids are the daemon's own counter, never a
/// client's choice, so nothing needs a keyed hash), probed linearly, and removed by
/// shifting back the entries after it, so there are no tombstones to grow or sweep.
///
/// The values themselves sit in a dense array (a removal moves the last one into the
/// gap), so that `withValue` and `[live:]` change a value where it is: an optional per
/// slot had to be moved out and back, and a large value (a connection) then cost two
/// copies of its bytes per access. At most three quarters full, like `Dictionary`.
///
/// Everything is `@inlinable`: the hub's lookups are its hot path, and a generic type
/// from another module is otherwise called unspecialised, through witness tables.
public struct ConnectionTable<Value> {
    /// The open-addressing slots: an id and where its value is, or `empty`.
    @usableFromInline var slots: [(id: Int, dense: Int)]
    /// The values, and their ids in the same order.
    @usableFromInline var ids: [Int] = []
    @usableFromInline var dense: [Value] = []
    /// log2 of the number of slots.
    @usableFromInline var bits: Int

    @usableFromInline static var empty: (id: Int, dense: Int) { (.min, -1) }

    /// An empty table.
    @inlinable public init() {
        bits = 4
        slots = Array(repeating: Self.empty, count: 1 << bits)
    }

    /// How many ids the table holds.
    @inlinable public var count: Int { dense.count }
    /// Whether the table holds no id.
    @inlinable public var isEmpty: Bool { dense.isEmpty }

    @inlinable var mask: Int { (1 << bits) - 1 }

    /// The slot `id` would have with nothing in the way: the multiplication's top bits.
    @inlinable func home(_ id: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(id)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// The slot holding `id`, or nil.
    @inlinable func slot(of id: Int) -> Int? {
        var i = home(id)
        while true {
            let entry = slots[i]
            if entry.dense < 0 { return nil }
            if entry.id == id { return i }
            i = (i + 1) & mask
        }
    }

    /// Whether `id` is in the table (without copying its value out, as `table[id] != nil`
    /// does).
    @inlinable public func contains(_ id: Int) -> Bool { slot(of: id) != nil }

    /// Reads, writes and removes (nil) as `Dictionary` does. Changing one field this way
    /// copies the whole value out and back: use `withValue` or `[live:]` for that.
    @inlinable public subscript(id: Int) -> Value? {
        get { slot(of: id).map { dense[slots[$0].dense] } }
        set {
            if let newValue { insert(newValue, for: id) } else { removeValue(forKey: id) }
        }
    }

    /// The value of `id`, which must be in the table, read or changed in place
    /// (`table[live: id].input.append(…)` appends to the stored array itself).
    @inlinable public subscript(live id: Int) -> Value {
        _read { yield dense[slots[slot(of: id)!].dense] }
        _modify { yield &dense[slots[slot(of: id)!].dense] }
    }

    /// Runs `body` on the value of `id` in place; nil when there is none.
    @discardableResult
    @inlinable public mutating func withValue<R>(_ id: Int, _ body: (inout Value) -> R) -> R? {
        guard let i = slot(of: id) else { return nil }
        return body(&dense[slots[i].dense])
    }

    @inlinable mutating func insert(_ value: Value, for id: Int) {
        if let i = slot(of: id) {
            dense[slots[i].dense] = value
            return
        }
        precondition(id != Self.empty.id, "Int.min is the table's empty mark")
        if (count + 1) * 4 > slots.count * 3 { grow() }
        place(id, dense: dense.count)
        ids.append(id)
        dense.append(value)
    }

    /// Puts `id` in the first free slot from its home.
    @inlinable mutating func place(_ id: Int, dense index: Int) {
        var i = home(id)
        while slots[i].dense >= 0 { i = (i + 1) & mask }
        slots[i] = (id, index)
    }

    /// Removes `id`; returns its value, if it had one.
    @discardableResult
    @inlinable public mutating func removeValue(forKey id: Int) -> Value? {
        guard let i = slot(of: id) else { return nil }
        let removed = dense[slots[i].dense]
        remove(slot: i)
        return removed
    }

    /// Removes the entry in `slot` and its value.
    @inlinable mutating func remove(slot: Int) {
        let d = slots[slot].dense
        var hole = slot
        slots[hole] = Self.empty
        // Shift back every entry of the run after the hole that may move into it (its
        // home is not in the cyclic range after the hole up to where it sits), so that a
        // lookup never stops at the hole before reaching it.
        var i = (hole + 1) & mask
        while slots[i].dense >= 0 {
            let h = home(slots[i].id)
            let stays = hole <= i ? (hole < h && h <= i) : (hole < h || h <= i)
            if !stays {
                slots[hole] = slots[i]
                slots[i] = Self.empty
                hole = i
            }
            i = (i + 1) & mask
        }
        // The last value moves into the gap; its slot is told where it went.
        let last = dense.count - 1
        if d != last {
            dense.swapAt(d, last)
            ids.swapAt(d, last)
            slots[self.slot(of: ids[d])!].dense = d
        }
        dense.removeLast()
        ids.removeLast()
    }

    @inlinable mutating func grow() {
        bits += 1
        slots = Array(repeating: Self.empty, count: 1 << bits)
        for (index, id) in ids.enumerated() { place(id, dense: index) }
    }

    /// Every id in the table (in no particular order).
    @inlinable public var keys: [Int] { ids }

    /// Every value (in no particular order).
    @inlinable public var values: [Value] { dense }
}
