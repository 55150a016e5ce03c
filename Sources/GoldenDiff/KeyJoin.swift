/// Pairs two ordered lists by key, keeping reading order in the result: outcomes follow the actual
/// side, and an expected reading with no partner is placed where it stood among the expected ones.
/// A key held twice on either side is reported once, with all its readings, and never paired.
enum KeyJoin {
    enum Outcome: Equatable {
        case pair(expected: Int, actual: Int)
        case added(Int)
        case missing(Int)
        case duplicate(expected: [Int], actual: [Int])
    }

    static func join<Key: Hashable>(expected: [Key], actual: [Key]) -> [Outcome] {
        let left = Positions(expected)
        let right = Positions(actual)
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(max(expected.count, actual.count))
        var done = [Bool](repeating: false, count: expected.count)
        var reported: Set<Key> = []
        var next = 0

        func isDuplicate(_ key: Key) -> Bool { left.isDuplicate(key) || right.isDuplicate(key) }
        func reportDuplicate(_ key: Key) {
            guard reported.insert(key).inserted else { return }
            let positions = left.all(key)
            for position in positions { done[position] = true }
            outcomes.append(.duplicate(expected: positions, actual: right.all(key)))
        }
        /// Expected readings before `end` with no partner; those with one wait for it.
        func flush(upTo end: Int) {
            while next < end {
                defer { next += 1 }
                guard !done[next] else { continue }
                let key = expected[next]
                if isDuplicate(key) {
                    reportDuplicate(key)
                } else if right.first(key) == nil {
                    outcomes.append(.missing(next))
                    done[next] = true
                }
            }
        }

        for (position, key) in actual.enumerated() {
            if isDuplicate(key) {
                if !reported.contains(key) { flush(upTo: left.first(key) ?? next) }
                reportDuplicate(key)
            } else if let partner = left.first(key) {
                flush(upTo: partner)
                outcomes.append(.pair(expected: partner, actual: position))
                done[partner] = true
            } else {
                outcomes.append(.added(position))
            }
        }
        flush(upTo: expected.count)
        return outcomes
    }

    /// Where each key stands in one list. Keys are nearly always unique, so only the first
    /// position is kept per key, and the positions of the rare repeated keys on the side.
    private struct Positions<Key: Hashable> {
        var firsts: [Key: Int] = [:]
        var repeated: [Key: [Int]] = [:]

        init(_ keys: [Key]) {
            firsts.reserveCapacity(keys.count)
            for (position, key) in keys.enumerated() {
                if let first = firsts[key] {
                    repeated[key, default: [first]].append(position)
                } else {
                    firsts[key] = position
                }
            }
        }

        func first(_ key: Key) -> Int? { firsts[key] }
        func isDuplicate(_ key: Key) -> Bool { !repeated.isEmpty && repeated[key] != nil }
        func all(_ key: Key) -> [Int] { repeated[key] ?? firsts[key].map { [$0] } ?? [] }
    }
}
