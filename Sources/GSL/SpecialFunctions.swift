internal import CGSL

/// Special functions from GSL's `gsl_sf_*` family, through their status-returning `_e` variants.
///
/// Every call checks GSL's status and throws a ``GSLError`` instead of letting GSL abort. GSL's own
/// error estimate (`gsl_sf_result.err`) is dropped: the values are good to a few ulps wherever the
/// functions are documented below as accurate.
public enum SpecialFunctions {
    /// The `s`-th positive zero j₀,ₛ of the Bessel function J₀ (`gsl_sf_bessel_zero_J0_e`), s ≥ 1.
    ///
    /// j₀,₁ = 2.404825557695773, j₀,₂ = 5.520078110286311, …; j₀,ₛ ≈ π(s − 1/4) for large s.
    /// Accurate to a few parts in 10¹⁵ relative (GSL 2.7.1 gives j₀,₁ ≈ 7 ulps low).
    /// Throws a ``GSLError`` with `GSL_EINVAL` (4) from `gsl_sf_bessel_zero_J0_e` for s ≤ 0 (GSL
    /// reports s = 0 itself; negative s never reach C) and for s > 4,294,967,295, which does not fit
    /// C's `unsigned int`.
    public static func besselJ0Zero(_ s: Int) throws(GSLError) -> Double {
        ensureGSLErrorHandlerOff()
        let function = "gsl_sf_bessel_zero_J0_e"
        guard s >= 0, let index = CUnsignedInt(exactly: s) else {
            throw GSLError(status: Int32(GSL_EINVAL), function: function)
        }
        var result = gsl_sf_result(val: 0, err: 0)
        try check(gsl_sf_bessel_zero_J0_e(index, &result), function)
        return result.val
    }

    /// The Bessel function of the first kind of order one, J₁(x) (`gsl_sf_bessel_J1_e`).
    ///
    /// J₁ is odd, J₁(0) = 0, and |J₁| ≤ 0.582 everywhere. Accurate to ~1e-15 absolute for
    /// |x| ≲ 1e3. NaN gives NaN (GSL reports success).
    /// Throws a ``GSLError`` with
    /// - `GSL_EUNDRFLW` (15) from `gsl_sf_bessel_J1_e` for 0 < |x| < ~3e-308, where J₁(x) ≈ x/2
    ///   would be subnormal,
    /// - `GSL_EDOM` (1) from `gsl_sf_bessel_J1_e` for x = ±∞, where GSL itself would return NaN
    ///   with a success status (the limit is 0, but no finite argument was given).
    ///
    /// Pitfall: for |x| beyond ~1e15 the phase x − 3π/4 has no correct digits left; the value is
    /// still of the right size (|J₁(x)| ≤ √(2/(π|x|))) but its sign and digits are noise.
    public static func besselJ1(_ x: Double) throws(GSLError) -> Double {
        ensureGSLErrorHandlerOff()
        let function = "gsl_sf_bessel_J1_e"
        guard !x.isInfinite else {
            throw GSLError(status: Int32(GSL_EDOM), function: function)
        }
        var result = gsl_sf_result(val: 0, err: 0)
        try check(gsl_sf_bessel_J1_e(x, &result), function)
        return result.val
    }

    /// The exponentially scaled modified Bessel function of order zero, e^(−|x|)·I₀(x)
    /// (`gsl_sf_bessel_I0_scaled_e`).
    ///
    /// Even in x, 1 at x = 0, decreasing in |x| like 1/√(2π|x|) for large |x|; it never overflows,
    /// which is why it is the form to use for products like e^(−(ρ−s)²/2)·I₀(ρs)·e^(−ρs).
    /// Accurate to a few ulps relative everywhere. NaN gives NaN; ±∞ gives 0 (the limit; GSL reports
    /// success).
    public static func besselI0Scaled(_ x: Double) throws(GSLError) -> Double {
        ensureGSLErrorHandlerOff()
        if x.isNaN { return .nan }
        if x.isInfinite { return 0 }
        var result = gsl_sf_result(val: 0, err: 0)
        try check(gsl_sf_bessel_I0_scaled_e(x, &result), "gsl_sf_bessel_I0_scaled_e")
        return result.val
    }

    /// The digamma function ψ(x) = Γ′(x)/Γ(x) (`gsl_sf_psi_e`), for x > 0 here (the maximum-likelihood equations of
    /// the gamma family need only that).
    ///
    /// ψ(1) = −γ (Euler–Mascheroni), ψ(x + 1) = ψ(x) + 1/x, ψ(x) ≈ ln x − 1/(2x) for large x. Accurate to a few ulps.
    /// Throws a ``GSLError`` with `GSL_EDOM` (1) for x ≤ 0 or NaN (GSL itself accepts negative non-integers; HoldLab
    /// never needs them, so they are refused before C).
    public static func digamma(_ x: Double) throws(GSLError) -> Double {
        ensureGSLErrorHandlerOff()
        let function = "gsl_sf_psi_e"
        guard x > 0 else { throw GSLError(status: Int32(GSL_EDOM), function: function) }
        var result = gsl_sf_result(val: 0, err: 0)
        try check(gsl_sf_psi_e(x, &result), function)
        return result.val
    }

    /// The trigamma function ψ′(x) (`gsl_sf_psi_1_e`), for x > 0: the Fisher information of a gamma shape.
    ///
    /// ψ′(1) = π²/6, ψ′(x + 1) = ψ′(x) − 1/x², ψ′(x) ≈ 1/x + 1/(2x²) for large x. Throws a ``GSLError`` with
    /// `GSL_EDOM` (1) for x ≤ 0 or NaN.
    public static func trigamma(_ x: Double) throws(GSLError) -> Double {
        ensureGSLErrorHandlerOff()
        let function = "gsl_sf_psi_1_e"
        guard x > 0 else { throw GSLError(status: Int32(GSL_EDOM), function: function) }
        var result = gsl_sf_result(val: 0, err: 0)
        try check(gsl_sf_psi_1_e(x, &result), function)
        return result.val
    }

    /// ln Γ(x) for x > 0 (`gsl_sf_lngamma_e`), without overflow for large x (Γ(172) already overflows).
    ///
    /// ln Γ(1) = ln Γ(2) = 0, ln Γ(1/2) = ln √π. Accurate to a few ulps. Throws a ``GSLError`` with `GSL_EDOM` (1)
    /// for x ≤ 0 or NaN (refused before C).
    public static func logGamma(_ x: Double) throws(GSLError) -> Double {
        ensureGSLErrorHandlerOff()
        let function = "gsl_sf_lngamma_e"
        guard x > 0 else { throw GSLError(status: Int32(GSL_EDOM), function: function) }
        var result = gsl_sf_result(val: 0, err: 0)
        try check(gsl_sf_lngamma_e(x, &result), function)
        return result.val
    }
}
