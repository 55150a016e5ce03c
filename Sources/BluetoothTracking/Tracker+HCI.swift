import BluetoothPackets
import ByteReading
import CaptureModel

extension Tracker {
    func handleCommand(_ r: inout ByteReader) {
        do {
            let opcode = try r.u16le("hci.command.opcode")
            let length = Int(try r.u8("hci.command.length"))
            let parameters = try r.bytes(min(length, r.remaining), "hci.command.parameters")
            if length > parameters.count {
                diagnose(
                    "hci", "hci.command_length",
                    "command 0x\(String(opcode, radix: 16)) declares \(length) parameter bytes, \(parameters.count) present",
                    offset: 2)
            }
            push(
                .hci(
                    HCIPacket(
                        kind: .command, code: opcode, parameters: [UInt8](parameters),
                        manufacturer: vendorManufacturer(opcode: opcode))))
        } catch {
            diagnose("hci", "hci.short_command", error)
        }
    }

    func handleEvent(_ r: inout ByteReader) {
        let header: HCIEventHeader
        do {
            header = try HCIEventHeader(parsing: &r)
        } catch {
            diagnose("hci", "hci.short_event", error)
            return
        }
        var p = header.parameters
        do {
            switch header.code {
            case HCIEventCode.leMeta:
                try handleLEMeta(&p)
            case HCIEventCode.disconnectionComplete:
                let event = try DisconnectionComplete(parsing: &p)
                let key = connectionKey(event.handle)
                let existing = connections[key]
                if event.status == 0, let existing {
                    close(existing)
                    connections[key] = nil
                }
                push(.disconnect(Disconnect(connection: event.handle, address: existing?.peer, reason: event.reason)))
            case HCIEventCode.encryptionChange, HCIEventCode.encryptionChangeV2:
                let event = try EncryptionChange(parsing: &p, v2: header.code == HCIEventCode.encryptionChangeV2)
                push(
                    .encryption(
                        EncryptionEvent(
                            connection: event.handle, status: event.status, enabled: event.enabled != 0,
                            keySize: event.keySize)))
                pairingFinished(connections[connectionKey(event.handle)], encrypted: event.status == 0 && event.enabled != 0)
            case HCIEventCode.commandComplete:
                let event = try CommandComplete(parsing: &p)
                // Read BD_ADDR tells the adapter's own address: the server address of our GATT database.
                if event.opcode == 0x1009, event.status == 0, event.returnParameters.count >= 7 {
                    var ret = ByteReader(event.returnParameters)
                    _ = try ret.u8()
                    localAddresses[adapter] = try BluetoothAddress(reading: &ret)
                }
                // Read Local Version Information (§7.4.1): status, HCI version and revision, LMP version,
                // then the company identifier that tells whose vendor commands the adapter takes.
                if event.opcode == 0x1001, event.status == 0, event.returnParameters.count >= 7 {
                    var ret = ByteReader(event.returnParameters)
                    try ret.skip(5)
                    manufacturers[adapter] = try ret.u16le()
                }
                push(
                    .hci(
                        HCIPacket(
                            kind: .event, code: UInt16(header.code), status: event.status, commandOpcode: event.opcode,
                            parameters: [UInt8](header.parameters.unread),
                            manufacturer: vendorManufacturer(opcode: event.opcode))))
            case HCIEventCode.commandStatus:
                let event = try CommandStatus(parsing: &p)
                push(
                    .hci(
                        HCIPacket(
                            kind: .event, code: UInt16(header.code), status: event.status, commandOpcode: event.opcode,
                            parameters: [UInt8](header.parameters.unread),
                            manufacturer: vendorManufacturer(opcode: event.opcode))))
            default:
                rawEvent(header)
            }
        } catch {
            diagnose("hci", "hci.malformed_event", error)
        }
    }

    private func rawEvent(_ header: HCIEventHeader, subevent: UInt8? = nil) {
        push(
            .hci(
                HCIPacket(
                    kind: .event, code: UInt16(header.code), subevent: subevent,
                    parameters: [UInt8](header.parameters.unread),
                    manufacturer: header.code == HCIEventCode.vendor ? manufacturers[adapter] : nil)))
    }

    /// The adapter's manufacturer for a vendor-specific opcode (OGF 0x3F), when it is known.
    private func vendorManufacturer(opcode: UInt16) -> UInt16? {
        opcode >> 10 == HCICommands.vendorGroup ? manufacturers[adapter] : nil
    }

