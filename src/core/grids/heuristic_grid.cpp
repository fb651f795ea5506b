#include "core/grids/heuristic_grid.hpp"

#include <sstream>
#include <utility>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

void require_grid(std::size_t p, std::size_t q, std::size_t available) {
  if (p == 0 || q == 0 || p * q > available) {
    std::ostringstream msg;
    msg << "grid " << p << "x" << q << ": it must be non-empty and use at most the "
        << available << " processors given";
    throw InvalidArgument(msg.str());
  }
}

/// Arrangement, r/c rule and refinement for no split or a split by columns.
HeuristicGridResult plan_unsplit_or_columns(const SortedProcessors& sorted, std::size_t p,
                                            std::size_t q, GridSplit split, FillVariant variant,
                                            std::size_t fast_count,
                                            const RefinementOptions& refinement) {
  HeuristicGridResult result;
  result.arrangement = arrange_sorted(sorted, p, q, split, variant);
  result.split = split;
  result.fill = variant;
  result.fast_count = fast_count;
  result.rule_shares =
      harmonic_rule_shares(result.arrangement, split.fast_rows(p), split.fast_cols(q));
  result.rule_work_per_time = work_per_time(result.arrangement, result.rule_shares);
  Refinement refined = refine_shares(result.arrangement, result.rule_shares, refinement);
  result.shares = std::move(refined.shares);
  result.work_per_time = refined.work_per_time;
  result.refinement_half_steps = refined.half_steps;
  return result;
}

/// Any split. A row split is planned as the transpose of the column split on the transposed
/// grid, so that the two directions of a square grid give exactly the same W (the
/// refinement starts with c, which is not symmetric).
HeuristicGridResult plan_with_split(const SortedProcessors& sorted, std::size_t p, std::size_t q,
                                    GridSplit split, FillVariant variant, std::size_t fast_count,
                                    const RefinementOptions& refinement) {
  if (split.direction != SplitDirection::Rows)
    return plan_unsplit_or_columns(sorted, p, q, split, variant, fast_count, refinement);
  HeuristicGridResult result =
      plan_unsplit_or_columns(sorted, q, p, GridSplit{SplitDirection::Columns, split.fast_lines},
                              variant, fast_count, refinement);
  result.arrangement = transposed(result.arrangement);
  result.split = split;
  std::swap(result.rule_shares.r, result.rule_shares.c);
  std::swap(result.shares.r, result.shares.c);
  return result;
}

}  // namespace

HeuristicGridResult plan_grid_heuristic_sorted(const SortedProcessors& sorted, std::size_t p,
                                               std::size_t q, const HeuristicOptions& options) {
  require_grid(p, q, sorted.size());
  const std::size_t used = p * q;
  const std::size_t fast_count = fast_prefix_count(sorted, used, options.jump_angle);
  std::vector<GridSplit> splits;
  if (fast_count < used) splits = fewest_misplaced_splits(p, q, fast_count);
  if (splits.empty()) splits.push_back(GridSplit{});

  std::vector<FillVariant> variants{FillVariant::Paper};
  if (options.fills == FillSearch::BothVariants) variants.push_back(FillVariant::Mirrored);

  HeuristicGridResult best;
  for (FillVariant variant : variants) {
    for (const GridSplit& split : splits) {
      HeuristicGridResult candidate =
          plan_with_split(sorted, p, q, split, variant, fast_count, options.refinement);
      // Strictly better beyond rounding: equal W keeps the earlier candidate (the paper's
      // fill, columns first).
      if (best.arrangement.rows == 0 ||
          candidate.work_per_time > best.work_per_time * (1.0 + 1e-9))
        best = std::move(candidate);
    }
  }
  return best;
}

HeuristicGridResult plan_grid_heuristic(const std::vector<double>& cycle_times, std::size_t p,
                                        std::size_t q, const HeuristicOptions& options) {
  const SortedProcessors sorted = sort_processors(cycle_times);
  return plan_grid_heuristic_sorted(sorted, p, q, options);
}

}  // namespace hetscal::core
