// Round trips caller block-cyclic -> any distribution -> caller block-cyclic: bit-exact, for
// every grid shape and rank order of the rank count, odd sizes, padded LLD, RSRC/CSRC != 0,
// IA/JA off block boundaries, both descriptor types, transposes; elements outside sub(A)
// untouched.
#include "mpi/redistribute.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "redistribution_fixture.hpp"

namespace hetscal::mpi::test {
namespace {

std::string describe(const CallerCase& c, TargetKind kind, Op op, int p, int q, GridOrder order) {
  std::ostringstream s;
  s << p << "x" << q << " " << name(order) << ": A " << c.ma << "x" << c.na << " mb " << c.mb << "/"
    << c.imb << " nb " << c.nb << "/" << c.inb << " src " << c.rsrc << "," << c.csrc << " sub("
    << c.ia << "," << c.ja << ") " << c.m << "x" << c.n << " pad " << c.lld_padding
    << (c.eleven_entries ? " desc11" : " desc9") << " -> " << name(kind)
    << (op == Op::None ? "" : " transposed");
  return s.str();
}

std::int64_t owned_elements(const layout::LocalLayout& storage) {
  std::int64_t total = 0;
  for (const layout::GlobalTile& t : storage.owned_tiles())
    total += storage.rows().size(t.row) * storage.cols().size(t.col);
  return total;
}

// Target element (x_i, x_j) holds op(sub(A))(x_i, x_j).
bool target_holds_values(const layout::LocalLayout& storage, const std::vector<double>& buffer,
                         const CallerCase& c, Op op) {
  bool ok = true;
  for (const layout::GlobalTile& t : storage.owned_tiles()) {
    const layout::TileLocation where = storage.tile_location(t);
    for (std::int64_t cc = 0; cc < storage.cols().size(t.col); ++cc) {
      for (std::int64_t rr = 0; rr < storage.rows().size(t.row); ++rr) {
        const std::int64_t xi = storage.rows().offset(t.row) + rr,
                           xj = storage.cols().offset(t.col) + cc;
        const std::int64_t ai = op == Op::None ? xi : xj, aj = op == Op::None ? xj : xi;
        ok = ok && buffer[static_cast<std::size_t>(where.offset + rr + cc * where.ld)] ==
                       global_value(c.ia - 1 + ai, c.ja - 1 + aj);
      }
    }
  }
  return ok;
}

// A -> X -> B with fresh B; checks X, B, and the plans' volume bookkeeping. Messages of at
// most `message_bytes` (0: the plans' default).
bool round_trip(const ContextInfo& info, int context, const CallerCase& c, TargetKind kind, Op op,
                Exchange exchange, std::mt19937& rng, std::size_t message_bytes = 0) {
  CallerArray a(c, info, context), b(c, info, context);
  a.fill_with_values();
  const CallerMatrix source =
      describe_caller_matrix(info, context, a.argument(), CheckRules::Pblas);
  const CallerMatrix back = describe_caller_matrix(info, context, b.argument(), CheckRules::Pblas);
  const bool t = op != Op::None;
  const auto target = random_target(kind, rng, t ? c.n : c.m, t ? c.m : c.n, info.num_ranks());
  const auto storage = layout::make_local_layout(*target, info.my_rank);
  std::vector<double> x(
      static_cast<std::size_t>(std::max<std::int64_t>(1, storage->local_elements())), kSentinel);

  RedistributionPlan forward(info.comm, {{source.distribution.get(), source.storage.get(),
                                          target.get(), storage.get(), op}});
  RedistributionPlan backward(
      info.comm, {{target.get(), storage.get(), back.distribution.get(), back.storage.get(), op}});
  if (message_bytes > 0) {
    forward.set_message_bytes(message_bytes);
    backward.set_message_bytes(message_bytes);
  }
  redistribute<double>(forward, a.data(), x.data(), exchange);
  redistribute<double>(backward, x.data(), b.data(), exchange);

  const bool volumes =
      forward.total_send() + forward.total_local() == owned_elements(*source.storage) &&
      forward.total_receive() + forward.total_local() == owned_elements(*storage);
  return volumes && target_holds_values(*storage, x, c, op) &&
         b.holds(CallerArray::Outside::Sentinel) && a.holds(CallerArray::Outside::Values);
}

TEST(Redistribute, RoundTripsEveryGridShapeAndOrder) {
  const int size = world_size();
  std::mt19937 rng(2026);
  const int cases_per_grid = size >= 6 ? 12 : 24;
  for (const auto& [p, q] : grid_shapes(size)) {
    for (GridOrder order : {GridOrder::RowMajor, GridOrder::ColumnMajor, GridOrder::Permuted}) {
      BlacsGrid grid(p, q, order, static_cast<unsigned>(p * 31 + q));
      const ContextInfo& info = context_info(grid.context());
      for (int k = 0; k < cases_per_grid; ++k) {
        const CallerCase c = random_case(rng, p, q);
        const auto kind = static_cast<TargetKind>(k % 3);
        const Op op = (k / 3) % 2 == 0 ? Op::None : Op::Transpose;
        const Exchange exchange = k % 4 == 3 ? Exchange::Alltoallv : Exchange::PointToPoint;
        const bool ok = round_trip(info, grid.context(), c, kind, op, exchange, rng);
        EXPECT_TRUE(on_all_ranks(ok)) << describe(c, kind, op, p, q, order);
      }
    }
  }
}

// Traffic cut into many messages: of one element (so every column travels alone, taller than
// a message), and of sizes that end messages part-way into runs of columns.
TEST(Redistribute, RoundTripsInSmallMessages) {
  const int size = world_size();
  std::mt19937 rng(4711);
  for (const auto& [p, q] : grid_shapes(size)) {
    BlacsGrid grid(p, q, GridOrder::Permuted, static_cast<unsigned>(p * 7 + q));
    const ContextInfo& info = context_info(grid.context());
    for (int k = 0; k < 12; ++k) {
      const CallerCase c = random_case(rng, p, q);
      const auto kind = static_cast<TargetKind>(k % 3);
      const Op op = (k / 3) % 2 == 0 ? Op::None : Op::Transpose;
      const std::size_t bytes = sizeof(double) * std::size_t{k % 2 == 0 ? 1u : 1u + rng() % 40};
      const bool ok =
          round_trip(info, grid.context(), c, kind, op, Exchange::PointToPoint, rng, bytes);
      EXPECT_TRUE(on_all_ranks(ok)) << describe(c, kind, op, p, q, GridOrder::Permuted)
                                    << " messages of " << bytes << " bytes";
    }
  }
}

TEST(Redistribute, RefusesEmptyMessages) {
  BlacsGrid grid(1, world_size(), GridOrder::RowMajor);
  RedistributionPlan plan(context_info(grid.context()).comm, {});
  EXPECT_THROW(plan.set_message_bytes(0), InvalidArgument);
}

TEST(Redistribute, WholeSingleElementAndEmptySubmatrix) {
  const int size = world_size();
  std::mt19937 rng(7);
  BlacsGrid grid(1, size, GridOrder::Permuted, 5);
  const ContextInfo& info = context_info(grid.context());
  CallerCase whole;
  whole.ma = 23, whole.na = 19, whole.mb = whole.imb = 4, whole.nb = whole.inb = 3;
  whole.m = 23, whole.n = 19;
  whole.csrc = size - 1;
  CallerCase single = whole;
  single.ia = 7, single.ja = 11, single.m = 1, single.n = 1;
  CallerCase empty = single;  // sub(A) with no column: nothing moves, nothing is written
  empty.n = 0;
  for (const CallerCase& c : {whole, single, empty}) {
    for (TargetKind kind : {TargetKind::BlockCyclic, TargetKind::Cartesian, TargetKind::Pattern}) {
      EXPECT_TRUE(on_all_ranks(
          round_trip(info, grid.context(), c, kind, Op::Transpose, Exchange::PointToPoint, rng)))
          << describe(c, kind, Op::Transpose, 1, size, GridOrder::Permuted);
    }
  }
}

TEST(Redistribute, SeveralMatricesInOneRoundAndPlanReuse) {
  const int size = world_size();
  const auto shapes = grid_shapes(size);
  const auto [p, q] = shapes[shapes.size() / 2];
  BlacsGrid grid(p, q, GridOrder::ColumnMajor);
  const ContextInfo& info = context_info(grid.context());
  std::mt19937 rng(99);
  const CallerCase ca = random_case(rng, p, q), cb = random_case(rng, p, q),
                   cc = random_case(rng, p, q);
  CallerArray a(ca, info, grid.context()), b(cb, info, grid.context()), c(cc, info, grid.context());
  a.fill_with_values(), b.fill_with_values(), c.fill_with_values();
  const CallerMatrix ma =
      describe_caller_matrix(info, grid.context(), a.argument(), CheckRules::Scalapack);
  const CallerMatrix mb =
      describe_caller_matrix(info, grid.context(), b.argument(), CheckRules::Pblas);
  const CallerMatrix mc =
      describe_caller_matrix(info, grid.context(), c.argument(), CheckRules::Pblas);
  const auto ta = random_target(TargetKind::Cartesian, rng, ca.m, ca.n, size);
  const auto tb = random_target(TargetKind::Pattern, rng, cb.n, cb.m, size);  // B transposed
  const auto tc = random_target(TargetKind::BlockCyclic, rng, cc.m, cc.n, size);
  const auto sa = layout::make_local_layout(*ta, info.my_rank),
             sb = layout::make_local_layout(*tb, info.my_rank),
             sc = layout::make_local_layout(*tc, info.my_rank);
  RedistributionPlan plan(
      info.comm, {{ma.distribution.get(), ma.storage.get(), ta.get(), sa.get(), Op::None},
                  {mb.distribution.get(), mb.storage.get(), tb.get(), sb.get(), Op::Transpose},
                  {mc.distribution.get(), mc.storage.get(), tc.get(), sc.get(), Op::None}});
  // Messages that span matrices and end inside them (the second point-to-point round).
  const std::size_t small_messages = sizeof(double) * 29;
  for (Exchange exchange : {Exchange::PointToPoint, Exchange::PointToPoint, Exchange::Alltoallv}) {
    for (int repeat = 0; repeat < 2; ++repeat) {  // one plan, executed again on fresh arrays
      const auto fresh = [](const layout::LocalLayout& s) {
        return std::vector<double>(
            static_cast<std::size_t>(std::max<std::int64_t>(1, s.local_elements())), kSentinel);
      };
      std::vector<double> xa = fresh(*sa), xb = fresh(*sb), xc = fresh(*sc);
      redistribute<double>(plan, {a.data(), b.data(), c.data()}, {xa.data(), xb.data(), xc.data()},
                           exchange);
      const bool ok = target_holds_values(*sa, xa, ca, Op::None) &&
                      target_holds_values(*sb, xb, cb, Op::Transpose) &&
                      target_holds_values(*sc, xc, cc, Op::None);
      EXPECT_TRUE(on_all_ranks(ok)) << "exchange " << static_cast<int>(exchange) << " repeat "
                                    << repeat << " messages of " << plan.message_bytes();
    }
    plan.set_message_bytes(small_messages);
  }
}

}  // namespace
}  // namespace hetscal::mpi::test
