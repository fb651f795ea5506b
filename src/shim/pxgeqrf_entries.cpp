// PSGEQRF, PDGEQRF, PCGEQRF and PZGEQRF, intercepted under every name mangling: one line per
// precision, shim/pxgeqrf.hpp does the work. TAU and WORK have sub(A)'s scalar type.
#include <complex>

#include "shim/mangling.hpp"
#include "shim/pxgeqrf.hpp"

// Exports pxgeqrf<T> as ScaLAPACK's `lower`/`upper` (e.g. pzgeqrf, PZGEQRF); the real routine
// it forwards to is `lower`_.
#define HETSCAL_EXPORT_PXGEQRF(lower, upper, T)                                              \
  HETSCAL_EXPORT_MANGLINGS(lower, upper, hetscal::shim::pxgeqrf<T>,                          \
                           (const int* m, const int* n, T* a, const int* ia, const int* ja,  \
                            const int* desca, T* tau, T* work, const int* lwork, int* info), \
                           (#lower "_", #upper, m, n, a, ia, ja, desca, tau, work, lwork, info))

HETSCAL_EXPORT_PXGEQRF(psgeqrf, PSGEQRF, float)
HETSCAL_EXPORT_PXGEQRF(pdgeqrf, PDGEQRF, double)
HETSCAL_EXPORT_PXGEQRF(pcgeqrf, PCGEQRF, std::complex<float>)
HETSCAL_EXPORT_PXGEQRF(pzgeqrf, PZGEQRF, std::complex<double>)
