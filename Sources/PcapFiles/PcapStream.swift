import CPcap
import CaptureFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The stream behind a `FILE*` made by `openFile(reading:)`: kept alive by the `FILE*` itself and
/// released when libpcap closes it.
final class StreamCookie {
    let stream: any ByteStream
    /// Bytes handed to the `FILE*` so far: what `ftell` is answered from.
    var position: Int64 = 0
    /// Why the stream stopped, when it did: libpcap only sees EIO.
    var failure: StreamError?

    init(_ stream: any ByteStream) { self.stream = stream }
}

/// A `FILE*` (fopencookie on Glibc, funopen on Darwin) that reads `stream`, so that libpcap reads
/// pcap and pcapng from standard input, from inside gzip or from an archive member. Returns the
/// file and its cookie; nil when the C library refuses.
func openFile(reading stream: any ByteStream) -> (UnsafeMutablePointer<FILE>, StreamCookie)? {
    let cookie = StreamCookie(stream)
    let opaque = Unmanaged.passRetained(cookie).toOpaque()
    let file = bluetape_fopen_stream(
        opaque,
        { opaque, buffer, size in
            guard let opaque, let buffer else { return -1 }
            let cookie = Unmanaged<StreamCookie>.fromOpaque(opaque).takeUnretainedValue()
            do throws(StreamError) {
                let got = try cookie.stream.read(into: buffer, count: size)
                cookie.position += Int64(got)
                return got
            } catch {
                cookie.failure = error
                errno = EIO
                return -1
            }
        },
        { opaque, offset, whence in
            guard let opaque, let offset else { return -1 }
            let cookie = Unmanaged<StreamCookie>.fromOpaque(opaque).takeUnretainedValue()
            // Telling where the stream is, or "seeking" to where it already is: nothing else.
            if (whence == SEEK_CUR && offset.pointee == 0) || (whence == SEEK_SET && offset.pointee == cookie.position) {
                offset.pointee = cookie.position
                return 0
            }
            errno = ESPIPE
            return -1
        },
        { opaque in
            if let opaque { Unmanaged<StreamCookie>.fromOpaque(opaque).release() }
            return 0
        })
    guard let file else {
        Unmanaged<StreamCookie>.fromOpaque(opaque).release()
        return nil
    }
    return (file, cookie)
}
