import SystemIO

/// JSON writers drained into an `Output` as they fill.
extension Output {
    /// Moves the writer's bytes out when they pass `threshold` (keeps its memory); whether it
    /// did. Inlinable: it is asked after every event or reading, and rarely does anything.
    @inlinable @discardableResult
    public func drain(_ writer: inout JSONWriter, threshold: Int = 1 << 16) -> Bool {
        guard writer.count >= threshold else { return false }
        writer.withBytes { write($0) }
        writer.reset()
        return true
    }

    /// Everything the writer holds, written out.
    public func write(_ writer: borrowing JSONWriter) {
        writer.withBytes { write($0) }
    }
}
