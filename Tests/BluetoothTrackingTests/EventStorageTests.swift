@testable import BluetoothTracking
import BluetoothPackets
import CaptureModel
import Testing

/// `Event.deinitialize` skips freeing only for events made knowing they hold nothing on the heap.
struct EventStorageTests {
    /// A value with storage of its own.
    static func freshValue() -> [UInt8] { (0..<40).map { UInt8($0) } }

    /// Whether nothing else holds `array`'s storage: a write then keeps it where it is.
    static func isUnique(_ array: inout [UInt8]) -> Bool {
        let before = array.withUnsafeBufferPointer { $0.baseAddress }
        array[0] &+= 1
        return array.withUnsafeBufferPointer { $0.baseAddress } == before
    }

    @Test func `an event made by its initializer is freed with what it holds`() {
        var value = Self.freshValue()
        let slot = UnsafeMutablePointer<Event>.allocate(capacity: 1)
        var att = ATTEvent(connection: 64, peer: nil, direction: .received, opcode: 0x1B)
        att.value = value
        slot.initialize(to: Event(frame: 1, timestamp: 0, body: .att(att)))
        att.value = nil
        Event.deinitialize(slot)
        #expect(Self.isUnique(&value))
        slot.deallocate()
    }

    @Test func `a body set after an event was made as inline is freed with it`() {
        var value = Self.freshValue()
        let slot = UnsafeMutablePointer<Event>.allocate(capacity: 1)
        let advert = Advertisement(
            address: BluetoothAddress(0xC2_10_30_F9_70_C7), addressType: .random, rssi: -60, pdu: .advInd,
            data: AdvertisingData([0x02, 0x01, 0x06]))
        Event.initialize(
            slot, frame: 1, timestamp: 0, adapter: 0, body: .advertisement(advert), truncated: false,
            mayHoldReferences: false)
        var att = ATTEvent(connection: 64, peer: nil, direction: .received, opcode: 0x1B)
        att.value = value
        slot.pointee.body = .att(att)
        att.value = nil
        Event.deinitialize(slot)
        #expect(Self.isUnique(&value))
        slot.deallocate()
    }
}
