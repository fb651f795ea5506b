// A deliberately broken PDGETRF, preloaded instead of hetscal, to show that pdgetrf_random
// catches each kind of fault it claims to catch (tests named shim_random_pdgetrf_catches_*).
// It calls ScaLAPACK's pdgetrf_ and then breaks the contract as SHIM_RANDOM_MUTATION says:
//   swaps_wrong_rows        interchanges sub(A)'s first two rows afterwards (where one
//                           process holds both): a row interchange applied where none was due
//   pivot_off_by_one        IPIV of sub(A)'s first row one larger, on the process row holding it
//   ipiv_one_process_column IPIV left as it was outside the process column holding JA (the
//                           pivots not replicated over the process row)
//   info_zero_when_singular INFO > 0 reported as 0
// Only the 9-entry descriptor (the one PDGETRF accepts) is handled.
#include <dlfcn.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "mutant_support.hpp"

namespace {

using Pdgetrf = void (*)(const int*, const int*, double*, const int*, const int*, const int*, int*,
                         int*);

using hetscal_test::mutant::LocalView;
using hetscal_test::mutant::mutation_is;

// Interchanges rows IA and IA+1 of sub(A) in the local columns of sub(A) (1-based globals).
void swap_first_rows(int n, double* a, int ia, int ja, const LocalView& v) {
  for (int j = ja; j < ja + n; ++j) {
    double* first = v.find(a, ia, j);
    double* second = v.find(a, ia + 1, j);
    if (first && second) std::swap(*first, *second);
  }
}

void break_after(int m, int n, double* a, int ia, int ja, const LocalView& v,
                 const std::vector<int>& ipiv_before, int* ipiv, int* info) {
  if (*info < 0 || m < 1 || n < 1 || v.desc[2] == 1) return;  // refused, or a quick return
  if (mutation_is("info_zero_when_singular") && *info > 0) *info = 0;
  if (mutation_is("swaps_wrong_rows") && m >= 2) swap_first_rows(n, a, ia, ja, v);
  if (mutation_is("pivot_off_by_one") && v.holds_row(ia)) ++ipiv[v.local_row(ia)];
  if (mutation_is("ipiv_one_process_column") && !v.holds_col(ja))
    std::copy(ipiv_before.begin(), ipiv_before.end(), ipiv);
}

}  // namespace

extern "C" void pdgetrf_(const int* m, const int* n, double* a, const int* ia, const int* ja,
                         const int* desca, int* ipiv, int* info) {
  static const auto scalapack = reinterpret_cast<Pdgetrf>(dlsym(RTLD_NEXT, "pdgetrf_"));
  if (desca[0] != 1) return scalapack(m, n, a, ia, ja, desca, ipiv, info);
  const LocalView view(desca);
  const std::vector<int> ipiv_before(ipiv, ipiv + view.rows + desca[4]);
  scalapack(m, n, a, ia, ja, desca, ipiv, info);
  break_after(*m, *n, a, *ia, *ja, view, ipiv_before, ipiv, info);
}
