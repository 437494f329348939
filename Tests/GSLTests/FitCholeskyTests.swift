import GSL
import Testing

@Suite("Cholesky inverse (standard errors of fits)")
struct FitCholeskyTests {
    @Test("2×2 inverse in closed form: [[4, 2], [2, 3]]⁻¹ = [[3, −2], [−2, 4]]/8")
    func twoByTwo() throws {
        let inverse = try LinearAlgebra.inverseOfPositiveDefinite([[4, 2], [2, 3]])
        let expected = [[0.375, -0.25], [-0.25, 0.5]]
        // Every entry is a short binary fraction; Cholesky rounding leaves a few ulps.
        for row in 0..<2 {
            for column in 0..<2 { #expect(abs(inverse[row][column] - expected[row][column]) < 1e-15) }
        }
    }

    @Test("4×4 Hilbert-like matrix: A·A⁻¹ = I to 1e-10 (condition number ~1.6e4 × ε)")
    func productIsIdentity() throws {
        let n = 4
        let a: [[Double]] = (0..<n).map { i -> [Double] in
            (0..<n).map { j -> Double in
                let hilbert = 1 / Double(i + j + 1)
                return i == j ? hilbert + 0.1 : hilbert
            }
        }
        let inverse = try LinearAlgebra.inverseOfPositiveDefinite(a)
        for i in 0..<n {
            for j in 0..<n {
                var product = 0.0
                for k in 0..<n { product += a[i][k] * inverse[k][j] }
                #expect(abs(product - (i == j ? 1 : 0)) < 1e-10)
                #expect(inverse[i][j] == inverse[j][i])
            }
        }
    }

    @Test("not positive definite, not square, NaN: GSL errors, no abort")
    func errors() {
        do {
            _ = try LinearAlgebra.inverseOfPositiveDefinite([[1, 2], [2, 1]])
            Issue.record("expected GSL_EDOM")
        } catch {
            #expect(error.status == 1 && error.function == "gsl_linalg_cholesky_decomp1")
        }
        do {
            _ = try LinearAlgebra.inverseOfPositiveDefinite([[1, 0], [0]])
            Issue.record("expected GSL_EBADLEN")
        } catch {
            #expect(error.status == 19)
        }
        do {
            _ = try LinearAlgebra.inverseOfPositiveDefinite([[1, 0], [.nan, 1]])
            Issue.record("expected GSL_EINVAL")
        } catch {
            #expect(error.status == 4)
        }
        #expect(throws: GSLError.self) { try LinearAlgebra.inverseOfPositiveDefinite([]) }
    }
}
