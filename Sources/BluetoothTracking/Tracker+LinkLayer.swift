import BluetoothPackets
import ByteReading
import CaptureModel

/// A connection followed on air, found by its access address.
final class AirConnection {
    let connection: Connection
    let accessAddress: UInt32
    var crcInit: UInt32?
    /// Who sent each PDU, and which are retransmissions.
    var turns = LinkLayerTurns()
    /// LL encryption started (LL_START_ENC_RSP seen) and the sniffer does not decrypt.
    var encrypted = false
    var reportedEncryption = false

    init(connection: Connection, accessAddress: UInt32) {
        self.connection = connection
        self.accessAddress = accessAddress
    }
}

extension Tracker {
    /// The CRC initial value on advertising channels (Core v5.4, Vol 6, Part B, §3.1.1).
    static let advertisingCRCInit: UInt32 = 0x55_5555

    func handleLinkLayer(_ r: inout ByteReader, linkType: LinkType) {
        let packet: LinkLayerPacket
        do {
            packet = try LinkLayerPacket(linkType: linkType.rawValue, parsing: &r)
        } catch {
            diagnose("ll", "ll.malformed", error)
            return
        }
        var crcValid = packet.metadata.crcValid
        if crcValid == nil {
            if packet.isAdvertising {
                crcValid = packet.crcMatches(initial: Self.advertisingCRCInit)
            } else if let initial = airConnections[packet.accessAddress]?.crcInit {
                crcValid = packet.crcMatches(initial: initial)
            }
        }
        if crcValid == false {
            statistics.badCRC += 1
            diagnose("ll", "ll.bad_crc", "CRC does not match; packet skipped")
            return
        }
        if packet.metadata.micValid == false {
            statistics.badMIC += 1
            diagnose("ll", "ll.bad_mic", "MIC does not match; packet skipped")
            return
        }
        do {
            if packet.isAdvertising {
                try handleAdvertisingPDU(packet)
            } else {
                try handleDataPDU(packet)
            }
        } catch {
            diagnose("ll", "ll.malformed_pdu", error)
        }
    }

    private func handleAdvertisingPDU(_ packet: LinkLayerPacket) throws(DecodeError) {
        var p = packet.payload
        let type = packet.header0 & 0x0F
        let advertiserType: AddressType = packet.header0 & 0x40 != 0 ? .random : .public
        func advertisement(_ pdu: AdvertisingPDUKind, _ address: BluetoothAddress, _ data: UnsafeRawBufferPointer)
            -> Advertisement
        {
            var adv = Advertisement(
                address: address, addressType: advertiserType, rssi: packet.metadata.rssi, pdu: pdu,
                data: AdvertisingData(data))
            adv.channel = packet.metadata.channel
            return adv
        }
        switch type {
        case 0, 2, 4, 6:
            let kinds: [UInt8: AdvertisingPDUKind] = [0: .advInd, 2: .advNonconnInd, 4: .scanRsp, 6: .advScanInd]
            let address = try BluetoothAddress(reading: &p, "ll.adv_a")
            let dataOffset = p.offset
            emitAdvertisement(advertisement(kinds[type]!, address, p.rest()), dataOffset: dataOffset)
        case 1:
            let address = try BluetoothAddress(reading: &p, "ll.adv_a")
            var adv = advertisement(.advDirectInd, address, UnsafeRawBufferPointer(start: nil, count: 0))
            adv.directAddress = try BluetoothAddress(reading: &p, "ll.target_a")
            push(.advertisement(adv))
        case 3:
            let scanner = try BluetoothAddress(reading: &p, "ll.scan_a")
            let advertiser = try BluetoothAddress(reading: &p, "ll.adv_a")
            push(
                .linkLayer(
                    LinkLayerEvent(direction: .unknown, op: "scan_req", address: advertiser, data: scanner.wireBytes)))
        case 5:
            let indication = try ConnectIndication(header0: packet.header0, parsing: &p)
            openAirConnection(indication)
        case 7:
            let header = try ExtendedAdvertisingHeader(parsing: &p)
            if let address = header.advertiser, !header.data.isEmpty {
                var adv = advertisement(.ext, address, header.data)
                adv.sid = header.sid
                adv.advertisedTxPower = header.txPower
                emitAdvertisement(adv, dataOffset: p.offset - header.data.count)
            } else {
                push(
                    .linkLayer(
                        LinkLayerEvent(
                            direction: .unknown, op: header.hasAuxPointer ? "adv_ext_ind" : "aux_adv",
                            address: header.advertiser, data: [UInt8](header.data))))
            }
        default:
            push(
                .linkLayer(
                    LinkLayerEvent(direction: .unknown, op: AdvertisingPDUType.name(type), data: [UInt8](p.unread))))
        }
    }

