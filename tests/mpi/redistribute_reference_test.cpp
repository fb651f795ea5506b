// Redistribution against ScaLAPACK's PDGEMR2D (block-cyclic -> block-cyclic between two
// contexts), refused descriptors, and scalar types other than double.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>

#include "mpi/redistribute.hpp"
#include "redistribution_fixture.hpp"

extern "C" void pdgemr2d_(const int* m, const int* n, const double* a, const int* ia, const int* ja,
                          const int* desca, double* b, const int* ib, const int* jb,
                          const int* descb, const int* context);

namespace hetscal::mpi::test {
namespace {

// B's placement of an m x n block: another matrix size, block size, source and offset.
CallerCase destination_case(std::mt19937& rng, const CallerCase& a, int nprow, int npcol) {
  CallerCase b = random_case(rng, nprow, npcol);
  b.eleven_entries = false;  // PDGEMR2D takes 9-entry descriptors only
  b.imb = b.mb, b.inb = b.nb;
  b.m = a.m, b.n = a.n;
  b.ia = 1 + static_cast<std::int64_t>(rng() % 5), b.ja = 1 + static_cast<std::int64_t>(rng() % 5);
  b.ma = b.ia - 1 + b.m + static_cast<std::int64_t>(rng() % 4);
  b.na = b.ja - 1 + b.n + static_cast<std::int64_t>(rng() % 4);
  return b;
}

TEST(Redistribute, AgreesWithPdgemr2dBetweenContexts) {
  const int size = world_size();
  BlacsGrid all(1, size, GridOrder::RowMajor);
  std::mt19937 rng(5);
  const auto shapes = grid_shapes(size);
  for (const auto& [p1, q1] : shapes) {
    for (const auto& [p2, q2] : shapes) {
      BlacsGrid ga(p1, q1, GridOrder::RowMajor), gb(p2, q2, GridOrder::Permuted, 17);
      const ContextInfo& ia = context_info(ga.context());
      const ContextInfo& ib = context_info(gb.context());
      for (int k = 0; k < 4; ++k) {
        CallerCase ca = random_case(rng, p1, q1);
        ca.eleven_entries = false, ca.imb = ca.mb, ca.inb = ca.nb;
        const CallerCase cb = destination_case(rng, ca, p2, q2);
        CallerArray a(ca, ia, ga.context()), reference(cb, ib, gb.context()),
            mine(cb, ib, gb.context());
        a.fill_with_values();
        const int m = static_cast<int>(ca.m), n = static_cast<int>(ca.n);
        const int a_i = static_cast<int>(ca.ia), a_j = static_cast<int>(ca.ja);
        const int b_i = static_cast<int>(cb.ia), b_j = static_cast<int>(cb.ja),
                  context = all.context();
        pdgemr2d_(&m, &n, a.data(), &a_i, &a_j, a.descriptor().data(), reference.data(), &b_i, &b_j,
                  reference.descriptor().data(), &context);

        const CallerMatrix source =
            describe_caller_matrix(ia, ga.context(), a.argument(), CheckRules::Scalapack);
        const layout::BlockCyclicDistribution target(
            layout::Descriptor::parse(mine.descriptor().data()), {cb.ia - 1, cb.ja - 1, cb.m, cb.n},
            process_grid_in(ib, ia.comm));
        const layout::CartesianLocalLayout storage =
            layout::caller_local_layout(target, ia.my_rank);
        const RedistributionPlan plan(
            ia.comm, {{source.distribution.get(), source.storage.get(), &target, &storage}});
        redistribute<double>(plan, a.data(), mine.data());
        const bool same =
            std::memcmp(reference.data(), mine.data(), mine.local_size() * sizeof(double)) == 0;
        long long written = mine.written(), total = 0;
        MPI_Allreduce(&written, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        EXPECT_TRUE(on_all_ranks(same && total == static_cast<long long>(m) * n))
            << p1 << "x" << q1 << " -> " << p2 << "x" << q2 << " case " << k;
      }
    }
  }
}

}  // namespace
}  // namespace hetscal::mpi::test

namespace hetscal::mpi::test {
namespace {

// INFO of a refused argument, identical on every rank (0 when accepted).
int refusal(const ContextInfo& info, int context, const layout::MatrixArgument& a,
            CheckRules rules) {
  int code = 0;
  try {
    (void)describe_caller_matrix(info, context, a, rules);
  } catch (const DescriptorError& e) {
    code = e.info();
  }
  int low = 0, high = 0;
  MPI_Allreduce(&code, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&code, &high, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return low == high ? code : 1;  // 1: ranks disagreed
}

TEST(Redistribute, BadDescriptorsRefusedEverywhereBeforeDataMoves) {
  const int size = world_size(), rank = world_rank();
  BlacsGrid grid(1, size, GridOrder::Permuted, 3);
  const ContextInfo& info = context_info(grid.context());
  CallerCase c;  // every rank holds at least 2 columns
  c.ma = 10, c.na = 2 * size + 1, c.mb = c.imb = 2, c.nb = c.inb = 2, c.m = 5, c.n = 2, c.ia = 3,
  c.ja = 2;
  CallerArray a(c, info, grid.context());
  layout::MatrixArgument arg = a.argument(1, 2, 6);  // as PDGETRF: M=1, N=2, IA=4, JA=5, DESCA=6
  EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Scalapack), 0);

