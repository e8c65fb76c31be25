import Testing
@testable import ICalendar

/// `ZoneRegistry`'s bound: past its capacity the oldest registration goes; `forget`
/// drops definitions at once, and one registered again is as new.
@Suite struct ZoneRegistryBoundTests {
    static func text(_ n: Int) -> String {
        FileZoneTests.definition("Bound/\(n)", offset: "+0\(n % 9 + 1)00").map { $0 + "\r\n" }.joined()
    }

    @Test func theOldestRegistrationGivesWay() throws {
        let registry = ZoneRegistry(capacity: 2)
        let keys = (0..<4).map { "vtz:bound-\($0)" }
        try #require(registry.register(text: Self.text(0), key: keys[0]) != nil)
        registry.register(text: Self.text(1), key: keys[1])
        registry.register(text: Self.text(2), key: keys[2])
        #expect(!registry.isLoaded(keys[0]) && registry.isLoaded(keys[1]) && registry.isLoaded(keys[2]))
        #expect(registry.definitionCount == 2)
        // keys[1] forgotten and registered again: now the newest, so keys[2] goes next.
        registry.forget([keys[1]])
        #expect(!registry.isLoaded(keys[1]) && registry.definitionCount == 1)
        registry.register(text: Self.text(1), key: keys[1])
        registry.register(text: Self.text(3), key: keys[3])
        #expect(registry.isLoaded(keys[1]) && !registry.isLoaded(keys[2]) && registry.isLoaded(keys[3]))
        #expect(registry.definitionCount == 2)
    }
}
