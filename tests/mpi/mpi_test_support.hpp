#pragma once
// Helpers shared by the MPI tests: BLACS grids of every shape and rank order, agreement of a
// check across ranks, and global test values.
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "mpi/blacs.hpp"

namespace hetscal::mpi::test {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// True on every rank iff `ok` on every rank of `comm` (so that rank 0 reports other ranks'
/// failures and every rank takes the same path afterwards).
inline bool on_all_ranks(bool ok, MPI_Comm comm = MPI_COMM_WORLD) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
  return all != 0;
}

/// How grid positions are given ranks.
enum class GridOrder { RowMajor, ColumnMajor, Permuted };

inline const char* name(GridOrder order) {
  switch (order) {
    case GridOrder::RowMajor:
      return "row-major";
    case GridOrder::ColumnMajor:
      return "column-major";
    default:
      return "permuted";
  }
}

/// A BLACS grid over the ranks of `system_comm`, freed on destruction (Cblacs_gridexit).
class BlacsGrid {
 public:
  /// Collective over system_comm. `seed` picks the permutation of GridOrder::Permuted (the
  /// same on every rank).
  BlacsGrid(int nprow, int npcol, GridOrder order, unsigned seed = 1,
            MPI_Comm system_comm = MPI_COMM_WORLD)
      : nprow_(nprow), npcol_(npcol) {
    int system_size = 0;
    MPI_Comm_size(system_comm, &system_size);
    // rank_of_[prow*npcol+pcol]: rank in system_comm at that position.
    rank_of_.resize(static_cast<std::size_t>(nprow * npcol));
    std::vector<int> ranks(static_cast<std::size_t>(system_size));
    std::iota(ranks.begin(), ranks.end(), 0);
    if (order == GridOrder::Permuted) {
      std::mt19937 rng(seed);
      std::shuffle(ranks.begin(), ranks.end(), rng);
    }
    for (int r = 0; r < nprow; ++r) {
      for (int c = 0; c < npcol; ++c) {
        const int k = order == GridOrder::ColumnMajor ? c * nprow + r : r * npcol + c;
        rank_of_[static_cast<std::size_t>(r * npcol + c)] = ranks[static_cast<std::size_t>(k)];
      }
    }
    context_ = Csys2blacs_handle(system_comm);
    std::vector<int> usermap(rank_of_.size());  // Fortran order: usermap[c*nprow + r]
    for (int r = 0; r < nprow; ++r) {
      for (int c = 0; c < npcol; ++c)
        usermap[static_cast<std::size_t>(c * nprow + r)] =
            rank_of_[static_cast<std::size_t>(r * npcol + c)];
    }
    Cblacs_gridmap(&context_, usermap.data(), nprow, nprow, npcol);
  }
  ~BlacsGrid() {
    if (context_ >= 0) Cblacs_gridexit(context_);
  }
  BlacsGrid(const BlacsGrid&) = delete;
  BlacsGrid& operator=(const BlacsGrid&) = delete;

  int context() const { return context_; }  ///< -1 on ranks outside the grid
  bool member() const { return context_ >= 0; }
  int nprow() const { return nprow_; }
  int npcol() const { return npcol_; }
  /// Rank in the system communicator at grid position (r, c).
  int system_rank(int r, int c) const { return rank_of_[static_cast<std::size_t>(r * npcol_ + c)]; }

 private:
  int nprow_, npcol_;
  int context_ = -1;
  std::vector<int> rank_of_;
};

/// Every (p, q) with p * q == ranks.
inline std::vector<std::pair<int, int>> grid_shapes(int ranks) {
  std::vector<std::pair<int, int>> shapes;
  for (int p = 1; p <= ranks; ++p) {
    if (ranks % p == 0) shapes.emplace_back(p, ranks / p);
  }
  return shapes;
}

/// Distinct, exactly representable value of global element (i, j) of a caller's matrix.
inline double global_value(std::int64_t i, std::int64_t j) {
  return static_cast<double>(i) + 4096.0 * static_cast<double>(j) + 0.25;
}

/// Marks elements that must never be written.
constexpr double kSentinel = -12345.5;

}  // namespace hetscal::mpi::test
