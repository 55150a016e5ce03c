import BluetoothPackets
import Foundation
import TestSupport
import Testing

/// The generated assigned-number tables against the data they come from (../shared/assigned-numbers,
/// read here with Foundation's JSON parser, independently of the generator), and the names the issue
/// found missing before: Garmin, Sony, Xiaomi's service data, Appearance.
struct AssignedNumbersTests {
    static let data: String? = {
        let path = TestPaths.packageRoot + "/../shared/assigned-numbers"
        return TestPaths.isDirectory(path) ? path : nil
    }()

    static func entries(_ file: String) throws -> [[String: Any]] {
        let path = try #require(data) + "/" + file
        let bytes = try #require(TestPaths.readFile(path))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
    }

    @Test func `names the captures need`() throws {
        #expect(AssignedNames.company(0x0087) == "Garmin International, Inc.")
        #expect(AssignedNames.company(0x012D) == "Sony Corporation")
        #expect(AssignedNames.companyText(0x004C) == "0x004c (Apple, Inc.)")
        #expect(AssignedNames.companyText(0xFFFE) == "0xfffe")
        // A member UUID from the bluetooth-numbers package, and a SIG service.
        #expect(AssignedNames.uuid(BluetoothUUID(0xFE95)) == "Xiaomi Inc.")
        #expect(AssignedNames.uuid(BluetoothUUID(0x180D)) == "Heart Rate")
        #expect(AssignedNames.uuid(BluetoothUUID(0x2800)) == "Primary Service")
        #expect(AssignedNames.uuid(try #require(BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e"))) == "Nordic UART Service")
        #expect(AssignedNames.adType(0x19) == "Appearance")
        #expect(AssignedNames.adType(0x33) == nil)
        // gap_appearance.json: category 13 Heart Rate Sensor, subcategory 1 Heart Rate Belt (0x0341).
        #expect(AssignedNames.appearanceText(0x0341) == "Heart Rate Sensor: Heart Rate Belt")
        #expect(AssignedNames.appearanceText(0x0340) == "Heart Rate Sensor")
        #expect(AssignedNames.appearanceText(0xFFC0) == nil)
    }

    @Test(.enabled(if: data != nil, "../shared/assigned-numbers is not here"))
    func `every company of company_ids.json has its name`() throws {
        let companies = try Self.entries("company_ids.json")
        #expect(companies.count > 3000)
        for entry in companies {
            let code = try #require(entry["code"] as? Int)
            let name = try #require(entry["name"] as? String)
            #expect(AssignedNames.company(UInt16(code)) == name.trimmingCharacters(in: .whitespaces), "0x\(String(code, radix: 16))")
        }
    }

    @Test(.enabled(if: data != nil, "../shared/assigned-numbers is not here"))
    func `every SIG service, characteristic and descriptor UUID has its name`() throws {
        for file in ["service_uuids.json", "characteristic_uuids.json", "descriptor_uuids.json"] {
            for entry in try Self.entries(file) where (entry["source"] as? String) == "gss" {
                let text = try #require(entry["uuid"] as? String)
                let uuid = try #require(BluetoothUUID(text))
                #expect(AssignedNames.uuid(uuid) == (entry["name"] as? String)?.trimmingCharacters(in: .whitespaces), "\(text)")
            }
        }
    }

    @Test(.enabled(if: data != nil, "../shared/assigned-numbers is not here"))
    func `every Appearance category and subcategory has its name`() throws {
        for category in try Self.entries("gap_appearance.json") {
            let code = try #require(category["category"] as? Int)
            let name = try #require(category["name"] as? String)
            #expect(AssignedNames.appearanceText(UInt16(code << 6)) == name)
            for sub in category["subcategory"] as? [[String: Any]] ?? [] {
                let value = UInt16(code << 6 | (try #require(sub["value"] as? Int)))
                #expect(AssignedNames.appearance(value).subcategory == sub["name"] as? String)
            }
        }
    }
}
