// runtime::InPlaceGemm::surplus, what the in-place route's moves are priced on
// (route_choice.hpp): per rank, sub(C)'s elements where the caller holds them, where the
// in-place layout plans them, and those that stay. Oracles independent of the route: ScaLAPACK's
// NUMROC for what the caller holds, the whole matrix for the sums, and the route's own overflow
// (built tile by tile) for what this rank receives. Every grid of the rank count, row- and
// column-major, speeds 1, 2, 3, …, C's source process off (0, 0), edge blocks partial.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "mpi/blacs_context.hpp"
#include "mpi_test_support.hpp"
#include "runtime/in_place_gemm.hpp"
#include "scalapack_abi.hpp"

namespace hetscal::runtime {
namespace {

using mpi::test::BlacsGrid;
using mpi::test::GridOrder;

// Whether `values` is the same on every rank of `comm` (compared elementwise by MIN and MAX).
bool same_everywhere(const std::vector<double>& values, MPI_Comm comm) {
  std::vector<double> low(values.size()), high(values.size());
  const int n = static_cast<int>(values.size());
  MPI_Allreduce(values.data(), low.data(), n, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(values.data(), high.data(), n, MPI_DOUBLE, MPI_MAX, comm);
  return low == values && high == values;
}

void expect_surplus(const BlacsGrid& grid, int m, int n, int k, int nb, int rsrc, int csrc) {
  const mpi::ContextInfo& context = mpi::context_info(grid.context());
  const std::string where = std::to_string(grid.nprow()) + "x" + std::to_string(grid.npcol()) + " C " +
                            std::to_string(m) + "x" + std::to_string(n) + " nb " + std::to_string(nb);
  const int zero = 0;
  const int lld_a = std::max(1, numroc_(&m, &nb, &context.myrow, &zero, &context.nprow));
  const int lld_b = std::max(1, numroc_(&k, &nb, &context.myrow, &zero, &context.nprow));
  const int c_rows = numroc_(&m, &nb, &context.myrow, &rsrc, &context.nprow);
  const int c_cols = numroc_(&n, &nb, &context.mycol, &csrc, &context.npcol);
  const int desc_a[9] = {1, grid.context(), m, k, nb, nb, 0, 0, lld_a};
  const int desc_b[9] = {1, grid.context(), k, n, nb, nb, 0, 0, lld_b};
  const int desc_c[9] = {1, grid.context(), m, n, nb, nb, rsrc, csrc, std::max(1, c_rows)};
  GemmCall<double> call;
  call.m = m;
  call.n = n;
  call.k = k;
  call.beta = 1.0;
  call.a.desc = layout::Descriptor::parse(desc_a);
  call.b.desc = layout::Descriptor::parse(desc_b);
  call.c.desc = layout::Descriptor::parse(desc_c);  // no arrays: pricing reads only the layouts
  std::vector<double> speeds(static_cast<std::size_t>(context.num_ranks()));
  std::iota(speeds.begin(), speeds.end(), 1.0);
  const InPlaceGemm<double> in_place(context, call, speeds);
  ASSERT_TRUE(in_place.problem().empty()) << where << ": " << in_place.problem();

  const SurplusElements s = in_place.surplus();
  const auto me = static_cast<std::size_t>(context.my_rank);
  const double all = static_cast<double>(m) * n;
  EXPECT_DOUBLE_EQ(s.held[me], static_cast<double>(c_rows) * c_cols) << where;
  EXPECT_DOUBLE_EQ(std::accumulate(s.held.begin(), s.held.end(), 0.0), all) << where;
  EXPECT_DOUBLE_EQ(std::accumulate(s.planned.begin(), s.planned.end(), 0.0), all) << where;
  EXPECT_DOUBLE_EQ(s.planned[me] - s.kept[me], static_cast<double>(in_place.overflow_elements())) << where;
  for (std::size_t x = 0; x < s.kept.size(); ++x)
    EXPECT_LE(s.kept[x], std::min(s.held[x], s.planned[x])) << where << ", rank " << x;
  EXPECT_TRUE(mpi::test::on_all_ranks(same_everywhere(s.held, context.comm) &&
                                      same_everywhere(s.planned, context.comm) &&
                                      same_everywhere(s.kept, context.comm)))
      << where;
  EXPECT_EQ(in_place.k_block(), nb) << where;
}

TEST(InPlaceSurplus, ElementsHeldPlannedAndKeptOnEveryGrid) {
  for (const auto& [p, q] : mpi::test::grid_shapes(mpi::test::world_size())) {
    for (GridOrder order : {GridOrder::RowMajor, GridOrder::ColumnMajor}) {
      BlacsGrid grid(p, q, order);
      expect_surplus(grid, 203, 317, 150, 16, 0, 0);
      expect_surplus(grid, 97, 64, 40, 8, p - 1, q - 1);
    }
  }
}

TEST(InPlaceSurplus, EqualSpeedsOnOneRankMoveNothing) {
  // A single rank keeps everything; the speeds' counts leave nothing to move.
  if (mpi::test::world_size() != 1) GTEST_SKIP() << "one rank only";
  BlacsGrid grid(1, 1, GridOrder::RowMajor);
  const mpi::ContextInfo& context = mpi::context_info(grid.context());
  const int m = 50, n = 70, nb = 8;
  const int desc_a[9] = {1, grid.context(), m, 30, nb, nb, 0, 0, m};
  const int desc_b[9] = {1, grid.context(), 30, n, nb, nb, 0, 0, 30};
  const int desc_c[9] = {1, grid.context(), m, n, nb, nb, 0, 0, m};
  GemmCall<double> call;
  call.m = m;
  call.n = n;
  call.k = 30;
  call.a.desc = layout::Descriptor::parse(desc_a);
  call.b.desc = layout::Descriptor::parse(desc_b);
  call.c.desc = layout::Descriptor::parse(desc_c);
  const InPlaceGemm<double> in_place(context, call, {1.0});
  const SurplusElements s = in_place.surplus();
  EXPECT_EQ(s.kept, s.held);
  EXPECT_EQ(s.kept, s.planned);
}

}  // namespace
}  // namespace hetscal::runtime
