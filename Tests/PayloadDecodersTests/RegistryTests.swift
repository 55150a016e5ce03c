import PayloadDecoders
import Testing

struct RegistryTests {
    @Test func `decoder ids are unique`() {
        let ids = Registry.builtIn().map(\.id)
        #expect(Set(ids).count == ids.count)
    }
}
