// Native API: a Cholesky context takes exactly the layout the shim's PDPOTRF planner
// (runtime::choose_cholesky_layout) returns for the same machine, kinds and caller layout:
// the same candidate and the same owner for every tile. On the machine figures of
// tests/runtime/potrf_plan_test.cpp (speeds 1, 1, 2, 4; 10 µs, 1 GB/s) that is an ordered
// heterogeneous grid or the heterogeneous symmetric pattern, and hetero_pdpotrf in place on
// it is checked against the definition: residual ‖A − LLᵀ‖/(‖A‖·N·eps), the other triangle
// (NaN) and the padding bit-identical.
#include <gtest/gtest.h>

#include <algorithm>

#include "api/context_layout.hpp"
#include "api/context_registry.hpp"
#include "api_cholesky_support.hpp"
#include "api_planner_support.hpp"
#include "runtime/machine.hpp"
#include "runtime/potrf_plan.hpp"

namespace hetscal::api_test {
namespace {

using core::CholeskyLayoutKind;

// The kinds each layout kind stands for, written out (the oracle of api::cholesky_kinds).
std::vector<CholeskyLayoutKind> kinds_of(api::LayoutKind kind) {
  const std::vector<CholeskyLayoutKind> grids{CholeskyLayoutKind::BlockCyclic,
                                              CholeskyLayoutKind::HeterogeneousGrid};
  const std::vector<CholeskyLayoutKind> patterns{
      CholeskyLayoutKind::G2dbc, CholeskyLayoutKind::Gcrm, CholeskyLayoutKind::HeteroSymmetric};
  if (kind == api::LayoutKind::Cartesian) return grids;
  if (kind == api::LayoutKind::Pattern) return patterns;
  std::vector<CholeskyLayoutKind> every = grids;
  every.insert(every.end(), patterns.begin(), patterns.end());
  return every;
}

api::LayoutRequest cholesky_request(api::LayoutKind kind, int n, const core::CallerLayout& caller) {
  return {core::Routine::Cholesky, kind, n, n, n, caller};
}

// The context layout is the runtime's choice: candidate, description, owners, kind of storage.
void expect_the_runtime_choice(const api::ContextLayout& planned, const runtime::CholeskyLayout& chosen,
                               int n) {
  EXPECT_EQ(planned.description, chosen.description);
  EXPECT_EQ(planned.candidate.label, chosen.candidate.label);
  EXPECT_EQ(planned.candidate.owner, chosen.candidate.owner);
  EXPECT_EQ(planned.candidate.row_order, chosen.candidate.row_order);
  EXPECT_EQ(planned.candidate.col_order, chosen.candidate.col_order);
  EXPECT_EQ(planned.tile(), chosen.tile);
  EXPECT_EQ(planned.cartesian(), chosen.candidate.kind == core::CandidateKind::Cartesian);
  expect_same_owners(*chosen.a, *planned.distribution(n, n));
}

// Tile rows not in round-robin order over the grid rows, or columns likewise: the ordered
// grid's suffix-balanced orders, not a periodic block-cyclic map.
bool has_ordered_tiles(const layout::CartesianDistribution& d) {
  const auto periodic = [](const std::vector<int>& map, int lines) {
    for (std::size_t t = 0; t < map.size(); ++t)
      if (map[t] != static_cast<int>(t % static_cast<std::size_t>(lines))) return false;
    return true;
  };
  return !periodic(d.row_map(), d.grid().nprow()) || !periodic(d.col_map(), d.grid().npcol());
}

// On a Cartesian layout the row queries agree with the tile queries: LOCr counts the rows of
// the tile rows this process owns a tile of, and the local row of each owned tile's first row
// (read from its offset) maps back to that global row.
void expect_row_queries_match_tiles(hetscal_context_t ctx, const int* desc) {
  const int n = desc[2], tile = desc[4], tiles = (n + tile - 1) / tile;
  int rows = 0;
  for (int ti = 1; ti <= tiles; ++ti) {
    bool owned = false;
    for (int tj = 1; tj <= tiles; ++tj) {
      long long index = 0;
      int ld = 0;
      if (hetscal_local_tile(desc, ti, tj, &index, &ld) != 1) continue;
      owned = true;
      const int local_row = static_cast<int>((index - 1) % ld) + 1;
      EXPECT_EQ(hetscal_global_row(ctx, n, local_row), (ti - 1) * tile + 1) << ti << "," << tj;
    }
    if (owned) rows += std::min(tile, n - (ti - 1) * tile);
  }
  EXPECT_EQ(hetscal_local_rows(ctx, n), rows);
}

constexpr int kOrder = 800;
const std::vector<double> kSpeeds{1, 1, 2, 4};

TEST(ApiCholeskyPlanner, EveryKindIsTheRuntimeChoice) {
  const runtime::MachineFigures machine = machine_of(kSpeeds);
  const core::CallerLayout caller = one_row_grid(kSpeeds.size());
  for (const api::LayoutKind kind :
       {api::LayoutKind::Cartesian, api::LayoutKind::Pattern, api::LayoutKind::Any}) {
    const api::LayoutRequest request = cholesky_request(kind, kOrder, caller);
    const runtime::CholeskyLayout chosen =
        runtime::choose_cholesky_layout(machine.platform(), request.problem(), kinds_of(kind));
    const api::ContextLayout planned = api::plan_context_layout(request, kSpeeds, machine.platform());
    SCOPED_TRACE(chosen.description);
    expect_the_runtime_choice(planned, chosen, kOrder);
  }
}

// Where the new layouts win: the ordered grid among grids, the heterogeneous symmetric
// pattern among patterns; the context layouts are those.
TEST(ApiCholeskyPlanner, OrderedGridAndHeteroSymmetricPatternWin) {
  const runtime::MachineFigures machine = machine_of(kSpeeds);
  const core::CallerLayout caller = one_row_grid(kSpeeds.size());
  const std::pair<api::LayoutKind, CholeskyLayoutKind> winners[] = {
      {api::LayoutKind::Cartesian, CholeskyLayoutKind::HeterogeneousGrid},
      {api::LayoutKind::Pattern, CholeskyLayoutKind::HeteroSymmetric}};
  for (const auto& [kind, winner] : winners) {
    const api::LayoutRequest request = cholesky_request(kind, kOrder, caller);
    const runtime::CholeskyLayout chosen =
        runtime::choose_cholesky_layout(machine.platform(), request.problem(), kinds_of(kind));
    EXPECT_EQ(chosen.kind, winner) << chosen.description;
    const api::ContextLayout planned = api::plan_context_layout(request, kSpeeds, machine.platform());
    EXPECT_EQ(planned.candidate.owner, chosen.candidate.owner);
    if (kind == api::LayoutKind::Cartesian) {
      ASSERT_TRUE(planned.cartesian());
      EXPECT_TRUE(has_ordered_tiles(*planned.grid)) << planned.description;
    }
  }
}

// A context created through the API plans what the runtime chooses for its measured machine
// and its BLACS grid (row-major ranks, the model's default block).
TEST(ApiCholeskyPlanner, ACreatedContextHasTheRuntimeChoice) {
  BlacsGrid grid;
  for (const int layout : {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN, HETSCAL_LAYOUT_ANY}) {
    CholeskyContext c(grid, layout, 300);
    const api::Context* context = api::find_context(c.ctx);
    ASSERT_NE(context, nullptr);
    core::CallerLayout caller;
    caller.grid_rows = static_cast<std::size_t>(grid.nprow);
    caller.grid_cols = static_cast<std::size_t>(grid.npcol);
    for (int r = 0; r < world_size(); ++r) caller.processor_at.push_back(static_cast<std::size_t>(r));
    const api::LayoutRequest request = cholesky_request(context->request.kind, 300, caller);
    if (layout == HETSCAL_LAYOUT_PATTERN && world_size() == 1) {
      // Patterns need two processes: one process's pattern is the 1×1 table, at the tile of
      // the runtime's 1×1 grid.
      const runtime::CholeskyLayout grid1x1 = runtime::choose_cholesky_layout(
          context->machine().platform(), request.problem(), {CholeskyLayoutKind::BlockCyclic});
      EXPECT_FALSE(context->layout.cartesian());
      EXPECT_EQ(context->layout.tile(), grid1x1.tile);
      EXPECT_EQ(context->layout.candidate.owner, (std::vector<std::size_t>{0}));
      continue;
    }
    const runtime::CholeskyLayout chosen = runtime::choose_cholesky_layout(
        context->machine().platform(), request.problem(), kinds_of(request.kind));
    SCOPED_TRACE(chosen.description);
    expect_the_runtime_choice(context->layout, chosen, 300);
  }
}

// Speeds of potrf_plan_test's machine for this many ranks (all of them at 4 ranks).
std::vector<double> speeds_for(int ranks) {
  switch (ranks) {
    case 1: return {1};
    case 2: return {1, 4};
    case 3: return {1, 2, 4};
    default: {
      std::vector<double> speeds = kSpeeds;
      speeds.resize(static_cast<std::size_t>(ranks), 1.0);
      return speeds;
    }
  }
}

// hetero_pdpotrf in place on the layout the runtime plans for potrf_plan_test's machine (the
// context's measured one replaced by it): at 4 ranks the ordered grid and the heterogeneous
// symmetric pattern; the row queries of the grid agree with its tiles.
TEST(ApiCholeskyPlanner, InPlaceOnThePlannedGridAndPattern) {
  BlacsGrid grid;
  const int n = kOrder;
  const std::vector<double> a = spd_matrix(n);
  const std::vector<double> speeds = speeds_for(world_size());
  const runtime::MachineFigures machine = machine_of(speeds);
  for (const api::LayoutKind kind : {api::LayoutKind::Cartesian, api::LayoutKind::Pattern}) {
    CholeskyContext c(grid, kind == api::LayoutKind::Cartesian ? HETSCAL_LAYOUT_CARTESIAN
                                                               : HETSCAL_LAYOUT_PATTERN,
                      n);
    api::Context* context = api::find_context(c.ctx);
    ASSERT_NE(context, nullptr);
    context->layout = api::plan_context_layout(
        cholesky_request(kind, n, one_row_grid(speeds.size())), speeds, machine.platform());
    SCOPED_TRACE(context->layout.description);
    if (world_size() == 4) {  // exactly the winners' machine
      EXPECT_NE(context->layout.candidate.label.find(kind == api::LayoutKind::Cartesian ? "hetero"
                                                                                      : "hetero sym"),
                std::string::npos);
      if (kind == api::LayoutKind::Cartesian) {
        EXPECT_TRUE(has_ordered_tiles(*context->layout.grid));
      }
    }
    if (kind == api::LayoutKind::Cartesian) expect_row_queries_match_tiles(c.ctx, c.desc(n, n).data());
    for (const char uplo : {'L', 'U'}) expect_factored_in_place(c, a, n, uplo);
  }
}

}  // namespace
}  // namespace hetscal::api_test
