import BluetoothPackets
import ByteReading
import CaptureModel

/// One pass over a capture's records: every rule applied, records handed on in their order.
///
/// A record whose bytes belong to a frame or advertising chain that continues in later records
/// waits in a queue (with every record after it, so the order stays) until the whole frame is
/// there: rules always see complete frames, and a name or key split across records is found.
/// The queue is bounded; past the bound, open frames are rewritten as far as they go.
final class Rewriter {
    let context: ScrubContext
    /// Where finished records go (the second pass writes them; the first drops them).
    var emit: (StoredRecord) -> Void = { _ in }

    private var queue: [PendingRecord] = []
    private var head = 0
    var hciLinks: [UInt32: LinkState] = [:]
    var airLinks: [UInt32: AirLink] = [:]
    var chains: [ChainKey: Unit] = [:]

    /// Connections followed at once, as the tracker does, so a capture of random handles or access
    /// addresses cannot grow memory without bound.
    static let maximumLinks = 1024
    /// Records that may wait for a frame to complete.
    static let maximumWaiting = 65_536

    init(context: ScrubContext) { self.context = context }

    func process(_ record: CaptureRecord) {
        context.frame = record.frame
        let pending = PendingRecord(record)
        queue.append(pending)
        var r = ByteReader(record.payload)
        switch record.kind {
        case .command: command(&r, pending)
        case .event: event(&r, pending, adapter: record.adapter)
        case .acl: acl(&r, pending, adapter: record.adapter, direction: record.direction)
        case .linkLayer: linkLayer(&r, pending, record)
        case .other where record.linkType.isMonitor: monitor(&r, pending, opcode: record.sourceType)
        default: break
        }
        release()
    }

    /// Rewrites what is still open as far as it goes and hands on every record left.
    func finish() {
        abandonOpenUnits()
        release()
    }

    // MARK: The queue

    private func release() {
        while head < queue.count, queue[head].openUnits == 0 {
            finalize(queue[head])
            head += 1
        }
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4096 {
            queue.removeFirst(head)
            head = 0
        }
        if queue.count - head > Self.maximumWaiting {
            abandonOpenUnits()
            release()
        }
    }

    private func finalize(_ pending: PendingRecord) {
        if !pending.leftAsIs { context.sweep(&pending.record.payload, range: pending.sweepRange) }
        if let pdu = pending.pdu, let crc = pending.crcOffset,
            LinkLayerCRCUpdate.apply(pdu: pdu, crc: crc, original: pending.original, &pending.record.payload) == true,
            !context.learning
        {
            context.statistics.crcsUpdated += 1
        }
        guard !context.learning else { return }
        context.statistics.records += 1
        if pending.record.payload != pending.original { context.statistics.recordsRewritten += 1 }
        emit(pending.record)
    }

    /// Rewrites every open frame and chain as far as it got (the tracker drops such frames), in
    /// the order they started, so that names first seen in them are numbered the same every run.
    private func abandonOpenUnits() {
        var open: [(unit: Unit, finish: () -> Void)] = []
        for link in Array(hciLinks.values) + airLinks.values.map(\.link) {
            for side in 0..<2 {
                guard let unit = link.units[side] else { continue }
                open.append((unit, { [self] in abandon(link, side: side) }))
            }
        }
        for (_, unit) in chains { open.append((unit, { [self] in finishChain(unit) })) }
        if !chains.isEmpty, !context.learning { context.statistics.incompleteUnits += chains.count }
        chains.removeAll()
        for entry in open.sorted(by: { $0.unit.startFrame < $1.unit.startFrame || ($0.unit.startFrame == $1.unit.startFrame && $0.unit.firstOffset < $1.unit.firstOffset) }) {
            entry.finish()
        }
    }

    func abandon(_ link: LinkState) {
        for side in 0..<2 { abandon(link, side: side) }
    }

    private func abandon(_ link: LinkState, side: Int) {
        guard let unit = link.units[side] else { return }
        link.units[side] = nil
        if !context.learning { context.statistics.incompleteUnits += 1 }
        unit.finish { r, out in frame(r, &out, link: link, direction: side == 1 ? .received : .sent, tracked: false) }
    }

    // MARK: HCI

    private func command(_ r: inout ByteReader, _ pending: PendingRecord) {
        guard let opcode = try? r.u16le(), let length = try? r.u8(), let fields = HCITables.commands[opcode] else { return }
        guard var parameters = try? r.sub(min(Int(length), r.remaining)) else { return }
        context.apply(fields, &parameters, &pending.record.payload)
    }

    private func event(_ r: inout ByteReader, _ pending: PendingRecord, adapter: UInt16) {
        guard let header = try? HCIEventHeader(parsing: &r) else { return }
        var p = header.parameters
        switch header.code {
        case HCIEventCode.commandComplete:
            // Replies about a device carry its address whatever their status.
            guard (try? p.skip(1)) != nil, let opcode = try? p.u16le(), let fields = HCITables.returnParameters[opcode],
                (try? p.skip(1)) != nil
            else { return }
            context.apply(fields, &p, &pending.record.payload)
        case HCIEventCode.leMeta:
            leMeta(&p, pending, adapter: adapter)
        case HCIEventCode.disconnectionComplete:
            if let event = try? DisconnectionComplete(parsing: &p), event.status == 0 {
                let key = UInt32(adapter) << 16 | UInt32(event.handle)
                if let link = hciLinks.removeValue(forKey: key) { abandon(link) }
            }
        default:
            guard let fields = HCITables.events[header.code] else { return }
            context.apply(fields, &p, &pending.record.payload)
        }
    }

