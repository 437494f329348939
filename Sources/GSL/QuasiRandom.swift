internal import CGSL

/// GSL's Sobol low-discrepancy sequence (`gsl_qrng_sobol`, unscrambled): points that fill [0, 1)^d far more
/// evenly than random draws, for space-filling parameter sweeps.
///
/// One instance owns one `gsl_qrng`, freed in `deinit`. The sequence is fixed: the same dimension always gives the
/// same points; GSL skips the origin, so the first point is 0.5 in every dimension. Pitfall: GSL supports
/// at most 40 dimensions for Sobol.
public final class SobolSequence {
    private let qrng: OpaquePointer
    /// Coordinates per point.
    public let dimensions: Int

    /// The most dimensions GSL's Sobol generator supports.
    public static let maximumDimensions = 40

    /// - Throws: `GSLError` (`GSL_EINVAL`) when `dimensions` is outside 1…40 or GSL cannot allocate.
    public init(dimensions: Int) throws(GSLError) {
        ensureGSLErrorHandlerOff()
        guard (1...Self.maximumDimensions).contains(dimensions),
              let qrng = gsl_qrng_alloc(holdlab_qrng_sobol(), UInt32(dimensions)) else {
            throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_qrng_alloc")
        }
        self.qrng = OpaquePointer(qrng)
        self.dimensions = dimensions
    }

    deinit { gsl_qrng_free(UnsafeMutablePointer(qrng)) }

    /// The next point of the sequence, each coordinate in [0, 1).
    public func next() throws(GSLError) -> [Double] {
        var point = [Double](repeating: 0, count: dimensions)
        let status = point.withUnsafeMutableBufferPointer { gsl_qrng_get(UnsafeMutablePointer(qrng), $0.baseAddress) }
        try check(status, "gsl_qrng_get")
        return point
    }
}

/// Owns C state: one per consumer, never shared across threads.
@available(*, unavailable)
extension SobolSequence: Sendable {}
