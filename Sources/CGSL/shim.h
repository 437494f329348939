// The C surface of the GNU Scientific Library that HoldLab uses.
//
// Swift 6 refuses GSL's global type pointers (gsl_rng_mt19937, gsl_qrng_sobol, ...) as
// "not concurrency-safe" mutable globals, so each one is exposed through a static inline
// accessor here (DOMAIN.md section 10). Only the Swift module `GSL` imports this module.
#ifndef HOLDLAB_CGSL_SHIM_H
#define HOLDLAB_CGSL_SHIM_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_version.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sf_bessel.h>
#include <gsl/gsl_sf_psi.h>
#include <gsl/gsl_qrng.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_min.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

static inline const gsl_rng_type *holdlab_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *holdlab_rng_ranlxd2(void) { return gsl_rng_ranlxd2; }
static inline const gsl_rng_type *holdlab_rng_taus2(void) { return gsl_rng_taus2; }
static inline const gsl_qrng_type *holdlab_qrng_sobol(void) { return gsl_qrng_sobol; }
static inline const gsl_qrng_type *holdlab_qrng_halton(void) { return gsl_qrng_halton; }
static inline const gsl_qrng_type *holdlab_qrng_niederreiter_2(void) { return gsl_qrng_niederreiter_2; }
static inline const gsl_min_fminimizer_type *holdlab_min_brent(void) { return gsl_min_fminimizer_brent; }
static inline const gsl_multimin_fminimizer_type *holdlab_multimin_nmsimplex2(void) { return gsl_multimin_fminimizer_nmsimplex2; }
static inline const gsl_root_fsolver_type *holdlab_root_brent(void) { return gsl_root_fsolver_brent; }
static inline const gsl_multifit_nlinear_type *holdlab_multifit_trust(void) { return gsl_multifit_nlinear_trust; }
static inline const char *holdlab_gsl_version(void) { return gsl_version; }

#endif