    private func leMeta(_ p: inout ByteReader, _ pending: PendingRecord, adapter: UInt16) {
        guard let subevent = try? p.u8() else { return }
        switch subevent {
        case LESubevent.advertisingReport:
            legacyReports(&p, pending)
        case LESubevent.extendedAdvertisingReport:
            extendedReports(&p, pending, adapter: adapter)
        default:
            if [LESubevent.connectionComplete, LESubevent.enhancedConnectionComplete, LESubevent.enhancedConnectionCompleteV2]
                .contains(subevent)
            {
                openLink(p, subevent: subevent, adapter: adapter)
            }
            guard let fields = HCITables.leSubevents[subevent] else { return }
            context.apply(fields, &p, &pending.record.payload)
        }
    }

    /// A connection the tracker follows: its peer is what names and blanked values are keyed by.
    private func openLink(_ p: ByteReader, subevent: UInt8, adapter: UInt16) {
        var copy = p
        guard let event = try? LEConnectionComplete(parsing: &copy, subevent: subevent), event.status == 0 else { return }
        let key = UInt32(adapter) << 16 | UInt32(event.handle)
        if let stale = hciLinks[key] { abandon(stale) }
        guard hciLinks[key] != nil || hciLinks.count < Self.maximumLinks else { return }
        hciLinks[key] = LinkState(peer: event.peerAddress)
    }

    /// LE Advertising Report: type, address type, address, data length, data, RSSI per report.
    private func legacyReports(_ p: inout ByteReader, _ pending: PendingRecord) {
        guard let count = try? p.u8() else { return }
        for _ in 0..<count {
            guard (try? p.skip(2)) != nil, (try? context.address(&p, &pending.record.payload)) != nil,
                let length = try? p.u8(), length <= 31, let data = try? p.sub(Int(length)), (try? p.skip(1)) != nil
            else { return }
            context.advertisingData(data, &pending.record.payload)
        }
    }

    /// LE Extended Advertising Report. Data that continues in later reports (data status 1) is
    /// collected per advertiser and set, as the tracker joins it, and rewritten when complete.
    private func extendedReports(_ p: inout ByteReader, _ pending: PendingRecord, adapter: UInt16) {
        guard let count = try? p.u8() else { return }
        for _ in 0..<count {
            guard let eventType = try? p.u16le(), let addressType = p.peekU8(), (try? p.skip(1)) != nil,
                let address = try? context.address(&p, &pending.record.payload), (try? p.skip(2)) != nil,
                let sid = try? p.u8(), (try? p.skip(5)) != nil,
                (try? context.address(&p, &pending.record.payload)) != nil, let length = try? p.u8(),
                let data = try? p.sub(Int(length))
            else { return }
            let key = ChainKey(adapter: adapter, address: address.value, addressType: addressType, sid: sid)
            let status = (eventType >> 5) & 0x3
            if status == 1 || chains[key] != nil {
                let unit = chains[key] ?? Unit(startFrame: context.frame)
                unit.add(pending, offset: data.offset, count: data.remaining)
                chains[key] = unit
                if status != 1 || unit.bytes.count > 1650 {
                    chains[key] = nil
                    finishChain(unit)
                }
            } else {
                context.advertisingData(data, &pending.record.payload)
            }
        }
    }

    private func finishChain(_ unit: Unit) {
        unit.finish { r, out in context.advertisingData(r, &out) }
    }

    // MARK: Linux monitor

    private func monitor(_ r: inout ByteReader, _ pending: PendingRecord, opcode: UInt16) {
        switch opcode {
        case 16, 17:
            // Control command or event: cookie, then the management opcode or event code.
            guard (try? r.skip(4)) != nil, let code = try? r.u16le() else { return }
            if opcode == 16 {
                if let fields = ManagementTables.commands[code] { context.apply(fields, &r, &pending.record.payload) }
            } else if code == 0x0001 {
                guard let command = try? r.u16le(), (try? r.skip(1)) != nil,
                    let fields = ManagementTables.replies[command]
                else { return }
                context.apply(fields, &r, &pending.record.payload)
            } else if let fields = ManagementTables.events[code] {
                context.apply(fields, &r, &pending.record.payload)
            }
        default:
            if let fields = HCITables.monitorRecords[opcode] { context.apply(fields, &r, &pending.record.payload) }
        }
    }
}

/// An extended advertising chain: one advertiser's set, as the tracker joins its reports.
struct ChainKey: Hashable {
    var adapter: UInt16
    var address: UInt64
    var addressType: UInt8
    var sid: UInt8
}
