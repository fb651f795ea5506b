// A deliberately broken PDPOTRF, preloaded instead of hetscal, to show that pdpotrf_random
// catches each kind of fault it claims to catch (tests named shim_random_pdpotrf_catches_*).
// It calls ScaLAPACK's pdpotrf_ and then breaks the contract as SHIM_RANDOM_MUTATION says:
//   zeroes_other_triangle  clears the strict other triangle of sub(A) (a "clean factor")
//   info_off_by_one        INFO > 0 counted from 0 (the order of the last good minor)
//   info_on_owner_only     INFO > 0 only on the process holding the failing diagonal
//   writes_padding         writes below LOCr in the padding of A's first local column
//   factors_one_less       factors N - 1 columns (an off-by-one in the extent)
//   writes_past_end        writes A(IA+N, JA+N-1), the element just below sub(A)
//   accepts_misaligned     IA/JA off a block boundary accepted: INFO = 0, sub(A) written
//   lowercase_u_as_lower   UPLO = 'u' taken for 'L' (only 'U' compared): the wrong triangle
// Only the 9-entry descriptor (the one PDPOTRF accepts) is handled.
#include <dlfcn.h>

#include "mutant_support.hpp"

namespace {

using Pdpotrf = void (*)(const char*, const int*, double*, const int*, const int*, const int*,
                         int*);

using hetscal_test::mutant::LocalView;
using hetscal_test::mutant::mutation_is;

void zero_other_triangle(const char* uplo, int n, double* a, int ia, int ja, const LocalView& v) {
  const bool upper = *uplo == 'U' || *uplo == 'u';
  for (int lj = 1; lj <= v.cols; ++lj) {
    const int sj = v.global_col(lj) - ja;
    for (int li = 1; li <= v.rows; ++li) {
      const int si = v.global_row(li) - ia;
      const bool in_sub = si >= 0 && si < n && sj >= 0 && sj < n;
      if (in_sub && (upper ? si > sj : si < sj))
        a[(li - 1) + static_cast<long>(lj - 1) * v.lld] = 0.0;
    }
  }
}

void break_after(const char* uplo, int n, double* a, int ia, int ja, const LocalView& v,
                 int* info) {
  if (mutation_is("zeroes_other_triangle")) zero_other_triangle(uplo, n, a, ia, ja, v);
  if (mutation_is("info_off_by_one") && *info > 0) --*info;
  if (mutation_is("info_on_owner_only") && *info > 0 && !v.find(a, ia + *info - 1, ja + *info - 1))
    *info = 0;
  if (mutation_is("writes_padding") && v.lld > v.rows && v.cols > 0) a[v.lld - 1] = 0.0;
  if (mutation_is("writes_past_end") && n > 0 && ia + n <= v.desc[2]) {
    if (double* below = v.find(a, ia + n, ja + n - 1)) *below = 1.0;
  }
  if (mutation_is("accepts_misaligned") && (*info == -4 || *info == -5)) {
    *info = 0;
    if (double* first = v.find(a, ia, ja)) *first = 1.0;
  }
}

}  // namespace

extern "C" void pdpotrf_(const char* uplo, const int* n, double* a, const int* ia, const int* ja,
                         const int* desca, int* info) {
  static const auto scalapack = reinterpret_cast<Pdpotrf>(dlsym(RTLD_NEXT, "pdpotrf_"));
  int used_n = *n;
  if (mutation_is("factors_one_less") && used_n > 1) --used_n;
  const char lower = 'L';
  if (mutation_is("lowercase_u_as_lower") && *uplo == 'u') uplo = &lower;
  scalapack(uplo, &used_n, a, ia, ja, desca, info);
  if (desca[0] == 1) break_after(uplo, *n, a, *ia, *ja, LocalView(desca), info);
}
