/// What a capture of one connection's data PDUs does not say outright: which side sent each
/// (when the sniffer gives no direction) and whether a PDU is a retransmission of the one before it.
/// The tracker and the scrubber both follow connections this way, so they agree on every PDU.
public struct LinkLayerTurns: Sendable {
    /// The last PDU each way (0 central, 1 peripheral): its sequence number and a hash of its bytes.
    private var lastSequenceNumber: [UInt8?] = [nil, nil]
    private var lastPDUHash: [Int] = [0, 0]
    private var lastTimestamp: Int64?
    private var lastFromCentral = false

    public init() {}

    /// Takes the next PDU of the connection, captured at `timestamp` (µs).
    public mutating func observe(_ packet: LinkLayerPacket, at timestamp: Int64) -> (fromCentral: Bool, retransmitted: Bool) {
        let fromCentral: Bool
        if let known = packet.metadata.fromCentral {
            fromCentral = known
        } else if let last = lastTimestamp, case (let gap, false) = timestamp.subtractingReportingOverflow(last),
            gap < 2_000
        {
            // Within a connection event the two sides take turns, the central first.
            fromCentral = !lastFromCentral
        } else {
            fromCentral = true
        }
        lastTimestamp = timestamp
        lastFromCentral = fromCentral
        let side = fromCentral ? 0 : 1
        // A retransmission repeats the sequence number and the bytes of the packet before it. (A
        // peer that repeats the sequence number with new bytes is misbehaving: keep its packets.)
        let sequenceNumber = (packet.header0 >> 3) & 1
        var hasher = Hasher()
        hasher.combine(packet.header0 & 0xF3)  // without SN and NESN
        hasher.combine(bytes: packet.payload.unread)
        let pduHash = hasher.finalize()
        let retransmitted = lastSequenceNumber[side] == sequenceNumber && lastPDUHash[side] == pduHash
        lastSequenceNumber[side] = sequenceNumber
        lastPDUHash[side] = pduHash
        return (fromCentral, retransmitted)
    }
}
