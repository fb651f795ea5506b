// A ScaLAPACK program (it knows nothing of hetscal) that checks what PDGEMM's contract
// promises beyond what PBLAS's tester looks at: beta = 0 never reads C (C holds NaN), every
// element of the local arrays outside sub(C) — the rest of C and the padding below LLD — is
// left bit for bit, all transposes, odd offsets, RSRC/CSRC != 0, a column-major grid.
// Run with libhetscal.so preloaded (tests/shim/CMakeLists.txt). The oracle is independent of
// both libraries: every element is a formula of its global indices, so each rank computes
// the exact product for the elements it holds.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "scalapack_abi.hpp"

namespace {

struct Case {
  char trans_a, trans_b;
  int m, n, k;
  double alpha, beta;
  int ia, ja, ib, jb, ic, jc;  // 1-based
  int mb, nb, rsrc, csrc;      // of A; B and C derive theirs from these
};

const Case kCases[] = {
    {'N', 'N', 60, 50, 70, 1.5, 0.0, 1, 1, 1, 1, 1, 1, 8, 8, 0, 0},
    {'T', 'N', 37, 41, 53, 1.0, 0.5, 3, 5, 2, 7, 4, 6, 5, 7, 1, 1},
    {'N', 'T', 45, 33, 29, -2.0, 0.0, 7, 3, 5, 9, 3, 11, 4, 3, 1, 0},
    {'C', 'T', 31, 47, 40, 0.75, -1.0, 2, 9, 6, 4, 8, 2, 6, 5, 0, 1},
    {'N', 'N', 90, 80, 5, 1.0, 2.0, 13, 1, 1, 17, 5, 5, 16, 16, 1, 1},
    {'T', 'T', 1, 40, 30, 1.0, 0.0, 2, 2, 3, 3, 4, 4, 3, 3, 1, 1},   // one row: a 1xq grid
    {'N', 'N', 20, 20, 20, 0.0, 3.0, 1, 1, 1, 1, 1, 1, 4, 4, 0, 0},  // alpha = 0: scaling
};

constexpr double kPadding = 777.0;

double a_value(int i, int j) { return std::sin(0.37 * i + 0.11 * j) + 0.1 * j; }
double b_value(int i, int j) { return std::cos(0.23 * i - 0.41 * j) - 0.05 * i; }
double c_value(int i, int j) { return 0.5 * i - 0.25 * j; }

// One distributed matrix of the case: descriptor and this rank's local array.
struct Local {
  int desc[9];
  int rows, cols, lld;
  std::vector<double> data;
  int nprow, npcol, myrow, mycol;

