#pragma once
// Shared by the native API tests: a BLACS grid of every rank, ScaLAPACK's DESCINIT/NUMROC,
// analytic matrices and the reference product they are checked against.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hetscal/hetscal.h"
#include "mpi/blacs.hpp"
#include "mpi/mpi_type.hpp"

extern "C" {
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb,
               const int* irsrc, const int* icsrc, const int* ictxt, const int* lld, int* info);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
}

namespace hetscal::api_test {

inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// A BLACS grid of every rank (rows <= columns, as square as the count allows), freed on exit.
struct BlacsGrid {
  int context = -1, nprow = 1, npcol = 1, myrow = 0, mycol = 0;
  BlacsGrid() {
    const int p = world_size();
    for (int r = 1; r * r <= p; ++r) {
      if (p % r == 0) nprow = r;
    }
    npcol = p / nprow;
    Cblacs_get(0, 0, &context);
    Cblacs_gridinit(&context, "Row", nprow, npcol);
    Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  }
  ~BlacsGrid() { Cblacs_gridexit(context); }
  BlacsGrid(const BlacsGrid&) = delete;
  BlacsGrid& operator=(const BlacsGrid&) = delete;
};

/// Speeds 1, 2, ..., P.
inline std::vector<double> rising_speeds() {
  std::vector<double> speeds;
  for (int r = 0; r < world_size(); ++r) speeds.push_back(1.0 + r);
  return speeds;
}

/// Element (i, j) (1-based) of test matrix `which`: small integers, so products are exact.
inline double element(int which, int i, int j) {
  return static_cast<double>((i * 7 + j * (3 + which)) % 11) - 5.0;
}

/// The whole rows×cols matrix `which`, column-major.
inline std::vector<double> whole(int which, int rows, int cols) {
  std::vector<double> x(static_cast<std::size_t>(rows) * cols);
  for (int j = 1; j <= cols; ++j) {
    for (int i = 1; i <= rows; ++i)
      x[(j - 1) * static_cast<std::size_t>(rows) + (i - 1)] = element(which, i, j);
  }
  return x;
}

/// op(X)(i, j) of a column-major rows×cols matrix (0-based).
inline double op_at(const std::vector<double>& x, int rows, bool trans, int i, int j) {
  return trans ? x[i * static_cast<std::size_t>(rows) + j]
               : x[j * static_cast<std::size_t>(rows) + i];
}

/// alpha·op(A)·op(B) + beta·C, all whole and column-major (A stored a_rows×…, B b_rows×…).
inline std::vector<double> reference_gemm(bool ta, bool tb, int m, int n, int k, double alpha,
                                          const std::vector<double>& a, int a_rows,
                                          const std::vector<double>& b, int b_rows, double beta,
                                          const std::vector<double>& c) {
  std::vector<double> out(static_cast<std::size_t>(m) * n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      double sum = 0.0;
      for (int l = 0; l < k; ++l) sum += op_at(a, a_rows, ta, i, l) * op_at(b, b_rows, tb, l, j);
      const double old = beta == 0.0 ? 0.0 : beta * c[j * static_cast<std::size_t>(m) + i];
      out[j * static_cast<std::size_t>(m) + i] = alpha * sum + old;
    }
  }
  return out;
}

/// This process's local array of a whole matrix in a context's heterogeneous layout.
inline std::vector<double> local_hetero(hetscal_context_t ctx, const std::vector<double>& x,
                                        int rows, int cols, int lld) {
  const int lr = hetscal_local_rows(ctx, rows), lc = hetscal_local_cols(ctx, cols);
  std::vector<double> local(static_cast<std::size_t>(std::max(lld, 1)) * std::max(lc, 1), -99.0);
  for (int jl = 1; jl <= lc; ++jl) {
    for (int il = 1; il <= lr; ++il) {
      const int i = hetscal_global_row(ctx, rows, il), j = hetscal_global_col(ctx, cols, jl);
      local[(jl - 1) * static_cast<std::size_t>(lld) + (il - 1)] =
          x[(j - 1) * static_cast<std::size_t>(rows) + (i - 1)];
    }
  }
  return local;
}

