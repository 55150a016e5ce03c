import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders

/// The top-level length against the fields: every way through the switches must fill it.
extension LayoutCompiler {
    /// Every way through the switches, with where the fields end (nil when not fixed).
    func ends(_ nodes: [Node], from start: Int?, path: String, limit: inout Int) -> [(end: Int?, path: String)]
    {
        var paths: [(Int?, String)] = [(start, path)]
        for node in nodes {
            guard limit > 0 else { return paths }
            var next: [(Int?, String)] = []
            for (position, p) in paths {
                switch node {
                case .scalar(let s):
                    switch s.count {
                    case nil: next.append((position.map { $0 + s.type.size }, p))
                    case .fixed(let n)?: next.append((position.map { $0 + n * s.type.size }, p))
                    default: next.append((nil, p))
                    }
                case .bits(let b): next.append((position.map { $0 + b.type.size }, p))
                case .data(let d):
                    if case .fixed(let n) = d.length {
                        next.append((position.map { $0 + n }, p))
                    } else {
                        next.append((nil, p))
                    }
                case .pad(let n): next.append((position.map { $0 + n }, p))
                case .computed: next.append((position, p))
                case .switchOn(let s):
                    for arm in s.cases {
                        limit -= 1
                        next += ends(arm.nodes, from: position, path: arm.path, limit: &limit)
                    }
                    if let d = s.defaultNodes {
                        limit -= 1
                        next += ends(d, from: position, path: s.defaultPath, limit: &limit)
                    }
                }
            }
            paths = next
        }
        return paths
    }

    mutating func checkLength(_ nodes: [Node], _ position: Position) {
        guard let bound = lengthBound else { return }
        var limit = 64
        for (end, path) in ends(nodes, from: 0, path: "$.fields", limit: &limit) {
            guard let end, end < bound.lowerBound else { continue }
            let what =
                bound.lowerBound == bound.upperBound
                ? "the matched length is \(bound.lowerBound)" : "the shortest matched length is \(bound.lowerBound)"
            diagnostics.error(
                path,
                "the fields end at byte \(end) but \(what): describe bytes \(end)…\(bound.lowerBound - 1) "
                    + "(for example {\"type\": \"pad\", \"length\": \(bound.lowerBound - end)})")
        }
    }
}
