import Layouts
import PayloadDecoders
import TestSupport
import Testing

/// layouts/README.md documents the format; these keep it honest.
struct ReadmeTests {
    let readme = TestPaths.readText(Shipped.directory + "/README.md") ?? ""

    @Test func `the unit table in the README is the linter's table`() {
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("| `_") }
        let documented = rows.map { row -> String in
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: " ") }
            return "\(cells[0]) \(cells[1])"
        }
        #expect(documented == UnitTable.suffixes.map { "\($0.unit) `_\($0.suffix)`" })
        #expect(documented.count == 64)
    }

    @Test func `the README's bit-field and offset examples read as it says`() throws {
        let flags = try layout(
            #"""
            {"id": "t", "match": {"company": 1}, "fields": [
            { "name": "flags", "type": "u16", "bits": [
              { "name": "button", "bit": 0 },
              { "name": "mode", "bit": 1, "width": 2, "enum": { "0": "off", "1": "eco", "3": "max" } },
              { "name": "level_pct", "bit": 8, "width": 7, "unit": "%" }
            ] }]}
            """#)
        #expect(
            flags.decode(bytes: hex("07 8A"))
                == .fields([
                    Field("flags", 35335), Field("button", true), Field("mode", "max"), Field("level_pct", 10),
                ]))
        let offsets = try layout(
            #"""
            {"id": "t", "match": {"company": 1}, "fields": [
            { "name": "a", "type": "u8", "offset": 0 },
            { "type": "pad", "length": 2 },
            { "name": "b", "type": "u8", "offset": 3 }]}
            """#)
        #expect(offsets.decode(bytes: hex("01 00 00 02")) == .fields([Field("a", 1), Field("b", 2)]))
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
