/// Names of SIG-assigned numbers, for text output, from the generated tables in `AssignedNumbers/`
/// (companies, UUIDs, Appearance values, AD types). Unknown values have no name.
public enum AssignedNames {
    /// A service, characteristic, descriptor or declaration UUID (16-bit SIG and member UUIDs, and the
    /// vendor 128-bit UUIDs the numbers database lists).
    public static func uuid(_ uuid: BluetoothUUID) -> String? {
        if let short = uuid.shortValue {
            return short <= 0xFFFF ? AssignedNumberTables.uuids16.name(UInt16(short)) : nil
        }
        return AssignedNumberTables.uuids128.name(high: uuid.high, low: uuid.low)
    }

    /// A company identifier's name (Assigned Numbers §7).
    public static func company(_ id: UInt16) -> String? { AssignedNumberTables.companies.name(id) }

    /// Calls `body` with the company's name as UTF-8 bytes, without making a String.
    public static func withCompanyName<R>(_ id: UInt16, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        AssignedNumberTables.companies.withName(id, body)
    }

    /// The one way Bluetape prints a company: "0x004c (Apple, Inc.)", or "0x1234" when it has no name.
    public static func companyText(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        let code = "0x" + String(repeating: "0", count: 4 - digits.count) + digits
        return company(id).map { "\(code) (\($0))" } ?? code
    }

    /// An AD type's name (Assigned Numbers §2.3).
    public static func adType(_ type: UInt8) -> String? { AssignedNumberTables.adTypes.name(UInt16(type)) }

    /// An Appearance value (Assigned Numbers §2.6): its category, and its subcategory when it names one.
    public static func appearance(_ value: UInt16) -> (category: String?, subcategory: String?) {
        let category = AssignedNumberTables.appearances.name(value & 0xFFC0)
        let subcategory = value & 0x3F == 0 ? nil : AssignedNumberTables.appearances.name(value)
        return (category, subcategory)
    }

    /// "Heart Rate Sensor: Heart Rate Belt", "Phone", or nil for a value with no category.
    public static func appearanceText(_ value: UInt16) -> String? {
        let (category, subcategory) = appearance(value)
        guard let category else { return nil }
        return subcategory.map { "\(category): \($0)" } ?? category
    }
}
