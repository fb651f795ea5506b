#include "core/time_models/time_model.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/common/error.hpp"
#include "core/time_models/cholesky_steps.hpp"
#include "core/time_models/cholesky_work_bound.hpp"
#include "core/time_models/lu_steps.hpp"
#include "core/time_models/panel_chain_bound.hpp"
#include "core/time_models/qr_steps.hpp"
#include "core/time_models/time_model_steps.hpp"
#include "core/time_models/update_bound.hpp"

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

/// The matrices of a call that share one shape: how many there are (each held by the caller
/// and, unless computing in place, copied to the plan) and how many moves they take in all
/// (one per matrix moved in, one per matrix moved out). Grouping by shape prices a square
/// call's matrices once.
struct SameShapeMatrices {
  MatrixShape shape;
  std::size_t count = 0;
  std::size_t moves = 0;
};

std::vector<SameShapeMatrices> matrices_of(const Problem& problem) {
  const std::size_t m = problem.rows(), n = problem.n, k = problem.inner();
  std::vector<SameShapeMatrices> groups;
  const auto add = [&groups](MatrixShape shape, std::size_t moves) {
    for (auto& group : groups)
      if (group.shape.rows == shape.rows && group.shape.cols == shape.cols) {
        ++group.count;
        group.moves += moves;
        return;
      }
    groups.push_back({shape, 1, moves});
  };
  if (problem.routine == Routine::Gemm) {
    add({m, k}, 1);                       // A in
    add({k, n}, 1);                       // B in
    add({m, n}, problem.c_read ? 2 : 1);  // C in only when read, always out
  } else if (problem.routine == Routine::Cholesky) {
    add({m, n}, 1);  // one triangle in and the same triangle out: one whole matrix's volume
  } else {
    add({m, n}, 2);                       // factored in place: in and out
  }
  return groups;
}

/// What the caller's matrices cost besides the steps: moving them to the plan and back, and
/// the memory every processor needs for them (its part of the caller's arrays and, unless
/// computing in place, of the planned copies).
struct DataCost {
  double redistribution_s = 0.0;
  double moved_bytes = 0.0;
  std::vector<double> array_bytes;  ///< per processor
};

DataCost data_cost(const Platform& platform, const Problem& problem, const Candidate& candidate,
                   const CallerData& callers) {
  const std::size_t p = platform.size();
  const bool in_place = candidate.kind == CandidateKind::CallerLayout;
  DataCost cost;
  cost.array_bytes.assign(p, 0.0);
  const std::vector<SameShapeMatrices> groups = matrices_of(problem);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const SameShapeMatrices& group = groups[g];
    const TileOwnership& caller = callers.layouts[g];
    const std::vector<double>& caller_held = callers.held[g];
    std::vector<double> plan_held(p, 0.0);
    if (!in_place) {
      const TileOwnership plan = ownership_of(candidate, group.shape);
      plan_held = elements_held(plan, p);
      const auto kept = elements_kept(caller, plan, p);
      const double moves = static_cast<double>(group.moves);
      cost.redistribution_s +=
          moves * redistribution_time(platform.network, caller_held, plan_held, kept);
      double moved = 0.0;
      for (std::size_t x = 0; x < p; ++x) moved += caller_held[x] - kept[x];
      cost.moved_bytes += moves * moved * kBytesPerElement;
    }
    for (std::size_t x = 0; x < p; ++x)
      cost.array_bytes[x] += (caller_held[x] + plan_held[x]) * static_cast<double>(group.count) *
                             kBytesPerElement;
  }
  return cost;
}

