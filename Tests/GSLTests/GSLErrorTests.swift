import GSL
import Testing

@Suite("GSL errors never abort")
struct GSLErrorTests {
    @Test("invalid parameters reaching gsl_cdf_gamma_* give NaN instead of abort()")
    func invalidGammaIsNaN() {
        // With GSL's default handler, gsl_cdf_gamma_P(1, -1, 1) and gsl_cdf_gamma_Pinv(0.5, -1, 1)
        // abort the process (checked in C); the case constructors do not validate, so this reaches GSL.
        let d = Distribution.gamma(shape: -1, scale: 1)
        #expect(d.cdf(1).isNaN)
        #expect(d.survival(1).isNaN)
        #expect(d.quantile(0.5).isNaN)
    }

    @Test("a bracket that does not straddle the root throws GSL_EINVAL")
    func invalidBracket() {
        let expected = "gsl_root_fsolver_set: invalid argument supplied by user (GSL status 4)"
        #expect {
            _ = try RootFinding.brent(lower: -1, upper: 1) { x in x * x + 1 }
        } throws: { error in
            guard let error = error as? GSLError else { return false }
            return error.status == 4 && error.function == "gsl_root_fsolver_set" && error.technicalDescription == expected
                && error.description == "the root finder failed: its inputs are not valid (e.g. a range of zero width, or values that are not finite)"
        }
    }

    @Test("a non-finite function value throws GSL_EBADFUNC")
    func nonFiniteFunction() {
        #expect {
            _ = try RootFinding.brent(lower: 0, upper: 1) { _ in .nan }
        } throws: { error in
            (error as? GSLError)?.status == 9
        }
    }

    @Test("too few iterations throw GSL_EMAXITER; a negative tolerance throws GSL_EBADTOL")
    func iterationAndToleranceErrors() {
        #expect {
            _ = try RootFinding.brent(lower: 0, upper: 1, maxIterations: 1) { x in x * x * x - 0.3 }
        } throws: { error in
            (error as? GSLError).map { $0.status == 11 && $0.function == "gsl_root_fsolver_iterate" } ?? false
        }
        #expect {
            _ = try RootFinding.brent(lower: 0, upper: 1, absoluteTolerance: -1) { x in x - 0.3 }
        } throws: { error in
            (error as? GSLError).map { $0.status == 13 && $0.function == "gsl_root_test_interval" } ?? false
        }
    }

    @Test("Brent finds the root of cos x − x")
    func brentFindsRoot() throws {
        // Dottie number 0.7390851332151607; asked for 1e-14 absolute, so check 1e-13.
        let root = try RootFinding.brent(lower: 0, upper: 1, absoluteTolerance: 1e-14, relativeTolerance: 0) { x in
            cos(x) - x
        }
        #expect(abs(root - 0.739_085_133_215_160_7) < 1e-13)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
