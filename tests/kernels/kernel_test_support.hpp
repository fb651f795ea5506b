#pragma once
// Helpers of the kernel MPI tests: test distributions of every family for any rank count,
// distributed matrices filled from a formula of (i, j), and agreement across ranks.
#include <mpi.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <vector>

#include "core/common/speeds.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/patterns/pattern_gcrm.hpp"
#include "core/patterns/pattern_hetero.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/scalar.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/local_storage.hpp"
#include "layout/pattern_distribution.hpp"
#include "mpi_test_support.hpp"

namespace hetscal::kernels::test {

using mpi::test::world_rank;
using mpi::test::world_size;

/// True on every rank iff `ok` on every rank.
inline bool on_all_ranks(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

/// True on every rank iff `call` threw an `Exception` on every rank (a refusal that some
/// rank missed would leave the others waiting in a collective).
template <typename Exception, typename Call>
bool thrown_everywhere(Call call) {
  bool thrown = false;
  try {
    call();
  } catch (const Exception&) {
    thrown = true;
  }
  return on_all_ranks(thrown);
}

inline double sum_over_ranks(double value) {
  double total = 0.0;
  MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/// Deterministic value in [-1, 1) of element (i, j) of matrix `seed` (a hash, so that no
/// structure of the matrix can hide an indexing mistake).
inline double formula(std::int64_t i, std::int64_t j, unsigned seed) {
  std::uint64_t x = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL ^
                    (static_cast<std::uint64_t>(j) + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL ^
                    static_cast<std::uint64_t>(seed) * 0x94D049BB133111EBULL;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ULL;
  x ^= x >> 29;
  return static_cast<double>(x >> 11) / static_cast<double>(1ULL << 52) - 1.0;
}

/// Element (i, j) of matrix `seed` as stored in T: the formula rounded to T, with an
/// imaginary part from another seed for complex T (so that a missing or extra conjugation
/// shows).
template <typename T>
T test_value(std::int64_t i, std::int64_t j, unsigned seed) {
  if constexpr (is_complex_v<T>) {
    using R = real_of_t<T>;
    return T(static_cast<R>(formula(i, j, seed)), static_cast<R>(formula(i, j, seed + 1000)));
  } else {
    return static_cast<T>(formula(i, j, seed));
  }
}

/// A test value in double precision (complex for every type, imaginary part 0 for real T).
template <typename T>
std::complex<double> widened(T x) {
  if constexpr (is_complex_v<T>) {
    return {static_cast<double>(x.real()), static_cast<double>(x.imag())};
  } else {
    return static_cast<double>(x);
  }
}

/// A quiet NaN of T (both parts NaN for complex T).
template <typename T>
T quiet_nan() {
  const real_of_t<T> nan = std::numeric_limits<real_of_t<T>>::quiet_NaN();
  if constexpr (is_complex_v<T>) {
    return T(nan, nan);
  } else {
    return nan;
  }
}

/// How a test matrix is distributed over the P ranks of MPI_COMM_WORLD.
enum class Family {
  BlockCyclic,       ///< p×q grid (p·q = P, near square), ranks row by row
  BlockCyclicTiles,  ///< the same grid, but each rank stores its tiles one after the other
  OtherGrid,         ///< q×p grid, ranks column by column, in reverse order
  OneRow,            ///< 1×P grid
  Heterogeneous,     ///< periodic maps with unequal shares, ranks reversed on the grid
  PartialGrid,       ///< heterogeneous maps on a grid of P-1 ranks (one rank owns nothing)
  Pattern,           ///< hand-made 3×4 owner table (not Cartesian)
  OtherPattern,      ///< hand-made 2×3 owner table
  G2dbc,             ///< Beaumont2023's G-2DBC pattern for P
  Gcrm,              ///< Beaumont2023's GCR&M pattern for P (diagonal cells resolved per replica)
  HeteroPattern,     ///< hetscal's heterogeneous pattern, speeds 1, 2, ..., P on 5×5 cells
};

/// Every family, for the tests that run on all of them.
inline constexpr Family kEveryFamily[] = {
    Family::BlockCyclic,   Family::BlockCyclicTiles, Family::OtherGrid, Family::OneRow,
    Family::Heterogeneous, Family::PartialGrid,      Family::Pattern,   Family::OtherPattern,
    Family::G2dbc,         Family::Gcrm,             Family::HeteroPattern};

inline const char* name(Family family) {
  switch (family) {
    case Family::BlockCyclic: return "block-cyclic";
    case Family::BlockCyclicTiles: return "block-cyclic as tiles";
    case Family::OtherGrid: return "other grid";
    case Family::OneRow: return "one row";
    case Family::Heterogeneous: return "heterogeneous grid";
    case Family::PartialGrid: return "partial grid";
    case Family::Pattern: return "pattern";
    case Family::OtherPattern: return "other pattern";
    case Family::G2dbc: return "G-2DBC";
    case Family::Gcrm: return "GCR&M";
    case Family::HeteroPattern: return "heterogeneous pattern";
  }
  return "?";
}

/// Tile sizes of one dimension: first tile and the others.
struct Tiles {
  std::int64_t block = 1;
  std::int64_t first = 0;  ///< 0: same as block
};

/// Near-square p×q = P with p <= q.
inline std::pair<int, int> near_square(int ranks) {
  int p = static_cast<int>(std::sqrt(static_cast<double>(ranks)));
  while (ranks % p != 0) --p;
  return {p, ranks / p};
}

inline std::vector<int> identity(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

/// Row map giving part i (of n) n-i slots: n = 2 gives {0, 0, 1}.
inline std::vector<int> hetero_row_map(int n) {
  std::vector<int> map;
  for (int i = 0; i < n; ++i) map.insert(map.end(), static_cast<std::size_t>(n - i), i);
  return map;
}

/// Column map giving part j 2j+1 slots: n = 2 gives {0, 1, 1, 1}.
inline std::vector<int> hetero_col_map(int n) {
  std::vector<int> map;
  for (int j = 0; j < n; ++j) map.insert(map.end(), static_cast<std::size_t>(2 * j + 1), j);
  return map;
}

/// Ranks P-1, P-2, ... placed row by row on a p×q grid.
inline layout::ProcessGrid reversed_grid(int p, int q, int ranks) {
  std::vector<int> table(static_cast<std::size_t>(p * q));
  for (int k = 0; k < p * q; ++k) table[static_cast<std::size_t>(k)] = ranks - 1 - k;
  return layout::ProcessGrid(p, q, table, ranks);
}

inline std::vector<int> owner_table(int rows, int cols, int ranks, int salt) {
  std::vector<int> table;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) table.push_back((r * 5 + c * 2 + r * c + salt) % ranks);
  return table;
}

inline std::unique_ptr<layout::Distribution> make_distribution(Family family, layout::TileSplit rows,
                                                               layout::TileSplit cols, int ranks) {
  const auto [p, q] = near_square(ranks);
  switch (family) {
    case Family::BlockCyclic:
    case Family::BlockCyclicTiles:
      return std::make_unique<layout::CartesianDistribution>(rows, cols, identity(p), identity(q),
                                                             layout::ProcessGrid::row_major(p, q));
    case Family::OtherGrid: {
      std::vector<int> table(static_cast<std::size_t>(ranks));
      for (int r = 0; r < q; ++r)
        for (int c = 0; c < p; ++c) table[static_cast<std::size_t>(r * p + c)] = ranks - 1 - (c * q + r);
      return std::make_unique<layout::CartesianDistribution>(rows, cols, identity(q), identity(p),
                                                             layout::ProcessGrid(q, p, table));
    }
    case Family::OneRow:
      return std::make_unique<layout::CartesianDistribution>(rows, cols, identity(1), identity(ranks),
                                                             layout::ProcessGrid::row_major(1, ranks));
    case Family::Heterogeneous:
      return std::make_unique<layout::CartesianDistribution>(
          rows, cols, hetero_row_map(p), hetero_col_map(q), reversed_grid(p, q, ranks));
    case Family::PartialGrid: {
      const int used = ranks > 1 ? ranks - 1 : 1;
      return std::make_unique<layout::CartesianDistribution>(
          rows, cols, hetero_row_map(1), hetero_col_map(used), reversed_grid(1, used, ranks));
    }
    case Family::Pattern:
      return std::make_unique<layout::PatternDistribution>(rows, cols, 3, 4, owner_table(3, 4, ranks, 0), ranks);
    case Family::OtherPattern:
      return std::make_unique<layout::PatternDistribution>(rows, cols, 2, 3, owner_table(2, 3, ranks, 1), ranks);
    case Family::G2dbc:
      return std::make_unique<layout::PatternDistribution>(layout::lay_over(core::g2dbc_pattern(ranks), rows, cols));
    case Family::Gcrm: {
      core::GcrmSearchOptions search;
      search.seeds_per_size = 1;
      return std::make_unique<layout::PatternDistribution>(layout::lay_over(
          core::best_gcrm(ranks, search).pattern, rows, cols, core::TileRegion::LowerTriangle));
    }
    case Family::HeteroPattern: {
      std::vector<double> speeds(static_cast<std::size_t>(ranks));
      std::iota(speeds.begin(), speeds.end(), 1.0);
      core::HeteroPatternOptions options;
      options.improvement_sweeps = 2;
      return std::make_unique<layout::PatternDistribution>(
          layout::lay_over(core::hetero_pattern(core::Speeds::from_speeds(speeds), 5, 5, options), rows, cols));
    }
  }
  return nullptr;
}

/// Value left in every local element that is not the matrix's (padding): must survive.
constexpr double kPadding = -777.25;

/// A distributed matrix owning its distribution, this rank's storage and data.
template <typename T>
struct TestMatrix {
  std::unique_ptr<layout::Distribution> distribution;
  std::unique_ptr<layout::LocalLayout> storage;
  std::vector<T> data;

  /// Cartesian matrices sit inside a larger local array (one row and one column before them,
  /// ld = LOCr + 3), as a caller's submatrix does, to check that kernels honour the bases
  /// and the leading dimension.
  TestMatrix(Family family, std::int64_t rows, std::int64_t cols, Tiles row_tiles, Tiles col_tiles) {
    const auto split = [](std::int64_t extent, Tiles t) {
      return layout::TileSplit(extent, t.block, t.first > 0 ? t.first : t.block);
    };
    const int rank = world_rank();
    distribution = make_distribution(family, split(rows, row_tiles), split(cols, col_tiles), world_size());
    const auto* cartesian = dynamic_cast<const layout::CartesianDistribution*>(distribution.get());
    if (family == Family::BlockCyclicTiles) {
      storage = std::make_unique<layout::TiledLocalLayout>(*distribution, rank);
    } else if (cartesian != nullptr) {
      const layout::CartesianLocalLayout plain(*cartesian, rank);
      storage = std::make_unique<layout::CartesianLocalLayout>(*cartesian, rank, plain.local_rows() + 3, 1, 1);
    } else {
      storage = layout::make_local_layout(*distribution, rank);
    }
    data.assign(static_cast<std::size_t>(storage->local_elements()), static_cast<T>(kPadding));
  }

  /// Calls f(i, j, element) for every element this rank owns.
  template <typename F>
  void for_each_owned(F&& f) {
    for (const layout::GlobalTile& t : storage->owned_tiles()) {
      const layout::TileLocation where = storage->tile_location(t);
      const std::int64_t i0 = distribution->rows().offset(t.row), j0 = distribution->cols().offset(t.col);
      for (std::int64_t c = 0; c < distribution->cols().size(t.col); ++c)
        for (std::int64_t r = 0; r < distribution->rows().size(t.row); ++r)
          f(i0 + r, j0 + c, data[static_cast<std::size_t>(where.offset + r + c * where.ld)]);
    }
  }

  void fill(unsigned seed) {
    for_each_owned([&](std::int64_t i, std::int64_t j, T& x) { x = test_value<T>(i, j, seed); });
  }
  void fill_nan() {
    for_each_owned([](std::int64_t, std::int64_t, T& x) { x = quiet_nan<T>(); });
  }
  /// Elements outside the owned tiles that no longer hold kPadding.
  std::int64_t damaged_padding() {
    std::vector<bool> owned(data.size(), false);
    for_each_owned([&](std::int64_t, std::int64_t, T& x) { owned[static_cast<std::size_t>(&x - data.data())] = true; });
    std::int64_t damaged = 0;
    for (std::size_t k = 0; k < data.size(); ++k)
      if (!owned[k] && data[k] != static_cast<T>(kPadding)) ++damaged;
    return damaged;
  }

  DistributedMatrix<const T> in() const { return {distribution.get(), storage.get(), data.data()}; }
  DistributedMatrix<T> out() { return {distribution.get(), storage.get(), data.data()}; }
};

}  // namespace hetscal::kernels::test