  std::vector<int> desc = a.descriptor();
  arg.desc = desc.data();
  desc[4] = 0;  // MB_A
  EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Scalapack), -605);
  desc = a.descriptor();
  desc[6] = 1;  // RSRC_A outside a 1-row grid
  EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Scalapack), -607);
  EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Pblas),
            -609);  // PBLAS names 11-entry fields
  desc = a.descriptor();
  if (rank == size - 1) desc[8] = 0;  // LLD_A wrong on one rank only
  EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Scalapack), -609);
  EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Pblas), -611);
  desc = a.descriptor();
  arg.m = 9;  // IA+M-1 = 11 > M_A: CHK1MAT blames M, PB_Cchkmat blames IA
  EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Scalapack), -1);
  EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Pblas), -4);
  arg.m = 5;
  desc[0] = 7;  // DTYPE
  EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Scalapack), -601);
  desc = a.descriptor();
  if (size > 1) {
    // A global argument that differs between ranks (valid everywhere): GLOBCHK's -position.
    arg.m = rank == size - 1 ? 4 : 5;
    EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Scalapack), -1);
    arg.m = 5;
    if (rank == 0) desc[3] = static_cast<int>(c.na) + 1;  // N_A on rank 0 only
    EXPECT_EQ(refusal(info, grid.context(), arg, CheckRules::Scalapack), -604);
  }
}

// Any scalar type: target = op(source) between a Cartesian grid and a pattern, and back.
template <class T>
T value_of(std::int64_t i, std::int64_t j) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    return T(static_cast<typename T::value_type>(global_value(i, j)),
             static_cast<typename T::value_type>(j - 2 * i));
  } else {
    return static_cast<T>(global_value(i, j));
  }
}

template <class T>
bool round_trip_scalar(Op op, Exchange exchange, unsigned seed) {
  const int size = world_size(), rank = world_rank();
  std::mt19937 rng(seed);
  const std::int64_t m = 17, n = 13;
  const auto source = random_target(TargetKind::Cartesian, rng, m, n, size);
  const auto target = random_target(TargetKind::Pattern, rng, n, m, size);
  const auto s = layout::make_local_layout(*source, rank),
             t = layout::make_local_layout(*target, rank);
  std::vector<T> a(static_cast<std::size_t>(s->local_elements() + 1)),
      x(static_cast<std::size_t>(t->local_elements() + 1));
  std::vector<T> back(a.size(), T(-1));
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < m; ++i) {
      if (source->owner({source->rows().tile_of(i), source->cols().tile_of(j)}) == rank) {
        a[static_cast<std::size_t>(s->element_offset(i, j))] = value_of<T>(i, j);
      }
    }
  }
  const RedistributionPlan forward(MPI_COMM_WORLD,
                                   {{source.get(), s.get(), target.get(), t.get(), op}});
  const RedistributionPlan backward(MPI_COMM_WORLD,
                                    {{target.get(), t.get(), source.get(), s.get(), op}});
  redistribute<T>(forward, a.data(), x.data(), exchange);
  redistribute<T>(backward, x.data(), back.data(), exchange);
  bool ok = std::memcmp(a.data(), back.data(), (a.size() - 1) * sizeof(T)) == 0;
  for (std::int64_t j = 0; j < m; ++j) {
    for (std::int64_t i = 0; i < n; ++i) {
      if (target->owner({target->rows().tile_of(i), target->cols().tile_of(j)}) != rank) continue;
      T expected = value_of<T>(j, i);
      if constexpr (!std::is_arithmetic_v<T>) {
        if (op == Op::ConjugateTranspose) expected = std::conj(expected);
      }
      ok = ok && x[static_cast<std::size_t>(t->element_offset(i, j))] == expected;
    }
  }
  return ok;
}

TEST(Redistribute, OtherScalarTypesAndConjugateTranspose) {
  EXPECT_TRUE(on_all_ranks(round_trip_scalar<float>(Op::Transpose, Exchange::Alltoallv, 1)));
  EXPECT_TRUE(on_all_ranks(
      round_trip_scalar<std::complex<float>>(Op::ConjugateTranspose, Exchange::PointToPoint, 2)));
  EXPECT_TRUE(on_all_ranks(
      round_trip_scalar<std::complex<double>>(Op::ConjugateTranspose, Exchange::Alltoallv, 3)));
  EXPECT_TRUE(on_all_ranks(
      round_trip_scalar<std::complex<double>>(Op::Transpose, Exchange::PointToPoint, 4)));
}

}  // namespace
}  // namespace hetscal::mpi::test
