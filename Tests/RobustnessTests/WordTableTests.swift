import Testing

@testable import Readings

/// The held readings' table against a Dictionary doing the same: keys that share a home slot,
/// runs that wrap around the end, removals from the middle of a run, growth.
struct WordTableTests {
    /// A class value: the table must free what it holds (counted by the instances alive).
    final class Counted {
        final class Tally { var alive = 0 }
        let value: Int
        let tally: Tally
        init(_ value: Int, _ tally: Tally) {
            self.value = value
            self.tally = tally
            tally.alive += 1
        }
        deinit { tally.alive -= 1 }
    }

    /// `live`: at most this many keys at once (4 keeps the table at its first 8 slots, where
    /// runs collide and wrap around its end; more make it grow).
    @Test(arguments: [4, 40])
    func `random sets and removals agree with a dictionary, and nothing is leaked`(live: Int) {
        let tally = Counted.Tally()
        do {
            let table = WordTable<Counted>(capacity: 4)
            var model: [UInt64: Int] = [:]
            var generator = SplitMix(seed: 7)
            // Few distinct keys, so that sets replace, removals find, and runs collide.
            let keys: [UInt64] = (0..<40).map { $0 < 20 ? UInt64($0 + 1) : UInt64($0) << 56 | 1 << 62 }
            for step in 0..<20_000 {
                let key = keys[Int(generator.next() % UInt64(keys.count))]
                if generator.next() % 3 == 0 || (model.count >= live && model[key] == nil) {
                    table.remove(key)
                    model[key] = nil
                } else {
                    table.set(key, Counted(step, tally))
                    model[key] = step
                }
                #expect(table.count == model.count)
                for probe in keys {
                    let held = table.slot(of: probe).map { table[slot: $0].value }
                    guard held == model[probe] else {
                        let wanted = String(describing: model[probe])
                        Issue.record("step \(step): key \(probe) holds \(String(describing: held)), not \(wanted)")
                        return
                    }
                }
            }
            var seen: [UInt64: Int] = [:]
            table.forEach { key, value in seen[key] = value.value }
            #expect(seen == model)
            #expect(tally.alive == model.count)
            table.removeAll()
            #expect(table.isEmpty)
            #expect(tally.alive == 0)
            for key in keys.prefix(10) { table.set(key, Counted(1, tally)) }
        }
        #expect(tally.alive == 0)
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
