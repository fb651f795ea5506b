#pragma once
// The driver's grids and matrices: a BLACS grid of the first P·Q processes, ScaLAPACK
// block-cyclic operands filled from a generator, the same operands in a hetscal context's
// layout, and the reference product summed from the generator (independent of ScaLAPACK
// and hetscal).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "hetscal/hetscal.h"
#include "mpi/blacs.hpp"

extern "C" {
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb,
               const int* irsrc, const int* icsrc, const int* ictxt, const int* lld, int* info);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);  // the reference checks' BLAS
}

namespace hetscal::driver {

/// Element (i, j) (0-based) of matrix `which`: pseudo-random in [-0.5, 0.5), reproducible
/// on every process.
inline double generated(int which, std::int64_t i, std::int64_t j) {
  std::uint64_t x = (static_cast<std::uint64_t>(which) << 56) ^
                    (static_cast<std::uint64_t>(i) << 28) ^ static_cast<std::uint64_t>(j);
  x += 0x9E3779B97F4A7C15ull;  // splitmix64
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * 0x1.0p-53 - 0.5;
}

/// Global index (0-based) of local index `local` of a block-cyclic dimension (block nb, over
/// `procs` processes, first block on process 0) on the process at `position`.
inline std::int64_t global_index(int local, int nb, int procs, int position) {
  return (static_cast<std::int64_t>(local / nb) * procs + position) * nb + local % nb;
}

/// Maximum column sum of |x| (rows×cols, leading dimension rows); infinity when x holds a
/// NaN.
inline double one_norm(const std::vector<double>& x, int rows, int cols) {
  double most = 0.0;
  for (std::int64_t j = 0; j < cols; ++j) {
    double sum = 0.0;
    for (std::int64_t i = 0; i < rows; ++i)
      sum += std::abs(x[static_cast<std::size_t>(j * rows + i)]);
    most = std::isnan(sum) ? std::numeric_limits<double>::infinity() : std::max(most, sum);
  }
  return most;
}

/// A P×Q BLACS grid ("Row" order) of the first P·Q processes; the others are not members.
struct Grid {
  int context = -1, nprow = 0, npcol = 0, myrow = -1, mycol = -1;
  int rank = -1;                  ///< row-major grid position (the speeds' index)
  MPI_Comm comm = MPI_COMM_NULL;  ///< the members, ranked by position
  Grid(int p, int q) : nprow(p), npcol(q) {
    Cblacs_get(0, 0, &context);
    Cblacs_gridinit(&context, "Row", p, q);
    if (context >= 0) Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
    if (member()) rank = myrow * npcol + mycol;
    MPI_Comm_split(MPI_COMM_WORLD, member() ? 0 : MPI_UNDEFINED, rank, &comm);
  }
  ~Grid() {
    if (!member()) return;
    MPI_Comm_free(&comm);
    Cblacs_gridexit(context);
  }
  Grid(const Grid&) = delete;
  Grid& operator=(const Grid&) = delete;
  bool member() const { return context >= 0 && myrow >= 0; }
  int size() const { return nprow * npcol; }
  /// Every member's value, by grid rank.
  std::vector<double> gather(double mine) const {
    std::vector<double> all(static_cast<std::size_t>(size()));
    MPI_Allgather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm);
    return all;
  }
};

/// A rows×cols ScaLAPACK matrix (MB = NB = nb, RSRC = CSRC = 0) holding generated(which, ·).
struct Operand {
  int which, rows, cols, nb, local_rows, local_cols, lld;
  const Grid* grid;
  int desc[9] = {};
  std::vector<double> local;
  Operand(const Grid& g, int w, int r, int c, int block)
      : which(w), rows(r), cols(c), nb(block), grid(&g) {
    const int zero = 0;
    local_rows = numroc_(&rows, &nb, &g.myrow, &zero, &g.nprow);
    local_cols = numroc_(&cols, &nb, &g.mycol, &zero, &g.npcol);
    lld = std::max(1, local_rows);
    int info = 0;
    descinit_(desc, &rows, &cols, &nb, &nb, &zero, &zero, &g.context, &lld, &info);
    local.assign(static_cast<std::size_t>(lld) * std::max(1, local_cols), 0.0);
    fill([w](std::int64_t i, std::int64_t j) { return generated(w, i, j); });
  }
  /// Sets every element (i, j) (0-based, global) to value(i, j).
  template <typename Value>
  void fill(Value value) {
    for (int jl = 0; jl < local_cols; ++jl) {
      for (int il = 0; il < local_rows; ++il) at(il, jl) = value(global_row(il), global_col(jl));
    }
  }
  double& at(int il, int jl) { return local[static_cast<std::size_t>(jl) * lld + il]; }
  double at(int il, int jl) const { return local[static_cast<std::size_t>(jl) * lld + il]; }
  std::int64_t global_row(int il) const { return global_index(il, nb, grid->nprow, grid->myrow); }
  std::int64_t global_col(int jl) const { return global_index(jl, nb, grid->npcol, grid->mycol); }
};

