internal import CGSL

// GSL's default error handler prints a message and calls abort(). HoldLab never wants that: every
// status is checked and turned into a Swift error (or a documented NaN). Swift initialises global
// `let`s lazily and exactly once (swift_once), so touching this constant from every entry point
// turns the handler off thread-safely before the first GSL call.
private let gslErrorHandlerIsOff: Bool = {
    gsl_set_error_handler_off()
    return true
}()

/// Makes sure GSL's aborting error handler is off; call before any GSL function.
@inline(__always)
func ensureGSLErrorHandlerOff() {
    _ = gslErrorHandlerIsOff
}

/// A non-zero status returned by a GSL function.
///
/// `status` is GSL's code from `gsl_errno.h` (for example 4 = `GSL_EINVAL`, 11 = `GSL_EMAXITER`),
/// `function` names the GSL function that returned it and `message` is `gsl_strerror(status)`.
/// Pitfall: with the error handler off GSL does not keep the specific reason it would have printed
/// (such as "endpoints do not straddle y=0"), only the generic text for the status code.
public struct GSLError: Error, CustomStringConvertible, Equatable {
    /// GSL's status code (`GSL_EDOM` = 1, `GSL_EINVAL` = 4, `GSL_ENOMEM` = 8, `GSL_EMAXITER` = 11, …).
    public let status: Int32
    /// The GSL function that reported the status, e.g. `"gsl_root_fsolver_set"`.
    public let function: String
    /// `gsl_strerror(status)`, e.g. `"invalid argument supplied by user"`.
    public let message: String

    init(status: Int32, function: String) {
        self.status = status
        self.function = function
        if let text = gsl_strerror(status) {
            self.message = String(cString: text)
        } else {
            self.message = "unknown GSL error"
        }
    }

    /// `GSL_EINVAL` for `function`: an argument outside what it accepts, for callers that check before calling GSL.
    public static func invalidArgument(_ function: String) -> GSLError {
        GSLError(status: Int32(GSL_EINVAL), function: function)
    }

    /// What failed, in HoldLab's words (`explanation`): messages shown to people never carry GSL's function
    /// names or status codes, whichever layer interpolates the error. `technicalDescription` has those.
    public var description: String { explanation }

    /// `"<function>: <gsl_strerror text> (GSL status <code>)"`, for debugging and tests.
    public var technicalDescription: String {
        "\(function): \(message) (GSL status \(status))"
    }

    /// What failed and why in HoldLab's words, without GSL's function names: e.g. "the least-squares fit did
    /// not converge within its iteration limit". Callers add the option or file that led there.
    public var explanation: String {
        let what: String
        switch function {
        case let name where name.hasPrefix("gsl_min_"): what = "the one-parameter minimiser (Brent)"
        case let name where name.hasPrefix("gsl_multimin_"): what = "the Nelder–Mead minimiser"
        case let name where name.hasPrefix("gsl_multifit_nlinear"): what = "the non-linear least-squares fit"
        case let name where name.hasPrefix("gsl_fit_"): what = "the linear least-squares fit"
        case let name where name.hasPrefix("gsl_linalg_"): what = "the matrix inversion (the fit's covariance)"
        case let name where name.hasPrefix("gsl_root_"): what = "the root finder"
        case let name where name.hasPrefix("gsl_qrng_"): what = "the Sobol sequence"
        case let name where name.hasSuffix("_alloc"): what = "allocating working memory"
        default: what = "a numerical step"
        }
        let why: String
        switch Int(status) {
        case GSL_EDOM: why = "a value is outside the domain where it is defined"
        case GSL_ERANGE, GSL_EOVRFLW: why = "a result overflowed (values too large)"
        case GSL_EINVAL: why = "its inputs are not valid (e.g. a range of zero width, or values that are not finite)"
        case GSL_EFAILED, GSL_ENOPROG, GSL_ENOPROGJ: why = "it made no progress (the data do not determine the answer)"
        case GSL_EMAXITER: why = "it did not converge within its iteration limit"
        case GSL_EZERODIV, GSL_ESING: why = "the problem is singular (e.g. constant or collinear data)"
        case GSL_ENOMEM: why = "out of memory"
        case GSL_EBADFUNC: why = "the function being optimised returned NaN or infinity"
        case GSL_ENOTSQR, GSL_EBADLEN: why = "the data have the wrong shape"
        default: why = message
        }
        return "\(what) failed: \(why)"
    }
}

/// Throws a `GSLError` when a GSL function returned a status other than `GSL_SUCCESS` (0).
@inline(__always)
func check(_ status: Int32, _ function: String) throws(GSLError) {
    if status != GSL_SUCCESS {
        throw GSLError(status: status, function: function)
    }
}

/// Facts about the GSL library HoldLab is linked against.
public enum GSLLibrary {
    /// The version string of the linked GSL (`gsl_version`, e.g. `"2.7.1"`), or `"unknown"`.
    public static var version: String {
        guard let text = holdlab_gsl_version() else { return "unknown" }
        return String(cString: text)
    }
}
