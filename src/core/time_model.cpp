#include "core/time_model.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/time_model_steps.hpp"

namespace hetscal::core {
namespace {

constexpr double kBytesPerElement = 8.0;

void require_owners_exist(const std::vector<std::size_t>& owners, std::size_t processors,
                          const std::string& what) {
  for (std::size_t owner : owners) {
    if (owner >= processors) {
      std::ostringstream msg;
      msg << what << " names processor " << owner << " but the platform has " << processors;
      throw InvalidArgument(msg.str());
    }
  }
}

TileOwnership caller_ownership(const Problem& problem) {
  const CallerLayout& c = problem.caller;
  return block_cyclic_ownership(problem.n, c.block, c.grid_rows, c.grid_cols, c.processor_at);
}

/// Bytes each processor needs: its part of the caller's arrays, of the planned copy (unless
/// computing in place), and two panels (N × nb) of workspace.
std::vector<double> memory_needed(const Problem& problem, const Candidate& candidate,
                                  const std::vector<double>& caller_held,
                                  const std::vector<double>& plan_held, std::size_t arrays) {
  const double workspace = 2.0 * static_cast<double>(problem.n) *
                           static_cast<double>(candidate.tile) * kBytesPerElement;
  const auto used = candidate.processors();
  std::vector<double> needed(caller_held.size());
  for (std::size_t x = 0; x < needed.size(); ++x) {
    const double copy = candidate.kind == CandidateKind::CallerLayout ? 0.0 : plan_held[x];
    const bool works = std::binary_search(used.begin(), used.end(), x);
    needed[x] = (caller_held[x] + copy) * static_cast<double>(arrays) * kBytesPerElement +
                (works ? workspace : 0.0);
  }
  return needed;
}

}  // namespace

const char* routine_name(Routine routine) {
  switch (routine) {
    case Routine::Gemm: return "GEMM";
    case Routine::LU: return "LU";
    case Routine::QR: return "QR";
    case Routine::Cholesky: return "Cholesky";
  }
  return "?";
}

std::vector<std::size_t> Candidate::processors() const {
  std::set<std::size_t> distinct(owner.begin(), owner.end());
  return {distinct.begin(), distinct.end()};
}

Candidate caller_layout_candidate(const Problem& problem) {
  const CallerLayout& c = problem.caller;
  Candidate candidate;
  candidate.kind = CandidateKind::CallerLayout;
  candidate.label = "caller layout";
  candidate.tile = c.block;
  candidate.rows = c.grid_rows;
  candidate.cols = c.grid_cols;
  candidate.owner = caller_ownership(problem).owner;
  candidate.row_share.assign(c.grid_rows, 1.0);
  candidate.col_share.assign(c.grid_cols, 1.0);
  return candidate;
}

TileOwnership ownership_of(const Candidate& candidate, std::size_t n) {
  if (candidate.kind == CandidateKind::Pattern)
    return pattern_ownership(n, candidate.tile, candidate.rows, candidate.cols, candidate.owner);
  return cartesian_ownership(n, candidate.tile, candidate.rows, candidate.cols, candidate.owner,
                             candidate.row_share, candidate.col_share);
}

Prediction predict(const Platform& platform, const Problem& problem, const Candidate& candidate) {
  require_valid(platform);
  if (problem.n == 0) throw InvalidArgument("predict: matrix order N = 0");
  const TileOwnership caller = caller_ownership(problem);
  require_owners_exist(caller.owner, platform.size(), "the caller's grid");
  const TileOwnership plan = ownership_of(candidate, problem.n);
  require_owners_exist(plan.owner, platform.size(), "candidate '" + candidate.label + "'");

  Prediction prediction;
  prediction.candidate = candidate;
  prediction.time = simulate_steps(platform, problem.routine, plan);

  const RoutineCosts costs = routine_costs(problem.routine, static_cast<double>(candidate.tile));
  const auto caller_held = elements_held(caller, platform.size());
  const auto plan_held = elements_held(plan, platform.size());
  if (candidate.kind != CandidateKind::CallerLayout) {
    const auto kept = elements_kept(caller, plan, platform.size());
    const double in_and_out = static_cast<double>(costs.matrices_in + costs.matrices_out);
    prediction.time.redistribution =
        in_and_out * redistribution_time(platform.network, caller_held, plan_held, kept);
    double moved = 0.0;
    for (std::size_t x = 0; x < kept.size(); ++x) moved += caller_held[x] - kept[x];
    prediction.moved_bytes = in_and_out * moved * kBytesPerElement;
  }

  const auto needed = memory_needed(problem, candidate, caller_held, plan_held, costs.matrices_in);
  for (std::size_t x = 0; x < needed.size(); ++x) {
    const double fraction = needed[x] / platform.processors[x].memory_bytes;
    if (fraction > prediction.memory_fraction) {
      prediction.memory_fraction = fraction;
      prediction.tightest_processor = x;
    }
  }
  return prediction;
}

PredictionCost prediction_cost(const Problem& problem, const Candidate& candidate,
                               std::size_t processors) {
  const auto steps_of = [&](std::size_t tile) {
    return std::ceil(static_cast<double>(problem.n) / static_cast<double>(std::max<std::size_t>(tile, 1)));
  };
  const double steps = steps_of(candidate.tile), caller_steps = steps_of(problem.caller.block);
  const double rows = static_cast<double>(candidate.rows), cols = static_cast<double>(candidate.cols);
  const double cells = rows * cols;
  const double caller_cells =
      static_cast<double>(problem.caller.grid_rows) * static_cast<double>(problem.caller.grid_cols);
  // A step's class counts are one vector per suffix (a heap block of its own each).
  constexpr double kVectorBytes = 48.0;
  PredictionCost cost;
  cost.operations = steps * (cells + rows + cols + static_cast<double>(processors)) +  // simulate_steps
                    cells * (rows + cols) + caller_cells * cells +                     // elements_kept
                    2.0 * (steps + caller_steps);                                      // class tables
  cost.peak_bytes = (steps + 1.0) * ((rows + cols) * sizeof(std::size_t) + 2.0 * kVectorBytes) +
                    2.0 * caller_steps * sizeof(std::size_t);
  return cost;
}

std::vector<Prediction> predict_candidates(const Platform& platform, const Problem& problem,
                                           const std::vector<Candidate>& candidates) {
  std::vector<Prediction> out;
  out.reserve(candidates.size());
  for (const auto& candidate : candidates) out.push_back(predict(platform, problem, candidate));
  return out;
}

Prediction choose(const std::vector<Prediction>& predictions) {
  const Prediction* best = nullptr;
  for (const auto& p : predictions)
    if (p.fits_memory() && (best == nullptr || p.total_s() < best->total_s())) best = &p;
  if (best == nullptr) {
    std::ostringstream msg;
    msg << "choose: none of the " << predictions.size() << " candidates fits in memory";
    throw Error(msg.str());
  }
  return *best;
}

Prediction choose(const Platform& platform, const Problem& problem,
                  const std::vector<Candidate>& candidates) {
  return choose(predict_candidates(platform, problem, candidates));
}

}  // namespace hetscal::core
