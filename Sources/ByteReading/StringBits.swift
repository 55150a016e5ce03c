/// A string's representation (two words): the same for two copies of one string, which are then
/// known equal without a call, a retain or a release, while one of them is kept alive (so that no
/// other string can come to have it). Packers recognise the names and ids a decoder gives again
/// and again by it.
public struct StringBits: Equatable, Sendable {
    public var first: UInt64
    public var second: UInt64
    public static let none = StringBits(first: 0, second: 0)

    @inlinable @inline(__always)
    public init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    /// Read where the string lies: no copy, so no retain.
    @inlinable @inline(__always)
    public init(_ text: borrowing String) {
        self = withUnsafeBytes(of: text) { $0.loadUnaligned(as: StringBits.self) }
    }
}
