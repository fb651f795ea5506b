// Native API: hetscal descriptors, local sizes and local-to-global indices (hetscal.h).
#include "api/hetero_matrix.hpp"

#include <algorithm>
#include <optional>

#include "hetscal/hetscal.h"
#include "mpi/agreement.hpp"
#include "runtime/gemm_plan.hpp"

namespace hetscal::api {
namespace {

// The integer of a local row or column index, when there is one: the C API's local indices
// are plain integers.
template <class LocalIndex>
std::optional<std::int64_t> value_of(const std::optional<LocalIndex>& index) {
  if (!index) return std::nullopt;
  return index->value();
}

// Rows (or columns) of an extent-long dimension held by this process's grid row (column)
// on a Cartesian layout; -1 on a pattern, whose storage is tiles.
std::int64_t local_extent(const Context& context, std::int64_t extent, bool rows) {
  if (!context.layout.cartesian()) return -1;
  const HeteroMatrix m =
      rows ? hetero_matrix(context, extent, 1) : hetero_matrix(context, 1, extent);
  const auto& storage = static_cast<const layout::CartesianLocalLayout&>(*m.storage);
  return rows ? storage.local_rows() : storage.local_cols();
}

// Global index (1-based) of local index `local` (1-based) of one dimension on a Cartesian
// layout; 0 if none.
std::int64_t global_index(const Context& context, std::int64_t extent, std::int64_t local,
                          bool rows) {
  if (local < 1 || !context.layout.cartesian()) return 0;
  const HeteroMatrix m =
      rows ? hetero_matrix(context, extent, 1) : hetero_matrix(context, 1, extent);
  const auto& storage = static_cast<const layout::CartesianLocalLayout&>(*m.storage);
  const layout::TileSplit& split = rows ? m.distribution->rows() : m.distribution->cols();
  for (std::int64_t t = 0; t < split.count(); ++t) {
    const std::optional<std::int64_t> held =
        rows ? value_of(storage.local_row_of_tile(t)) : value_of(storage.local_col_of_tile(t));
    if (!held) continue;
    const std::int64_t start = *held;
    if (local - 1 >= start && local - 1 < start + split.size(t)) {
      return split.offset(t) + (local - 1 - start) + 1;
    }
  }
  return 0;
}

// The tile (1-based indices) of the matrix a hetscal descriptor describes, when both the
// descriptor and the tile are valid.
struct DescribedTile {
  const Context* context = nullptr;
  HeteroMatrix matrix;
  layout::GlobalTile tile;
};
// 0, -1 (bad descriptor) or -2 (tile outside the matrix).
int describe_tile(const int* desc, int tile_row, int tile_col, DescribedTile& out) {
  Context* context = nullptr;
  if (!desc || check_hetero_descriptor(desc, 1, &context) != 0) return -1;
  out.context = context;
  out.matrix = hetero_matrix(*context, desc);
  const layout::GlobalTile t{tile_row - 1, tile_col - 1};
  if (t.row < 0 || t.col < 0 || t.row >= out.matrix.distribution->rows().count() ||
      t.col >= out.matrix.distribution->cols().count())
    return -2;
  out.tile = t;
  return 0;
}

}  // namespace

int check_hetero_descriptor(const int* desc, int position, Context** context) {
  if (desc[field::kDtype - 1] != HETSCAL_DTYPE) return field_info(position, field::kDtype);
  Context* found = find_context(desc[field::kCtxt - 1]);
  if (!found) return field_info(position, field::kCtxt);
  const int m = desc[field::kM - 1], n = desc[field::kN - 1];
  if (m < 0) return field_info(position, field::kM);
  if (n < 0) return field_info(position, field::kN);
  if (desc[field::kMb - 1] != found->tile()) return field_info(position, field::kMb);
  if (desc[field::kNb - 1] != found->tile()) return field_info(position, field::kNb);
  if (desc[field::kRsrc - 1] != 0) return field_info(position, field::kRsrc);
  if (desc[field::kCsrc - 1] != 0) return field_info(position, field::kCsrc);
  if (desc[field::kLld - 1] <
      std::max<std::int64_t>(1, local_extent(*found, m, true))) {  // patterns: >= 1
    return field_info(position, field::kLld);
  }
  *context = found;
  return 0;
}

int agreed_info(MPI_Comm comm, int local_info) {
  return mpi::earliest_argument_info(comm, local_info);
}

int check_in_place_operand(const layout::MatrixArgument& x, const Context& context) {
  Context* own = nullptr;
  const int info = check_hetero_descriptor(x.desc, x.desc_position, &own);
  if (info != 0) return info;
  if (own != &context) return field_info(x.desc_position, field::kCtxt);
  if (x.ia != 1) return -(x.desc_position - 2);
  if (x.ja != 1) return -(x.desc_position - 1);
  if (x.desc[field::kM - 1] != x.m) return field_info(x.desc_position, field::kM);
  if (x.desc[field::kN - 1] != x.n) return field_info(x.desc_position, field::kN);
  return 0;
}

HeteroMatrix hetero_matrix(const ContextLayout& layout, int rank, std::int64_t rows,
                           std::int64_t cols, std::int64_t lld) {
  HeteroMatrix m;
  m.distribution = layout.distribution(rows, cols);
  m.storage = layout.storage(*m.distribution, rank, lld);
  return m;
}

HeteroMatrix hetero_matrix(const Context& context, std::int64_t rows, std::int64_t cols,
                           std::int64_t lld) {
  return hetero_matrix(context.layout, context.grid.my_rank, rows, cols, lld);
}

}  // namespace hetscal::api

