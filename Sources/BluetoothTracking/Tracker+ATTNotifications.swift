import BluetoothPackets
import CaptureModel

/// Values the server pushes: notifications, indications and their confirmations, and Multiple
/// Handle Value Notifications. Each bearer confirms its own indications.
extension Tracker {
    /// Handle Value Notification and Indication.
    @inline(__always)
    func valueFromServer(_ x: ATTContext, _ handle: UInt16, _ value: UnsafeRawBufferPointer, _ e: inout ATTEvent) {
        let b = x.bearer
        e.handle = handle
        e.value = [UInt8](value)
        e.attribute = resolve(x, handle)
        if x.opcode == ATTOpcode.handleValueIndication {
            if let earlier = b.pendingIndication[x.side] {
                diagnose(
                    "att", "att.indication_without_confirmation",
                    "the indication in frame \(earlier.frame) was not confirmed before the next one", connection: x.connection.id)
            }
            b.pendingIndication[x.side] = (handle, frame)
        }
        push(moving: &e)
    }

    @inline(__always)
    func confirmation(_ x: ATTContext, _ e: inout ATTEvent) {
        let b = x.bearer
        if let indication = b.pendingIndication[x.side] {
            e.handle = indication.handle
            e.requestFrame = indication.frame
            e.attribute = resolve(x, indication.handle)
            b.pendingIndication[x.side] = nil
        } else {
            diagnose(
                "att", "att.confirmation_without_indication", "a confirmation with no indication to confirm",
                connection: x.connection.id)
        }
        push(moving: &e)
    }

    /// Multiple Handle Value Notification: one event per handle.
    @inline(__always)
    func multipleNotification(
        _ x: ATTContext, _ entries: [(handle: UInt16, value: UnsafeRawBufferPointer)], _ e: inout ATTEvent
    ) {
        for entry in entries {
            var one = e
            one.handle = entry.handle
            one.value = [UInt8](entry.value)
            one.attribute = resolve(x, entry.handle)
            push(moving: &one)
        }
        if entries.isEmpty { push(moving: &e) }
    }
}