  int global_row(int local) const {  // 0-based in, 1-based out
    const int l = local + 1;
    return indxl2g_(&l, &desc[4], &myrow, &desc[6], &nprow);
  }
  int global_col(int local) const {
    const int l = local + 1;
    return indxl2g_(&l, &desc[5], &mycol, &desc[7], &npcol);
  }
};

template <typename F>
Local make(int context, int m, int n, int mb, int nb, int rsrc, int csrc, F value) {
  Local x;
  Cblacs_gridinfo(context, &x.nprow, &x.npcol, &x.myrow, &x.mycol);
  x.rows = numroc_(&m, &mb, &x.myrow, &rsrc, &x.nprow);
  x.cols = numroc_(&n, &nb, &x.mycol, &csrc, &x.npcol);
  x.lld = x.rows + 3;  // padding below every column, which nobody may touch
  const int desc[9] = {1, context, m, n, mb, nb, rsrc, csrc, x.lld};
  std::copy(desc, desc + 9, x.desc);
  x.data.assign(static_cast<std::size_t>(x.lld) * std::max(x.cols, 1), kPadding);
  for (int lj = 0; lj < x.cols; ++lj) {
    for (int li = 0; li < x.rows; ++li) x.data[li + lj * x.lld] = value(x.global_row(li), x.global_col(lj));
  }
  return x;
}

// Element (i, j) of op(X) (1-based, relative to the submatrix at (ix, jx)).
double op_value(char trans, double (*value)(int, int), int ix, int jx, int i, int j) {
  return trans == 'N' ? value(ix + i - 1, jx + j - 1) : value(ix + j - 1, jx + i - 1);
}

// @return number of wrong elements on this rank.
long run_case(int context, Case t) {
  int nprow, npcol, myrow, mycol;
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  t.rsrc %= nprow;  // the sources the table asks for, where the grid has them
  t.csrc %= npcol;
  const bool ta = t.trans_a != 'N', tb = t.trans_b != 'N';
  const int a_rows = t.ia - 1 + (ta ? t.k : t.m) + 2, a_cols = t.ja - 1 + (ta ? t.m : t.k) + 1;
  const int b_rows = t.ib - 1 + (tb ? t.n : t.k) + 1, b_cols = t.jb - 1 + (tb ? t.k : t.n) + 2;
  const int c_rows = t.ic - 1 + t.m + 3, c_cols = t.jc - 1 + t.n + 2;
  const bool c_nan = t.beta == 0.0;
  const Local a = make(context, a_rows, a_cols, t.mb, t.nb, t.rsrc, t.csrc, a_value);
  const Local b = make(context, b_rows, b_cols, t.nb, t.mb, (t.rsrc + 1) % nprow, t.csrc, b_value);
  Local c = make(context, c_rows, c_cols, t.mb + 1, t.nb + 2, t.rsrc, (t.csrc + 1) % npcol,
                 [&](int i, int j) {
                   const bool inside = i >= t.ic && i < t.ic + t.m && j >= t.jc && j < t.jc + t.n;
                   return inside && c_nan ? std::numeric_limits<double>::quiet_NaN() : c_value(i, j);
                 });
  const std::vector<double> before = c.data;
  pdgemm_(&t.trans_a, &t.trans_b, &t.m, &t.n, &t.k, &t.alpha, a.data.data(), &t.ia, &t.ja, a.desc,
          b.data.data(), &t.ib, &t.jb, b.desc, &t.beta, c.data.data(), &t.ic, &t.jc, c.desc);

  long wrong = 0;
  for (int lj = 0; lj < std::max(c.cols, 1); ++lj) {
    for (int li = 0; li < c.lld; ++li) {
      const std::size_t at = static_cast<std::size_t>(li) + static_cast<std::size_t>(lj) * c.lld;
      if (at >= c.data.size()) continue;
      const bool stored = li < c.rows && lj < c.cols;
      const int i = stored ? c.global_row(li) : 0, j = stored ? c.global_col(lj) : 0;
      const bool inside = stored && i >= t.ic && i < t.ic + t.m && j >= t.jc && j < t.jc + t.n;
      if (!inside) {  // untouched, bit for bit (NaN compares unequal: compare the bytes)
        wrong += std::memcmp(&c.data[at], &before[at], sizeof(double)) != 0;
        continue;
      }
      double expected = t.beta == 0.0 ? 0.0 : t.beta * c_value(i, j), scale = std::fabs(expected);
      for (int l = 1; l <= t.k; ++l) {
        const double term = t.alpha * op_value(t.trans_a, a_value, t.ia, t.ja, i - t.ic + 1, l) *
                            op_value(t.trans_b, b_value, t.ib, t.jb, l, j - t.jc + 1);
        expected += term;
        scale += std::fabs(term);
      }
      wrong += !(std::fabs(c.data[at] - expected) <= 1e-13 * (scale + 1.0));
    }
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  Cblacs_pinfo(&rank, &size);
  int nprow = 1;
  for (int p = 1; p * p <= size; ++p) {
    if (size % p == 0) nprow = p;
  }
  int context = 0;
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Col", nprow, size / nprow);
  long failed_cases = 0;
  int index = 0;
  for (const Case& t : kCases) {
    long wrong = run_case(context, t), total = 0;
    MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    failed_cases += total != 0;
    if (rank == 0) {
      std::printf("hetscal-check: case %d %c%c %dx%dx%d beta=%g: %s (%ld wrong elements)\n", index,
                  t.trans_a, t.trans_b, t.m, t.n, t.k, t.beta, total ? "FAILED" : "passed", total);
    }
    ++index;
  }
  if (rank == 0) {
    std::printf("hetscal-check: %s\n", failed_cases ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
    std::fflush(stdout);
  }
  Cblacs_gridexit(context);
  MPI_Finalize();
  return failed_cases ? 1 : 0;
}
