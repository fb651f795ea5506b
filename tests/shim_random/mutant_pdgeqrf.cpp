// A deliberately broken PDGEQRF, preloaded instead of hetscal, to show that pdgeqrf_random
// catches each kind of fault it claims to catch (tests named shim_random_pdgeqrf_catches_*).
// It calls ScaLAPACK's pdgeqrf_ and then breaks the contract as SHIM_RANDOM_MUTATION says:
//   wrong_tau                τ of the first reflector 1% too large, where it is stored
//   reflector_off_by_one     the first reflector's elements below the diagonal one row lower
//                            (rows IA+1 and IA+2 of column JA interchanged where one process
//                            holds both)
//   tau_wrong_process_column TAU left as it was in the process column holding JA and written
//                            instead at the same local place in the others
// Only the 9-entry descriptor (the one PDGEQRF accepts) is handled.
#include <dlfcn.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "mutant_support.hpp"

namespace {

using Pdgeqrf = void (*)(const int*, const int*, double*, const int*, const int*, const int*,
                         double*, double*, const int*, int*);

using hetscal_test::mutant::LocalView;
using hetscal_test::mutant::mutation_is;

void break_after(int m, int n, double* a, int ia, int ja, const LocalView& v,
                 const std::vector<double>& tau_before, double* tau, int lwork, int info) {
  if (info != 0 || lwork == -1 || m < 1 || n < 1) return;  // refused, a query, or nothing done
  // The local index JA's column has (or would have) in every process column.
  const int jj = indxg2l_(&ja, &v.desc[5], &v.mycol, &v.desc[7], &v.npcol) - 1;
  if (mutation_is("wrong_tau") && v.holds_col(ja)) tau[jj] = tau[jj] * 1.01 + 0.01;
  if (mutation_is("reflector_off_by_one") && m >= 3) {
    double* below = v.find(a, ia + 1, ja);
    double* further = v.find(a, ia + 2, ja);
    if (below && further) std::swap(*below, *further);
  }
  if (mutation_is("tau_wrong_process_column")) {
    const double first = tau[jj];
    std::copy(tau_before.begin(), tau_before.end(), tau);
    if (!v.holds_col(ja)) tau[jj] = first == tau_before[jj] ? 1.5 : first;
  }
}

}  // namespace

extern "C" void pdgeqrf_(const int* m, const int* n, double* a, const int* ia, const int* ja,
                         const int* desca, double* tau, double* work, const int* lwork, int* info) {
  static const auto scalapack = reinterpret_cast<Pdgeqrf>(dlsym(RTLD_NEXT, "pdgeqrf_"));
  if (desca[0] != 1) return scalapack(m, n, a, ia, ja, desca, tau, work, lwork, info);
  const LocalView view(desca);
  const std::vector<double> tau_before(tau, tau + view.cols);
  scalapack(m, n, a, ia, ja, desca, tau, work, lwork, info);
  break_after(*m, *n, a, *ia, *ja, view, tau_before, tau, *lwork, *info);
}