/// The whole matrix `x`, column-major (leading dimension x.rows), on grid rank 0; empty on
/// the other processes. Collective over the grid.
inline std::vector<double> gather_to_root(const Operand& x) {
  const Grid& g = *x.grid;
  std::vector<double> mine(static_cast<std::size_t>(x.local_rows) * x.local_cols);
  for (int jl = 0; jl < x.local_cols; ++jl)
    std::copy_n(x.local.begin() + static_cast<std::ptrdiff_t>(jl) * x.lld, x.local_rows,
                mine.begin() + static_cast<std::ptrdiff_t>(jl) * x.local_rows);
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(g.size())), offsets(counts.size() + 1, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, g.comm);
  for (std::size_t r = 0; r < counts.size(); ++r) offsets[r + 1] = offsets[r] + counts[r];
  std::vector<double> pieces(g.rank == 0 ? static_cast<std::size_t>(offsets.back()) : 0);
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, pieces.data(), counts.data(), offsets.data(),
              MPI_DOUBLE, 0, g.comm);
  if (g.rank != 0) return {};
  // Rank r's piece is its local array of grid position (r / Q, r % Q), packed.
  std::vector<double> whole(static_cast<std::size_t>(x.rows) * x.cols);
  const int zero = 0;
  for (int r = 0; r < g.size(); ++r) {
    const int row = r / g.npcol, col = r % g.npcol;
    const int local_rows = numroc_(&x.rows, &x.nb, &row, &zero, &g.nprow);
    for (int k = 0; k < counts[static_cast<std::size_t>(r)]; ++k) {
      const int il = k % local_rows, jl = k / local_rows;
      const std::int64_t i = global_index(il, x.nb, g.nprow, row);
      const std::int64_t j = global_index(jl, x.nb, g.npcol, col);
      whole[static_cast<std::size_t>(j * x.rows + i)] =
          pieces[static_cast<std::size_t>(offsets[r] + k)];
    }
  }
  return whole;
}

/// alpha·op(A)·op(B) + beta·C on this process's elements of C, and the scaled residual.
class Reference {
 public:
  Reference(const Grid& grid, const Operand& a, bool ta, const Operand& b, bool tb,
            const Operand& c, double alpha, double beta)
      : grid_(&grid), expected_(c.local) {
    const int k = ta ? a.rows : a.cols;
    for (int jl = 0; jl < c.local_cols; ++jl) {
      for (int il = 0; il < c.local_rows; ++il) {
        const std::int64_t i = c.global_row(il), j = c.global_col(jl);
        double sum = 0.0;
        for (int l = 0; l < k; ++l) {
          sum += (ta ? generated(a.which, l, i) : generated(a.which, i, l)) *
                 (tb ? generated(b.which, j, l) : generated(b.which, l, j));
        }
        expected_[static_cast<std::size_t>(jl) * c.lld + il] = alpha * sum + beta * c.at(il, jl);
      }
    }
    // |A|_max, |B|_max, |C|_max <= 0.5 by construction.
    scale_ = (std::abs(alpha) * k * 0.25 + std::abs(beta) * 0.5 + 1.0) *
             std::numeric_limits<double>::epsilon();
  }
  /// max |C - C_ref| / scale over the grid; sets `passed` to residual < threshold.
  double residual(const Operand& c, double threshold, bool& passed) const {
    double error = 0.0, worst = 0.0;
    for (int jl = 0; jl < c.local_cols; ++jl) {
      for (int il = 0; il < c.local_rows; ++il) {
        const double d =
            std::abs(c.at(il, jl) - expected_[static_cast<std::size_t>(jl) * c.lld + il]);
        error = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(error, d);
      }
    }
    MPI_Allreduce(&error, &worst, 1, MPI_DOUBLE, MPI_MAX, grid_->comm);
    passed = worst / scale_ < threshold;
    return worst / scale_;
  }

 private:
  const Grid* grid_;
  std::vector<double> expected_;
  double scale_ = 1.0;
};

/// An operand copied into a hetscal context's heterogeneous layout.
struct HeteroOperand {
  int desc[HETSCAL_DESC_LEN] = {};
  std::vector<double> local;
  HeteroOperand(hetscal_context_t ctx, const Operand& x) {
    int info = 0;
    const int lld = std::max(1, hetscal_local_rows(ctx, x.rows));
    hetscal_descinit(desc, x.rows, x.cols, ctx, lld, &info);
    // Cartesian or pattern layout alike (hetscal_local_rows is -1 for a pattern, whose LLD
    // is not used).
    local.assign(static_cast<std::size_t>(std::max(1LL, hetscal_local_elements(desc))), 0.0);
    hetscal_scatter(x.rows, x.cols, x.local.data(), 1, 1, x.desc, local.data(), desc, &info);
  }
  /// Scatters `values` (a local array laid out as x's) and returns the result.
  std::vector<double> scatter(const std::vector<double>& values, const Operand& x) {
    int info = 0;
    hetscal_scatter(x.rows, x.cols, values.data(), 1, 1, x.desc, local.data(), desc, &info);
    return local;
  }
  void gather(Operand& x) const {
    int info = 0;
    hetscal_gather(x.rows, x.cols, x.local.data(), 1, 1, x.desc, local.data(), desc, &info);
  }
};

}  // namespace hetscal::driver
