#include "core/cholesky_plan.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "core/cholesky_ordering.hpp"
#include "core/error.hpp"
#include "core/grid_planner.hpp"
#include "core/model_candidates.hpp"
#include "core/pattern_2dbc.hpp"
#include "core/pattern_cost.hpp"
#include "core/pattern_g2dbc.hpp"

namespace hetscal::core {
namespace {

/// "<kind> p" or "<kind> pxq", short enough for core::format_predictions' 18 columns.
std::string label_of(CholeskyLayoutKind kind, std::size_t p, std::size_t q) {
  std::ostringstream s;
  switch (kind) {
    case CholeskyLayoutKind::HeterogeneousGrid: s << "hetero"; break;
    case CholeskyLayoutKind::HeteroSymmetric: s << "hetero sym"; break;
    default: s << cholesky_layout_name(kind);
  }
  s << ' ' << p;
  if (q != 0) s << 'x' << q;
  return s.str();
}

std::vector<std::size_t> usable_tiles(const std::vector<std::size_t>& listed, std::size_t n) {
  if (listed.empty()) throw InvalidArgument("choose_cholesky_plan: no tile size");
  std::vector<std::size_t> tiles;
  for (std::size_t nb : listed) {
    if (nb == 0) throw InvalidArgument("choose_cholesky_plan: tile size 0");
    if (nb <= n) tiles.push_back(nb);
  }
  if (tiles.empty()) tiles.push_back(*std::min_element(listed.begin(), listed.end()));
  return tiles;
}

/// The candidates of one process count k (the fastest k processors), before pricing.
class CandidateBuilder {
 public:
  CandidateBuilder(const Platform& platform, std::size_t n, const CholeskyPlanOptions& options)
      : platform_(platform), n_(n), options_(options), tiles_(usable_tiles(options.tile_sizes, n)) {
    for (const auto& proc : platform.processors) cycle_times_.push_back(1.0 / proc.speed_flops);
  }

  bool wants(CholeskyLayoutKind kind) const {
    return std::find(options_.kinds.begin(), options_.kinds.end(), kind) != options_.kinds.end();
  }

  void add_caller(const Problem& problem) {
    add(CholeskyLayoutKind::CallerLayout, caller_layout_candidate(problem), 0.0);
  }

  /// 2DBC and the planner's heterogeneous grid on every shape p×q = k.
  void add_grids(const std::vector<std::size_t>& fastest) {
    const std::size_t k = fastest.size();
    for (std::size_t p = 1; p <= k; ++p) {
      if (k % p != 0) continue;
      const std::size_t q = k / p;
      if (wants(CholeskyLayoutKind::BlockCyclic)) {
        const double T = cholesky_cost(block_cyclic_pattern(static_cast<int>(p), static_cast<int>(q)));
        for (std::size_t nb : tiles_) {
          Candidate c = cartesian_candidate(label_of(CholeskyLayoutKind::BlockCyclic, p, q), nb, p, q,
                                            fastest, std::vector<double>(p, 1.0), std::vector<double>(q, 1.0));
          c.row_order.resize(p);
          c.col_order.resize(q);
          std::iota(c.row_order.begin(), c.row_order.end(), std::size_t{0});
          std::iota(c.col_order.begin(), c.col_order.end(), std::size_t{0});
          add(CholeskyLayoutKind::BlockCyclic, std::move(c), T);
        }
      }
      if (wants(CholeskyLayoutKind::HeterogeneousGrid) && k > 1) {
        const GridChoice plan = plan_grid_shape(cycle_times_, p, q);
        for (std::size_t nb : tiles_)
          add(CholeskyLayoutKind::HeterogeneousGrid,
              with_cholesky_order(cartesian_candidate(label_of(CholeskyLayoutKind::HeterogeneousGrid, p, q), nb, p,
                                                      q, plan.arrangement.processor, plan.shares.r, plan.shares.c),
                                  n_),
              0.0);
      }
    }
  }

  /// G-2DBC, GCR&M and the heterogeneous symmetric pattern on the fastest k.
  void add_patterns(const std::vector<std::size_t>& fastest) {
    const int k = static_cast<int>(fastest.size());
    if (k < 2) return;
    if (wants(CholeskyLayoutKind::G2dbc) && g2dbc_parameters(k).c != 0)
      add_pattern(CholeskyLayoutKind::G2dbc, g2dbc_pattern(k), fastest);
    if (wants(CholeskyLayoutKind::Gcrm)) add_pattern(CholeskyLayoutKind::Gcrm, best_gcrm(k, options_.gcrm).pattern, fastest);
    std::vector<double> speeds;
    for (std::size_t x : fastest) speeds.push_back(platform_.processors[x].speed_flops);
    const bool differ = *std::max_element(speeds.begin(), speeds.end()) > *std::min_element(speeds.begin(), speeds.end());
    if (wants(CholeskyLayoutKind::HeteroSymmetric) && differ)
      add_pattern(CholeskyLayoutKind::HeteroSymmetric,
                  best_hetero_symmetric(Speeds::from_speeds(speeds), options_.hetero_symmetric).pattern, fastest);
  }

