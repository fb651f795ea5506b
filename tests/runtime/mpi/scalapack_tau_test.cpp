// runtime::write_scalapack_tau against ScaLAPACK itself: the same random sub(A) factored by
// ScaLAPACK's PDGEQRF (linked directly) and by LAPACK's DGEQRF on one process; LAPACK's τ
// written in ScaLAPACK's format must fill exactly the TAU entries PDGEQRF fills, on every
// process (the rest keep a sentinel), with the same values up to rounding. Every grid of the
// rank count, row- and column-major, tall, wide and square sub(A), MB != NB, offsets inside
// blocks, RSRC/CSRC != 0.
#include "runtime/scalapack_tau.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "mpi_test_support.hpp"
#include "scalapack_abi.hpp"

extern "C" void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau,
                        double* work, const int* lwork, int* info);

namespace hetscal::runtime {
namespace {

using mpi::test::BlacsGrid;
using mpi::test::GridOrder;

constexpr double kUnwritten = -7.0;  // TAU entries nobody may write keep this

// A(IA:IA+M-1, JA:JA+N-1) of an M_A×N_A matrix in MB×NB blocks from (RSRC, CSRC).
struct TauCase {
  int m_a, n_a, mb, nb, ia, ja, m, n, rsrc, csrc;

  std::string text() const {
    return "A " + std::to_string(m_a) + "x" + std::to_string(n_a) + " blocks " +
           std::to_string(mb) + "x" + std::to_string(nb) + ", sub(A) " + std::to_string(m) + "x" +
           std::to_string(n) + " at (" + std::to_string(ia) + "," + std::to_string(ja) +
           "), source (" + std::to_string(rsrc) + "," + std::to_string(csrc) + ")";
  }
};

// Element (i, j) (0-based) of the same uniform [-1, 1) matrix on every rank.
double element(int i, int j, int rows, unsigned seed) {
  std::mt19937 rng(seed + static_cast<unsigned>(j * rows + i));
  return std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
}

// This process's block-cyclic part of A (leading dimension LOCr(M_A) + 2).
std::vector<double> local_part(const TauCase& c, const mpi::ContextInfo& g, int lld, unsigned seed) {
  const int cols = numroc_(&c.n_a, &c.nb, &g.mycol, &c.csrc, &g.npcol);
  std::vector<double> part(static_cast<std::size_t>(lld) * static_cast<std::size_t>(std::max(1, cols)));
  for (int j = 0; j < c.n_a; ++j) {
    if ((j / c.nb + c.csrc) % g.npcol != g.mycol) continue;
    const int lj = j / c.nb / g.npcol * c.nb + j % c.nb;
    for (int i = 0; i < c.m_a; ++i) {
      if ((i / c.mb + c.rsrc) % g.nprow != g.myrow) continue;
      const int li = i / c.mb / g.nprow * c.mb + i % c.mb;
      part[static_cast<std::size_t>(lj) * lld + li] = element(i, j, c.m_a, seed);
    }
  }
  return part;
}

// LAPACK's τ of sub(A).
std::vector<double> lapack_tau(const TauCase& c, unsigned seed) {
  std::vector<double> sub(static_cast<std::size_t>(c.m) * static_cast<std::size_t>(c.n));
  for (int j = 0; j < c.n; ++j)
    for (int i = 0; i < c.m; ++i)
      sub[static_cast<std::size_t>(j) * c.m + i] = element(c.ia - 1 + i, c.ja - 1 + j, c.m_a, seed);
  std::vector<double> tau(static_cast<std::size_t>(std::min(c.m, c.n)));
  const int lda = std::max(1, c.m), lwork = std::max(1, c.n) * 64;
  std::vector<double> work(static_cast<std::size_t>(lwork));
  int info = 0;
  dgeqrf_(&c.m, &c.n, sub.data(), &lda, tau.data(), work.data(), &lwork, &info);
  return tau;
}

// Compares every process's whole TAU array (LOCc(N_A) + NB entries) for one case.
void expect_scalapack_tau(const BlacsGrid& grid, const TauCase& base, unsigned seed) {
  if (!grid.member()) return;
  const mpi::ContextInfo& g = mpi::context_info(grid.context());
  TauCase c = base;
  c.rsrc %= g.nprow;
  c.csrc %= g.npcol;
  const int lld = numroc_(&c.m_a, &c.mb, &g.myrow, &c.rsrc, &g.nprow) + 2;
  std::vector<double> a = local_part(c, g, lld, seed);
  const int desc[9] = {1, grid.context(), c.m_a, c.n_a, c.mb, c.nb, c.rsrc, c.csrc, lld};
  const auto tau_size = static_cast<std::size_t>(numroc_(&c.n_a, &c.nb, &g.mycol, &c.csrc, &g.npcol) + c.nb);

  std::vector<double> scalapack_tau(tau_size, kUnwritten);
  const int query = -1;
  double lwmin = 0.0;
  int info = 0;
  pdgeqrf_(&c.m, &c.n, a.data(), &c.ia, &c.ja, desc, scalapack_tau.data(), &lwmin, &query, &info);
  const int lwork = static_cast<int>(lwmin);
  std::vector<double> work(static_cast<std::size_t>(std::max(1, lwork)));
  pdgeqrf_(&c.m, &c.n, a.data(), &c.ia, &c.ja, desc, scalapack_tau.data(), work.data(), &lwork, &info);
  ASSERT_EQ(info, 0) << c.text();

  const std::vector<double> tau = lapack_tau(c, seed);
  std::vector<double> ours(tau_size, kUnwritten);
  write_scalapack_tau(g, layout::Descriptor::parse(desc), c.ja, c.m, c.n, tau.data(), ours.data());
  const std::string where = c.text() + ", grid " + std::to_string(g.nprow) + "x" +
                            std::to_string(g.npcol) + ", process (" + std::to_string(g.myrow) +
                            "," + std::to_string(g.mycol) + ")";
  for (std::size_t k = 0; k < tau_size; ++k) {
    ASSERT_EQ(ours[k] == kUnwritten, scalapack_tau[k] == kUnwritten) << where << ", TAU(" << k + 1 << ")";
    EXPECT_NEAR(ours[k], scalapack_tau[k], 1e-12) << where << ", TAU(" << k + 1 << ")";
  }
}

const std::vector<TauCase>& cases() {
  static const std::vector<TauCase> all = {
      // m_a n_a mb nb  ia ja   m   n rsrc csrc
      {24, 24, 3, 3, 1, 1, 24, 24, 0, 0},  // square, the whole matrix
      {30, 22, 2, 3, 5, 4, 21, 17, 1, 2},  // MB != NB, offsets inside blocks, M > N
      {20, 35, 4, 2, 3, 6, 12, 29, 2, 1},  // M < N: only the first M columns' τ
      {17, 17, 5, 5, 7, 2, 11, 14, 1, 1},  // a partial last block, M < N
      {9, 13, 2, 3, 1, 4, 1, 9, 0, 1},     // one row: τ = 0, still written
      {40, 6, 3, 4, 2, 3, 37, 1, 1, 0},    // one column
  };
  return all;
}

TEST(ScalapackTau, EqualPdgeqrfOnEveryGrid) {
  unsigned seed = 31;
  for (const auto& [p, q] : mpi::test::grid_shapes(mpi::test::world_size())) {
    for (GridOrder order : {GridOrder::RowMajor, GridOrder::ColumnMajor}) {
      BlacsGrid grid(p, q, order);
      for (const TauCase& c : cases()) expect_scalapack_tau(grid, c, ++seed);
    }
  }
}

TEST(ScalapackTau, EmptySubmatrixWritesNothing) {
  BlacsGrid grid(1, mpi::test::world_size(), GridOrder::RowMajor);
  const mpi::ContextInfo& g = mpi::context_info(grid.context());
  const int desc[9] = {1, grid.context(), 8, 8, 2, 2, 0, 0, 8};
  std::vector<double> tau(10, kUnwritten);
  write_scalapack_tau<double>(g, layout::Descriptor::parse(desc), 3, 0, 4, nullptr, tau.data());
  write_scalapack_tau<double>(g, layout::Descriptor::parse(desc), 3, 4, 0, nullptr, tau.data());
  EXPECT_EQ(tau, std::vector<double>(10, kUnwritten));
}

TEST(ScalapackTau, RefusesColumnsBeyondABeforeWriting) {
  BlacsGrid grid(1, mpi::test::world_size(), GridOrder::RowMajor);
  const mpi::ContextInfo& g = mpi::context_info(grid.context());
  const int desc[9] = {1, grid.context(), 8, 8, 2, 2, 0, 0, 8};
  const std::vector<double> tau = {0.5, 0.25, 0.125};
  std::vector<double> local(10, kUnwritten);
  EXPECT_THROW(write_scalapack_tau(g, layout::Descriptor::parse(desc), 7, 3, 3, tau.data(), local.data()), InvalidArgument);
  EXPECT_THROW(write_scalapack_tau(g, layout::Descriptor::parse(desc), 0, 3, 3, tau.data(), local.data()), InvalidArgument);
  EXPECT_EQ(local, std::vector<double>(10, kUnwritten));
}

}  // namespace
}  // namespace hetscal::runtime
