// Native API: hetscal_context_rebalance. Oracles independent of the rebalancing code: the
// matrix gathered through the tile queries before and after (bit-identical), the elements
// whose owner changed counted tile by tile from hetscal_tile_owner (the moved volume), the
// balance of the owned elements under the new speeds counted the same way, and LAPACK's DGETRF
// with the residual from its definition for a factorisation after the rebalance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "api/rebalanced_layout.hpp"
#include "api_lu_support.hpp"
#include "core/common/error.hpp"

namespace hetscal::api_test {
namespace {

/// Speeds P, P-1, ..., 1: the reverse of rising_speeds(), so every layout must change.
std::vector<double> falling_speeds() {
  std::vector<double> speeds = rising_speeds();
  std::reverse(speeds.begin(), speeds.end());
  return speeds;
}

/// The owner of every element (column-major) of the matrix `desc` describes.
std::vector<int> element_owners(const int* desc) {
  const int rows = desc[2], cols = desc[3], tile = desc[4];
  std::vector<int> owners;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) owners.push_back(hetscal_tile_owner(desc, i / tile + 1, j / tile + 1));
  return owners;
}

/// Elements owned by each rank.
std::vector<double> work_of(const std::vector<int>& owners) {
  std::vector<double> work(static_cast<std::size_t>(world_size()), 0.0);
  for (const int owner : owners) work[static_cast<std::size_t>(owner)] += 1.0;
  return work;
}

/// (Σ work / Σ speeds) / max(work_i / speed_i): 1 when every rank finishes together.
double balance(const std::vector<int>& owners, const std::vector<double>& speeds) {
  const std::vector<double> work = work_of(owners);
  double slowest = 0.0;
  for (std::size_t r = 0; r < work.size(); ++r) slowest = std::max(slowest, work[r] / speeds[r]);
  return std::accumulate(work.begin(), work.end(), 0.0) /
         std::accumulate(speeds.begin(), speeds.end(), 0.0) / slowest;
}

/// One matrix of a context as the caller keeps it: descriptor, local array, the whole
/// matrix it holds and the owners before the rebalance.
struct KeptMatrix {
  std::vector<int> desc;
  std::vector<double> whole, local;
  std::vector<int> owners_before;
  KeptMatrix(const FactorContext& c, int which, int m, int n)
      : desc(c.desc(m, n)), whole(random_matrix(which, m, n)), local(local_of(desc.data(), whole)),
        owners_before(element_owners(desc.data())) {}
  /// Grows the array to what the rebalance needs (the caller allocates).
  long long grow(hetscal_context_t ctx, const std::vector<double>& speeds) {
    const long long needed = hetscal_rebalanced_elements(ctx, speeds.data(), desc[2], desc[3]);
    EXPECT_GE(needed, 0);
    local.resize(std::max<std::size_t>(local.size(), static_cast<std::size_t>(needed)));
    return static_cast<long long>(local.size());
  }
  long long owners_changed() const {
    const std::vector<int> after = element_owners(desc.data());
    long long changed = 0;
    for (std::size_t e = 0; e < after.size(); ++e) changed += after[e] != owners_before[e];
    return changed;
  }
};

/// Rebalances `matrices` of context c to `speeds` and checks data, volume and balance.
hetscal_rebalance_report rebalanced(const FactorContext& c, std::vector<KeptMatrix*> matrices,
                                    const std::vector<double>& speeds) {
  std::vector<double*> arrays;
  std::vector<long long> capacities;
  std::vector<int*> descs;
  for (KeptMatrix* x : matrices) {
    capacities.push_back(x->grow(c.ctx, speeds));
    arrays.push_back(x->local.data());
    descs.push_back(x->desc.data());
  }
  hetscal_rebalance_report report{};
  EXPECT_EQ(hetscal_context_rebalance(c.ctx, speeds.data(), static_cast<int>(matrices.size()),
                                      arrays.data(), capacities.data(), descs.data(), &report),
            HETSCAL_SUCCESS);
  long long changed = 0, total = 0;
  for (KeptMatrix* x : matrices) {
    EXPECT_EQ(whole_of(x->desc.data(), x->local), x->whole);  // bit-identical
    changed += x->owners_changed();
    total += static_cast<long long>(x->whole.size());
    EXPECT_GE(balance(element_owners(x->desc.data()), speeds),
              balance(x->owners_before, speeds) - 1e-12);
  }
  EXPECT_EQ(report.moved_elements, changed);
  EXPECT_EQ(report.total_elements, total);
  EXPECT_EQ(report.moved_elements + report.kept_elements, total);
  return report;
}

/// A GEMM context on a Cartesian grid of every rank (speeds rising_speeds()).
struct GemmContext : FactorContext {
  GemmContext(const BlacsGrid& grid, int n)
      : FactorContext(grid, HETSCAL_ROUTINE_GEMM, HETSCAL_LAYOUT_CARTESIAN, n, n, n) {}
};

TEST(ApiRebalance, CartesianMovesOnlyMigratedLinesAndKeepsTheData) {
  BlacsGrid grid;
  const int planned = 12 * world_size();
  GemmContext c(grid, planned);
  KeptMatrix a(c, 1, planned, planned), b(c, 2, planned + 5, planned / 2);
  const std::vector<int> desc_before = a.desc;
  const hetscal_rebalance_report report = rebalanced(c, {&a, &b}, falling_speeds());
  EXPECT_EQ(report.kept_structure, 1);
  EXPECT_EQ(a.desc[4], desc_before[4]);  // the tile is kept
  if (world_size() == 1) {
    EXPECT_EQ(report.moved_elements, 0);
  } else {  // the layout followed the speeds, and moved less than a fresh plan would
    EXPECT_GT(report.column_migrations + report.row_migrations, 0);
    EXPECT_GT(report.moved_elements, 0);
    EXPECT_LT(report.moved_elements, report.total_elements);
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)  // the figures the report quotes; a fresh plan may take another grid
    std::printf("rebalance on %d ranks: moved %lld of %lld elements, fresh plan %lld\n",
                world_size(), report.moved_elements, report.total_elements, report.fresh_elements);
}

TEST(ApiRebalance, GemmAfterRebalanceIsCorrect) {
  BlacsGrid grid;
  const int n = 9 * world_size() + 5;
  GemmContext c(grid, n);
  KeptMatrix a(c, 6, n, n), b(c, 7, n, n), product(c, 8, n, n);
  rebalanced(c, {&a, &b, &product}, falling_speeds());
  int info = -1;
  hetero_pdgemm("N", "N", n, n, n, 1.0, a.local.data(), 1, 1, a.desc.data(), b.local.data(), 1, 1,
                b.desc.data(), 0.0, product.local.data(), 1, 1, product.desc.data(), &info);
  EXPECT_EQ(info, 0);
  const std::vector<double> expected =
      reference_gemm(false, false, n, n, n, 1.0, a.whole, n, b.whole, n, 0.0, product.whole);
  const std::vector<double> computed = whole_of(product.desc.data(), product.local);
  double error = 0.0;
  for (std::size_t e = 0; e < computed.size(); ++e)
    error = std::max(error, std::abs(computed[e] - expected[e]));
  EXPECT_LT(error, 1e-13 * n);  // entries in [-1, 1): |error| <= n·eps·n
}

TEST(ApiRebalance, PatternIsPlannedAfreshAndKeepsTheData) {
  BlacsGrid grid;
  const int planned = 12 * world_size();
  LuContext c(grid, HETSCAL_LAYOUT_PATTERN, planned, planned);
  KeptMatrix a(c, 3, planned, planned);
  const hetscal_rebalance_report report = rebalanced(c, {&a}, falling_speeds());
  EXPECT_EQ(report.kept_structure, 0);
  EXPECT_EQ(report.fresh_elements, report.moved_elements);
}

TEST(ApiRebalance, LuAfterRebalanceIsCorrect) {
  BlacsGrid grid;
  const int n = 10 * world_size() + 7;
  for (const int layout : {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN}) {
    SCOPED_TRACE(layout);
    LuContext c(grid, layout, n, n);
    KeptMatrix a(c, 4, n, n);
    rebalanced(c, {&a}, falling_speeds());
    std::vector<int> ipiv(static_cast<std::size_t>(n), 0);
    int info = -1;
    EXPECT_EQ(hetero_pdgetrf(n, n, a.local.data(), 1, 1, a.desc.data(), ipiv.data(), &info),
              HETSCAL_SUCCESS);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(ipiv, LapackLu(a.whole, n, n).pivots);
    EXPECT_LT(lu_residual(a.whole, whole_of(a.desc.data(), a.local), ipiv, n, n), 10.0);
  }
}

TEST(ApiRebalance, BadArgumentsLeaveEverythingUntouched) {
  BlacsGrid grid;
  const int planned = 12 * world_size();
  LuContext c(grid, HETSCAL_LAYOUT_CARTESIAN, planned, planned);
  LuContext other(grid, HETSCAL_LAYOUT_CARTESIAN, planned, planned);
  KeptMatrix a(c, 5, planned, planned);
  const std::vector<double> speeds = falling_speeds();
  const long long room = a.grow(c.ctx, speeds);
  const std::vector<double> local_before = a.local;
  const std::vector<int> desc_before = a.desc;
  double* arrays[] = {a.local.data()};
  int* descs[] = {a.desc.data()};
  long long capacities[] = {room};
  hetscal_rebalance_report report{};
  const auto call = [&](hetscal_context_t ctx, const double* s, int count) {
    return hetscal_context_rebalance(ctx, s, count, arrays, capacities, descs, &report);
  };
  EXPECT_EQ(call(HETSCAL_CONTEXT_NULL, speeds.data(), 1), HETSCAL_ERR_CONTEXT);
  EXPECT_EQ(call(c.ctx, speeds.data(), -1), HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(hetscal_context_rebalance(c.ctx, speeds.data(), 1, arrays, capacities, descs, nullptr),
            HETSCAL_ERR_ARGUMENT);
  std::vector<double> zero = speeds;
  zero.back() = 0.0;
  EXPECT_EQ(call(c.ctx, zero.data(), 1), HETSCAL_ERR_SPEEDS);
  // No call on this grid was intercepted, so nothing was learnt: NULL speeds are refused.
  EXPECT_EQ(call(c.ctx, nullptr, 1), HETSCAL_ERR_SPEEDS);
  // One element short wherever the new layout puts data (ranks left out hold none).
  const long long needed = hetscal_rebalanced_elements(c.ctx, speeds.data(), planned, planned);
  capacities[0] = needed > 0 ? needed - 1 : room;
  EXPECT_EQ(call(c.ctx, speeds.data(), 1), HETSCAL_ERR_ARGUMENT);
  capacities[0] = room;
  std::vector<int> foreign = other.desc(planned, planned);
  descs[0] = foreign.data();
  EXPECT_EQ(call(c.ctx, speeds.data(), 1), HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(a.local, local_before);
  EXPECT_EQ(a.desc, desc_before);
  EXPECT_EQ(hetscal_rebalanced_elements(HETSCAL_CONTEXT_NULL, speeds.data(), 1, 1), -1);
  EXPECT_EQ(hetscal_rebalanced_elements(c.ctx, speeds.data(), -1, 1), -1);
}

}  // namespace
}  // namespace hetscal::api_test

namespace hetscal::api_test {
namespace {

// migrated_map against the lower bound counted independently: a panel line must change grid
// line for every line a grid line holds above its new count, and no other may.
TEST(ApiRebalance, MigratedMapMovesTheFewestPanelLines) {
  const std::vector<int> map{0, 1, 0, 2, 1, 0, 0, 2, 1, 0};
  for (const std::vector<std::int64_t>& counts :
       {std::vector<std::int64_t>{5, 3, 2}, {2, 3, 5}, {1, 1, 8}, {4, 4, 2}}) {
    std::size_t migrations = 99;
    const std::vector<int> moved = api::migrated_map(map, counts, migrations);
    std::vector<std::int64_t> held(counts.size(), 0), before(counts.size(), 0);
    std::size_t changed = 0;
    for (std::size_t p = 0; p < map.size(); ++p) {
      ++held[static_cast<std::size_t>(moved[p])];
      ++before[static_cast<std::size_t>(map[p])];
      changed += moved[p] != map[p];
    }
    std::size_t surplus = 0;
    for (std::size_t g = 0; g < counts.size(); ++g)
      surplus += static_cast<std::size_t>(std::max<std::int64_t>(0, before[g] - counts[g]));
    EXPECT_EQ(held, counts);
    EXPECT_EQ(changed, surplus);
    EXPECT_EQ(migrations, surplus);
  }
  std::size_t migrations = 0;
  EXPECT_THROW(api::migrated_map(map, {5, 5, 5}, migrations), InvalidArgument);
  EXPECT_THROW(api::migrated_map({0, 3}, {1, 1}, migrations), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::api_test
