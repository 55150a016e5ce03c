/// CRC-16/CCITT-FALSE (also CRC-16/IBM-3740): polynomial 0x1021, initial value 0xFFFF, no
/// reflection, no final XOR. Check value: "123456789" → 0x29B1 (combustion.md §5.3).
public enum CRC16 {
    public static func ccittFalse(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x1021 : crc << 1
            }
        }
        return crc
    }
}
