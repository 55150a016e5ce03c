import ByteReading
import PayloadDecoders
import TestSupport
import Testing

@testable import Layouts

/// The interpreter's registers and formula stack are raw memory: every access is checked, in
/// release builds too. These feed it inputs cut short at every byte, layouts whose counts and
/// lengths come from hostile bytes, and programs no compiler would make.
struct InterpreterBoundsTests {
    /// Layouts whose lengths, counts and switches come from the payload itself.
    static let hostileLayouts = [
        #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "n", "type": "u16"}, {"name": "data", "type": "bytes", "length": "n"}]}"#,
        #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "n", "type": "i32"}, {"name": "xs", "type": "u16", "repeat": "n"}]}"#,
        #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "xs", "type": "u32", "repeat": "rest"}]}"#,
        #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "k", "type": "u8"}, {"switch": "k", "cases": {"1": [{"name": "a", "type": "u64"}], "2": [{"name": "n", "type": "u8"}, {"name": "s", "type": "utf8", "length": "n"}], "default": "reject"}}, {"name": "x", "type": "u8"}, {"name": "y", "compute": "x * x / (x - x) + x"}]}"#,
        #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "a", "type": "u8"}, {"name": "b", "type": "i8"}, {"name": "c", "compute": "((a + b) * (a - b)) / ((a * b) + -(-(a)))"}, {"name": "d", "compute": "c * c - a"}]}"#,
    ]

    @Test func `every prefix and every one-byte extension of hostile payloads decodes or fails cleanly`() throws {
        var random = TestRandom(seed: 18)
        for json in Self.hostileLayouts {
            let layout = try layout(json)
            for _ in 0..<200 {
                let full = (0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                for end in 0...full.count {
                    let outcome = layout.decode(bytes: Array(full[..<end]))
                    if case .error(let e) = outcome { #expect(e.offset >= 0 && e.offset <= end) }
                }
            }
        }
    }

    @Test func `a length or count past the payload is an error at that field, not a read past it`() throws {
        let bytes = try layout(Self.hostileLayouts[0])
        #expect(error(bytes.decode(bytes: hex("ff ff 01 02")))?.field == "data")
        let count = try layout(Self.hostileLayouts[1])
        #expect(error(count.decode(bytes: hex("ff ff ff ff")))?.reason == .badValue("count -1 is out of range (0…512)"))
        #expect(error(count.decode(bytes: hex("03 00 00 00 01 00")))?.field == "xs")
    }

    @Test func `a program naming a register it does not have gets a decode error`() throws {
        let layout = try layout(
            #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "k", "type": "u8"}, {"switch": "k", "cases": {"1": [], "default": []}}]}"#
        )
        var program = layout.program
        #expect(program.run([1]) == .fields([Field("k", 1)]))
        for index in program.ops.indices {
            switch program.ops[index] {
            case .integer(var op):
                op.register = 7
                program.ops[index] = .integer(op)
            case .switchOn(var op):
                op.register = -3
                program.ops[index] = .switchOn(op)
            default: break
            }
        }
        guard case .error(let e) = program.run([1]) else {
            Issue.record("a program with a register out of range decoded")
            return
        }
        #expect(e.reason == .badValue("the layout's program uses register 7 of 1"))
    }

    @Test func `a jump outside the program is a decode error`() throws {
        var program = try layout(#"{"id": "t", "match": {"company": 1}, "fields": [{"name": "a", "type": "u8"}]}"#)
            .program
        program.ops.insert(.jump(1000), at: 0)
        #expect(error(program.run([1]))?.reason == .badValue("the layout's program jumps to 1000, outside itself"))
        program.ops[0] = .jump(-1)
        #expect(error(program.run([1])) != nil)
    }

    @Test func `a formula whose stack or registers would overflow evaluates to NaN`() {
        let registers = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2)
        let stack = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2)
        defer {
            registers.deallocate()
            stack.deallocate()
        }
        registers.initialize(repeating: 3)
        let fine = Expression(tokens: [.register(0), .register(1), .multiply], depth: 2)
        #expect(fine.evaluate(registers, stack: stack) == 9)
        let deep = Expression(tokens: [.number(1), .number(2), .number(3), .add, .add], depth: 3)
        #expect(deep.evaluate(registers, stack: stack).isNaN)
        let farRegister = Expression(tokens: [.register(5)], depth: 1)
        #expect(farRegister.evaluate(registers, stack: stack).isNaN)
        let underflow = Expression(tokens: [.add], depth: 0)
        #expect(underflow.evaluate(registers, stack: stack).isNaN)
        let negateNothing = Expression(tokens: [.negate], depth: 0)
        #expect(negateNothing.evaluate(registers, stack: stack).isNaN)
    }
}