/// Bytes each processor needs: its arrays (data_cost) and, where the candidate computes, a
/// column and a row panel ((M + N) × nb) of workspace.
std::vector<double> memory_needed(const Problem& problem, const Candidate& candidate,
                                  const std::vector<double>& array_bytes) {
  const double workspace = static_cast<double>(problem.rows() + problem.n) *
                           static_cast<double>(candidate.tile) * kBytesPerElement;
  const auto used = candidate.processors();
  std::vector<double> needed(array_bytes.size());
  for (std::size_t x = 0; x < needed.size(); ++x) {
    const bool works = std::binary_search(used.begin(), used.end(), x);
    needed[x] = array_bytes[x] + (works ? workspace : 0.0);
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
  std::vector<std::size_t> distinct(owner);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  return distinct;
}

void require_valid(const Problem& problem) {
  std::ostringstream msg;
  if (problem.n == 0)
    msg << routine_name(problem.routine) << ": matrix order N = 0";
  else if (problem.routine == Routine::Cholesky && problem.rows() != problem.n)
    msg << "Cholesky needs a square matrix; got " << problem.rows() << " x " << problem.n;
  else
    return;
  throw InvalidArgument(msg.str());
}

Candidate caller_layout_candidate(const Problem& problem) {
  const CallerLayout& c = problem.caller;
  Candidate candidate;
  candidate.kind = CandidateKind::CallerLayout;
  candidate.label = "caller layout";
  candidate.tile = c.nb();
  candidate.rows = c.grid_rows;
  candidate.cols = c.grid_cols;
  candidate.owner = caller_ownership(problem, {problem.rows(), problem.n}).owner;
  candidate.row_share.assign(c.grid_rows, 1.0);
  candidate.col_share.assign(c.grid_cols, 1.0);
  return candidate;
}

TileOwnership ownership_of(const Candidate& candidate, std::size_t n) {
  return ownership_of(candidate, MatrixShape{n, n});
}

TileOwnership ownership_of(const Candidate& candidate, MatrixShape shape) {
  if (candidate.kind == CandidateKind::Pattern)
    return pattern_ownership(shape, candidate.tile, candidate.rows, candidate.cols, candidate.owner);
  if (!candidate.row_order.empty() || !candidate.col_order.empty())
    return ordered_cartesian_ownership(shape, candidate.tile, candidate.rows, candidate.cols,
                                       candidate.owner, candidate.row_order, candidate.col_order);
  return cartesian_ownership(shape, candidate.tile, candidate.rows, candidate.cols,
                             candidate.owner, candidate.row_share, candidate.col_share);
}

TileOwnership caller_ownership(const Problem& problem, MatrixShape shape) {
  const CallerLayout& c = problem.caller;
  return block_cyclic_ownership(BlockCyclicAxis{shape.rows, c.mb(), c.row_offset, c.grid_rows},
                                BlockCyclicAxis{shape.cols, c.nb(), c.col_offset, c.grid_cols},
                                c.processor_at);
}

Prediction predict(const Platform& platform, const Problem& problem, const Candidate& candidate) {
  Prediction prediction = predict_data(platform, problem, candidate);
  add_step_times(platform, problem, prediction);
  return prediction;
}

CallerData caller_data(const Platform& platform, const Problem& problem) {
  require_valid(platform);
  require_valid(problem);
  require_owners_exist(caller_ownership(problem, step_layout_shape(problem)).owner, platform.size(),
                       "the caller's grid");
  CallerData data;
  for (const SameShapeMatrices& group : matrices_of(problem)) {
    data.layouts.push_back(caller_ownership(problem, group.shape));
    data.held.push_back(elements_held(data.layouts.back(), platform.size()));
  }
  return data;
}

Prediction predict_data(const Platform& platform, const Problem& problem, const Candidate& candidate) {
  return predict_data(platform, problem, candidate, caller_data(platform, problem));
}

Prediction predict_data(const Platform& platform, const Problem& problem, const Candidate& candidate,
                        const CallerData& caller) {
  require_owners_exist(candidate.owner, platform.size(), "candidate '" + candidate.label + "'");
  Prediction prediction;
  prediction.candidate = candidate;
  const DataCost data = data_cost(platform, problem, candidate, caller);
  prediction.time.redistribution = data.redistribution_s;
  prediction.moved_bytes = data.moved_bytes;

  const auto needed = memory_needed(problem, candidate, data.array_bytes);
  for (std::size_t x = 0; x < needed.size(); ++x) {
    const double fraction = needed[x] / platform.processors[x].memory_bytes;
    if (fraction > prediction.memory_fraction) {
      prediction.memory_fraction = fraction;
      prediction.tightest_processor = x;
    }
  }
  return prediction;
}

namespace {

/// step_time_lower_bound of hetscal's LU and QR kernels on `plan` (the candidate's tiles):
/// the chain of panels, or the windows of the steps (sampled_update_lower_bound). Cheapest
/// first, and no further than `enough` needs.
double hetscal_steps_lower_bound(const Platform& platform, Routine routine, const TileOwnership& plan,
                                 double enough) {
  const double chain = panel_chain_lower_bound(platform, routine, plan);
  if (chain > enough) return chain;
  return std::max(chain, sampled_update_lower_bound(platform, routine, plan, enough));
}

}  // namespace

double step_time_lower_bound(const Platform& platform, const Problem& problem, const Candidate& candidate,
                             double enough) {
  const bool hetscal_kernel = problem.routine == Routine::LU || problem.routine == Routine::QR;
  if (candidate.kind == CandidateKind::CallerLayout) return 0.0;
  if (!hetscal_kernel && problem.routine != Routine::Cholesky) return 0.0;
  const TileOwnership plan = ownership_of(candidate, step_layout_shape(problem));
  require_owners_exist(plan.owner, platform.size(), "candidate '" + candidate.label + "'");
  if (hetscal_kernel) return hetscal_steps_lower_bound(platform, problem.routine, plan, enough);
  // Cholesky: what simulate_steps prices with simulate_cholesky (tiles on the diagonal).
  const bool triangle = has_diagonal_tiles(plan) && plan.row_class.size() == plan.col_class.size();
  if (!triangle) return 0.0;
  // Cheapest first, and no further than `enough` needs.
  const double updates = cholesky_update_lower_bound(platform, plan);
  if (updates > enough) return updates;
  const double cheap = std::max(updates, cholesky_message_lower_bound(platform, plan));
  return cheap > enough ? cheap : std::max(cheap, cholesky_panel_chain_lower_bound(platform, plan, enough));
}

void add_step_times(const Platform& platform, const Problem& problem, Prediction& prediction) {
  // One layout for every step: GEMM's steps reach over A, B and C at once.
  const Candidate& candidate = prediction.candidate;
  const MatrixShape shape = step_layout_shape(problem);
  const bool in_place = candidate.kind == CandidateKind::CallerLayout;
  const TileOwnership plan = in_place ? caller_ownership(problem, shape) : ownership_of(candidate, shape);
  require_owners_exist(plan.owner, platform.size(), "candidate '" + candidate.label + "'");
  const double redistribution = prediction.time.redistribution;
  // LU, QR: ScaLAPACK's PDGETRF, PDGEQRF where the caller's layout is kept, hetscal's
  // kernels elsewhere.
  if (problem.routine == Routine::LU && !in_place)
    prediction.time = simulate_lu(platform, plan, candidate.panel_rank);
  else if (problem.routine == Routine::QR && !in_place)
    prediction.time = simulate_qr(platform, plan, candidate.panel_rank);
  else
    prediction.time = simulate_steps(platform, problem, plan);
  prediction.time.redistribution = redistribution;
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
  // The class tables (one entry per tile row and column) and their per-class positions
  // (SuffixClassCounts), one heap block per class.
  constexpr double kVectorBytes = 48.0;
  PredictionCost cost;
  cost.operations = steps * (cells + rows + cols + static_cast<double>(processors)) +  // simulate_steps
                    cells * (rows + cols) + caller_cells * cells +                     // elements_kept
                    2.0 * (steps + caller_steps);                                      // class tables
  // Cholesky (cholesky_steps.hpp): the trailing counts start from the K²/2 lower tiles, and
  // every step walks its panel's K − k colrows, each reaching about √P owners.
  if (problem.routine == Routine::Cholesky)
    cost.operations += steps * steps * (1.0 + std::sqrt(static_cast<double>(processors)));
  cost.peak_bytes = 4.0 * (steps + caller_steps) * sizeof(std::size_t) + (rows + cols) * kVectorBytes;
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
