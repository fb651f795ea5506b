// Native API: an LU (QR) context takes exactly the layout the shim's PDGETRF (PDGEQRF) planner
// (runtime::choose_lu_layout, runtime::choose_qr_layout) returns for the same machine, kinds
// and caller layout: the same candidate, the same owner for every tile of the M×N matrix,
// and the same panel rank.
#include <gtest/gtest.h>

#include "api/context_layout.hpp"
#include "api_planner_support.hpp"
#include "runtime/geqrf_plan.hpp"
#include "runtime/getrf_plan.hpp"

namespace hetscal::api_test {
namespace {

using core::LuLayoutKind;

// The kinds each layout kind stands for, written out (the oracle of api::lu_kinds).
std::vector<LuLayoutKind> kinds_of(api::LayoutKind kind) {
  switch (kind) {
    case api::LayoutKind::Cartesian: return {LuLayoutKind::BlockCyclic, LuLayoutKind::HeterogeneousGrid};
    case api::LayoutKind::Pattern: return {LuLayoutKind::G2dbc, LuLayoutKind::HeteroPattern};
    case api::LayoutKind::Any: break;
  }
  return {LuLayoutKind::BlockCyclic, LuLayoutKind::HeterogeneousGrid, LuLayoutKind::G2dbc,
          LuLayoutKind::HeteroPattern};
}

void expect_every_kind_is_the_runtime_choice(core::Routine routine, decltype(&runtime::choose_lu_layout) choose) {
  constexpr int m = 900, n = 600;
  for (const std::vector<double>& speeds : {std::vector<double>{1}, {1, 3}, {1, 1, 2, 4}}) {
    const core::Platform platform = machine_of(speeds).platform();
    for (const api::LayoutKind kind : {api::LayoutKind::Cartesian, api::LayoutKind::Pattern, api::LayoutKind::Any}) {
      const api::LayoutRequest request{routine, kind, m, n, n, one_row_grid(speeds.size())};
      EXPECT_EQ(api::lu_kinds(kind), kinds_of(kind));
      const api::ContextLayout planned = api::plan_context_layout(request, speeds, platform);
      EXPECT_EQ(planned.num_ranks, static_cast<int>(speeds.size()));
      if (kind == api::LayoutKind::Pattern && speeds.size() == 1) {  // the 1×1 pattern
        EXPECT_FALSE(planned.cartesian());
        EXPECT_EQ(planned.candidate.owner, std::vector<std::size_t>{0});
        continue;
      }
      const runtime::LuLayout chosen = choose(platform, request.problem(), kinds_of(kind), {});
      SCOPED_TRACE(chosen.description);
      EXPECT_EQ(planned.description, chosen.description);
      EXPECT_EQ(planned.candidate.owner, chosen.candidate.owner);
      EXPECT_EQ(planned.candidate.panel_rank, chosen.candidate.panel_rank);
      EXPECT_EQ(planned.lu_options.panel_rank, chosen.options.panel_rank);
      EXPECT_EQ(planned.lu_options.rank_speeds, chosen.options.rank_speeds);
      EXPECT_EQ(planned.tile(), chosen.tile);
      EXPECT_EQ(planned.cartesian(), chosen.candidate.kind == core::CandidateKind::Cartesian);
      expect_same_owners(*chosen.a, *planned.distribution(m, n));
    }
  }
}

TEST(ApiLuPlanner, EveryKindIsTheRuntimeChoice) {
  expect_every_kind_is_the_runtime_choice(core::Routine::LU, runtime::choose_lu_layout);
}

TEST(ApiQrPlanner, EveryKindIsTheRuntimeQrChoice) {
  expect_every_kind_is_the_runtime_choice(core::Routine::QR, runtime::choose_qr_layout);
}

}  // namespace
}  // namespace hetscal::api_test
