extension StoredRecord {
    /// A packet from the Linux Bluetooth monitor (a live `bluetooth-monitor` capture, pcap link type
    /// 254 without its 4-byte header): kind and direction come from the monitor opcode, which is kept
    /// so a writer can store the record unchanged.
    public init(monitorOpcode: UInt16, adapter: UInt16, frame: Int, timestamp: Int64, payload: [UInt8], originalLength: Int? = nil) {
        let (kind, direction) = HCIFraming.monitor(opcode: monitorOpcode)
        self.init(
            frame: frame, timestamp: timestamp, direction: direction, kind: kind, adapter: adapter,
            linkType: .linuxMonitor, sourceType: monitorOpcode, payload: payload, originalLength: originalLength)
    }
}
