/// @file gemm_operands.cpp
/// Which operands SUMMA reads in place and which it first moves into a layout aligned with C.
#include "kernels/gemm_operands.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

namespace hetscal::kernels::detail {
namespace {

using layout::CartesianDistribution;
using layout::Distribution;
using layout::GlobalTile;
using layout::ProcessGrid;
using layout::TileSplit;

// Rows: op(A) must follow C's tile rows. Cols: op(B) must follow C's tile columns.
enum class Axis { Rows, Cols };

const TileSplit& split_along(const Distribution& d, Axis axis) {
  return axis == Axis::Rows ? d.rows() : d.cols();
}

// Ownership given by a function of the tile: the aligned layouts derive it from the owners
// of C or of the stationary operand, whose Distribution the function refers to (so it lives
// only during one gemm call).
class OwnerFunction : public Distribution {
 public:
  OwnerFunction(const TileSplit& rows, const TileSplit& cols, int num_ranks,
                std::function<int(GlobalTile)> owner_of)
      : Distribution(rows, cols, num_ranks), owner_of_(std::move(owner_of)) {}
  int owner(GlobalTile t) const override { return owner_of_(t); }

 private:
  std::function<int(GlobalTile)> owner_of_;
};

OperandLayout owned_layout(std::unique_ptr<Distribution> distribution, int my_rank, Op transpose) {
  OperandLayout layout;
  layout.owned_distribution = std::move(distribution);
  layout.owned_storage = layout::make_local_layout(*layout.owned_distribution, my_rank);
  layout.distribution = layout.owned_distribution.get();
  layout.storage = layout.owned_storage.get();
  layout.transpose = transpose;
  return layout;
}

std::vector<int> identity_map(int size) {
  std::vector<int> map(static_cast<std::size_t>(size));
  std::iota(map.begin(), map.end(), 0);
  return map;
}

bool same_grid(const ProcessGrid& x, const ProcessGrid& y) {
  return x.nprow() == y.nprow() && x.npcol() == y.npcol() && x.ranks() == y.ranks();
}

// The Cartesian loop reads x in place when x sits on C's grid with C's tiles along `axis`,
// each tile row (column) in the same grid row (column) as C's.
bool grid_follows(const OperandInput& x, const CartesianDistribution& c, Axis axis) {
  if (x.op != Op::NoTrans) return false;
  const CartesianDistribution* xc = cartesian_view(*x.distribution, *x.storage);
  if (xc == nullptr || !same_grid(xc->grid(), c.grid())) return false;
  if (split_along(*xc, axis) != split_along(c, axis)) return false;
  for (std::int64_t line = 0; line < split_along(c, axis).count(); ++line) {
    const bool same = axis == Axis::Rows ? xc->grid_row(line) == c.grid_row(line)
                                         : xc->grid_col(line) == c.grid_col(line);
    if (!same) return false;
  }
  return true;
}

// The tiled loop reads x in place when x has C's tiles along `axis` and every tile's owner
// is in C's group of that tile row (column).
bool owners_follow(const OperandInput& x, const Distribution& c, Axis axis) {
  if (x.op != Op::NoTrans) return false;
  const Distribution& d = *x.distribution;
  if (split_along(d, axis) != split_along(c, axis)) return false;
  const Axis across = axis == Axis::Rows ? Axis::Cols : Axis::Rows;
  for (std::int64_t line = 0; line < split_along(c, axis).count(); ++line) {
    const std::vector<int> group = axis == Axis::Rows ? c.row_group(line) : c.col_group(line);
    for (std::int64_t k = 0; k < split_along(d, across).count(); ++k) {
      const int owner = d.owner(axis == Axis::Rows ? GlobalTile{line, k} : GlobalTile{k, line});
      if (!std::binary_search(group.begin(), group.end(), owner)) return false;
    }
  }
  return true;
}

// The K split of op(A) (Rows) or op(B) (Cols).
const TileSplit& k_split(const OperandInput& x, Axis axis) {
  const bool k_is_cols = (axis == Axis::Rows) == (x.op == Op::NoTrans);
  return k_is_cols ? x.distribution->cols() : x.distribution->rows();
}

OperandLayout in_place(const OperandInput& x) {
  OperandLayout layout;
  layout.distribution = x.distribution;
  layout.storage = x.storage;
  return layout;
}

// Moves x into a layout aligned with C: on C's grid (row map of C, panels dealt over the grid
// columns) when C is Cartesian; otherwise tile (I, k) of op(A) on the owner of
// C(I, k mod C's tile columns), a member of C's row group of I whatever C's distribution
// (K panels dealt cyclically over that group). Axis::Cols: the same for op(B), C's columns.
OperandLayout moved(const OperandInput& x, const Distribution& c,
                    const CartesianDistribution* cartesian_c, const TileSplit& k, Axis axis,
                    int my_rank) {
  std::unique_ptr<Distribution> target;
  if (cartesian_c != nullptr) {
    const ProcessGrid& grid = cartesian_c->grid();
    target = axis == Axis::Rows
                 ? std::make_unique<CartesianDistribution>(c.rows(), k, cartesian_c->row_map(),
                                                           identity_map(grid.npcol()), grid)
                 : std::make_unique<CartesianDistribution>(k, c.cols(), identity_map(grid.nprow()),
                                                           cartesian_c->col_map(), grid);
  } else if (axis == Axis::Rows) {
    const std::int64_t c_cols = c.cols().count();
    target = std::make_unique<OwnerFunction>(c.rows(), k, c.num_ranks(), [&c, c_cols](GlobalTile t) {
      return c.owner({t.row, t.col % c_cols});
    });
  } else {
    const std::int64_t c_rows = c.rows().count();
    target = std::make_unique<OwnerFunction>(k, c.cols(), c.num_ranks(), [&c, c_rows](GlobalTile t) {
      return c.owner({t.row % c_rows, t.col});
    });
  }
  return owned_layout(std::move(target), my_rank, x.op);
}

}  // namespace

const CartesianDistribution* cartesian_view(const Distribution& d,
                                            const layout::LocalLayout& storage) {
  if (!d.is_cartesian() || storage.kind() != layout::StorageKind::ColumnMajorArray) return nullptr;
  return dynamic_cast<const CartesianDistribution*>(&d);
}

AlignedOperands align_operands(OperandInput a, OperandInput b, const Distribution& c,
                               const layout::LocalLayout& c_storage, int my_rank) {
  AlignedOperands out;
  const CartesianDistribution* cartesian_c = cartesian_view(c, c_storage);
  out.path = cartesian_c != nullptr ? SummaPath::Cartesian : SummaPath::Tiled;
  const auto follows = [&](const OperandInput& x, Axis axis) {
    return cartesian_c != nullptr ? grid_follows(x, *cartesian_c, axis) : owners_follow(x, c, axis);
  };
  const bool a_stays = follows(a, Axis::Rows);
  // Both operands must step through K with the same tiles.
  const bool b_stays = follows(b, Axis::Cols) && (!a_stays || k_split(a, Axis::Rows) == k_split(b, Axis::Cols));
  const TileSplit& a_k = k_split(a, Axis::Rows);
  const TileSplit k = a_stays   ? a_k
                      : b_stays ? k_split(b, Axis::Cols)
                                : TileSplit(a_k.extent(), a_k.block());
  out.a = a_stays ? in_place(a) : moved(a, c, cartesian_c, k, Axis::Rows, my_rank);
  out.b = b_stays ? in_place(b) : moved(b, c, cartesian_c, k, Axis::Cols, my_rank);
  return out;
}

ReduceOperands align_for_reduce(Stationary keep, OperandInput a, OperandInput b,
                                const Distribution& c, int my_rank) {
  const bool keep_b = keep == Stationary::B;
  const OperandInput& kept = keep_b ? b : a;
  const OperandInput& other = keep_b ? a : b;
  const int ranks = c.num_ranks();
  ReduceOperands out;
  if (kept.op == Op::NoTrans) {
    out.stationary = in_place(kept);
  } else {  // the transpose stays on the ranks that hold the stored tiles
    const Distribution& stored = *kept.distribution;
    out.stationary = owned_layout(
        std::make_unique<OwnerFunction>(stored.cols(), stored.rows(), ranks,
                                        [&stored](GlobalTile t) { return stored.owner({t.col, t.row}); }),
        my_rank, kept.op);
  }
  // Tile lines of the stationary operand are dealt cyclically over the moving operand's and
  // the partial products' tiles, so that each lands on an owner of the line it meets.
  const Distribution& s = *out.stationary.distribution;
  const std::int64_t s_rows = s.rows().count(), s_cols = s.cols().count();
  if (keep_b) {  // s = op(B), K×N
    out.moving = owned_layout(
        std::make_unique<OwnerFunction>(c.rows(), s.rows(), ranks,
                                        [&s, s_cols](GlobalTile t) { return s.owner({t.col, t.row % s_cols}); }),
        my_rank, other.op);
    out.partial = owned_layout(
        std::make_unique<OwnerFunction>(c.rows(), s.cols(), ranks,
                                        [&s, s_rows](GlobalTile t) { return s.owner({t.row % s_rows, t.col}); }),
        my_rank, Op::NoTrans);
  } else {  // s = op(A), M×K
    out.moving = owned_layout(
        std::make_unique<OwnerFunction>(s.cols(), c.cols(), ranks,
                                        [&s, s_rows](GlobalTile t) { return s.owner({t.col % s_rows, t.row}); }),
        my_rank, other.op);
    out.partial = owned_layout(
        std::make_unique<OwnerFunction>(s.rows(), c.cols(), ranks,
                                        [&s, s_cols](GlobalTile t) { return s.owner({t.row, t.col % s_cols}); }),
        my_rank, Op::NoTrans);
  }
  return out;
}

}  // namespace hetscal::kernels::detail
