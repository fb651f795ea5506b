#include "core/planners/model_candidates.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/common/error.hpp"
#include "core/grids/grid_planner.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/patterns/pattern_hetero.hpp"
#include "core/planners/factorization_plan.hpp"

namespace hetscal::core {
namespace {

bool all_equal(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [&](double x) { return std::fabs(x - v[0]) <= 1e-12 * v[0]; });
}

bool wants(const CandidateOptions& options, CandidateFamily family) {
  return std::find(options.families.begin(), options.families.end(), family) !=
         options.families.end();
}

/// G-2DBC and heterogeneous patterns on the processors `fastest` (fastest first).
void append_patterns(const Platform& platform, const CandidateOptions& options,
                     const std::vector<std::size_t>& tiles, const std::vector<std::size_t>& fastest,
                     std::size_t largest_hetero_patterns, std::vector<Candidate>& out) {
  const int k = static_cast<int>(fastest.size());
  if (wants(options, CandidateFamily::G2dbcPattern) && g2dbc_parameters(k).c != 0) {
    const Pattern pattern = g2dbc_pattern(k);
    for (std::size_t nb : tiles) out.push_back(pattern_candidate("G-2DBC " + std::to_string(k), nb, pattern, fastest));
  }
  if (wants(options, CandidateFamily::HeterogeneousPattern) && k >= 2 &&
      static_cast<std::size_t>(k) <= largest_hetero_patterns) {
    HeteroPatternOptions pattern_options;
    pattern_options.min_cells_per_node = options.pattern_min_cells_per_node;
    const Pattern pattern = hetero_pattern(speeds_of(platform, fastest), pattern_options);
    for (std::size_t nb : tiles)
      out.push_back(pattern_candidate("hetpattern " + std::to_string(k), nb, pattern, fastest));
  }
}

}  // namespace

std::size_t largest_hetero_pattern_count(const Platform& platform, const CandidateOptions& options) {
  const auto order = fastest_first(platform);
  double cells = 0.0;
  std::size_t largest = 1;
  for (std::size_t k = 2; k <= order.size(); ++k) {
    const std::vector<std::size_t> fastest(order.begin(), order.begin() + static_cast<long>(k));
    cells += hetero_pattern_cells_needed(speeds_of(platform, fastest), options.pattern_min_cells_per_node);
    if (cells > options.max_pattern_cells) break;
    largest = k;
  }
  return largest;
}

std::vector<std::size_t> fastest_first(const Platform& platform) {
  std::vector<std::size_t> order(platform.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return platform.processors[a].speed_flops > platform.processors[b].speed_flops;
  });
  return order;
}

Candidate cartesian_candidate(std::string label, std::size_t tile, std::size_t rows,
                              std::size_t cols, std::vector<std::size_t> processor_at,
                              std::vector<double> row_share, std::vector<double> col_share) {
  Candidate c;
  c.kind = CandidateKind::Cartesian;
  c.label = std::move(label);
  c.tile = tile;
  c.rows = rows;
  c.cols = cols;
  c.owner = std::move(processor_at);
  c.row_share = std::move(row_share);
  c.col_share = std::move(col_share);
  return c;
}

std::vector<Candidate> generate_candidates(const Platform& platform, const Problem& problem,
                                           const CandidateOptions& options) {
  require_valid(platform);
  const auto tiles = usable_tile_sizes(options.tile_sizes, problem.n, "generate_candidates", platform.kernel);
  const std::size_t most = options.max_processors == 0
                               ? platform.size()
                               : std::min(options.max_processors, platform.size());
  const auto order = fastest_first(platform);
  const auto cycle_times = cycle_times_of(platform);

  const std::size_t largest_hetero_patterns = largest_hetero_pattern_count(platform, options);

  std::vector<std::size_t> counts = options.process_counts;
  if (counts.empty())
    for (std::size_t k = 1; k <= most; ++k) counts.push_back(k);
  std::vector<Candidate> out;
  if (wants(options, CandidateFamily::CallerLayout)) out.push_back(caller_layout_candidate(problem));
  for (std::size_t k : counts) {
    if (k == 0 || k > most)
      throw InvalidArgument("generate_candidates: process count " + std::to_string(k) + " is not within 1 to " +
                            std::to_string(most));
    const std::vector<std::size_t> fastest(order.begin(), order.begin() + static_cast<long>(k));
    append_patterns(platform, options, tiles, fastest, largest_hetero_patterns, out);
    for (std::size_t p = 1; p <= k; ++p) {
      if (k % p != 0) continue;
      const std::size_t q = k / p;
      bool cyclic_already = false;  // a heterogeneous grid with equal shares is block-cyclic
      if (wants(options, CandidateFamily::HeterogeneousGrid)) {
        const GridChoice plan = plan_grid_shape(cycle_times, p, q);
        cyclic_already = all_equal(plan.shares.r) && all_equal(plan.shares.c);
        for (std::size_t nb : tiles)
          out.push_back(cartesian_candidate(plan_label("hetero", p, q), nb, p, q,
                                            plan.arrangement.processor, plan.shares.r,
                                            plan.shares.c));
      }
      if (wants(options, CandidateFamily::BlockCyclicGrid) && !cyclic_already) {
        for (std::size_t nb : tiles)
          out.push_back(cartesian_candidate(plan_label("cyclic", p, q), nb, p, q, fastest,
                                            std::vector<double>(p, 1.0),
                                            std::vector<double>(q, 1.0)));
      }
    }
  }
  return out;
}

}  // namespace hetscal::core
