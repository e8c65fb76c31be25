import Reactor
import Testing
import TestSupport

/// `ConnectionTable` against `Dictionary`, the model: the same answers after any mix of
/// inserts, in-place changes and removals, through growth and the back-shifting removal.
@Suite struct ConnectionTableTests {
    @Test func agreesWithADictionary() {
        var rng = SeededRandom(seed: 31)
        for round in 0..<60 {
            var table = ConnectionTable<[Int]>()
            var model: [Int: [Int]] = [:]
            // Small key ranges force long runs and wrap-around; large ones force growth.
            let range = [8, 64, 3000][round % 3]
            for step in 0..<2000 {
                let id = rng.below(range) - range / 4 // negative ids too
                switch rng.below(5) {
                case 0, 1:
                    table[id] = [step]
                    model[id] = [step]
                case 2:
                    // In place, through the optional, as the hub does.
                    if table[id] != nil { table[id]!.append(step) }
                    model[id]?.append(step)
                case 3:
                    #expect(table.removeValue(forKey: id) == model.removeValue(forKey: id))
                default:
                    let got = table.withValue(id) { v -> Int in v.append(-step); return v.count }
                    model[id]?.append(-step)
                    #expect(got == model[id]?.count)
                }
                #expect(table.count == model.count)
                #expect(table.contains(id) == (model[id] != nil))
            }
            for id in (-range / 4)..<range { #expect(table[id] == model[id], "id \(id)") }
            #expect(Set(table.keys) == Set(model.keys) && table.keys.count == model.count)
            #expect(table.values.map(\.description).sorted() == model.values.map(\.description).sorted())
        }
    }

    @Test func settingNilThroughTheSubscriptRemoves() {
        var table = ConnectionTable<String>()
        for id in 1...100 { table[id] = "\(id)" }
        for id in stride(from: 1, through: 100, by: 2) { table[id] = nil }
        #expect(table.count == 50)
        #expect((1...100).allSatisfy { table[$0] == ($0 % 2 == 0 ? "\($0)" : nil) })
        #expect(table.withValue(3) { _ in 1 } == nil)
    }
}
