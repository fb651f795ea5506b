#pragma once
// Caller arrays (ScaLAPACK local arrays filled with known values and sentinels) and target
// distributions of every kind, for the redistribution tests.
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "layout/block_cyclic.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/descriptor.hpp"
#include "layout/local_storage.hpp"
#include "layout/pattern_distribution.hpp"
#include "mpi/blacs_context.hpp"
#include "mpi/caller_matrix.hpp"
#include "mpi_test_support.hpp"

namespace hetscal::mpi::test {

/// A caller's matrix argument: sub(A) = A(ia:ia+m-1, ja:ja+n-1) of an ma x na matrix.
struct CallerCase {
  std::int64_t ma = 1, na = 1, mb = 1, nb = 1, imb = 1, inb = 1;
  int rsrc = 0, csrc = 0;
  std::int64_t ia = 1, ja = 1, m = 1, n = 1;  // ia, ja 1-based
  std::int64_t lld_padding = 0;
  bool eleven_entries = false;
};

/// A random case on an nprow x npcol grid: odd sizes, sources != 0, IA/JA off block
/// boundaries, padded LLD, both descriptor types.
inline CallerCase random_case(std::mt19937& rng, int nprow, int npcol) {
  const auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(rng() % static_cast<unsigned>(hi - lo + 1));
  };
  CallerCase c;
  c.ma = pick(1, 37);
  c.na = pick(1, 33);
  c.mb = pick(1, 6);
  c.nb = pick(1, 6);
  c.eleven_entries = rng() % 2 == 0;
  c.imb = c.eleven_entries ? pick(1, 8) : c.mb;
  c.inb = c.eleven_entries ? pick(1, 8) : c.nb;
  c.rsrc = static_cast<int>(pick(0, nprow - 1));
  c.csrc = static_cast<int>(pick(0, npcol - 1));
  c.ia = pick(1, c.ma);
  c.ja = pick(1, c.na);
  c.m = pick(1, c.ma - c.ia + 1);
  c.n = pick(1, c.na - c.ja + 1);
  c.lld_padding = pick(0, 3);
  return c;
}

/// This rank's local array of A plus its descriptor and argument.
class CallerArray {
 public:
  CallerArray(const CallerCase& c, const ContextInfo& info, int context) : case_(c) {
    layout::Descriptor d;
    d.type = c.eleven_entries ? layout::DescriptorType::BlockCyclic2DInb
                              : layout::DescriptorType::BlockCyclic2D;
    d.context = context;
    d.m = c.ma, d.n = c.na, d.imb = c.imb, d.inb = c.inb, d.mb = c.mb, d.nb = c.nb;
    d.rsrc = c.rsrc, d.csrc = c.csrc;
    rows_ = d.row_axis(info.nprow);
    cols_ = d.col_axis(info.npcol);
    local_rows_ = layout::local_extent(rows_, info.myrow);
    local_cols_ = layout::local_extent(cols_, info.mycol);
    d.lld = std::max<std::int64_t>(1, local_rows_) + c.lld_padding;
    lld_ = d.lld;
    desc_ = d.to_array();
    myrow_ = info.myrow;
    mycol_ = info.mycol;
    data_.assign(static_cast<std::size_t>(lld_ * std::max<std::int64_t>(1, local_cols_)),
                 kSentinel);
  }

  /// Every element of A (inside and outside sub(A)) gets its global value; padding keeps
  /// the sentinel.
  void fill_with_values() {
    for_each_element(
        [](double& x, std::int64_t i, std::int64_t j, bool) { x = global_value(i, j); });
  }

  /// What the elements of A outside sub(A) must hold.
  enum class Outside { Sentinel, Values };

  /// True when sub(A) holds the global values, the rest of A `outside`, and the padding
  /// rows the sentinel (bit for bit).
  bool holds(Outside outside) {
    bool ok = true;
    for_each_element([&ok, outside](double& x, std::int64_t i, std::int64_t j, bool in_sub) {
      const double expected = in_sub || outside == Outside::Values ? global_value(i, j) : kSentinel;
      ok = ok && std::memcmp(&x, &expected, sizeof x) == 0;
    });
    for (std::int64_t lj = 0; lj < local_cols_; ++lj) {
      for (std::int64_t li = local_rows_; li < lld_; ++li) ok = ok && at(li, lj) == kSentinel;
    }
    return ok;
  }

  /// True when the elements of sub(A) that `selected(i, j)` picks (0-based inside sub(A))
  /// hold their global values and every other element of A, and the padding, the sentinel.
  template <class Selected>
  bool holds_only(Selected selected) {
    bool ok = true;
    for_each_element([&](double& x, std::int64_t i, std::int64_t j, bool in_sub) {
      const bool moved = in_sub && selected(i - (case_.ia - 1), j - (case_.ja - 1));
      const double expected = moved ? global_value(i, j) : kSentinel;
      ok = ok && std::memcmp(&x, &expected, sizeof x) == 0;
    });
    for (std::int64_t lj = 0; lj < local_cols_; ++lj) {
      for (std::int64_t li = local_rows_; li < lld_; ++li) ok = ok && at(li, lj) == kSentinel;
    }
    return ok;
  }

