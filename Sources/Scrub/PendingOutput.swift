import ByteReading
import CaptureModel

/// A record on its way out: the bytes as they were and the bytes being rewritten. It leaves the
/// queue once every unit it holds a piece of has been rewritten.
final class PendingRecord {
    var record: StoredRecord
    let original: [UInt8]
    /// Units (fragmented frames, advertising chains) not yet complete that hold bytes of this record.
    var openUnits = 0
    /// Air captures: where the PDU lies (the bytes its CRC covers) and where the CRC is.
    var pdu: Range<Int>?
    var crcOffset: Int?
    /// An encrypted link-layer PDU: written exactly as it was.
    var leftAsIs = false

    init(_ record: CaptureRecord) {
        self.record = record.stored()
        original = self.record.payload
    }

    /// The bytes the sweeps look through: an air packet from its PDU on (past its end too: a damaged
    /// packet's length can cut an address short), else everything.
    var sweepRange: Range<Int> { (pdu?.lowerBound ?? 0)..<original.count }
}

/// The bytes of one frame or advertising chain, spread over several records: collected as the
/// records arrive, rewritten as a whole when complete, then written back into each record.
final class Unit {
    struct Piece {
        var record: PendingRecord
        var recordOffset: Int
        var count: Int
        var unitOffset: Int
    }

    private(set) var pieces: [Piece] = []
    private(set) var bytes: [UInt8] = []
    /// The L2CAP frame's size once its length is known (0 until then).
    var expected = 0
    /// The tracker joins this frame as it is joined here (false once a fragment was taken in that
    /// the tracker would have dropped): its completion moves ATT transactions on.
    var tracked = true
    let startFrame: Int

    init(startFrame: Int) { self.startFrame = startFrame }

    /// Adds `count` bytes of `record` at `offset`.
    func add(_ record: PendingRecord, offset: Int, count: Int) {
        pieces.append(Piece(record: record, recordOffset: offset, count: count, unitOffset: bytes.count))
        bytes.append(contentsOf: record.original[offset..<offset + count])
        record.openUnits += 1
    }

    /// Adds a retransmission of bytes already collected: they are rewritten the same way.
    func mirror(_ record: PendingRecord, offset: Int, count: Int, unitOffset: Int) {
        pieces.append(Piece(record: record, recordOffset: offset, count: count, unitOffset: unitOffset))
        record.openUnits += 1
    }

    /// The last piece's place in the unit (for a retransmission of it).
    var lastPiece: Piece? { pieces.last }

    /// Where the first piece lies in its record: with `startFrame`, which of two units began first.
    var firstOffset: Int { pieces.first?.recordOffset ?? 0 }

    /// Rewrites the collected bytes with `rules` and writes them back into the records.
    func finish(_ rules: (ByteReader, inout [UInt8]) -> Void) {
        var out = bytes
        bytes.withUnsafeBytes { rules(ByteReader($0), &out) }
        for piece in pieces {
            for i in 0..<piece.count {
                piece.record.record.payload[piece.recordOffset + i] = out[piece.unitOffset + i]
            }
            piece.record.openUnits -= 1
        }
        pieces.removeAll()
    }
}