    private func handleLEMeta(_ p: inout ByteReader) throws(DecodeError) {
        let subevent = try p.u8("le_meta.subevent")
        switch subevent {
        case LESubevent.advertisingReport:
            do {
                try LegacyAdvertisingReport.forEach(in: &p) { report in legacyReport(report) }
            } catch {
                diagnose("hci", "adv.malformed_report", error)
            }
        case LESubevent.extendedAdvertisingReport:
            do {
                try ExtendedAdvertisingReport.forEach(in: &p) { report in extendedReport(report) }
            } catch {
                diagnose("hci", "adv.malformed_report", error)
            }
        case LESubevent.directedAdvertisingReport:
            try DirectedAdvertisingReport.forEach(in: &p) { report in
                push(
                    .advertisement(
                        Advertisement(
                            address: report.address, addressType: report.addressType,
                            rssi: report.rssi == 127 ? nil : report.rssi, pdu: .advDirectInd, data: AdvertisingData([]),
                            directAddress: report.directAddress)))
            }
        case LESubevent.connectionComplete, LESubevent.enhancedConnectionComplete,
            LESubevent.enhancedConnectionCompleteV2:
            let event = try LEConnectionComplete(parsing: &p, subevent: subevent)
            if event.status == 0 {
                let key = connectionKey(event.handle)
                if let stale = connections[key] {
                    diagnose(
                        "hci", "hci.handle_reused",
                        "connection handle \(event.handle) reused without a disconnection", connection: event.handle)
                    close(stale)
                }
                let connection = Connection(id: event.handle, adapter: adapter)
                connection.peer = event.peerAddress
                connection.peerType = event.peerAddressType
                connection.local = localAddresses[adapter]
                if connections[key] != nil || hasRoom(connections.count) { connections[key] = connection }
            }
            push(
                .connect(
                    Connect(
                        connection: event.handle, address: event.peerAddress, addressType: event.peerAddressType,
                        role: event.role == 0 ? "central" : "peripheral", interval: event.interval,
                        latency: event.latency, supervisionTimeout: event.supervisionTimeout, status: event.status)))
        case LESubevent.connectionUpdateComplete:
            let event = try LEConnectionUpdateComplete(parsing: &p)
            push(
                .connectionUpdate(
                    ConnectionUpdate(
                        connection: event.handle, status: event.status, interval: event.interval,
                        latency: event.latency, supervisionTimeout: event.supervisionTimeout)))
        case LESubevent.dataLengthChange:
            let event = try LEDataLengthChange(parsing: &p)
            push(
                .dataLength(
                    DataLength(connection: event.handle, maxTxOctets: event.maxTxOctets, maxRxOctets: event.maxRxOctets)))
        case LESubevent.phyUpdateComplete:
            let event = try LEPHYUpdateComplete(parsing: &p)
            push(.phy(PHYUpdate(connection: event.handle, status: event.status, txPHY: event.txPHY, rxPHY: event.rxPHY)))
        default:
            push(
                .hci(
                    HCIPacket(
                        kind: .event, code: UInt16(HCIEventCode.leMeta), subevent: subevent,
                        parameters: [UInt8](p.unread))))
        }
    }

    // MARK: ACL

    func handleACL(_ r: inout ByteReader, direction: Direction) {
        let header: ACLHeader
        do {
            header = try ACLHeader(parsing: &r)
        } catch {
            diagnose("acl", "acl.malformed", error)
            return
        }
        let connection = connection(handle: header.handle)
        let side = Connection.directionIndex(direction)
        receiveFragment(
            header.data, start: !header.isContinuation, connection: connection, side: side, direction: direction)
    }

    /// Adds one fragment to the L2CAP frame of (connection, direction); dispatches complete frames.
    /// Used for HCI ACL and for link-layer data PDUs alike.
    func receiveFragment(
        _ data: ByteReader, start: Bool, connection: Connection, side: Int, direction: Direction
    ) {
        var data = data
        if start {
            if connection.reassembly[side].isCollecting {
                let missing = connection.reassembly[side].expected - connection.reassembly[side].buffer.count
                diagnose(
                    "acl", "acl.incomplete_frame",
                    "an L2CAP frame started in frame \(connection.reassembly[side].startFrame) lacked \(missing) bytes when the next one started",
                    connection: connection.id)
                connection.reassembly[side].reset()
            }
            // The common case: the whole L2CAP frame in one fragment, read in place.
            if data.remaining >= 4 {
                var peek = data
                let length = Int((try? peek.u16le()) ?? 0)
                if data.remaining == 4 + length {
                    dispatchL2CAP(&data, connection: connection, direction: direction)
                    return
                }
                if data.remaining > 4 + length {
                    diagnose(
                        "l2cap", "l2cap.length_mismatch",
                        "L2CAP length \(length) is shorter than the \(data.remaining - 4) bytes that follow",
                        offset: data.offset, connection: connection.id)
                    var frameBytes = (try? data.sub(4 + length)) ?? data
                    dispatchL2CAP(&frameBytes, connection: connection, direction: direction)
                    return
                }
                connection.reassembly[side].expected = 4 + length
            } else {
                connection.reassembly[side].expected = 0
            }
            connection.reassembly[side].startFrame = frame
            connection.reassembly[side].buffer.append(contentsOf: data.unread)
        } else {
            guard connection.reassembly[side].isCollecting else {
                diagnose(
                    "acl", "acl.continuation_without_start",
                    "a continuation fragment of \(data.remaining) bytes arrived with no frame started",
                    connection: connection.id)
                return
            }
            connection.reassembly[side].buffer.append(contentsOf: data.unread)
        }
        if connection.reassembly[side].expected == 0, connection.reassembly[side].buffer.count >= 2 {
            let buffer = connection.reassembly[side].buffer
            connection.reassembly[side].expected = 4 + (Int(buffer[0]) | Int(buffer[1]) << 8)
        }
        let expected = connection.reassembly[side].expected
        let collected = connection.reassembly[side].buffer.count
        if collected > 65_535 + 4 {
            diagnose(
                "acl", "acl.oversized_frame", "an L2CAP frame grew past 65,539 bytes; dropped", connection: connection.id)
            connection.reassembly[side].reset()
            return
        }
        guard expected > 0, collected >= expected else { return }
        if collected > expected {
            diagnose(
                "l2cap", "l2cap.length_mismatch",
                "fragments carry \(collected - expected) bytes more than the L2CAP length says", connection: connection.id)
        }
        // Take the buffer out while its frame is dispatched, then give it back empty (keeps its capacity).
        var buffer: [UInt8] = []
        swap(&buffer, &connection.reassembly[side].buffer)
        connection.reassembly[side].expected = 0
        buffer.withUnsafeBytes { bytes in
            var reader = ByteReader(UnsafeRawBufferPointer(rebasing: bytes.prefix(expected)))
            dispatchL2CAP(&reader, connection: connection, direction: direction)
        }
        buffer.removeAll(keepingCapacity: true)
        if !connection.reassembly[side].isCollecting { connection.reassembly[side].buffer = buffer }
    }
}
