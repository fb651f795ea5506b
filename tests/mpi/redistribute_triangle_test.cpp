// Moves of one triangle (mpi::Part::Lower / Upper), as a Cholesky factor is moved in and
// back: only the triangle's elements arrive, the other triangle, the rest of A and the
// padding stay as they were, for every grid shape and rank order, every target kind, odd
// sizes, IA/JA off block boundaries and both descriptor types.
#include <gtest/gtest.h>

#include <sstream>

#include "mpi/redistribute.hpp"
#include "redistribution_fixture.hpp"

namespace hetscal::mpi::test {
namespace {

bool in_triangle(Part part, std::int64_t i, std::int64_t j) {
  return part == Part::Lower ? i >= j : i <= j;
}

// Target element (i, j) holds sub(A)(i, j) inside the triangle and the sentinel outside.
bool target_holds_triangle(const layout::LocalLayout& storage, const std::vector<double>& x,
                           const CallerCase& c, Part part) {
  bool ok = true;
  for (const layout::GlobalTile& t : storage.owned_tiles()) {
    const layout::TileLocation where = storage.tile_location(t);
    for (std::int64_t cc = 0; cc < storage.cols().size(t.col); ++cc) {
      for (std::int64_t rr = 0; rr < storage.rows().size(t.row); ++rr) {
        const std::int64_t i = storage.rows().offset(t.row) + rr,
                           j = storage.cols().offset(t.col) + cc;
        const double expected =
            in_triangle(part, i, j) ? global_value(c.ia - 1 + i, c.ja - 1 + j) : kSentinel;
        ok = ok && x[static_cast<std::size_t>(where.offset + rr + cc * where.ld)] == expected;
      }
    }
  }
  return ok;
}

// A's triangle -> X (sentinels) -> B (sentinels): X and B hold the triangle and nothing else.
// Messages of at most `message_bytes` (0: the plans' default).
bool triangle_round_trip(const ContextInfo& info, int context, const CallerCase& c, TargetKind kind,
                         Part part, std::mt19937& rng, std::size_t message_bytes = 0) {
  CallerArray a(c, info, context), b(c, info, context);
  a.fill_with_values();
  const CallerMatrix source =
      describe_caller_matrix(info, context, a.argument(), CheckRules::Pblas);
  const CallerMatrix back = describe_caller_matrix(info, context, b.argument(), CheckRules::Pblas);
  const auto target = random_target(kind, rng, c.m, c.n, info.num_ranks());
  const auto storage = layout::make_local_layout(*target, info.my_rank);
  std::vector<double> x(
      static_cast<std::size_t>(std::max<std::int64_t>(1, storage->local_elements())), kSentinel);
  RedistributionPlan in(info.comm, {{source.distribution.get(), source.storage.get(), target.get(),
                                     storage.get(), Op::None, part}});
  RedistributionPlan out(info.comm, {{target.get(), storage.get(), back.distribution.get(),
                                      back.storage.get(), Op::None, part}});
  if (message_bytes > 0) {
    in.set_message_bytes(message_bytes);
    out.set_message_bytes(message_bytes);
  }
  redistribute<double>(in, a.data(), x.data());
  redistribute<double>(out, x.data(), b.data());
  return target_holds_triangle(*storage, x, c, part) &&
         b.holds_only([part](std::int64_t i, std::int64_t j) { return in_triangle(part, i, j); });
}

TEST(RedistributeTriangle, OnlyTheTriangleMovesOnEveryGridShapeAndOrder) {
  const int size = world_size();
  std::mt19937 rng(1931);
  const int cases_per_grid = size >= 6 ? 8 : 16;
  for (const auto& [p, q] : grid_shapes(size)) {
    for (GridOrder order : {GridOrder::RowMajor, GridOrder::Permuted}) {
      BlacsGrid grid(p, q, order, static_cast<unsigned>(p * 17 + q));
      const ContextInfo& info = context_info(grid.context());
      for (int k = 0; k < cases_per_grid; ++k) {
        CallerCase c = random_case(rng, p, q);
        c.m = c.n = std::min(c.m, c.n);  // a triangle of a square sub(A)
        const auto kind = static_cast<TargetKind>(k % 3);
        const Part part = (k / 3) % 2 == 0 ? Part::Lower : Part::Upper;
        // Every other case in messages of a few elements: cuts inside the diagonal's columns.
        const std::size_t bytes = k % 2 == 0 ? 0 : sizeof(double) * (1 + k % 5);
        EXPECT_TRUE(
            on_all_ranks(triangle_round_trip(info, grid.context(), c, kind, part, rng, bytes)))
            << "messages of " << bytes << " bytes: " << p << "x" << q << " " << name(order)
            << " sub(" << c.ia << "," << c.ja << ") " << c.m << "x" << c.n << " mb " << c.mb
            << " nb " << c.nb << " -> " << name(kind)
            << (part == Part::Lower ? " lower" : " upper");
      }
    }
  }
}

TEST(RedistributeTriangle, RefusesATransposedOrRectangularTriangle) {
  const int size = world_size();
  BlacsGrid grid(1, size, GridOrder::RowMajor);
  const ContextInfo& info = context_info(grid.context());
  std::mt19937 rng(3);
  CallerCase c;
  c.ma = c.m = 9, c.na = c.n = 7, c.mb = c.imb = 2, c.nb = c.inb = 3;
  CallerArray a(c, info, grid.context());
  const CallerMatrix source =
      describe_caller_matrix(info, grid.context(), a.argument(), CheckRules::Pblas);
  const auto rectangle = random_target(TargetKind::Cartesian, rng, 9, 7, size);
  const auto transposed = random_target(TargetKind::Cartesian, rng, 7, 9, size);
  const auto rs = layout::make_local_layout(*rectangle, info.my_rank);
  const auto ts = layout::make_local_layout(*transposed, info.my_rank);
  EXPECT_THROW(RedistributionPlan(info.comm, {{source.distribution.get(), source.storage.get(),
                                               rectangle.get(), rs.get(), Op::None, Part::Lower}}),
               InvalidArgument);
  EXPECT_THROW(
      RedistributionPlan(info.comm, {{source.distribution.get(), source.storage.get(),
                                      transposed.get(), ts.get(), Op::Transpose, Part::Upper}}),
      InvalidArgument);
}

}  // namespace
}  // namespace hetscal::mpi::test
