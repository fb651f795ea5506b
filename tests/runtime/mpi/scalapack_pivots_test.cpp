// runtime::write_scalapack_pivots against ScaLAPACK itself: the same random sub(A) factored
// by ScaLAPACK's PDGETRF (linked directly) and by LAPACK's DGETRF on one process; LAPACK's
// pivots written in ScaLAPACK's format must give every process's whole IPIV array, spare
// entries and untouched entries included, exactly as PDGETRF leaves it. Every grid of the
// rank count, row- and column-major, square and rectangular sub(A), offsets on block
// boundaries, RSRC/CSRC != 0, LLD padded.
#include "runtime/scalapack_pivots.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "mpi_test_support.hpp"
#include "scalapack_abi.hpp"

extern "C" void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);

namespace hetscal::runtime {
namespace {

using mpi::test::BlacsGrid;
using mpi::test::GridOrder;

constexpr int kUnwritten = -7;  // IPIV entries nobody may write keep this

// A(IA:IA+M-1, JA:JA+N-1) of an M_A×N_A matrix in NB×NB blocks from (RSRC, CSRC).
struct PivotCase {
  int m_a, n_a, nb, ia, ja, m, n, rsrc, csrc;

  std::string text() const {
    return "A " + std::to_string(m_a) + "x" + std::to_string(n_a) + " NB " + std::to_string(nb) +
           ", sub(A) " + std::to_string(m) + "x" + std::to_string(n) + " at (" +
           std::to_string(ia) + "," + std::to_string(ja) + "), source (" + std::to_string(rsrc) +
           "," + std::to_string(csrc) + ")";
  }
};

// The same uniform [-1, 1) M_A×N_A matrix on every rank, column-major.
std::vector<double> random_matrix(int rows, int cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> a(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  for (double& x : a) x = value(rng);
  return a;
}

// One process's block-cyclic part of the global matrix, leading dimension `lld`.
struct LocalPart {
  std::vector<double> data;
  int lld = 1;
};

LocalPart local_part(const std::vector<double>& global, const PivotCase& c, int nprow, int npcol,
                     int myrow, int mycol, int padding) {
  const int rows = numroc_(&c.m_a, &c.nb, &myrow, &c.rsrc, &nprow);
  const int cols = numroc_(&c.n_a, &c.nb, &mycol, &c.csrc, &npcol);
  LocalPart part;
  part.lld = std::max(1, rows) + padding;
  part.data.assign(static_cast<std::size_t>(part.lld) * static_cast<std::size_t>(std::max(1, cols)), 0.0);
  for (int j = 0; j < c.n_a; ++j) {
    if ((j / c.nb + c.csrc) % npcol != mycol) continue;
    const int lj = j / c.nb / npcol * c.nb + j % c.nb;
    for (int i = 0; i < c.m_a; ++i) {
      if ((i / c.nb + c.rsrc) % nprow != myrow) continue;
      const int li = i / c.nb / nprow * c.nb + i % c.nb;
      part.data[static_cast<std::size_t>(lj) * part.lld + li] =
          global[static_cast<std::size_t>(j) * c.m_a + i];
    }
  }
  return part;
}

// LAPACK's pivots of sub(A), 0-based within sub(A) (kernels::lu's convention).
std::vector<std::int64_t> lapack_pivots(const std::vector<double>& global, const PivotCase& c) {
  std::vector<double> sub(static_cast<std::size_t>(c.m) * static_cast<std::size_t>(c.n));
  for (int j = 0; j < c.n; ++j) {
    for (int i = 0; i < c.m; ++i) {
      sub[static_cast<std::size_t>(j) * c.m + i] =
          global[static_cast<std::size_t>(c.ja - 1 + j) * c.m_a + (c.ia - 1 + i)];
    }
  }
  std::vector<int> ipiv(static_cast<std::size_t>(std::max(1, std::min(c.m, c.n))));
  int info = 0;
  const int lda = std::max(1, c.m);
  dgetrf_(&c.m, &c.n, sub.data(), &lda, ipiv.data(), &info);
  std::vector<std::int64_t> pivots(static_cast<std::size_t>(std::min(c.m, c.n)));
  for (std::size_t k = 0; k < pivots.size(); ++k) pivots[k] = ipiv[k] - 1;
  return pivots;
}

// Compares both IPIV arrays of every process of one grid for one case.
void expect_scalapack_ipiv(const BlacsGrid& grid, const PivotCase& base, unsigned seed) {
  if (!grid.member()) return;
  const mpi::ContextInfo& info = mpi::context_info(grid.context());
  PivotCase c = base;
  c.rsrc %= info.nprow;
  c.csrc %= info.npcol;
  const std::vector<double> global = random_matrix(c.m_a, c.n_a, seed);
  LocalPart part = local_part(global, c, info.nprow, info.npcol, info.myrow, info.mycol, 3);
  const int desc[9] = {1, grid.context(), c.m_a, c.n_a, c.nb, c.nb, c.rsrc, c.csrc, part.lld};
  const int local_rows = numroc_(&c.m_a, &c.nb, &info.myrow, &c.rsrc, &info.nprow);
  const auto ipiv_size = static_cast<std::size_t>(local_rows + c.nb);

  std::vector<int> scalapack_ipiv(ipiv_size, kUnwritten);
  int scalapack_info = 0;
  pdgetrf_(&c.m, &c.n, part.data.data(), &c.ia, &c.ja, desc, scalapack_ipiv.data(), &scalapack_info);
  ASSERT_EQ(scalapack_info, 0) << c.text();

  const std::vector<std::int64_t> pivots = lapack_pivots(global, c);
  std::vector<int> ours(ipiv_size, kUnwritten);
  write_scalapack_pivots(info, layout::Descriptor::parse(desc), c.ia, c.ja, c.m, c.n, pivots.data(), ours.data());
  EXPECT_EQ(ours, scalapack_ipiv) << c.text() << ", grid " << info.nprow << "x" << info.npcol
                                  << ", process (" << info.myrow << "," << info.mycol << ")";
}

const std::vector<PivotCase>& cases() {
  static const std::vector<PivotCase> all = {
      // m_a n_a nb  ia ja   m   n rsrc csrc
      {24, 24, 3, 1, 1, 24, 24, 0, 0},   // square, the whole matrix
      {30, 22, 2, 5, 3, 21, 17, 1, 2},   // offsets, sources != 0, M > N
      {20, 35, 4, 9, 5, 12, 29, 2, 1},   // M < N: pivots of the first M columns only
      {40, 16, 3, 4, 7, 37, 10, 1, 0},   // tall, N a few blocks, the spare entries used
      {17, 17, 5, 6, 6, 12, 12, 1, 1},   // a partial last block
      {13, 9, 2, 11, 1, 3, 9, 0, 1},     // three rows: one process row holds all of them
  };
  return all;
}

TEST(ScalapackPivots, EqualPdgetrfOnEveryGrid) {
  unsigned seed = 11;
  for (const auto& [p, q] : mpi::test::grid_shapes(mpi::test::world_size())) {
    for (GridOrder order : {GridOrder::RowMajor, GridOrder::ColumnMajor}) {
      BlacsGrid grid(p, q, order);
      for (const PivotCase& c : cases()) expect_scalapack_ipiv(grid, c, ++seed);
    }
  }
}

TEST(ScalapackPivots, EmptySubmatrixWritesNothing) {
  BlacsGrid grid(1, mpi::test::world_size(), GridOrder::RowMajor);
  const mpi::ContextInfo& info = mpi::context_info(grid.context());
  const int desc[9] = {1, grid.context(), 8, 8, 2, 2, 0, 0, 8};
  std::vector<int> ipiv(10, kUnwritten);
  write_scalapack_pivots(info, layout::Descriptor::parse(desc), 3, 3, 0, 4, nullptr, ipiv.data());
  write_scalapack_pivots(info, layout::Descriptor::parse(desc), 3, 3, 4, 0, nullptr, ipiv.data());
  EXPECT_EQ(ipiv, std::vector<int>(10, kUnwritten));
}

TEST(ScalapackPivots, RefusesWhatPdgetrfRefusesBeforeWriting) {
  BlacsGrid grid(1, mpi::test::world_size(), GridOrder::RowMajor);
  const mpi::ContextInfo& info = mpi::context_info(grid.context());
  const int desc[9] = {1, grid.context(), 8, 8, 2, 2, 0, 0, 8};
  const int rectangular_blocks[9] = {1, grid.context(), 8, 8, 2, 4, 0, 0, 8};
  const std::vector<std::int64_t> pivots = {1, 1, 3, 3};
  const std::vector<std::int64_t> backwards = {1, 0, 3, 3};  // row 1 with row 0: not >= 1
  const std::vector<std::int64_t> beyond = {1, 1, 3, 4};     // row 4 of a 4-row sub(A)
  std::vector<int> ipiv(10, kUnwritten);
  EXPECT_THROW(write_scalapack_pivots(info, layout::Descriptor::parse(desc), 2, 1, 4, 4, pivots.data(), ipiv.data()),
               InvalidArgument);  // IA off a block boundary
  EXPECT_THROW(write_scalapack_pivots(info, layout::Descriptor::parse(desc), 1, 4, 4, 4, pivots.data(), ipiv.data()),
               InvalidArgument);  // JA off a block boundary
  EXPECT_THROW(write_scalapack_pivots(info, layout::Descriptor::parse(rectangular_blocks), 1, 1, 4, 4, pivots.data(), ipiv.data()),
               InvalidArgument);
  EXPECT_THROW(write_scalapack_pivots(info, layout::Descriptor::parse(desc), 7, 1, 4, 4, pivots.data(), ipiv.data()),
               InvalidArgument);  // rows 7..10 of an 8-row A
  EXPECT_THROW(write_scalapack_pivots(info, layout::Descriptor::parse(desc), 1, 1, 4, 4, backwards.data(), ipiv.data()),
               InvalidArgument);
  EXPECT_THROW(write_scalapack_pivots(info, layout::Descriptor::parse(desc), 1, 1, 4, 4, beyond.data(), ipiv.data()),
               InvalidArgument);
  EXPECT_EQ(ipiv, std::vector<int>(10, kUnwritten));
}

}  // namespace
}  // namespace hetscal::runtime