/// Largest |local - whole| over this process's elements, reduced over every rank.
inline double max_error_hetero(hetscal_context_t ctx, const std::vector<double>& local,
                               const std::vector<double>& x, int rows, int cols, int lld) {
  const int lr = hetscal_local_rows(ctx, rows), lc = hetscal_local_cols(ctx, cols);
  double error = 0.0;
  for (int jl = 1; jl <= lc; ++jl) {
    for (int il = 1; il <= lr; ++il) {
      const int i = hetscal_global_row(ctx, rows, il), j = hetscal_global_col(ctx, cols, jl);
      error = std::max(error, std::abs(local[(jl - 1) * static_cast<std::size_t>(lld) + (il - 1)] -
                                       x[(j - 1) * static_cast<std::size_t>(rows) + (i - 1)]));
    }
  }
  double worst = 0.0;
  MPI_Allreduce(&error, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

/// Calls f(i, j, k) for every element (i, j) (0-based) this process holds of the matrix a
/// hetscal descriptor describes, k its 0-based position in the local array: found through
/// the tile queries alone, so it serves Cartesian and pattern layouts alike.
template <typename F>
void for_each_local_element(const int* desc, F&& f) {
  const int rows = desc[2], cols = desc[3], tile = desc[4];
  for (int tj = 0; tj * tile < cols; ++tj) {
    for (int ti = 0; ti * tile < rows; ++ti) {
      long long index = 0;
      int ld = 0;
      if (hetscal_local_tile(desc, ti + 1, tj + 1, &index, &ld) != 1) continue;
      for (int c = 0; c < tile && tj * tile + c < cols; ++c)
        for (int r = 0; r < tile && ti * tile + r < rows; ++r)
          f(ti * tile + r, tj * tile + c,
            static_cast<std::size_t>(index - 1 + r + c * static_cast<long long>(ld)));
    }
  }
}

/// This process's local array of the whole column-major matrix x in the layout `desc`
/// describes; entries that are no element hold `padding`. T: any of the four element types.
template <typename T>
std::vector<T> local_of(const int* desc, const std::vector<T>& x, T padding = T(-99.0)) {
  std::vector<T> local(static_cast<std::size_t>(std::max(1LL, hetscal_local_elements(desc))),
                            padding);
  for_each_local_element(desc, [&](int i, int j, std::size_t k) {
    local[k] = x[static_cast<std::size_t>(j) * desc[2] + i];
  });
  return local;
}

/// The whole column-major matrix gathered on every process from each process's local array.
template <typename T>
std::vector<T> whole_of(const int* desc, const std::vector<T>& local) {
  std::vector<T> x(static_cast<std::size_t>(desc[2]) * desc[3], T(0));
  for_each_local_element(desc, [&](int i, int j, std::size_t k) {
    x[static_cast<std::size_t>(j) * desc[2] + i] = local[k];
  });
  MPI_Allreduce(MPI_IN_PLACE, x.data(), static_cast<int>(x.size()), mpi::mpi_type<T>(), MPI_SUM,
                MPI_COMM_WORLD);
  return x;
}

/// A whole matrix of T distributed 2D block-cyclically on `grid` (MB = NB = nb, RSRC = CSRC =
/// 0).
template <typename T>
struct BasicBlockCyclic {
  int rows, cols, nb, lld = 1;
  int desc[9] = {};
  std::vector<T> local;
  BasicBlockCyclic(const BlacsGrid& grid, const std::vector<T>& x, int r, int c, int block = 8)
      : rows(r), cols(c), nb(block) {
    const int zero = 0;
    const int lr = numroc_(&rows, &nb, &grid.myrow, &zero, &grid.nprow);
    const int lc = numroc_(&cols, &nb, &grid.mycol, &zero, &grid.npcol);
    lld = std::max(1, lr);
    int info = -1;
    descinit_(desc, &rows, &cols, &nb, &nb, &zero, &zero, &grid.context, &lld, &info);
    local.assign(static_cast<std::size_t>(lld) * std::max(lc, 1), T(0));
    for (int jl = 0; jl < lc; ++jl) {
      for (int il = 0; il < lr; ++il) {
        const int i = (il / nb * grid.nprow + grid.myrow) * nb + il % nb;
        const int j = (jl / nb * grid.npcol + grid.mycol) * nb + jl % nb;
        local[jl * static_cast<std::size_t>(lld) + il] = x[j * static_cast<std::size_t>(rows) + i];
      }
    }
  }
  /// The whole matrix gathered on every process (each element held by one process).
  std::vector<T> gathered(const BlacsGrid& grid) const {
    std::vector<T> x(static_cast<std::size_t>(rows) * cols, T(0));
    const int zero = 0;
    const int lr = numroc_(&rows, &nb, &grid.myrow, &zero, &grid.nprow);
    const int lc = numroc_(&cols, &nb, &grid.mycol, &zero, &grid.npcol);
    for (int jl = 0; jl < lc; ++jl) {
      for (int il = 0; il < lr; ++il) {
        const int i = (il / nb * grid.nprow + grid.myrow) * nb + il % nb;
        const int j = (jl / nb * grid.npcol + grid.mycol) * nb + jl % nb;
        x[j * static_cast<std::size_t>(rows) + i] = local[jl * static_cast<std::size_t>(lld) + il];
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, x.data(), static_cast<int>(x.size()), mpi::mpi_type<T>(),
                  MPI_SUM, MPI_COMM_WORLD);
    return x;
  }
};
using BlockCyclic = BasicBlockCyclic<double>;

}  // namespace hetscal::api_test
