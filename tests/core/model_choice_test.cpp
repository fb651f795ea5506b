// The chooser on hand-made platforms where the right answer is obvious.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/common/error.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/planners/model_report.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {
namespace {

Platform cluster(std::vector<double> mflops, NetworkKind kind, double latency, double bandwidth,
                 double memory = 1e12) {
  Platform p;
  for (double s : mflops) p.processors.push_back({s * 1e6, memory});
  p.network = {latency, bandwidth, kind, {}};
  p.kernel.half_tile = 16.0;
  return p;
}

Prediction chosen(const Platform& platform, const Problem& problem,
                  const CandidateOptions& options = {}) {
  return choose(platform, problem, generate_candidates(platform, problem, options));
}

bool uses(const Candidate& c, std::size_t processor) {
  const auto used = c.processors();
  return std::find(used.begin(), used.end(), processor) != used.end();
}

TEST(ModelChoice, VerySlowProcessorOnABusIsDroppedForSmallN) {
  // Three 1 Gflop/s processors and one at 10 Mflop/s, 100 Mb/s shared Ethernet.
  const Platform platform = cluster({1000, 1000, 1000, 10}, NetworkKind::SharedBus, 1e-4, 12.5e6);
  for (Routine routine : {Routine::Gemm, Routine::LU}) {
    const Problem problem{routine, 1000, CallerLayout{2, 2, 64, {}}};
    const auto best = chosen(platform, problem);
    EXPECT_FALSE(uses(best.candidate, 3)) << routine_name(routine) << ": " << best.candidate.label;
  }
}

TEST(ModelChoice, HomogeneousSwitchedClusterGetsASquareGrid) {
  // 16 equal processors on a 1 Gb/s switch; the caller holds the data on a 1x16 grid. N is a
  // multiple of 16 tiles of every size, so no shape gains by rounding, and GEMM's broadcast
  // volume per step, ⌈log2 q⌉/p + ⌈log2 p⌉/q, is least on the 4x4 grid.
  const Platform platform =
      cluster(std::vector<double>(16, 1000), NetworkKind::Switched, 5e-6, 1.25e8);
  const Problem gemm{Routine::Gemm, 8192, CallerLayout{1, 16, 64, {}}};
  const auto best = chosen(platform, gemm);
  EXPECT_EQ(best.candidate.processors().size(), 16u) << best.candidate.label;
  EXPECT_EQ(best.candidate.rows, 4u) << best.candidate.label;
  EXPECT_EQ(best.candidate.cols, 4u) << best.candidate.label;
  // hetscal's LU sends point to point (lu_steps.hpp): each U(k,j) to the other ranks of its
  // grid column, each swap between two ranks of a column, so fewer grid rows send less; the
  // 2x8 grid beats 4x4, and any of them ScaLAPACK's 1x16 with its serial panels.
  const Problem lu{Routine::LU, 8192, CallerLayout{1, 16, 64, {}}};
  const auto lu_best = chosen(platform, lu);
  EXPECT_EQ(lu_best.candidate.processors().size(), 16u) << lu_best.candidate.label;
  EXPECT_EQ(lu_best.candidate.rows, 2u) << lu_best.candidate.label;
  EXPECT_EQ(lu_best.candidate.cols, 8u) << lu_best.candidate.label;
}

TEST(ModelChoice, TinyProblemsStayInTheCallersLayout) {
  // Cheap messages but little bandwidth: moving even a small matrix costs more than
  // computing it where it lies.
  const Platform platform = cluster({1000, 1000, 800, 1200}, NetworkKind::Switched, 1e-6, 1e7);
  for (Routine routine : {Routine::Gemm, Routine::QR, Routine::Cholesky}) {
    const Problem small{routine, 128, CallerLayout{2, 2, 32, {}}};
    EXPECT_EQ(chosen(platform, small).candidate.kind, CandidateKind::CallerLayout)
        << routine_name(routine) << ": " << chosen(platform, small).candidate.label;
  }
  // ScaLAPACK's LU sends a pivot row per column and one message per swapped row, as much
  // traffic as moving a tiny matrix: at N = 128 the move to a 1x2 grid of 64-tiles (its
  // panel on one rank, no swap crossing ranks) is predicted within 10%, either way.
  const Problem lu{Routine::LU, 128, CallerLayout{2, 2, 32, {}}};
  const double in_place = predict(platform, lu, caller_layout_candidate(lu)).total_s();
  EXPECT_GT(chosen(platform, lu).total_s(), 0.9 * in_place);
  // With a strongly heterogeneous platform, a large problem is worth moving.
  const Platform hetero = cluster({1000, 1000, 100, 100}, NetworkKind::Switched, 5e-5, 1e8);
  const Problem large{Routine::Gemm, 6000, CallerLayout{2, 2, 32, {}}};
  EXPECT_NE(chosen(hetero, large).candidate.kind, CandidateKind::CallerLayout);
}

TEST(ModelChoice, LatencyBoundSmallLuGathersOnTheFastestProcessor) {
  // With 50 us messages, a 128x128 LU on a 2x2 grid spends its time in the 2·nb pivot
  // collectives of each panel; moving 128 KB to the fastest processor and back is cheaper.
  const Platform platform = cluster({1000, 1000, 800, 1200}, NetworkKind::Switched, 5e-5, 1e8);
  const Problem small{Routine::LU, 128, CallerLayout{2, 2, 32, {}}};
  const auto best = chosen(platform, small);
  EXPECT_EQ(best.candidate.processors(), std::vector<std::size_t>{3}) << best.candidate.label;
}

TEST(ModelChoice, MemoryForbidsTheCopy) {
  // LU, N = 4000: 128 MB of matrix, 32 MB per processor in the caller's 2x2 layout. With
  // 40 MB each, no processor can hold a second copy: only computing in place fits.
  const double mb = 1024.0 * 1024.0;
  const Platform platform =
      cluster({1000, 1000, 1000, 100}, NetworkKind::Switched, 5e-5, 1e8, 40 * mb);
  const Problem problem{Routine::LU, 4000, CallerLayout{2, 2, 64, {}}};
  const auto predictions = predict_candidates(platform, problem, generate_candidates(platform, problem));
  for (const auto& p : predictions)
    EXPECT_EQ(p.fits_memory(), p.candidate.kind == CandidateKind::CallerLayout) << p.candidate.label;
  EXPECT_EQ(choose(predictions).candidate.kind, CandidateKind::CallerLayout);
  // And with 30 MB nothing fits.
  const Platform tiny = cluster({1000, 1000, 1000, 100}, NetworkKind::Switched, 5e-5, 1e8, 30 * mb);
  EXPECT_THROW(chosen(tiny, problem), Error);
}

TEST(ModelChoice, FastProcessorsHoldMoreData) {
  const Platform platform = nine_workstations_platform();
  const Problem problem{Routine::LU, 4000, CallerLayout{3, 3, 64, {}}};
  CandidateOptions only_hetero;
  only_hetero.families = {CandidateFamily::HeterogeneousGrid};
  only_hetero.tile_sizes = {64};
  const auto candidates = generate_candidates(platform, problem, only_hetero);
  const auto it = std::find_if(candidates.begin(), candidates.end(),
                               [](const Candidate& c) { return c.label == "hetero 3x3"; });
  ASSERT_NE(it, candidates.end());
  const auto p = predict(platform, problem, *it);
  // Processors 1, 2, 4 have cycle-time 1 (Table 3): the memory limit is reached on one of them.
  EXPECT_TRUE(p.tightest_processor == 1 || p.tightest_processor == 2 || p.tightest_processor == 4)
      << p.tightest_processor;
}

TEST(ModelChoice, PredictedTimeGrowsWithN) {
  const Platform platform = nine_workstations_platform();
  for (Routine routine : {Routine::Gemm, Routine::LU, Routine::QR, Routine::Cholesky}) {
    const Problem first{routine, 500, CallerLayout{3, 3, 64, {}}};
    const auto candidates = generate_candidates(platform, first);
    std::vector<double> previous(candidates.size(), 0.0);
    double previous_best = 0.0;
    for (std::size_t n : {500u, 1000u, 1500u, 2500u, 4000u}) {
      const Problem problem{routine, n, first.caller};
      const auto predictions = predict_candidates(platform, problem, candidates);
      for (std::size_t k = 0; k < predictions.size(); ++k) {
        EXPECT_GT(predictions[k].total_s(), previous[k])
            << routine_name(routine) << " " << candidates[k].label << " nb " << candidates[k].tile
            << " N " << n;
        previous[k] = predictions[k].total_s();
      }
      const double best = choose(predictions).total_s();
      EXPECT_GT(best, previous_best) << routine_name(routine) << " N " << n;
      previous_best = best;
    }
  }
}

TEST(ModelChoice, GeneratorCoversEveryShapeAndTile) {
  const Platform platform = nine_workstations_platform();
  const Problem problem{Routine::LU, 2000, CallerLayout{3, 3, 64, {}}};
  const auto candidates = generate_candidates(platform, problem);
  EXPECT_EQ(candidates.front().kind, CandidateKind::CallerLayout);
  // k = 1..9 have 23 shapes p×q in all; each has a heterogeneous grid in 4 tile sizes.
  const auto hetero = std::count_if(candidates.begin(), candidates.end(), [](const Candidate& c) {
    return c.label.rfind("hetero", 0) == 0;
  });
  EXPECT_EQ(hetero, 23 * 4);
  for (const auto& c : candidates) {
    if (c.kind == CandidateKind::CallerLayout) continue;
    // The fastest k processors: a subset of size k never skips a faster processor.
    const auto used = c.processors();
    const auto order = fastest_first(platform);
    EXPECT_TRUE(std::is_permutation(used.begin(), used.end(), order.begin())) << c.label;
  }
  CandidateOptions big_tiles;
  big_tiles.tile_sizes = {4096, 8192};
  for (const auto& c : generate_candidates(platform, problem, big_tiles)) {
    if (c.kind != CandidateKind::CallerLayout) {
      EXPECT_EQ(c.tile, 4096u);
    }
  }
  big_tiles.tile_sizes = {};
  EXPECT_THROW(generate_candidates(platform, problem, big_tiles), InvalidArgument);
}

TEST(ModelChoice, NineWorkstationsAreTableThree) {
  const Platform platform = nine_workstations_platform();
  ASSERT_EQ(platform.size(), 9u);
  const auto t = nine_workstations_cycle_times();
  for (std::size_t k = 0; k < 9; ++k)
    EXPECT_DOUBLE_EQ(platform.processors[k].speed_flops, 100e6 / t[k]);
  EXPECT_EQ(platform.network.kind, NetworkKind::SharedBus);
  EXPECT_DOUBLE_EQ(platform.network.bandwidth_bytes_per_s, 12.5e6);
  NineWorkstationsOptions bad;
  bad.bandwidth_bytes_per_s = 0.0;
  EXPECT_THROW(nine_workstations_platform(bad), InvalidArgument);
}

TEST(ModelChoice, ReportMarksTheChosenCandidate) {
  const Platform platform = nine_workstations_platform();
  const Problem problem{Routine::Gemm, 2000, CallerLayout{3, 3, 64, {}}};
  const auto predictions = predict_candidates(platform, problem, generate_candidates(platform, problem));
  ReportOptions options;
  options.max_rows = 3;
  const std::string text = format_predictions(problem, predictions, options);
  EXPECT_NE(text.find("GEMM N = 2000"), std::string::npos);
  EXPECT_NE(text.find("<- chosen"), std::string::npos);
  EXPECT_NE(text.find("caller layout"), std::string::npos);  // always listed
  const auto best = choose(predictions);
  EXPECT_NE(text.find(best.candidate.label), std::string::npos);
  EXPECT_NE(describe_platform(platform).find("shared bus"), std::string::npos);
}

}  // namespace
}  // namespace hetscal::core
