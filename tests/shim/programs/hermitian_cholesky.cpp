// A ScaLAPACK program (it knows nothing of hetscal) that checks PCPOTRF's and PZPOTRF's
// contract on Hermitian matrices beyond what xcllt/xzllt look at: the imaginary parts of
// the diagonal are not read (they hold garbage here) and are zero in the factor, the other
// triangle of sub(A), the rest of A and the padding below LLD are left bit for bit, and the
// factor satisfies L·Lᴴ = A (or Uᴴ·U = A) within n·eps. Both UPLO, sub(A) at an offset.
// Run with libhetscal.so preloaded, and without it to validate the oracle
// (tests/shim/CMakeLists.txt). The oracle is independent of both libraries: A = B·Bᴴ + n·I
// with B a formula of its indices, the product of the factor computed in plain loops.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <vector>

#include "scalapack_abi.hpp"

namespace {

using Complex = std::complex<double>;

constexpr int kOrder = 37;       // N of sub(A)
constexpr int kOffset = 4;       // IA - 1 = JA - 1: one block
constexpr int kGlobal = 45;      // M_A = N_A: rows and columns beyond sub(A) as well
constexpr int kBlock = 4;        // MB_A = NB_A
constexpr int kPaddingRows = 3;  // LLD = local rows + 3
const Complex kOtherTriangle(555.0, -555.0), kOutside(777.0, 777.0), kPadding(999.0, 0.0);
constexpr double kThreshold = 30.0;  // on |product - A|max / (n·eps·|A|max), as LAPACK's tests

Complex b_value(int i, int j) { return {std::sin(0.3 * i + 0.7 * j), std::cos(0.5 * i - 0.2 * j)}; }

// The Hermitian positive definite sub(A) = B·Bᴴ + n·I (0-based indices within sub(A)).
std::vector<Complex> hermitian_matrix() {
  std::vector<Complex> h(kOrder * kOrder);
  for (int j = 0; j < kOrder; ++j) {
    for (int i = 0; i < kOrder; ++i) {
      Complex sum = i == j ? Complex(kOrder) : Complex(0.0);
      for (int k = 0; k < kOrder; ++k) sum += b_value(i, k) * std::conj(b_value(j, k));
      h[i + j * kOrder] = sum;
    }
  }
  return h;
}

struct Grid {
  int context, nprow, npcol, myrow, mycol;
};

bool in_triangle(char uplo, int i, int j) { return uplo == 'L' ? i >= j : i <= j; }

// What the caller stores at A's global (gi, gj) (0-based) before the call: sub(A)'s
// `uplo` triangle with garbage imaginary parts on the diagonal, sentinels elsewhere.
Complex stored_value(const std::vector<Complex>& h, char uplo, int gi, int gj) {
  const int i = gi - kOffset, j = gj - kOffset;
  if (i < 0 || j < 0 || i >= kOrder || j >= kOrder) return kOutside;
  if (!in_triangle(uplo, i, j)) return kOtherTriangle;
  if (i == j) return {h[i + j * kOrder].real(), 100.0 + i};
  return h[i + j * kOrder];
}

template <typename T>
void potrf(const char* uplo, T* a, const int* desc, int* info) {
  const int n = kOrder, ia = kOffset + 1, ja = kOffset + 1;
  if constexpr (std::is_same_v<T, std::complex<float>>) {
    pcpotrf_(uplo, &n, a, &ia, &ja, desc, info);
  } else {
    pzpotrf_(uplo, &n, a, &ia, &ja, desc, info);
  }
}

// max |F·Fᴴ − H| (Lower, F = L) or |Fᴴ·F − H| (Upper, F = U) over sub(A), relative to
// n·eps·max|H|; F the gathered factor (zero outside its triangle).
double residual_ratio(const std::vector<Complex>& f, const std::vector<Complex>& h, char uplo,
                      double eps) {
  double worst = 0.0, largest = 0.0;
  for (int j = 0; j < kOrder; ++j) {
    for (int i = 0; i < kOrder; ++i) {
      Complex product(0.0);
      for (int k = 0; k < kOrder; ++k) {
        product += uplo == 'L' ? f[i + k * kOrder] * std::conj(f[j + k * kOrder])
                               : std::conj(f[k + i * kOrder]) * f[k + j * kOrder];
      }
      worst = std::max(worst, std::abs(product - h[i + j * kOrder]));
      largest = std::max(largest, std::abs(h[i + j * kOrder]));
    }
  }
  return worst / (kOrder * eps * largest);
}

// One call: @return the number of wrong findings on this rank (0 when the call kept the
// contract); rank 0 also counts a residual beyond the threshold.
template <typename T>
long run_case(const Grid& g, char uplo, const std::vector<Complex>& h) {
  using Real = typename T::value_type;
  const int zero = 0, rows = numroc_(&kGlobal, &kBlock, &g.myrow, &zero, &g.nprow),
            cols = numroc_(&kGlobal, &kBlock, &g.mycol, &zero, &g.npcol);
  const int lld = std::max(1, rows + kPaddingRows);
  const int desc[9] = {1, g.context, kGlobal, kGlobal, kBlock, kBlock, 0, 0, lld};
  std::vector<T> a(static_cast<std::size_t>(lld) * std::max(1, cols), T(kPadding));
  const auto global = [&](int local, int proc, int procs) {
    const int l = local + 1;
    return indxl2g_(&l, &kBlock, &proc, &zero, &procs) - 1;
  };
  for (int lj = 0; lj < cols; ++lj)
    for (int li = 0; li < rows; ++li)
      a[li + lj * lld] =
          T(stored_value(h, uplo, global(li, g.myrow, g.nprow), global(lj, g.mycol, g.npcol)));
  const char uplo_text[2] = {uplo, '\0'};
  int info = -1;
  potrf<T>(uplo_text, a.data(), desc, &info);
  long wrong = info != 0;
  std::vector<Complex> factor(kOrder * kOrder, Complex(0.0));
  for (int lj = 0; lj < std::max(1, cols); ++lj) {
    for (int li = 0; li < lld; ++li) {
      const T value = a[li + lj * lld];
      if (li >= rows || lj >= cols) {  // padding below LLD
        wrong += value != T(kPadding);
        continue;
      }
      const int gi = global(li, g.myrow, g.nprow), gj = global(lj, g.mycol, g.npcol);
      const int i = gi - kOffset, j = gj - kOffset;
      const bool factor_entry =
          i >= 0 && j >= 0 && i < kOrder && j < kOrder && in_triangle(uplo, i, j);
      if (!factor_entry) {
        wrong += value != T(stored_value(h, uplo, gi, gj));
      } else {
        wrong += i == j && value.imag() != Real(0);
        factor[i + j * kOrder] = Complex(value);
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, factor.data(), kOrder * kOrder, MPI_C_DOUBLE_COMPLEX, MPI_SUM,
                MPI_COMM_WORLD);
  if (g.myrow == 0 && g.mycol == 0) {
    const double ratio = residual_ratio(factor, h, uplo, std::numeric_limits<Real>::epsilon());
    std::printf("hetscal-check: %s UPLO=%c residual ratio %.3g\n",
                sizeof(Real) == sizeof(float) ? "PCPOTRF" : "PZPOTRF", uplo, ratio);
    wrong += !(ratio <= kThreshold);
  }
  return wrong;
}

// A row-major 2×(P/2) grid of every process (1×P for an odd count).
Grid process_grid(int processes) {
  Grid g{};
  Cblacs_get(0, 0, &g.context);
  Cblacs_gridinit(&g.context, "Row", processes % 2 == 0 ? 2 : 1,
                  processes % 2 == 0 ? processes / 2 : processes);
  Cblacs_gridinfo(g.context, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, processes = 1;
  Cblacs_pinfo(&rank, &processes);
  const Grid g = process_grid(processes);
  const std::vector<Complex> h = hermitian_matrix();
  long failed_cases = 0;
  for (const char uplo : {'L', 'U'}) {
    for (const bool single : {true, false}) {
      long wrong = single ? run_case<std::complex<float>>(g, uplo, h)
                          : run_case<std::complex<double>>(g, uplo, h);
      MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      failed_cases += wrong != 0;
      if (rank == 0) {
        std::printf("hetscal-check: %s UPLO=%c: %s (%ld wrong findings)\n",
                    single ? "PCPOTRF" : "PZPOTRF", uplo, wrong ? "FAILED" : "passed", wrong);
      }
    }
  }
  if (rank == 0) {
    std::printf("hetscal-check: %s\n", failed_cases ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
    std::fflush(stdout);
  }
  Cblacs_gridexit(g.context);
  MPI_Finalize();
  return failed_cases ? 1 : 0;
}
