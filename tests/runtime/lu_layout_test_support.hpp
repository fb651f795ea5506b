#pragma once
/// @file lu_layout_test_support.hpp
/// Helpers shared by the tests of the LU and QR layouts the runtime plans (getrf_plan.hpp,
/// geqrf_plan.hpp).
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "core/planners/lu_plan.hpp"
#include "core/time_models/time_model.hpp"
#include "layout/distribution.hpp"
#include "runtime/lu_layouts_option.hpp"
#include "runtime/machine.hpp"

namespace hetscal::runtime {

/// Every kind but the caller's layout (what HETSCAL_FORCE plans with).
inline std::vector<core::LuLayoutKind> hetscal_layouts() {
  std::vector<core::LuLayoutKind> kinds = all_lu_layouts();
  kinds.erase(kinds.begin());  // CallerLayout comes first
  return kinds;
}

/// Processes of flop rates 1e9 per unit of speed on a network of this latency and bandwidth.
inline core::Platform processes(const std::vector<double>& speeds, double latency_s = 1e-6,
                                double bandwidth = 1e9) {
  MachineFigures machine;
  for (double s : speeds) machine.flops.push_back(1e9 * s);
  machine.latency_s = latency_s;
  machine.bandwidth_bytes_per_s = bandwidth;
  machine.memory_bytes = 1e12;
  return machine.platform();
}

/// An M×N LU or QR on the caller's 1×P block-cyclic grid (blocks of 64).
inline core::Problem on_caller_row(core::Routine routine, std::size_t m, std::size_t n,
                                   std::size_t ranks) {
  core::Problem problem;
  problem.routine = routine;
  problem.m = m;
  problem.n = n;
  problem.caller = {1, ranks, 64, {}};
  for (std::size_t r = 0; r < ranks; ++r) problem.caller.processor_at.push_back(r);
  return problem;
}

/// The owner of tile (i, j) read from the candidate itself: a pattern's cell (i mod R, j mod C),
/// a grid's cell from its tile orders, repeated (2DBC's are one period long).
inline std::size_t priced_owner(const core::Candidate& c, std::size_t i, std::size_t j) {
  if (c.kind == core::CandidateKind::Pattern) return c.owner[i % c.rows * c.cols + j % c.cols];
  return c.owner[c.row_order.at(i % c.row_order.size()) * c.cols +
                 c.col_order.at(j % c.col_order.size())];
}

/// Elements of the whole matrix rank `of` owns per element rank `per` owns, counted one by one.
inline double elements_ratio(const layout::Distribution& a, int of, int per) {
  std::map<int, double> elements;
  for (std::int64_t i = 0; i < a.rows().extent(); ++i)
    for (std::int64_t j = 0; j < a.cols().extent(); ++j)
      elements[a.owner({a.rows().tile_of(i), a.cols().tile_of(j)})] += 1;
  return elements[of] / elements[per];
}

}  // namespace hetscal::runtime
