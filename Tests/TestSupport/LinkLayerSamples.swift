import ByteReading

/// Real link-layer records from an nRF Sniffer capture (Core v5.4, Vol 6, Part B, §2 and §3.1.1),
/// shared by the packet parser's tests and the tracker's.
public enum LinkLayerSamples {
    /// Tesi_BLE__capture.pcap frame 1 (LINKTYPE_NORDIC_BLE 272): ADV_NONCONN_IND on channel 37, RSSI −24,
    /// "CRC: Ok"; tshark shows its CRC as 0xeabe4c.
    public static let advertisement = Hex.decode(
        """
        00 38 00 03 09 00 02 0a 01 25 18 00 00 d0 85 66
        02 d6 be 89 8e 42 25 ad 84 5b ca ac 14 1e ff 06
        00 01 09 20 22 56 60 e9 fc 5e 4c 09 5f df 35 98
        e4 2a a4 a0 00 1e 3a 6c 01 e6 69 ed 57 7d 32
        """)!

    /// The same capture, frame 648: CONNECT_IND from 40:f1:98:b9:d1:03 to c0:48:ff:f5:9d:b8; tshark
    /// decodes access address 0xaf9a84a1, CRC init 0x5865dd, interval 24, latency 0, timeout 72, CRC 0xea7725.
    public static let connectIndication = Hex.decode(
        """
        00 35 00 03 90 02 02 0a 01 26 28 00 00 e9 d7 fb
        02 d6 be 89 8e c5 22 03 d1 b9 98 f1 40 b8 9d f5
        ff 48 c0 a1 84 9a af dd 65 58 03 07 00 18 00 00
        00 48 00 00 f8 ff ff 1f 28 57 ee a4
        """)!

    /// Frame 649: the connection's first data PDU, LL_VERSION_IND central to peripheral; tshark CRC 0x079429.
    public static let versionIndication = Hex.decode(
        """
        00 19 00 03 91 02 06 0a 03 13 26 00 00 40 05 fc
        02 a1 84 9a af 03 06 0c 0c 0f 00 45 02 e0 29 94
        """)!
}