  layout::MatrixArgument argument(int m_position = 1, int n_position = 2,
                                  int desc_position = 6) const {
    return {static_cast<int>(case_.m),
            m_position,
            static_cast<int>(case_.n),
            n_position,
            static_cast<int>(case_.ia),
            static_cast<int>(case_.ja),
            desc_.data(),
            desc_position};
  }
  std::vector<int>& descriptor() { return desc_; }
  double* data() { return data_.data(); }
  std::size_t local_size() const { return data_.size(); }
  /// Elements of the local array that no longer hold the sentinel.
  std::int64_t written() const {
    return std::count_if(data_.begin(), data_.end(), [](double x) { return x != kSentinel; });
  }
  const CallerCase& spec() const { return case_; }

 private:
  double& at(std::int64_t li, std::int64_t lj) {
    return data_[static_cast<std::size_t>(li + lj * lld_)];
  }

  template <class F>
  void for_each_element(F f) {
    for (std::int64_t lj = 0; lj < local_cols_; ++lj) {
      const std::int64_t j = layout::local_to_global(cols_, lj, mycol_);
      for (std::int64_t li = 0; li < local_rows_; ++li) {
        const std::int64_t i = layout::local_to_global(rows_, li, myrow_);
        const bool in_sub = i >= case_.ia - 1 && i < case_.ia - 1 + case_.m && j >= case_.ja - 1 &&
                            j < case_.ja - 1 + case_.n;
        f(at(li, lj), i, j, in_sub);
      }
    }
  }

  CallerCase case_;
  layout::CyclicAxis rows_, cols_;
  std::int64_t local_rows_ = 0, local_cols_ = 0, lld_ = 1;
  int myrow_ = 0, mycol_ = 0;
  std::vector<int> desc_;
  std::vector<double> data_;
};

enum class TargetKind { BlockCyclic, Cartesian, Pattern };

inline const char* name(TargetKind kind) {
  switch (kind) {
    case TargetKind::BlockCyclic:
      return "block-cyclic";
    case TargetKind::Cartesian:
      return "cartesian";
    default:
      return "pattern";
  }
}

/// A random permutation of the ranks on a random grid shape of `ranks` processes.
inline layout::ProcessGrid random_grid(std::mt19937& rng, int ranks) {
  const auto shapes = grid_shapes(ranks);
  const auto [p, q] = shapes[rng() % shapes.size()];
  std::vector<int> table(static_cast<std::size_t>(ranks));
  std::iota(table.begin(), table.end(), 0);
  std::shuffle(table.begin(), table.end(), rng);
  return layout::ProcessGrid(p, q, table);
}

/// A target distribution of `rows` x `cols` elements over `ranks` ranks: block-cyclic of
/// another shape and tile size, a Cartesian grid with hand-made uneven periodic maps, or a
/// pattern with an unassigned cell.
inline std::unique_ptr<layout::Distribution> random_target(TargetKind kind, std::mt19937& rng,
                                                           std::int64_t rows, std::int64_t cols,
                                                           int ranks) {
  const auto pick = [&rng](int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
  };
  const int mb = pick(1, 7), nb = pick(1, 7);
  const layout::TileSplit row_tiles(rows, mb, pick(1, mb)), col_tiles(cols, nb, pick(1, nb));
  if (kind == TargetKind::Pattern) {
    const int pr = pick(1, 4), pc = pick(1, 4);
    std::vector<int> table(static_cast<std::size_t>(pr * pc));
    for (int& cell : table) cell = pick(0, ranks - 1);
    table[rng() % table.size()] = layout::kUnassigned;
    const auto resolver = [ranks](layout::GlobalTile t) {
      return static_cast<int>((3 * t.row + t.col) % ranks);
    };
    return std::make_unique<layout::PatternDistribution>(row_tiles, col_tiles, pr, pc, table, ranks,
                                                         resolver);
  }
  layout::ProcessGrid grid = random_grid(rng, ranks);
  std::vector<int> row_map, col_map;
  if (kind == TargetKind::BlockCyclic) {
    const int r0 = pick(0, grid.nprow() - 1), c0 = pick(0, grid.npcol() - 1);
    for (int k = 0; k < grid.nprow(); ++k) row_map.push_back((r0 + k) % grid.nprow());
    for (int k = 0; k < grid.npcol(); ++k) col_map.push_back((c0 + k) % grid.npcol());
  } else {
    // Uneven shares, e.g. speeds 1:3: grid row r gets r+1 tile rows per panel, in a shuffled order.
    for (int r = 0; r < grid.nprow(); ++r)
      row_map.insert(row_map.end(), static_cast<std::size_t>(r + 1), r);
    for (int c = 0; c < grid.npcol(); ++c)
      col_map.insert(col_map.end(), static_cast<std::size_t>(1 + 2 * (c % 2)), c);
    std::shuffle(row_map.begin(), row_map.end(), rng);
    std::shuffle(col_map.begin(), col_map.end(), rng);
  }
  return std::make_unique<layout::CartesianDistribution>(row_tiles, col_tiles, row_map, col_map,
                                                         std::move(grid));
}

}  // namespace hetscal::mpi::test