  std::vector<CholeskyCandidate>& built() { return built_; }

 private:
  void add_pattern(CholeskyLayoutKind kind, const Pattern& pattern, const std::vector<std::size_t>& fastest) {
    const double T = cholesky_cost(pattern);
    for (std::size_t nb : tiles_)
      add(kind, pattern_candidate(label_of(kind, fastest.size(), 0), nb, pattern, fastest), T);
  }

  void add(CholeskyLayoutKind kind, Candidate candidate, double colrow_cost) {
    CholeskyCandidate c;
    c.kind = kind;
    c.prediction.candidate = std::move(candidate);
    c.colrow_cost = colrow_cost;
    built_.push_back(std::move(c));
  }

  const Platform& platform_;
  std::size_t n_;
  const CholeskyPlanOptions& options_;
  std::vector<std::size_t> tiles_;
  std::vector<double> cycle_times_;
  std::vector<CholeskyCandidate> built_;
};

}  // namespace

const char* cholesky_layout_name(CholeskyLayoutKind kind) {
  switch (kind) {
    case CholeskyLayoutKind::CallerLayout: return "caller layout";
    case CholeskyLayoutKind::BlockCyclic: return "2DBC";
    case CholeskyLayoutKind::HeterogeneousGrid: return "hetero grid";
    case CholeskyLayoutKind::G2dbc: return "G-2DBC";
    case CholeskyLayoutKind::Gcrm: return "GCR&M";
    case CholeskyLayoutKind::HeteroSymmetric: return "hetero symmetric";
  }
  return "?";
}

std::vector<std::size_t> pattern_process_counts(const Platform& platform, std::size_t max_processors) {
  const std::size_t most = max_processors == 0 ? platform.size() : std::min(max_processors, platform.size());
  const auto order = fastest_first(platform);
  std::vector<std::size_t> counts;
  for (std::size_t k = 1; k < most; ++k)
    if (2.0 * platform.processors[order[k]].speed_flops < platform.processors[order[k - 1]].speed_flops)
      counts.push_back(k);
  counts.push_back(most);
  return counts;
}

CholeskyChoice choose_cholesky_plan(const Platform& platform, std::int64_t n, const CallerLayout& caller,
                                    const CholeskyPlanOptions& options) {
  require_valid(platform);
  if (n < 1) throw InvalidArgument("choose_cholesky_plan: N = " + std::to_string(n) + " must be >= 1");
  if (options.kinds.empty()) throw InvalidArgument("choose_cholesky_plan: no kind of distribution to price");
  Problem problem;
  problem.routine = Routine::Cholesky;
  problem.n = static_cast<std::size_t>(n);
  problem.caller = caller;

  CandidateBuilder builder(platform, problem.n, options);
  if (builder.wants(CholeskyLayoutKind::CallerLayout)) builder.add_caller(problem);
  const auto order = fastest_first(platform);
  const std::size_t most = options.max_processors == 0 ? platform.size() : std::min(options.max_processors, platform.size());
  const auto pattern_counts = pattern_process_counts(platform, options.max_processors);
  for (std::size_t k = 1; k <= most; ++k) {
    const std::vector<std::size_t> fastest(order.begin(), order.begin() + static_cast<long>(k));
    builder.add_grids(fastest);
    if (std::find(pattern_counts.begin(), pattern_counts.end(), k) != pattern_counts.end())
      builder.add_patterns(fastest);
  }

  CholeskyChoice choice;
  choice.priced = std::move(builder.built());
  std::vector<Prediction> predictions;
  for (auto& c : choice.priced) {
    c.prediction = predict(platform, problem, c.prediction.candidate);
    predictions.push_back(c.prediction);
  }
  const Prediction best = choose(predictions);  // the first of the fastest that fit
  for (std::size_t i = 0; i < predictions.size(); ++i)
    if (predictions[i].fits_memory() && predictions[i].total_s() == best.total_s()) {
      choice.chosen = i;
      break;
    }
  const CholeskyCandidate& chosen = choice.priced[choice.chosen];
  choice.kind = chosen.kind;
  choice.candidate = chosen.prediction.candidate;
  choice.tile = choice.candidate.tile;
  choice.processors = choice.candidate.processors();
  choice.predicted_s = chosen.prediction.total_s();
  choice.colrow_cost = chosen.colrow_cost;
  return choice;
}

}  // namespace hetscal::core
