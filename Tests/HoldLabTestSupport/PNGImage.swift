import Foundation

/// Just enough of PNG to check a figure in a test: its header (size, bit depth, colour type) and its top-left
/// pixel, decoded from the compressed image data (zlib's deflate, RFC 1950/1951, decoded the way zlib's `puff.c`
/// does) rather than trusted from what the writer was asked for.
public struct PNGImage {
    public let width: Int
    public let height: Int
    public let bitDepth: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA.
    public let colourType: Int
    /// The concatenated IDAT chunks (a zlib stream).
    let compressed: [UInt8]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count > 33, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure(description: "not a PNG signature")
        }
        func big(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8
        var header: (Int, Int, Int, Int)?
        var idat: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = big(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = offset + 8
            guard body + length + 4 <= bytes.count else { throw Failure(description: "truncated \(type) chunk") }
            if type == "IHDR" { header = (big(body), big(body + 4), Int(bytes[body + 8]), Int(bytes[body + 9])) }
            if type == "IDAT" { idat += bytes[body..<body + length] }
            if type == "IEND" { break }
            offset = body + length + 4
        }
        guard let (width, height, depth, colour) = header else { throw Failure(description: "no IHDR chunk") }
        self.width = width
        self.height = height
        self.bitDepth = depth
        self.colourType = colour
        compressed = idat
    }

    /// Samples per pixel of the colour type.
    public var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colourType] ?? 0 }

    /// Whether the colour type has an alpha channel (a transparent pixel is possible at all).
    public var hasAlpha: Bool { colourType == 4 || colourType == 6 }

    /// The top-left pixel's samples (8-bit images): the first scanline's filter leaves its first pixel as stored,
    /// whatever the filter, since every filter predicts it from zeros.
    public func topLeftPixel() throws -> [UInt8] {
        guard bitDepth == 8, channels > 0 else { throw Failure(description: "only 8-bit samples are decoded") }
        let raw = try Inflate.decode(zlib: compressed, atLeast: 1 + channels)
        guard raw.count >= 1 + channels, raw[0] <= 4 else { throw Failure(description: "no first scanline") }
        return Array(raw[1...channels])
    }
}

/// Deflate decoding (RFC 1951), after zlib's `puff.c`: canonical Huffman codes by counts and symbols.
enum Inflate {
    struct Bits {
        let bytes: [UInt8]
        var position = 0
        var buffer = 0
        var count = 0
        mutating func take(_ need: Int) throws -> Int {
            var value = buffer
            while count < need {
                guard position < bytes.count else { throw PNGImage.Failure(description: "deflate stream ends early") }
                value |= Int(bytes[position]) << count
                position += 1
                count += 8
            }
            buffer = value >> need
            count -= need
            return value & ((1 << need) - 1)
        }
    }

    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []
        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
        func decode(_ bits: inout Bits) throws -> Int {
            var code = 0, first = 0, index = 0
            for length in 1...15 {
                code |= try bits.take(1)
                let count = counts[length]
                if code - count < first { return symbols[index + (code - first)] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw PNGImage.Failure(description: "bad Huffman code")
        }
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                               2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// The first `atLeast` bytes (or more) of a zlib stream's data.
    static func decode(zlib: [UInt8], atLeast wanted: Int) throws -> [UInt8] {
        guard zlib.count > 2, zlib[0] & 0x0F == 8, (Int(zlib[0]) << 8 | Int(zlib[1])) % 31 == 0 else {
            throw PNGImage.Failure(description: "not a zlib stream")
        }
        var bits = Bits(bytes: Array(zlib.dropFirst(2)))
        var out: [UInt8] = []
        var last = 0
        while last == 0 && out.count < wanted {
            last = try bits.take(1)
            switch try bits.take(2) {
            case 0:
                bits.buffer = 0
                bits.count = 0
                guard bits.position + 4 <= bits.bytes.count else { throw PNGImage.Failure(description: "stored block ends early") }
                let length = Int(bits.bytes[bits.position]) | Int(bits.bytes[bits.position + 1]) << 8
                bits.position += 4
                guard bits.position + length <= bits.bytes.count else { throw PNGImage.Failure(description: "stored block ends early") }
                out += bits.bytes[bits.position..<bits.position + length]
                bits.position += length
            case 1:
                let lengths = [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24)
                    + [Int](repeating: 8, count: 8)
                try codes(&bits, Huffman(lengths: lengths), Huffman(lengths: [Int](repeating: 5, count: 30)), into: &out, until: wanted)
            case 2:
                let literals = try bits.take(5) + 257, distances = try bits.take(5) + 1, codeLengths = try bits.take(4) + 4
                var order = [Int](repeating: 0, count: 19)
                for index in 0..<codeLengths { order[[16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15][index]] = try bits.take(3) }
                let lengthCode = Huffman(lengths: order)
                var lengths: [Int] = []
                while lengths.count < literals + distances {
                    let symbol = try lengthCode.decode(&bits)
                    if symbol < 16 { lengths.append(symbol); continue }
                    let (value, repeats) = symbol == 16
                        ? (lengths.last ?? 0, 3 + (try bits.take(2))) : (0, symbol == 17 ? 3 + (try bits.take(3)) : 11 + (try bits.take(7)))
                    lengths += [Int](repeating: value, count: repeats)
                }
                try codes(&bits, Huffman(lengths: Array(lengths[0..<literals])),
                          Huffman(lengths: Array(lengths[literals..<literals + distances])), into: &out, until: wanted)
            default:
                throw PNGImage.Failure(description: "bad deflate block type")
            }
        }
        return out
    }

    static func codes(_ bits: inout Bits, _ literal: Huffman, _ distance: Huffman, into out: inout [UInt8], until wanted: Int) throws {
        while true {
            let symbol = try literal.decode(&bits)
            if symbol < 256 { out.append(UInt8(symbol)); if out.count >= wanted { return }; continue }
            if symbol == 256 { return }
            let index = symbol - 257
            guard index < lengthBase.count else { throw PNGImage.Failure(description: "bad length symbol") }
            let length = lengthBase[index] + (try bits.take(lengthExtra[index]))
            let code = try distance.decode(&bits)
            guard code < distanceBase.count else { throw PNGImage.Failure(description: "bad distance symbol") }
            let back = distanceBase[code] + (try bits.take(distanceExtra[code]))
            guard back <= out.count else { throw PNGImage.Failure(description: "distance too far back") }
            for _ in 0..<length { out.append(out[out.count - back]) }
            if out.count >= wanted { return }
        }
    }
}