using hetscal::api::Context;
using hetscal::api::find_context;

extern "C" void hetscal_descinit(int* desc, int m, int n, hetscal_context_t ctx, int lld,
                                 int* info) {
  namespace field = hetscal::api::field;
  const Context* context = find_context(ctx);
  const std::int64_t local_rows =
      context && m >= 0 ? hetscal::api::local_extent(*context, m, true) : 0;
  const int minimum = static_cast<int>(std::max<std::int64_t>(1, local_rows));
  *info = m < 0 ? -2 : n < 0 ? -3 : !context ? -4 : lld < minimum ? -5 : 0;
  const int tile = context ? static_cast<int>(context->tile()) : 1;
  const int values[HETSCAL_DESC_LEN] = {
      HETSCAL_DTYPE, ctx, std::max(m, 0), std::max(n, 0), tile, tile, 0, 0, std::max(lld, minimum)};
  std::copy(values, values + HETSCAL_DESC_LEN, desc);
  static_assert(field::kLld == HETSCAL_DESC_LEN, "a hetscal descriptor has 9 entries");
}

extern "C" int hetscal_local_rows(hetscal_context_t ctx, int m) {
  const Context* context = find_context(ctx);
  return context && m >= 0 ? static_cast<int>(hetscal::api::local_extent(*context, m, true)) : -1;
}

extern "C" int hetscal_local_cols(hetscal_context_t ctx, int n) {
  const Context* context = find_context(ctx);
  return context && n >= 0 ? static_cast<int>(hetscal::api::local_extent(*context, n, false)) : -1;
}

extern "C" int hetscal_global_row(hetscal_context_t ctx, int m, int local_row) {
  const Context* context = find_context(ctx);
  return context && m >= 0
             ? static_cast<int>(hetscal::api::global_index(*context, m, local_row, true))
             : 0;
}

extern "C" int hetscal_global_col(hetscal_context_t ctx, int n, int local_col) {
  const Context* context = find_context(ctx);
  return context && n >= 0
             ? static_cast<int>(hetscal::api::global_index(*context, n, local_col, false))
             : 0;
}

extern "C" long long hetscal_local_elements(const int* desc) {
  hetscal::api::Context* context = nullptr;
  if (!desc || hetscal::api::check_hetero_descriptor(desc, 1, &context) != 0) return -1;
  const hetscal::api::HeteroMatrix m = hetscal::api::hetero_matrix(*context, desc);
  return m.storage->owned_tiles().empty() ? 0 : m.storage->local_elements();
}

extern "C" int hetscal_tile_owner(const int* desc, int tile_row, int tile_col) {
  hetscal::api::DescribedTile described;
  if (hetscal::api::describe_tile(desc, tile_row, tile_col, described) != 0) return -1;
  return described.matrix.distribution->owner(described.tile);
}

extern "C" int hetscal_local_tile(const int* desc, int tile_row, int tile_col, long long* index,
                                  int* ld) {
  hetscal::api::DescribedTile described;
  if (const int info = hetscal::api::describe_tile(desc, tile_row, tile_col, described))
    return info;
  const hetscal::layout::LocalLayout& storage = *described.matrix.storage;
  if (!storage.owns(described.tile)) return 0;
  const hetscal::layout::TileLocation where = storage.tile_location(described.tile);
  if (index) *index = where.offset + 1;
  if (ld) *ld = static_cast<int>(where.ld);
  return 1;
}