    private func openAirConnection(_ indication: ConnectIndication) {
        if let stale = airConnections[indication.accessAddress] { close(stale.connection) }
        let connection = Connection(id: nextAirConnectionID, adapter: adapter)
        nextAirConnectionID &+= 1
        connection.peer = indication.advertiser
        connection.peerType = indication.advertiserRandom ? .random : .public
        connection.local = indication.initiator
        let air = AirConnection(connection: connection, accessAddress: indication.accessAddress)
        air.crcInit = indication.crcInit
        if airConnections[indication.accessAddress] != nil || hasRoom(airConnections.count, layer: "ll") {
            airConnections[indication.accessAddress] = air
        }
        push(
            .connect(
                Connect(
                    connection: connection.id, address: indication.advertiser,
                    addressType: connection.peerType ?? .public, role: nil, initiator: indication.initiator,
                    accessAddress: indication.accessAddress, interval: indication.interval,
                    latency: indication.latency, supervisionTimeout: indication.timeout)))
    }

    private func handleDataPDU(_ packet: LinkLayerPacket) throws(DecodeError) {
        let air: AirConnection
        if let known = airConnections[packet.accessAddress] {
            air = known
        } else {
            // The capture started after the CONNECT_IND: follow the connection without addresses.
            let connection = Connection(id: nextAirConnectionID, adapter: adapter)
            nextAirConnectionID &+= 1
            air = AirConnection(connection: connection, accessAddress: packet.accessAddress)
            if hasRoom(airConnections.count, layer: "ll") { airConnections[packet.accessAddress] = air }
            diagnose(
                "ll", "ll.connection_without_connect_ind",
                "data on access address 0x\(String(packet.accessAddress, radix: 16)) with no CONNECT_IND seen; followed as connection \(connection.id)",
                connection: connection.id)
        }
        let (fromCentral, retransmitted) = air.turns.observe(packet, at: timestamp)
        let side = fromCentral ? 0 : 1
        let direction: Direction = fromCentral ? .sent : .received
        if packet.length == 0 {
            statistics.emptyDataPDUs += 1
            return
        }
        if retransmitted {
            statistics.retransmissions += 1
            return
        }
        // The nRF Sniffer says per packet whether it is encrypted (and decrypts it when it has the key);
        // otherwise, packets after LL_START_ENC_RSP are encrypted unless the sniffer decrypted them.
        let encrypted =
            packet.metadata.encrypted.map { $0 && packet.metadata.micValid != true }
            ?? (air.encrypted && packet.metadata.decrypted != true)
        if encrypted {
            statistics.encryptedPDUs += 1
            if !air.reportedEncryption {
                air.reportedEncryption = true
                diagnose(
                    "ll", "ll.encrypted", "link encrypted from here on; encrypted payloads are counted, not decoded",
                    connection: air.connection.id)
            }
            return
        }
        var p = packet.payload
        switch packet.header0 & 0x03 {
        case 3:
            let opcode = try p.u8("ll.control.opcode")
            push(
                .linkLayer(
                    LinkLayerEvent(
                        connection: air.connection.id, direction: direction, op: LLControl.name(opcode),
                        data: [UInt8](p.unread))))
            if opcode == LLControl.startEncryptionResponse { air.encrypted = true }
            if opcode == LLControl.pauseEncryptionResponse { air.encrypted = false }
            if opcode == LLControl.terminateIndication {
                let reason = (try? p.u8()) ?? 0
                push(.disconnect(Disconnect(connection: air.connection.id, address: air.connection.peer, reason: reason)))
                close(air.connection)
                airConnections[packet.accessAddress] = nil
            }
        case 2:
            receiveFragment(p, start: true, connection: air.connection, side: side, direction: direction)
        case 1:
            receiveFragment(p, start: false, connection: air.connection, side: side, direction: direction)
        default:
            diagnose("ll", "ll.reserved_llid", "data PDU with the reserved LLID 0", connection: air.connection.id)
        }
    }
}
