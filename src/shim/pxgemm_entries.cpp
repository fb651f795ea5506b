// PSGEMM, PDGEMM, PCGEMM and PZGEMM, intercepted under every name mangling: one line per
// precision, shim/pxgemm.hpp does the work. ALPHA and BETA come by reference in every
// precision (a COMPLEX one is two reals, real part first: std::complex's layout).
#include <complex>

#include "shim/mangling.hpp"
#include "shim/pxgemm.hpp"

// Exports pxgemm<T> as ScaLAPACK's `lower`/`upper` (e.g. pzgemm, PZGEMM); the real routine
// it forwards to is `lower`_.
#define HETSCAL_EXPORT_PXGEMM(lower, upper, T)                                                 \
  HETSCAL_EXPORT_MANGLINGS(                                                                    \
      lower, upper, hetscal::shim::pxgemm<T>,                                                  \
      (const char* transa, const char* transb, const int* m, const int* n, const int* k,       \
       const T* alpha, const T* a, const int* ia, const int* ja, const int* desca, const T* b, \
       const int* ib, const int* jb, const int* descb, const T* beta, T* c, const int* ic,     \
       const int* jc, const int* descc),                                                       \
      (#lower "_", #upper, transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, \
       beta, c, ic, jc, descc))

HETSCAL_EXPORT_PXGEMM(psgemm, PSGEMM, float)
HETSCAL_EXPORT_PXGEMM(pdgemm, PDGEMM, double)
HETSCAL_EXPORT_PXGEMM(pcgemm, PCGEMM, std::complex<float>)
HETSCAL_EXPORT_PXGEMM(pzgemm, PZGEMM, std::complex<double>)
