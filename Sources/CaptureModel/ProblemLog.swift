/// The damage a reader found: every problem counted, the first thousand kept with their details.
public struct ProblemLog: Sendable {
    public private(set) var items: [CaptureProblem] = []
    public private(set) var count = 0
    static let kept = 1000

    public init() {}

    public mutating func add(_ problem: CaptureProblem) {
        count += 1
        if items.count < Self.kept { items.append(problem) }
    }
}
