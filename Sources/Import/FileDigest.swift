import CCrypto
import Foundation

/// SHA-256 of a file, read in fixed-size chunks (OpenSSL's libcrypto does the hashing).
public enum FileDigest {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The file's SHA-256 as lower-case hex, and its size in bytes.
    public static func sha256(path: String) throws -> (hex: String, size: Int64) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw Failure(description: "\(path): cannot open (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        guard let context = EVP_MD_CTX_new() else { throw Failure(description: "\(path): cannot start SHA-256") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw Failure(description: "\(path): cannot start SHA-256")
        }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var size: Int64 = 0
        while true {
            let count = read(descriptor, buffer, chunk)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "\(path): read error (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            size += Int64(count)
            guard EVP_DigestUpdate(context, buffer, count) == 1 else {
                throw Failure(description: "\(path): SHA-256 failed")
            }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else {
            throw Failure(description: "\(path): SHA-256 failed")
        }
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in digest.prefix(Int(length)) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return (String(decoding: hex, as: UTF8.self), size)
    }
}
