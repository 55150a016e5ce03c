import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import EventOutput
import JSON
import TestSupport
import Testing

/// The exact JSON line of each event type (DESIGN.md, "The event stream"): keys in the written order,
/// `ts` with six decimals from integer microseconds, hex in lower case, SIG UUIDs short.
struct EventJSONTests {
    static let peer = "00:1A:7D:1A:FD:C9"

    /// The lines of every event of the trace.
    func lines(_ trace: HCITrace, options: Tracker.Options = Tracker.Options()) -> [String] {
        track(trace, options: options).map(jsonLine)
    }

    // MARK: adv

    @Test func `adv: a legacy report with manufacturer data and TX power`() {
        var trace = HCITrace()
        // tshark reference frame 9: ADV_NONCONN_IND from C2:6B:30:F9:0E:C7, RSSI −63.
        trace.leMeta(
            0x02,
            hex(
                "01 03 01 C7 0E F9 30 6B C2 1A 02 01 04 13 FF FF FF 01 00 00 00 34 A2 0F 0B 0D 04 C3 6E D8 0E 71 E0 02 0A 04 C1"
            ))
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"adv","addr":"C2:6B:30:F9:0E:C7","addr_type":"random","rssi":-63,"pdu":"adv_nonconn_ind","ad":[{"type":1,"data":"04"},{"type":255,"data":"ffff0100000034a20f0b0d04c36ed80e71e0"},{"type":10,"data":"04"}],"mfr":[{"company":65535,"data":"0100000034a20f0b0d04c36ed80e71e0"}],"tx_power":4,"flags":["br_edr_not_supported"]}"#
            ])
    }

    @Test func `adv: name, service data and service UUIDs are lifted`() {
        var trace = HCITrace()
        trace.leMeta(
            0x02, hex("01 00 00 C1 3F 2B 7D 1A 00 14 02 01 06 05 03 0D 18 0F 18 05 16 1A 18 1B 07 04 08 45 6E 76 AF"))
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"adv","addr":"00:1A:7D:2B:3F:C1","addr_type":"public","rssi":-81,"pdu":"adv_ind","ad":[{"type":1,"data":"06"},{"type":3,"data":"0d180f18"},{"type":22,"data":"1a181b07"},{"type":8,"data":"456e76"}],"name":"Env","service_data":[{"uuid":"181a","data":"1b07"}],"uuids":["180d","180f"],"flags":["le_general_discoverable","br_edr_not_supported"]}"#
            ])
    }

    @Test func `adv: AD structures too short for a company id or UUID are listed but lift no empty keys`() {
        var trace = HCITrace()
        // Manufacturer data with one byte, a 16-bit UUID list with one byte, service data with one byte.
        trace.leMeta(0x02, hex("01 00 01 C7 0E F9 30 6B C2 09 02 FF 4C 02 03 11 02 16 1A C1"))
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"adv","addr":"C2:6B:30:F9:0E:C7","addr_type":"random","rssi":-63,"pdu":"adv_ind","ad":[{"type":255,"data":"4c"},{"type":3,"data":"11"},{"type":22,"data":"1a"}]}"#
            ])
    }

    @Test func `adv: an extended report with PHYs and set id, a 128-bit service UUID in full`() {
        var trace = HCITrace()
        trace.leMeta(
            0x0D,
            HCITrace.extendedReport(
                eventType: 0x0001, sid: 1, data: hex("11 07 9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 01 00 40 6E")))
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"adv","addr":"66:55:44:33:22:11","addr_type":"random","rssi":-64,"pdu":"ext","primary_phy":1,"secondary_phy":2,"sid":1,"ad":[{"type":7,"data":"9ecadc240ee5a9e093f3a3b50100406e"}],"uuids":["6e400001-b5a3-f393-e0a9-e50e24dcca9e"]}"#
            ])
    }

    @Test func `adv: an air capture's advertisement carries its channel`() {
        let records = [
            StoredRecord(
                frame: 1, timestamp: 1_755_796_520_292_959, direction: .unknown, kind: .linkLayer, linkType: .nordicBLE,
                payload: LinkLayerSamples.advertisement)
        ]
        #expect(
            track(records).map(jsonLine) == [
                #"{"frame":1,"ts":1755796520.292959,"type":"adv","addr":"14:AC:CA:5B:84:AD","addr_type":"random","rssi":-24,"pdu":"adv_nonconn_ind","channel":37,"ad":[{"type":255,"data":"0600010920225660e9fc5e4c095fdf3598e42aa4a0001e3a6c01e669ed"}],"mfr":[{"company":6,"data":"010920225660e9fc5e4c095fdf3598e42aa4a0001e3a6c01e669ed"}]}"#
            ])
    }

    // MARK: connect, disconnect

    @Test func `connect and disconnect`() {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        trace.disconnect(0x0040, reason: 0x08)
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"connect","conn":64,"addr":"00:1A:7D:1A:FD:C9","addr_type":"public","role":"central","interval_ms":30,"latency":0,"timeout_ms":5000}"#,
                #"{"frame":2,"ts":1710495001.152075,"type":"disconnect","conn":64,"addr":"00:1A:7D:1A:FD:C9","reason":8,"reason_name":"Connection Timeout"}"#,
            ])
    }

    @Test func `connect: an enhanced connection as peripheral with a 7.5 ms interval, and a failed one`() {
        var trace = HCITrace()
        // btmon #3290 (Vol 4, Part E, §7.7.65.10), here as peripheral.
        trace.leMeta(
            0x0A,
            hex("00 41 00 01 00 33 82 2E 7D 1A 00" + String(repeating: " 00", count: 12) + " 06 00 00 00 F4 01 01"))
        // Status 0x3E: connection failed to be established; the other fields mean nothing then.
        trace.leMeta(0x01, hex("3E 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"))
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"connect","conn":65,"addr":"00:1A:7D:2E:82:33","addr_type":"public","role":"peripheral","interval_ms":7.5,"latency":0,"timeout_ms":5000}"#,
                #"{"frame":2,"ts":1710495001.152075,"type":"connect","status":62,"status_name":"Connection Failed to be Established / Synchronization Timeout"}"#,
            ])
    }

    @Test func `connect: on air, with the central's address and the access address`() {
        let records = [
            StoredRecord(
                frame: 648, timestamp: 1_755_796_530_000_000, direction: .unknown, kind: .linkLayer,
                linkType: .nordicBLE, payload: LinkLayerSamples.connectIndication),
            StoredRecord(
                frame: 649, timestamp: 1_755_796_530_001_250, direction: .unknown, kind: .linkLayer,
                linkType: .nordicBLE, payload: LinkLayerSamples.versionIndication),
        ]
        #expect(
            track(records).map(jsonLine) == [
                #"{"frame":648,"ts":1755796530.000000,"type":"connect","conn":1,"addr":"C0:48:FF:F5:9D:B8","addr_type":"random","initiator":"40:F1:98:B9:D1:03","access_address":2946139297,"interval_ms":30,"latency":0,"timeout_ms":720}"#,
                #"{"frame":649,"ts":1755796530.001250,"type":"ll","conn":1,"dir":"sent","op":"version_ind","data":"0c0f004502"}"#,
            ])
    }

    // MARK: att, mtu

    @Test func `att: a notification resolved by discovery, and one not resolved`() {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        trace.att(0x0040, .sent, "08 0C 00 0F 00 03 28")
        trace.att(0x0040, .received, "09 07 0D 00 10 0E 00 37 2A")
        trace.att(0x0040, .received, "1B 0E 00 06 52")
        trace.att(0x0040, .received, "1B 30 00 FF")
        let all = lines(trace)
        #expect(
            Array(all.dropFirst()) == [
                #"{"frame":2,"ts":1710495001.152075,"type":"att","conn":64,"addr":"00:1A:7D:1A:FD:C9","dir":"sent","opcode":8,"op":"read_by_type_req","start_handle":12,"end_handle":15,"attribute_type":"2803"}"#,
                #"{"frame":3,"ts":1710495001.153075,"type":"att","conn":64,"addr":"00:1A:7D:1A:FD:C9","dir":"recv","opcode":9,"op":"read_by_type_rsp","request_frame":2,"discovered":[{"handle":13,"uuid":"2a37","value_handle":14,"properties":16,"property_names":["notify"]}]}"#,
                #"{"frame":4,"ts":1710495001.154075,"type":"att","conn":64,"addr":"00:1A:7D:1A:FD:C9","dir":"recv","opcode":27,"op":"notify","handle":14,"uuid":"2a37","uuid_from":"discovery","uuid_frame":3,"value":"0652"}"#,
                #"{"frame":5,"ts":1710495001.155075,"type":"att","conn":64,"addr":"00:1A:7D:1A:FD:C9","dir":"recv","opcode":27,"op":"notify","handle":48,"uuid":null,"value":"ff"}"#,
            ])
    }

    @Test func `att: a 128-bit characteristic in its service, from a GATT map`() throws {
        var database = GATTDatabase()
        database.addService(
            start: 0x0010, end: 0xFFFF, uuid: try #require(BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e")),
            frame: nil)
        database.addCharacteristic(
            declaration: 0x0011, valueHandle: 0x0012,
            uuid: try #require(BluetoothUUID("6e400002-b5a3-f393-e0a9-e50e24dcca9e")), properties: 0x0C, frame: nil)
        database.addAttribute(handle: 0x0013, uuid: BluetoothUUID(0x2902), frame: nil)
        var options = Tracker.Options()
        options.gattMap.anyDevice = database
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        trace.att(0x0040, .sent, "52 12 00 68 69")
        trace.att(0x0040, .sent, "12 13 00 01 00")
        trace.att(0x0040, .received, "13")
        #expect(
            Array(lines(trace, options: options).dropFirst()) == [
                #"{"frame":2,"ts":1710495001.152075,"type":"att","conn":64,"addr":"00:1A:7D:1A:FD:C9","dir":"sent","opcode":82,"op":"write_cmd","handle":18,"uuid":"6e400002-b5a3-f393-e0a9-e50e24dcca9e","service":"6e400001-b5a3-f393-e0a9-e50e24dcca9e","uuid_from":"map","value":"6869"}"#,
                #"{"frame":3,"ts":1710495001.153075,"type":"att","conn":64,"addr":"00:1A:7D:1A:FD:C9","dir":"sent","opcode":18,"op":"write_req","handle":19,"uuid":"2902","service":"6e400001-b5a3-f393-e0a9-e50e24dcca9e","characteristic":"6e400002-b5a3-f393-e0a9-e50e24dcca9e","uuid_from":"map","value":"0100","cccd":["notify"]}"#,
                #"{"frame":4,"ts":1710495001.154075,"type":"att","conn":64,"addr":"00:1A:7D:1A:FD:C9","dir":"recv","opcode":19,"op":"write_rsp","handle":19,"uuid":"2902","service":"6e400001-b5a3-f393-e0a9-e50e24dcca9e","characteristic":"6e400002-b5a3-f393-e0a9-e50e24dcca9e","uuid_from":"map","request_frame":3}"#,
            ])
    }

    @Test func `att: an error response, a read blob, a partial part and a read_long`() {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "0A 03 00")
        trace.att(0x0040, .received, "01 0A 03 00 02")
        trace.att(0x0040, .sent, "0C 05 00 00 00")
        trace.att(0x0040, .received, "0D " + LongValueTests.fullPart)
        trace.att(0x0040, .sent, "0C 05 00 16 00")
        trace.att(0x0040, .received, "0D 01")
        let all = lines(trace)
        let part = "000102030405060708090a0b0c0d0e0f101112131415"
        #expect(
            Array(all.dropFirst()) == [
                #"{"frame":2,"ts":1710495001.152075,"type":"att","conn":64,"dir":"recv","opcode":1,"op":"error_rsp","handle":3,"uuid":null,"request":"read_req","error":2,"error_name":"read_not_permitted","request_frame":1}"#,
                #"{"frame":3,"ts":1710495001.153075,"type":"att","conn":64,"dir":"sent","opcode":12,"op":"read_blob_req","handle":5,"uuid":null,"offset":0}"#,
                #"{"frame":4,"ts":1710495001.154075,"type":"att","conn":64,"dir":"recv","opcode":13,"op":"read_blob_rsp","handle":5,"uuid":null,"offset":0,"request_frame":3,"value":"\#(part)","partial":true}"#,
                #"{"frame":5,"ts":1710495001.155075,"type":"att","conn":64,"dir":"sent","opcode":12,"op":"read_blob_req","handle":5,"uuid":null,"offset":22}"#,
                #"{"frame":6,"ts":1710495001.156075,"type":"att","conn":64,"dir":"recv","opcode":13,"op":"read_blob_rsp","handle":5,"uuid":null,"offset":22,"request_frame":5,"value":"01","partial":true}"#,
                #"{"frame":6,"ts":1710495001.156075,"type":"att","conn":64,"dir":"recv","opcode":13,"op":"read_long","handle":5,"uuid":null,"request_frame":3,"value":"\#(part)01"}"#,
            ])
    }

    @Test func `mtu`() {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "02 F7 00")
        trace.att(0x0040, .received, "03 9E 00")
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"att","conn":64,"dir":"sent","opcode":2,"op":"mtu_req","client_mtu":247}"#,
                #"{"frame":2,"ts":1710495001.152075,"type":"att","conn":64,"dir":"recv","opcode":3,"op":"mtu_rsp","server_mtu":158,"request_frame":1}"#,
                #"{"frame":2,"ts":1710495001.152075,"type":"mtu","conn":64,"mtu":158}"#,
            ])
    }

    // MARK: smp, encryption

    @Test func `smp and encryption: pairing request, response with its method, encryption, paired`() {
        var trace = HCITrace()
        // Vol 3, Part H, §3.5.1/2: both KeyboardDisplay, bonding + MITM + SC: numeric comparison.
        trace.l2cap(0x0040, .sent, channel: 6, hex("01 04 00 2D 10 0F 0F"))
        trace.l2cap(0x0040, .received, channel: 6, hex("02 04 00 2D 10 0F 0F"))
        trace.event(0x08, hex("00 40 00 01"))
        trace.event(0x59, hex("00 40 00 01 10"))
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"smp","conn":64,"dir":"sent","op":"pairing_req"}"#,
                #"{"frame":2,"ts":1710495001.152075,"type":"smp","conn":64,"dir":"recv","op":"pairing_rsp","method":"numeric_comparison","secure_connections":true}"#,
                #"{"frame":3,"ts":1710495001.153075,"type":"encryption","conn":64,"enabled":true}"#,
                #"{"frame":3,"ts":1710495001.153075,"type":"smp","conn":64,"dir":"unknown","op":"paired","method":"numeric_comparison","secure_connections":true}"#,
                #"{"frame":4,"ts":1710495001.154075,"type":"encryption","conn":64,"enabled":true,"key_size":16}"#,
            ])
    }

    @Test func `smp: pairing failed names its reason`() {
        var trace = HCITrace()
        trace.l2cap(0x0040, .received, channel: 6, hex("05 04"))
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"smp","conn":64,"dir":"recv","op":"pairing_failed","reason":4,"reason_name":"confirm_value_failed"}"#
            ])
    }

    // MARK: connection parameters

    @Test func `conn_update, data_length and phy`() {
        var trace = HCITrace()
        trace.leMeta(0x03, hex("00 40 00 06 00 00 00 48 00"))  // §7.7.65.3
        trace.leMeta(0x07, hex("40 00 FB 00 48 08 FB 00 48 08"))  // §7.7.65.7
        trace.leMeta(0x0C, hex("00 40 00 02 02"))  // §7.7.65.12
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"conn_update","conn":64,"interval_ms":7.5,"latency":0,"timeout_ms":720}"#,
                #"{"frame":2,"ts":1710495001.152075,"type":"data_length","conn":64,"max_tx_octets":251,"max_rx_octets":251}"#,
                #"{"frame":3,"ts":1710495001.153075,"type":"phy","conn":64,"tx_phy":2,"rx_phy":2}"#,
            ])
    }

    // MARK: signal, l2cap, hci, note, diagnostic

    @Test func `signal and l2cap`() {
        var trace = HCITrace()
        trace.l2cap(0x0040, .received, channel: 5, hex("12 01 08 00 06 00 0C 00 00 00 F4 01"))
        trace.l2cap(0x0040, .sent, channel: 0x0080, hex("01 02"))
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"signal","conn":64,"dir":"recv","code":18,"op":"conn_param_update_req","id":1,"data":"06000c000000f401"}"#,
                #"{"frame":2,"ts":1710495001.152075,"type":"l2cap","conn":64,"dir":"sent","cid":128,"data":"0102"}"#,
            ])
    }

    @Test func `hci: a command and the command complete answering it`() {
        var trace = HCITrace()
        trace.record(.command, .sent, hex("0C 20 02 01 00"))  // LE Set Scan Enable (Vol 4, Part E, §7.8.11)
        trace.event(0x0E, hex("01 0C 20 00"))
        trace.event(0x13, hex("01 40 00 01 00"))  // Number Of Completed Packets
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1710495001.151075,"type":"hci","kind":"command","opcode":8204,"name":"LE Set Scan Enable","le_scan_enable":1,"le_scan_enable_name":"Enabled","filter_duplicates":0,"filter_duplicates_name":"Disabled","data":"0100"}"#,
                #"{"frame":2,"ts":1710495001.152075,"type":"hci","kind":"event","code":14,"name":"Command Complete","command":"LE Set Scan Enable","command_opcode":8204,"num_hci_command_packets":1,"status":0,"status_name":"Success","data":"010c2000"}"#,
                #"{"frame":3,"ts":1710495001.153075,"type":"hci","kind":"event","code":19,"name":"Number Of Completed Packets","handles":[{"handle":64,"num_completed_packets":1}],"data":"0140000100"}"#,
            ])
    }

    @Test func `note and diagnostic, and a time whose microseconds have leading zeros`() {
        var trace = HCITrace()
        trace.time = 1_700_000_000_000_042
        trace.record(.note, .unknown, Array("Bluetooth daemon 5.66".utf8) + [0])
        trace.acl(0x0040, .received, pb: 1, hex("01 02 03"))
        trace.leMeta(0x02, hex("01 00 01 C7 0E F9 30 6B C2 03 05 09 41 C1"))
        #expect(
            lines(trace) == [
                #"{"frame":1,"ts":1700000000.000042,"type":"note","text":"Bluetooth daemon 5.66"}"#,
                #"{"frame":2,"ts":1700000000.001042,"type":"diagnostic","layer":"acl","id":"acl.continuation_without_start","conn":64,"reason":"a continuation fragment of 3 bytes arrived with no frame started"}"#,
                #"{"frame":3,"ts":1700000000.002042,"type":"diagnostic","layer":"ad","id":"ad.length_overrun","offset":13,"reason":"AD structure from C2:6B:30:F9:0E:C7 at data offset 0 runs past the data: bad length: declares 5, 2 present"}"#,
                #"{"frame":3,"ts":1700000000.002042,"type":"adv","addr":"C2:6B:30:F9:0E:C7","addr_type":"random","rssi":-63,"pdu":"adv_ind","ad":[]}"#,
            ])
    }

    @Test func `a diagnostic from the capture reader carries its frame and offset`() throws {
        // A btsnoop file cut in the middle of its second record.
        var trace = HCITrace()
        trace.att(0x0040, .received, "1B 0E 00 06 52")
        trace.att(0x0040, .received, "1B 0E 00 07 53")
        let whole = try CaptureFactory.capture(.btsnoop(.btsnoopUART), trace.records)
        let cut = Array(whole.dropLast(3))
        var events: [Event] = []
        EventStream.read(try CaptureReader(bytes: cut, formats: testFormats)) { events.append($0) }
        let last = try #require(events.last)
        #expect(events.map(\.type) == [.att, .diagnostic])
        #expect(
            jsonLine(last).hasPrefix(
                #"{"frame":2,"ts":1710495001.151075,"type":"diagnostic","layer":"capture","id":"capture.truncated","offset":"#
            ))
    }
}
