// PDGEQRF, intercepted under every name mangling (shim/pxgeqrf.hpp does the work).
#include "shim/mangling.hpp"
#include "shim/pxgeqrf.hpp"

namespace hetscal::shim {

void pdgeqrf(const int* m, const int* n, double* a, const int* ia, const int* ja,
             const int* desca, double* tau, double* work, const int* lwork, int* info) {
  pxgeqrf<double>("pdgeqrf_", "PDGEQRF", m, n, a, ia, ja, desca, tau, work, lwork, info);
}

}  // namespace hetscal::shim

HETSCAL_EXPORT_MANGLINGS(pdgeqrf, PDGEQRF, hetscal::shim::pdgeqrf,
                         (const int* m, const int* n, double* a, const int* ia, const int* ja,
                          const int* desca, double* tau, double* work, const int* lwork,
                          int* info),
                         (m, n, a, ia, ja, desca, tau, work, lwork, info))
