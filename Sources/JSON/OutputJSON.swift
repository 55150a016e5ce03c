import SystemIO

/// JSON writers drained into an `Output` as they fill.
extension Output {
    /// Moves the writer's bytes out when they pass `threshold` (keeps its memory).
    public func drain(_ writer: inout JSONWriter, threshold: Int = 1 << 16) {
        guard writer.count >= threshold else { return }
        writer.withBytes { write($0) }
        writer.reset()
    }

    /// Everything the writer holds, written out.
    public func write(_ writer: borrowing JSONWriter) {
        writer.withBytes { write($0) }
    }
}
