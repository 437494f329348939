import Foundation

/// A GIF89a reader for the tests: the container (screen, colour tables, graphic control extensions, the NETSCAPE
/// loop, image descriptors) and the LZW image data, composited frame by frame onto the logical screen as a viewer
/// does (disposal 0/1 keep, 2 restores the background, transparent pixels leave the canvas as it was). Written
/// from the GIF89a specification; enough to read what gnuplot's gd terminal writes and to fail loudly on anything
/// else.
struct GIFReader {
    struct Frame {
        /// Hundredths of a second the frame stays.
        var delay: Int
        /// The whole screen after this frame, row-major, 0xRRGGBB.
        var pixels: [UInt32]
    }

    enum Failure: Error, CustomStringConvertible {
        case malformed(String)
        var description: String { if case .malformed(let text) = self { return "not a GIF as expected: \(text)" }; return "" }
    }

    var width = 0
    var height = 0
    /// The NETSCAPE2.0 loop count (0 = forever), or nil without the extension.
    var loopCount: Int?
    var frames: [Frame] = []

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var at = 0
        func byte() throws -> Int {
            guard at < bytes.count else { throw Failure.malformed("truncated at byte \(at)") }
            defer { at += 1 }
            return Int(bytes[at])
        }
        func word() throws -> Int { try byte() | (try byte() << 8) }
        func table(_ size: Int) throws -> [UInt32] {
            try (0..<size).map { _ in UInt32(try byte()) << 16 | UInt32(try byte()) << 8 | UInt32(try byte()) }
        }
        func subBlocks() throws -> [UInt8] {
            var out: [UInt8] = []
            while true {
                let length = try byte()
                if length == 0 { return out }
                guard at + length <= bytes.count else { throw Failure.malformed("sub-block past the end") }
                out += bytes[at..<at + length]
                at += length
            }
        }

        guard bytes.count > 13, String(decoding: bytes[0..<6], as: UTF8.self) == "GIF89a" else {
            throw Failure.malformed("no GIF89a header")
        }
        at = 6
        width = try word()
        height = try word()
        let packed = try byte()
        let backgroundIndex = try byte()
        _ = try byte()  // aspect
        let global = packed & 0x80 != 0 ? try table(1 << ((packed & 7) + 1)) : []
        let background = backgroundIndex < global.count ? global[backgroundIndex] : 0xFFFFFF
        var canvas = [UInt32](repeating: background, count: width * height)
        var delay = 0
        var transparent: Int?
        var disposal = 0

        while true {
            let introducer = try byte()
            switch introducer {
            case 0x3B:
                return
            case 0x21:
                let label = try byte()
                let body = try subBlocks()
                if label == 0xF9 {
                    guard body.count == 4 else { throw Failure.malformed("graphic control extension of \(body.count) bytes") }
                    disposal = Int(body[0] >> 2) & 7
                    delay = Int(body[1]) | Int(body[2]) << 8
                    transparent = body[0] & 1 != 0 ? Int(body[3]) : nil
                } else if label == 0xFF, body.count >= 14, String(decoding: body[0..<11], as: UTF8.self) == "NETSCAPE2.0" {
                    loopCount = Int(body[12]) | Int(body[13]) << 8
                }
            case 0x2C:
                let left = try word(), top = try word(), w = try word(), h = try word()
                let flags = try byte()
                guard flags & 0x40 == 0 else { throw Failure.malformed("interlaced frame") }
                let colours = flags & 0x80 != 0 ? try table(1 << ((flags & 7) + 1)) : global
                let minimumCodeSize = try byte()
                let indices = try Self.lzw(try subBlocks(), minimumCodeSize: minimumCodeSize, count: w * h)
                let before = canvas
                for row in 0..<h {
                    for column in 0..<w {
                        let index = Int(indices[row * w + column])
                        if index == transparent { continue }
                        let x = left + column, y = top + row
                        guard x < width, y < height, index < colours.count else { continue }
                        canvas[y * width + x] = colours[index]
                    }
                }
                frames.append(Frame(delay: delay, pixels: canvas))
                if disposal == 2 {
                    for row in top..<min(height, top + h) {
                        for column in left..<min(width, left + w) { canvas[row * width + column] = background }
                    }
                } else if disposal == 3 {
                    canvas = before
                }
                delay = 0
                transparent = nil
                disposal = 0
            default:
                throw Failure.malformed("unknown block 0x\(String(introducer, radix: 16)) at byte \(at - 1)")
            }
        }
    }

    /// GIF's variable-width LZW: clear and end codes, codes up to 12 bits, least significant bit first. Each table
    /// entry is (prefix, last byte, length), and a string is written backwards into place.
    static func lzw(_ data: [UInt8], minimumCodeSize: Int, count: Int) throws -> [UInt8] {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var prefixes = [Int](repeating: -1, count: 4096)
        var suffixes = [UInt8](repeating: 0, count: 4096)
        var lengths = [Int](repeating: 1, count: 4096)
        for code in 0..<clear { suffixes[code] = UInt8(truncatingIfNeeded: code) }
        var codeSize = minimumCodeSize + 1
        var next = clear + 2
        var previous = -1
        var output = [UInt8](repeating: 0, count: count + 4096)
        var written = 0
        var bitBuffer = 0
        var bitCount = 0
        var position = 0
        /// Writes the string of `code` at `written`; returns its first byte.
        func emit(_ code: Int) -> UInt8 {
            let length = lengths[code]
            var c = code
            var at = written + length - 1
            while c >= 0 {
                output[at] = suffixes[c]
                at -= 1
                c = prefixes[c]
            }
            written += length
            return output[written - length]
        }
        while written < count {
            while bitCount < codeSize {
                guard position < data.count else { throw GIFReader.Failure.malformed("image data ends early") }
                bitBuffer |= Int(data[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let code = bitBuffer & ((1 << codeSize) - 1)
            bitBuffer >>= codeSize
            bitCount -= codeSize
            if code == clear {
                codeSize = minimumCodeSize + 1
                next = clear + 2
                previous = -1
                continue
            }
            if code == end { break }
            if code < clear || (code > end && code < next) {
                let first = emit(code)
                if previous >= 0 && next < 4096 {
                    prefixes[next] = previous
                    suffixes[next] = first
                    lengths[next] = lengths[previous] + 1
                    next += 1
                }
            } else if code == next && previous >= 0 {
                let first = emit(previous)
                output[written] = first
                written += 1
                if next < 4096 {
                    prefixes[next] = previous
                    suffixes[next] = first
                    lengths[next] = lengths[previous] + 1
                    next += 1
                }
            } else {
                throw GIFReader.Failure.malformed("LZW code \(code) beyond the table (\(next))")
            }
            previous = code
            if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
        }
        guard written >= count else { throw GIFReader.Failure.malformed("image has \(written) of \(count) pixels") }
        return Array(output.prefix(count))
    }
}
