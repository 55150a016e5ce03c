/// SipHash-2-4 of one 64-bit word (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
/// 2012): a keyed function whose output cannot be predicted, or turned back into its input,
/// without the key. Pseudonyms come from it, so that a scrubbed capture says nothing about the
/// addresses in it to someone who does not know the key.
struct KeyedHash: Sendable {
    let k0: UInt64
    let k1: UInt64

    init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    /// The key for a seed (SplitMix64 steps spread it over 128 bits), or a random one.
    init(seed: UInt64?) {
        guard let seed else {
            var random = SystemRandomNumberGenerator()
            self.init(k0: random.next(), k1: random.next())
            return
        }
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        self.init(k0: next(), k1: next())
    }

    /// The hash of the eight bytes of `message`, least significant first.
    func hash(_ message: UInt64) -> UInt64 {
        var v0 = k0 ^ 0x736f_6d65_7073_6575
        var v1 = k1 ^ 0x646f_7261_6e64_6f6d
        var v2 = k0 ^ 0x6c79_6765_6e65_7261
        var v3 = k1 ^ 0x7465_6462_7974_6573
        func round() {
            v0 &+= v1
            v1 = v1.rotatedLeft(13) ^ v0
            v0 = v0.rotatedLeft(32)
            v2 &+= v3
            v3 = v3.rotatedLeft(16) ^ v2
            v0 &+= v3
            v3 = v3.rotatedLeft(21) ^ v0
            v2 &+= v1
            v1 = v1.rotatedLeft(17) ^ v2
            v2 = v2.rotatedLeft(32)
        }
        v3 ^= message
        round()
        round()
        v0 ^= message
        // The last block holds only the message length (8) in its top byte.
        let last: UInt64 = 8 << 56
        v3 ^= last
        round()
        round()
        v0 ^= last
        v2 ^= 0xFF
        round()
        round()
        round()
        round()
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ n: UInt64) -> UInt64 { (self << n) | (self >> (64 - n)) }
}
