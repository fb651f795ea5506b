#include "tools/plan/plan_model.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/common/error.hpp"
#include "core/planners/candidate_search.hpp"
#include "core/planners/gemm_grid_plan.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/planners/model_report.hpp"
#include "tools/plan/limits.hpp"
#include "tools/plan/text_format.hpp"

namespace hetscal::tools::plan {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t kTextRows = 15;  // the text shows the fastest layouts; JSON all of them

void require_positive(double value, const char* option) {
  if (!std::isfinite(value) || value <= 0.0)
    throw InvalidArgument(std::string(option) + ": " + std::to_string(value) +
                          " must be finite and > 0");
}

// The squarest p×q = P with p <= q, as a BLACS program would usually build it.
Shape squarest_grid(std::size_t processors) {
  Shape best{1, processors};
  for (std::size_t p = 1; p * p <= processors; ++p)
    if (processors % p == 0) best = Shape{p, processors / p};
  return best;
}

// "the diagonal tile's owner" or "the fastest rank of the panel".
const char* panel_rank_text(core::PanelRank rank) {
  return rank == core::PanelRank::Fastest ? "the fastest rank of the panel" : "the diagonal tile's owner";
}

Json prediction_json(const core::Prediction& p) {
  return Json{{"label", p.candidate.label},
              {"tile", p.candidate.tile},
              {"panel_rank", p.candidate.panel_rank == core::PanelRank::Fastest ? "fastest" : "diagonal owner"},
              {"processors", p.candidate.processors()},
              {"total_s", p.total_s()},
              {"compute_s", p.time.compute},
              {"panel_s", p.time.panel},
              {"communication_s", p.time.communication},
              {"redistribution_s", p.time.redistribution},
              {"moved_bytes", p.moved_bytes},
              {"memory_fraction", p.memory_fraction},
              {"fits_memory", p.fits_memory()}};
}

// The chosen candidate: its index among the predictions, its label, tile and time.
Json chosen_json(const ModelReport& report) {
  const core::Prediction& p = report.predictions.at(report.chosen);
  return Json{{"index", report.chosen}, {"label", p.candidate.label}, {"tile", p.candidate.tile},
              {"total_s", p.total_s()}};
}

// What pricing `candidates` for `problem` costs: operations summed, bytes at the peak.
core::PredictionCost pricing_cost(const core::Problem& problem, const std::vector<core::Candidate>& candidates,
                                  std::size_t processors) {
  core::PredictionCost total;
  for (const core::Candidate& candidate : candidates) {
    const core::PredictionCost cost = core::prediction_cost(problem, candidate, processors);
    total.operations += cost.operations;
    total.peak_bytes = std::max(total.peak_bytes, cost.peak_bytes);
  }
  return total;
}

bool affordable(const core::PredictionCost& cost) {
  return cost.operations <= kMaxModelOperations && cost.peak_bytes <= kMaxModelBytes;
}

// Refuses a problem whose pricing would exceed limits.hpp's budget before pricing it, naming
// the largest --order whose pricing fits (found by bisection: the cost grows with N).
void require_priceable(const core::Problem& problem, const std::vector<core::Candidate>& candidates,
                       std::size_t processors) {
  const core::PredictionCost cost = pricing_cost(problem, candidates, processors);
  if (affordable(cost)) return;
  core::Problem smaller = problem;
  std::size_t fits = 0, too_large = problem.n;
  while (too_large - fits > 1) {
    smaller.n = fits + (too_large - fits) / 2;
    if (affordable(pricing_cost(smaller, candidates, processors)))
      fits = smaller.n;
    else
      too_large = smaller.n;
  }
  std::ostringstream msg;
  msg << "--order " << problem.n << ": pricing the " << candidates.size() << " candidates for "
      << processors << " processors would take about " << format("%.2g", cost.operations)
      << " operations and " << format("%.0f", cost.peak_bytes / (1 << 20)) << " MiB, more than the "
      << format("%g", kMaxModelOperations) << " and " << format("%.0f", kMaxModelBytes / (1 << 20))
      << " MiB allowed; "
      << (fits > 0 ? "give --order at most " + std::to_string(fits) : std::string("give fewer processors"));
  throw InvalidArgument(msg.str());
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpu_seconds_since(std::clock_t start) {
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

// The priced predictions of a search (pruned ones left out) and the chosen one's index among
// them; `not_candidates` of the listed were found not to be candidates (neither priced nor pruned).
void take_priced(ModelReport& report, std::vector<core::Prediction> predictions, const std::vector<bool>& priced,
                 std::size_t chosen, std::size_t not_candidates) {
  report.candidates = predictions.size() - not_candidates;
  for (std::size_t i = 0; i < predictions.size(); ++i) {
    if (i == chosen) report.chosen = report.predictions.size();
    if (priced[i]) report.predictions.push_back(std::move(predictions[i]));
  }
  report.pruned = report.candidates - report.predictions.size();
}

// Slices timed by per_rank_seconds: those whose candidates cost the most by
// core::prediction_cost (an estimate from sizes alone; the time is measured), and every slice
// holding a pattern still to be made (its sketch has no size to estimate from, and making it,
// a GCR&M search, can cost more than any pricing).
constexpr std::size_t kTimedSlices = 8;

// True when `sketch` names a pattern that its slice's pricer would make (candidate_search.hpp).
bool unmade_pattern(const core::Candidate& sketch, const core::DeferredCandidate& deferred) {
  return sketch.kind == core::CandidateKind::Pattern && deferred.build && sketch.owner.empty();
}

// The largest share of one rank when the runtime splits the pricing of `built` over the
// platform's ranks: building the list (`build_s`, every rank does it), then the slowest of the
// kTimedSlices slices estimated costliest and those making a pattern, each ordered (its own
// bounds) and priced here (a pattern shared by tile sizes on several slices is made by the
// first of them timed).
// CPU seconds of this process, so that other processes of a shared machine do not count.
double per_rank_seconds(const core::Platform& platform, const core::Problem& problem,
                        std::vector<core::Prediction> built, const core::DeferredCandidates& deferred,
                        bool exhaustive, double build_s) {
  const std::size_t ranks = platform.size();
  const std::size_t slices = std::min(ranks, built.size());
  std::vector<double> estimate(slices, 0.0);
  for (std::size_t position = 0; position < built.size(); ++position)
    estimate[position % ranks] += core::prediction_cost(problem, built[position].candidate, ranks).operations;
  std::vector<std::size_t> costliest(slices);
  for (std::size_t slice = 0; slice < slices; ++slice) costliest[slice] = slice;
  std::size_t timed = std::min(slices, kTimedSlices);
  std::partial_sort(costliest.begin(), costliest.begin() + static_cast<long>(timed), costliest.end(),
                    [&](std::size_t a, std::size_t b) { return estimate[a] > estimate[b]; });
  costliest.resize(timed);
  for (std::size_t position = 0; position < built.size() && position < deferred.size(); ++position)
    if (unmade_pattern(built[position].candidate, deferred[position]) &&
        std::find(costliest.begin(), costliest.end(), position % ranks) == costliest.end())
      costliest.push_back(position % ranks);
  timed = costliest.size();
  double slowest = 0.0;
  for (std::size_t t = 0; t < timed; ++t) {
    const std::clock_t slice_start = std::clock();
    const core::PricingOrder order =
        core::pricing_order(platform, problem, built, exhaustive, deferred, costliest[t], ranks);
    core::price_slice(platform, problem, built, order, deferred);
    slowest = std::max(slowest, cpu_seconds_since(slice_start));
  }
  return build_s + slowest;
}

// Runs a factorisation planner (`choose`, the core planner the runtime calls) timed, and its
// split over the ranks (`candidates`: its candidate list); keeps what it priced and its choice.
// @return the kind chosen.
template <typename Kind, typename Options, typename Choose, typename Candidates>
Kind run_planner(ModelReport& report, Options options, Choose choose, Candidates candidates) {
  options.search.exhaustive = report.settings.exhaustive;
  Clock::time_point start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  const core::PlanChoice<Kind> choice = choose(options);
  report.planning_s = seconds_since(start);
  report.planning_cpu_s = cpu_seconds_since(cpu_start);
  std::vector<core::Prediction> predictions;
  std::vector<bool> priced;
  for (const core::PricedCandidate<Kind>& c : choice.priced) {
    predictions.push_back(c.prediction);
    priced.push_back(c.priced);
  }
  take_priced(report, std::move(predictions), priced, choice.chosen, choice.not_candidates);
  report.pattern_cost = choice.pattern_cost;

  const std::clock_t build_start = std::clock();
  core::PlanCandidates<Kind> built = candidates(options);
  const double build_s = cpu_seconds_since(build_start);
  std::vector<core::Prediction> unpriced;
  core::DeferredCandidates deferred;
  for (core::PricedCandidate<Kind>& c : built.built) {
    unpriced.push_back(std::move(c.prediction));
    deferred.push_back(std::move(c.deferred));
  }
  report.planning_per_rank_s = per_rank_seconds(report.platform, built.problem, std::move(unpriced), deferred,
                                                options.search.exhaustive, build_s);
  return choice.kind;
}

// GEMM under --exhaustive: the generic candidates (model_candidates.hpp) on every process
// count, each priced, for validating the runtime's planner.
void run_generic_gemm_search(ModelReport& report) {
  core::CandidateOptions options;
  const core::SearchOptions search{report.settings.exhaustive, {}};
  Clock::time_point start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  options.process_counts = core::searched_process_counts(report.platform, 0, search.exhaustive);
  const std::vector<core::Candidate> candidates = core::generate_candidates(report.platform, report.problem, options);
  const double build_s = cpu_seconds_since(cpu_start);
  std::vector<core::Prediction> predictions(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) predictions[i].candidate = candidates[i];
  const std::vector<core::Prediction> unpriced = predictions;
  const core::SearchResult result = core::search_candidates(report.platform, report.problem, predictions, search);
  report.planning_s = seconds_since(start);
  report.planning_cpu_s = cpu_seconds_since(cpu_start);
  take_priced(report, std::move(predictions), result.priced, result.chosen, result.not_candidates);
  report.planning_per_rank_s =
      per_rank_seconds(report.platform, report.problem, unpriced, {}, search.exhaustive, build_s);
  const std::size_t largest_pattern = core::largest_hetero_pattern_count(report.platform, options);
  if (largest_pattern < report.platform.size()) report.patterns_left_out_from = largest_pattern + 1;
}

// GEMM: the runtime's planner (core::plan_gemm_grid, which the shim's and the native API's
// runtime::plan_gemm_layout turn into distributions), priced against the caller's layout as
// the runtime's decision prices the two routes (runtime::price_routes). Every rank plans the
// whole call shape, so a rank's share is the whole planning time.
void run_gemm_planner(ModelReport& report) {
  if (report.settings.exhaustive) return run_generic_gemm_search(report);
  Clock::time_point start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  std::vector<double> speeds;
  for (const core::Processor& p : report.platform.processors) speeds.push_back(p.speed_flops);
  const auto order = static_cast<std::int64_t>(report.problem.n);
  const core::GemmGridPlan plan = core::plan_gemm_grid(speeds, order, order, 0, report.platform.kernel);
  std::vector<core::Prediction> predictions{
      core::predict(report.platform, report.problem, core::caller_layout_candidate(report.problem)),
      core::predict(report.platform, report.problem, core::gemm_candidate(plan))};
  report.planning_s = seconds_since(start);
  report.planning_cpu_s = cpu_seconds_since(cpu_start);
  report.planning_per_rank_s = report.planning_cpu_s;
  // The runtime forwards the call when the plan is slower or does not fit in memory.
  const bool planned = predictions[1].fits_memory() && predictions[1].total_s() < predictions[0].total_s();
  const std::size_t chosen = planned ? 1 : 0;
  take_priced(report, std::move(predictions), {true, true}, chosen, 0);
}

// Cholesky's planner options with GCR&M searched afresh: the runtime remembers each search for
// the process, but one timed plan counts what a process's first plan costs.
core::CholeskyPlanOptions fresh_gcrm_searches() {
  core::CholeskyPlanOptions options;
  options.gcrm.remember = false;
  return options;
}

}  // namespace

core::Platform platform_of(const core::Speeds& speeds, const ModelSettings& settings) {
  const core::Speeds normalised = speeds.normalised();
  core::Platform platform;
  for (double s : normalised.speeds())
    platform.processors.push_back({s * settings.flops_at_speed_one, settings.memory_bytes});
  platform.network = {settings.latency_s, settings.bandwidth_bytes_per_s, settings.network, {}};
  if (settings.ranks_per_node > 0)
    for (std::size_t x = 0; x < platform.size(); ++x) platform.network.node_of.push_back(x / settings.ranks_per_node);
  core::require_valid(platform);
  return platform;
}

core::Problem problem_of(const core::Speeds& speeds, const ModelSettings& settings) {
  const Shape grid = settings.caller_grid ? *settings.caller_grid : squarest_grid(speeds.size());
  if (grid.rows * grid.cols != speeds.size())
    throw InvalidArgument("--caller-grid " + std::to_string(grid.rows) + "x" +
                          std::to_string(grid.cols) + " must hold all " +
                          std::to_string(speeds.size()) + " processors");
  core::Problem problem;
  problem.routine = settings.routine;
  problem.n = settings.order;
  problem.caller = core::CallerLayout{grid.rows, grid.cols, settings.caller_block, {}};
  return problem;
}


core::Routine routine_from(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (core::Routine r : {core::Routine::Gemm, core::Routine::LU, core::Routine::QR, core::Routine::Cholesky}) {
    std::string candidate = core::routine_name(r);
    std::transform(candidate.begin(), candidate.end(), candidate.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (candidate == lower) return r;
  }
  throw InvalidArgument("--model: unknown routine '" + name + "'; use gemm, lu, qr or cholesky");
}

ModelReport model_report(const core::Speeds& speeds, const ModelSettings& settings) {
  if (settings.order == 0) throw InvalidArgument("--order: the matrix order must be >= 1");
  if (settings.caller_block == 0) throw InvalidArgument("--caller-block: the block size must be >= 1");
  require_positive(settings.flops_at_speed_one, "--flops");
  require_positive(settings.memory_bytes, "--memory");
  require_positive(settings.bandwidth_bytes_per_s, "--bandwidth");
  if (!std::isfinite(settings.latency_s) || settings.latency_s < 0.0)
    throw InvalidArgument("--latency: " + std::to_string(settings.latency_s) + " must be finite and >= 0");

  ModelReport report;
  report.settings = settings;
  report.platform = platform_of(speeds, settings);
  report.problem = problem_of(speeds, settings);
  // The full search prices every candidate: refused beforehand when that would take too long
  // (the generic candidates stand in for every routine's: the same tiles, grids and counts).
  if (settings.exhaustive)
    require_priceable(report.problem, core::generate_candidates(report.platform, report.problem), speeds.size());
  const auto order = static_cast<std::int64_t>(settings.order);
  const core::Platform& platform = report.platform;
  const core::CallerLayout& caller = report.problem.caller;
  if (settings.routine == core::Routine::Cholesky) {
    report.cholesky_kind = run_planner<core::CholeskyLayoutKind>(
        report, fresh_gcrm_searches(),
        [&](const core::CholeskyPlanOptions& o) { return core::choose_cholesky_plan(platform, order, caller, o); },
        [&](const core::CholeskyPlanOptions& o) { return core::cholesky_plan_candidates(platform, order, caller, o); });
    return report;
  }
  // QR is planned among LU's families, priced by the QR time model.
  if (settings.routine == core::Routine::LU || settings.routine == core::Routine::QR) {
    const core::Routine routine = settings.routine;
    report.lu_kind = run_planner<core::LuLayoutKind>(
        report, core::LuPlanOptions{},
        [&](const core::LuPlanOptions& o) {
          return routine == core::Routine::LU ? core::choose_lu_plan(platform, order, order, caller, o)
                                              : core::choose_qr_plan(platform, order, order, caller, o);
        },
        [&](const core::LuPlanOptions& o) { return core::lu_plan_candidates(routine, platform, order, order, caller, o); });
    return report;
  }
  run_gemm_planner(report);
  return report;
}

std::string model_text(const ModelReport& report) {
  std::ostringstream out;
  out << "\ntime model: " << core::describe_platform(report.platform) << '\n'
      << "caller layout: " << report.problem.caller.grid_rows << 'x' << report.problem.caller.grid_cols
      << " block-cyclic grid, blocks of " << report.problem.caller.block << '\n';
  if (report.patterns_left_out_from)
    out << "heterogeneous pattern candidates left out for k >= " << *report.patterns_left_out_from
        << " processors: the patterns for 2 to " << *report.patterns_left_out_from
        << " processors would need more than " << format("%.0f", core::CandidateOptions{}.max_pattern_cells)
        << " cells together (cells grow with the speed ratio)\n";
  core::ReportOptions options;
  options.max_rows = kTextRows;
  out << core::format_predictions(report.problem, report.predictions, options);
  const core::Prediction& chosen = report.predictions[report.chosen];
  out << "chosen: " << chosen.candidate.label << ", tiles of " << chosen.candidate.tile << ", "
      << chosen.total_s() << " s predicted";
  const auto caller = std::find_if(report.predictions.begin(), report.predictions.end(),
                                   [](const core::Prediction& p) {
                                     return p.candidate.kind == core::CandidateKind::CallerLayout;
                                   });
  if (caller != report.predictions.end() && chosen.total_s() > 0.0)
    out << " (" << caller->total_s() / chosen.total_s() << "x faster than the caller's layout)";
  out << '\n';
  if (report.cholesky_kind) {
    out << "Cholesky distribution: " << core::cholesky_layout_name(*report.cholesky_kind) << " on "
        << chosen.candidate.processors().size() << " processors";
    if (report.pattern_cost > 0.0) out << ", T = " << format("%.3f", report.pattern_cost) << " nodes per colrow";
    out << '\n';
  }
  if (report.lu_kind) {
    out << core::routine_name(report.problem.routine) << " distribution: " << core::lu_layout_name(*report.lu_kind)
        << " on " << chosen.candidate.processors().size() << " processors";
    if (report.pattern_cost > 0.0)
      out << ", T = " << format("%.3f", report.pattern_cost) << " nodes per pattern row and column";
    if (*report.lu_kind != core::LuLayoutKind::CallerLayout)
      out << ", panels on " << panel_rank_text(chosen.candidate.panel_rank);
    out << '\n';
  }
  return out.str();
}

Json model_json(const ModelReport& report) {
  Json predictions = Json::array();
  for (const core::Prediction& p : report.predictions) predictions.push_back(prediction_json(p));
  const ModelSettings& s = report.settings;
  return Json{{"routine", core::routine_name(s.routine)},
              {"order", s.order},
              {"flops_at_speed_one", s.flops_at_speed_one},
              {"memory_bytes", s.memory_bytes},
              {"network", s.network == core::NetworkKind::SharedBus ? "shared" : "switched"},
              {"latency_s", s.latency_s},
              {"bandwidth_bytes_per_s", s.bandwidth_bytes_per_s},
              {"ranks_per_node", s.ranks_per_node},
              {"caller_grid", {{"rows", report.problem.caller.grid_rows},
                               {"cols", report.problem.caller.grid_cols}}},
              {"caller_block", s.caller_block},
              {"search", s.exhaustive ? "exhaustive" : "scalable"},
              {"candidates", report.candidates},
              {"pruned", report.pruned},
              {"planning_s", report.planning_s},
              {"planning_cpu_s", report.planning_cpu_s},
              {"planning_per_rank_s", report.planning_per_rank_s},
              {"predictions", predictions},
              {"chosen", chosen_json(report)},
              {"cholesky_kind", report.cholesky_kind ? Json(core::cholesky_layout_name(*report.cholesky_kind))
                                                     : Json(nullptr)},
              {"lu_kind", report.lu_kind ? Json(core::lu_layout_name(*report.lu_kind)) : Json(nullptr)},
              {"pattern_cost", report.pattern_cost},
              {"patterns_left_out_from", report.patterns_left_out_from ? Json(*report.patterns_left_out_from)
                                                                       : Json(nullptr)}};
}

}  // namespace hetscal::tools::plan
