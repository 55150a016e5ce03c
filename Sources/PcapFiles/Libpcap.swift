import CPcap

/// libpcap's functions, opened the first time a pcap or pcapng file is read or written, or a live
/// capture starts (see `bluetape_pcap` in CPcap's header for why it is not linked).
enum Libpcap {
    private static let loaded: Result<bluetape_pcap, LoadError> = {
        guard let table = bluetape_pcap_load() else {
            return .failure(LoadError(reason: String(cString: bluetape_pcap_error())))
        }
        return .success(table.pointee)
    }()

    struct LoadError: Error {
        var reason: String

        var message: String {
            "libpcap could not be loaded (\(reason)); on Debian it is the package libpcap0.8"
        }
    }

    static func functions() throws(LoadError) -> bluetape_pcap { try loaded.get() }

    /// A buffer for the messages libpcap writes where a call has no handle to keep them.
    static func errorBuffer() -> [CChar] { [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1) }

    /// The message libpcap wrote into `buffer` (up to its terminating zero).
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The message of the last error on `handle`.
    static func error(_ handle: OpaquePointer, _ pcap: bluetape_pcap) -> String {
        pcap.geterr(handle).map { String(cString: $0) } ?? "libpcap gave no reason"
    }
}
