internal import CGSL
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A seeded GSL generator that every random draw in HoldLab comes from: `gsl_rng_taus2` (the default for synthetic
/// users since 0.3.0) or `gsl_rng_mt19937` (every draw before 0.3.0, and still every other draw: bootstraps, random
/// sweep designs, sensitivity samples, traced holds).
///
/// One instance owns one `gsl_rng`, allocated in `init` and freed in `deinit`. It is deliberately
/// not `Sendable`: give each thread or simulation chunk its own generator, built with
/// ``init(seed:stream:kind:)`` so results do not depend on thread count or scheduling order.
///
/// Pitfall: draws mutate the generator, so two parts of a program sharing one instance change each
/// other's sequences. Derive a stream per consumer instead.
public final class Generator {
    /// A GSL generator type, by its GSL name (`gsl_rng_name`).
    public enum Kind: String, CaseIterable, Sendable {
        /// L'Ecuyer's maximally equidistributed combined Tausworthe generator (1996, with GSL's corrected seeding):
        /// period 2^88, three 32-bit words of state. GSL's manual: "one of the fastest simulation quality generators
        /// available". About a fifth fewer instructions a draw than mt19937 here, and its state fits in a cache line.
        case taus2
        /// Matsumoto and Nishimura's Mersenne Twister: period 2^19937 − 1, 624 words of state. HoldLab's only
        /// generator before 0.3.0: `--rng mt19937` gives those versions' rows.
        case mt19937

        /// The default generator of synthetic users.
        public static let users: Kind = .taus2

        fileprivate var type: UnsafePointer<gsl_rng_type> {
            switch self {
            case .taus2: holdlab_rng_taus2()
            case .mt19937: holdlab_rng_mt19937()
            }
        }
    }

    /// The owned GSL handle; internal so `Distribution.sample` can call `gsl_ran_*` on it directly.
    let rng: UnsafeMutablePointer<gsl_rng>
    public let kind: Kind

    /// The type's `get` (GSL's `taus_get` or `mt_get`: the next 32-bit word) and the state it advances, read once from
    /// the handle. `uniform()` calls it directly: `gsl_rng_uniform` is a library function that loads the type, then
    /// calls `get_double`, which calls `get` and divides by 2^32 (`rng/taus.c`, `rng/mt.c`); the same draw in one
    /// indirect call saves about a quarter of its cost (measured in C on this machine for mt19937: 8.2 ns through
    /// `gsl_rng_uniform`, 6.3 ns through `get`). The numbers are GSL's: the same words from the same state, in the
    /// same order.
    @usableFromInline let nextWord: @convention(c) (UnsafeMutableRawPointer?) -> CUnsignedLong
    @usableFromInline let state: UnsafeMutableRawPointer

    /// Number of 32-bit words in the mt19937 state (`N` in GSL's `rng/mt.c`).
    private static let mtWordCount = 624

    private init(allocated rng: UnsafeMutablePointer<gsl_rng>, kind: Kind) {
        self.rng = rng
        self.kind = kind
        // gsl_rng_alloc sets both for every type, and the state never moves (gsl_rng_memcpy copies into it).
        guard rng.pointee.type == kind.type, let get = rng.pointee.type.pointee.get,
              let state = rng.pointee.state else {
            preconditionFailure("gsl_rng_alloc(gsl_rng_\(kind.rawValue)) returned a handle without its get function or state")
        }
        nextWord = get
        self.state = state
    }

    private static func allocate(_ kind: Kind) -> UnsafeMutablePointer<gsl_rng> {
        ensureGSLErrorHandlerOff()
        guard let rng = gsl_rng_alloc(kind.type) else {
            // gsl_rng_alloc only fails when malloc of ~5 kB fails; Swift itself traps on
            // out-of-memory, and there is no meaningful generator to return.
            preconditionFailure("gsl_rng_alloc: out of memory")
        }
        return rng
    }

    /// A generator seeded exactly like GSL: `gsl_rng_set(type, seed)`. `kind` has no default: synthetic users are
    /// drawn from the request's `rng` (`.users`, taus2, unless `--rng` says otherwise) and everything else from
    /// mt19937, and every caller says which, so none draws from mt19937 by forgetting to pass the request's kind.
    ///
    /// Reproduces GSL's documented sequences: seed 42 gives a first `gaussian(sigma: 1)` of
    /// 1.22192121739814 (GSL 2.7.1). Pitfalls: mt19937 uses only the low 32 bits of the seed
    /// (seeds that differ only above bit 31 give the same sequence), and GSL maps seed 0 to its
    /// default seed 4357. For many independent generators use ``init(seed:stream:kind:)``.
    public convenience init(seed: UInt64, kind: Kind) {
        self.init(allocated: Generator.allocate(kind), kind: kind)
        gsl_rng_set(rng, CUnsignedLong(truncatingIfNeeded: seed))
    }

    /// A generator for stream `stream` of master seed `seed`: independent, reproducible sub-streams.
    ///
    /// The whole state is filled from a SplitMix64 sequence keyed by `mix(mix(seed) ^ stream)`, where `mix` is
    /// SplitMix64's output finaliser. Unlike `gsl_rng_set`, which only uses 32 bits of its seed (2^32 possible
    /// sequences, so birthday collisions among ~65,000 streams), this uses all 64 bits of both inputs. The result
    /// depends only on `(seed, stream, kind)`, never on creation order. Stream 0 of seed `s` is *not* the same
    /// sequence as `init(seed: s, kind:)`.
    ///
    /// - mt19937 (bootstraps, random designs, traces; the users' before 0.3.0): its 624 words are 624 SplitMix
    ///   outputs' high halves, and the position is set to 624 so the first draw regenerates the state; for a fixed
    ///   seed, distinct streams always get distinct keys.
    /// - taus2: s1 and s2 are the low and high halves of the first SplitMix output (so distinct keys give distinct
    ///   states), s3 the high half of the second; each is then kept at least 2, 8 and 16 (below those a component
    ///   is stuck at 0; GSL's `taus2_set` adds 2, 8 or 16 to an LCG word below them, here the minimum is taken), and
    ///   six words are drawn and dropped, as `taus2_set` "warms it up".
    ///
    /// Pitfall: the state layouts are GSL 2.7's private `struct { unsigned long mt[624]; int mti; }` and
    /// `struct { unsigned long s1, s2, s3; }`. If `gsl_rng_size` does not match (a different GSL build) this falls
    /// back to `gsl_rng_set` with the 64-bit key folded to 32 bits, which is still deterministic but has only 2^32
    /// distinct streams.
    public convenience init(seed: UInt64, stream: UInt64, kind: Kind) {
        self.init(allocated: Generator.allocate(kind), kind: kind)
        let key = Generator.splitMixFinalize(Generator.splitMixFinalize(seed) ^ stream)
        let longStride = MemoryLayout<CUnsignedLong>.stride
        switch kind {
        case .taus2:
            guard gsl_rng_size(rng) == 3 * longStride, let state = gsl_rng_state(rng) else {
                gsl_rng_set(rng, CUnsignedLong(truncatingIfNeeded: key ^ (key >> 32)))
                return
            }
            let first = Generator.splitMixFinalize(key &+ 0x9E37_79B9_7F4A_7C15)
            let second = Generator.splitMixFinalize(key &+ 2 &* 0x9E37_79B9_7F4A_7C15)
            let words = [max(first & 0xFFFF_FFFF, 2), max(first >> 32, 8), max(second >> 32, 16)]
            for (index, word) in words.enumerated() {
                state.storeBytes(of: CUnsignedLong(word), toByteOffset: index * longStride, as: CUnsignedLong.self)
            }
            for _ in 0..<6 { _ = nextWord(self.state) }
        case .mt19937:
            let positionOffset = Generator.mtWordCount * longStride
            let alignment = MemoryLayout<CUnsignedLong>.alignment
            let expectedSize = (positionOffset + MemoryLayout<CInt>.size + alignment - 1) / alignment * alignment
            guard gsl_rng_size(rng) == expectedSize, let state = gsl_rng_state(rng) else {
                gsl_rng_set(rng, CUnsignedLong(truncatingIfNeeded: key ^ (key >> 32)))
                return
            }
            var splitMix = key
            // MT19937 is degenerate only when the top bit of word 0 and all of words 1...623 are zero.
            var usedBits: UInt64 = 0
            for index in 0..<Generator.mtWordCount {
                splitMix &+= 0x9E37_79B9_7F4A_7C15
                let word = Generator.splitMixFinalize(splitMix) >> 32
                usedBits |= index == 0 ? word & 0x8000_0000 : word
                state.storeBytes(of: CUnsignedLong(word), toByteOffset: index * longStride, as: CUnsignedLong.self)
            }
            if usedBits == 0 {
                state.storeBytes(of: CUnsignedLong(0x8000_0000), toByteOffset: 0, as: CUnsignedLong.self)
            }
            state.storeBytes(of: CInt(Generator.mtWordCount), toByteOffset: positionOffset, as: CInt.self)
        }
    }

    deinit {
        gsl_rng_free(rng)
    }

    /// SplitMix64's output function (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
    static func splitMixFinalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1): `gsl_rng_uniform` (taus2's and mt19937's `get_double`: the next word divided by
    /// 2^32, exact in binary), called without the library's wrapper (see `nextWord`); resolution 2^-32.
    @inlinable @inline(__always)
    public func uniform() -> Double {
        // The state belongs to this generator: it must live until the draw is made (a temporary's last use).
        withExtendedLifetime(self) { Double(nextWord(state)) * 0x1p-32 }
    }

    /// A uniform double in the open interval (0, 1), safe for `log(u)`: `gsl_rng_uniform_pos`, which draws
    /// `gsl_rng_uniform` until it is not 0.
    @inlinable @inline(__always)
    public func uniformPositive() -> Double {
        var u = uniform()
        while u == 0 { u = uniform() }
        return u
    }

    /// `gsl_rng_uniform` and `gsl_rng_uniform_pos` called through the library: what `uniform()` and
    /// `uniformPositive()` must equal draw for draw (tests).
    func libraryUniform() -> Double { gsl_rng_uniform(rng) }
    func libraryUniformPositive() -> Double { gsl_rng_uniform_pos(rng) }

    /// A uniform integer in `0..<n` without modulo bias (`gsl_rng_uniform_int`).
    ///
    /// Requires 1 ≤ n ≤ 2^32 − 1 (the generators' range); like `Int.random(in:)` on an empty range,
    /// an `n` outside that range is a programming error and traps.
    public func uniformInt(below n: Int) -> Int {
        precondition(n > 0 && n <= 0xFFFF_FFFF, "uniformInt(below:) needs 1 <= n <= 2^32 - 1, got \(n)")
        return Int(gsl_rng_uniform_int(rng, CUnsignedLong(n)))
    }

    /// A normal variate with mean 0 and standard deviation `sigma` (`gsl_ran_gaussian`, polar Box–Muller).
    ///
    /// This is GSL's plain (not ziggurat) method, so seeded sequences match GSL's documentation.
    /// Pitfall: `sigma` is a standard deviation, not a variance; add the mean yourself.
    ///
    /// GSL's formula (`randist/gauss.c`) over ``uniformPositive()``, so the draw costs no library calls; the values
    /// are `gsl_ran_gaussian`'s, draw for draw (`GeneratorTests`).
    public func gaussian(sigma: Double = 1) -> Double {
        let (y, r2) = polarPoint()
        return Self.gaussian(y: y, r2: r2, sigma: sigma)
    }

    /// The random part of `gaussian`: GSL's point of the unit circle, its y and its squared radius.
    @inline(__always)
    func polarPoint() -> (y: Double, r2: Double) {
        var x: Double, y: Double, r2: Double
        repeat {
            // A point of the square (−1, −1) to (+1, +1), kept when it is in the unit circle.
            x = -1 + 2 * uniformPositive()
            y = -1 + 2 * uniformPositive()
            r2 = x * x + y * y
        } while r2 > 1.0 || r2 == 0
        return (y, r2)
    }

    /// The rest of `gaussian`, Box–Muller over a point `polarPoint` drew.
    @inline(__always)
    static func gaussian(y: Double, r2: Double, sigma: Double) -> Double {
        sigma * y * (-2.0 * log(r2) / r2).squareRoot()
    }

    /// `gsl_ran_gaussian` called through the library: what `gaussian(sigma:)` must equal draw for draw (tests).
    func libraryGaussian(sigma: Double) -> Double { gsl_ran_gaussian(rng, sigma) }

    /// Shuffles `array` in place, uniformly over all permutations (`gsl_ran_shuffle`, Fisher–Yates).
    public func shuffle(_ array: inout [Int]) {
        // gsl_ran_shuffle computes n - 1 in size_t, so an empty array would wrap around.
        guard array.count > 1 else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            gsl_ran_shuffle(rng, buffer.baseAddress, buffer.count, MemoryLayout<Int>.stride)
        }
    }
}

/// Generators mutate on every draw: one per thread or chunk, never shared.
@available(*, unavailable)
extension Generator: Sendable {}
