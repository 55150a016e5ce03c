#if canImport(CCrypto)
import CCrypto
#endif

/// AES-128-CCM with a 13-byte nonce, a 4-byte tag and no associated data (NIST SP 800-38C), as
/// encrypted BTHome v2 uses it. The cipher is OpenSSL's (libcrypto's EVP interface): nothing here
/// implements AES. libcrypto is opened the first time a payload is decrypted; where it cannot be
/// (or on a platform built without it), `unavailableReason` says why, and nothing is decrypted.
enum AESCCM {
    static let keySize = 16
    static let nonceSize = 13
    static let tagSize = 4

    #if canImport(CCrypto)
    /// libcrypto's functions, or why they could not be had.
    private static let loaded: Result<bluetape_crypto, LoadError> = {
        guard let table = bluetape_crypto_load() else {
            return .failure(LoadError(reason: String(cString: bluetape_crypto_error())))
        }
        return .success(table.pointee)
    }()

    struct LoadError: Error {
        var reason: String
    }

    static var unavailableReason: String? {
        guard case .failure(let error) = loaded else { return nil }
        return "libcrypto (OpenSSL 3) could not be loaded (\(error.reason); on Debian it is the package libssl3)"
    }
    #else
    static let unavailableReason: String? = "this build has no AES-CCM (libcrypto)"
    #endif

    /// The plaintext, or nil when the tag does not match (wrong key, wrong nonce, altered bytes).
    static func open(_ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        guard key.count == keySize, nonce.count == nonceSize, tag.count == tagSize else { return nil }
        #if canImport(CCrypto)
        guard let crypto = try? loaded.get(), let context = crypto.cipher_ctx_new() else { return nil }
        defer { crypto.cipher_ctx_free(context) }
        var tag = tag
        var plaintext = [UInt8](repeating: 0, count: max(ciphertext.count, 1))
        var written: Int32 = 0
        // The order CCM needs: cipher, nonce and tag lengths (and the expected tag), key and
        // nonce, the message length, then the message in one call, which also checks the tag.
        guard crypto.decrypt_init(context, crypto.aes_128_ccm(), nil, nil, nil) == 1,
            crypto.cipher_ctx_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceSize), nil) == 1,
            crypto.cipher_ctx_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagSize), &tag) == 1,
            crypto.decrypt_init(context, nil, nil, key, nonce) == 1,
            crypto.decrypt_update(context, nil, &written, nil, Int32(ciphertext.count)) == 1
        else { return nil }
        let verified = ciphertext.withUnsafeBufferPointer { input in
            plaintext.withUnsafeMutableBufferPointer { output in
                // An empty message still needs pointers that are not null.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { spare in
                    crypto.decrypt_update(
                        context, output.baseAddress, &written, input.baseAddress ?? UnsafePointer(spare.baseAddress!),
                        Int32(input.count)) == 1
                }
            }
        }
        guard verified else { return nil }
        return Array(plaintext.prefix(ciphertext.count))
        #else
        return nil
        #endif
    }

    /// The ciphertext and its tag; nil only when libcrypto is missing or refuses the key or nonce.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> (ciphertext: [UInt8], tag: [UInt8])? {
        guard key.count == keySize, nonce.count == nonceSize else { return nil }
        #if canImport(CCrypto)
        guard let crypto = try? loaded.get(), let context = crypto.cipher_ctx_new() else { return nil }
        defer { crypto.cipher_ctx_free(context) }
        var ciphertext = [UInt8](repeating: 0, count: max(plaintext.count, 1) + 16)
        var tag = [UInt8](repeating: 0, count: tagSize)
        var written: Int32 = 0
        var finished: Int32 = 0
        guard crypto.encrypt_init(context, crypto.aes_128_ccm(), nil, nil, nil) == 1,
            crypto.cipher_ctx_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceSize), nil) == 1,
            crypto.cipher_ctx_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagSize), nil) == 1,
            crypto.encrypt_init(context, nil, nil, key, nonce) == 1,
            crypto.encrypt_update(context, nil, &written, nil, Int32(plaintext.count)) == 1
        else { return nil }
        let sealed = plaintext.withUnsafeBufferPointer { input in
            ciphertext.withUnsafeMutableBufferPointer { output in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { spare in
                    crypto.encrypt_update(
                        context, output.baseAddress, &written, input.baseAddress ?? UnsafePointer(spare.baseAddress!),
                        Int32(input.count)) == 1
                        && crypto.encrypt_final(context, output.baseAddress! + Int(written), &finished) == 1
                }
            }
        }
        guard sealed, crypto.cipher_ctx_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagSize), &tag) == 1 else {
            return nil
        }
        return (Array(ciphertext.prefix(plaintext.count)), tag)
        #else
        return nil
        #endif
    }
}
