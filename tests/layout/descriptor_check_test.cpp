// Descriptor validation: INFO codes compared with ScaLAPACK's CHK1MAT (chk1mat_) and
// PBLAS's PB_Cchkmat on random, often malformed, arguments, on the BLACS grid of the run
// (1x1 when run alone, 2x2 under `mpirun -np 4`, where LOCr/LOCc differ between ranks),
// plus hand-computed cases that pin the codes down independently of ScaLAPACK.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <random>
#include <vector>

#include "core/common/error.hpp"
#include "layout/descriptor.hpp"
#include "scalapack_reference.hpp"

namespace hetscal::layout {
namespace {

/// The BLACS grid of this process, created on first use and released at exit.
class BlacsGrid : public ::testing::Environment {
 public:
  static const BlacsGridView& view() {
    static BlacsGridView grid = create();
    created_ = true;
    return grid;
  }
  void TearDown() override {
    if (created_) Cblacs_exit(0);
  }

 private:
  static BlacsGridView create() {
    int me = 0, nprocs = 0;
    Cblacs_pinfo(&me, &nprocs);
    BlacsGridView g;
    Cblacs_get(-1, 0, &g.context);
    const int side = nprocs >= 4 ? 2 : 1;
    Cblacs_gridinit(&g.context, "Row", side, side);
    Cblacs_gridinfo(g.context, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
    return g;
  }
  static inline bool created_ = false;
};
const auto* const blacs_environment = ::testing::AddGlobalTestEnvironment(new BlacsGrid);

/// Silences PB_Cwarn's message per refused argument while PB_Cchkmat runs.
class QuietStderr {
 public:
  QuietStderr() : saved_(dup(2)) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    close(null);
  }
  ~QuietStderr() {
    dup2(saved_, 2);
    close(saved_);
  }

 private:
  int saved_;
};

/// Positions as in PDGETRF(M, N, A, IA, JA, DESCA, ...): M=1, N=2, IA=4, JA=5, DESCA=6.
constexpr int kMPos = 1, kNPos = 2, kDescPos = 6;

struct Case {
  int m, n, ia, ja;
  std::vector<int> desc;
};

/// Mostly sane arguments with, now and then, one or more bad fields.
Case random_case(std::mt19937& rng, const BlacsGridView& g, bool eleven_entries) {
  auto draw = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto sometimes = [&](int sane, int lo, int hi) { return draw(0, 9) == 0 ? draw(lo, hi) : sane; };
  Case c;
  const int big_m = sometimes(draw(1, 40), -2, 0), big_n = sometimes(draw(1, 40), -2, 0);
  const int mb = sometimes(draw(1, 8), -1, 0), nb = sometimes(draw(1, 8), -1, 0);
  const int rsrc = sometimes(draw(0, g.nprow - 1), -2, g.nprow);
  const int csrc = sometimes(draw(0, g.npcol - 1), -2, g.npcol);
  const int lld = draw(-1, 30);
  const int dtype = sometimes(eleven_entries ? 2 : 1, 0, 3);
  if (eleven_entries) {
    const int imb = sometimes(draw(1, 10), -1, 0), inb = sometimes(draw(1, 10), -1, 0);
    c.desc = {dtype, g.context, big_m, big_n, imb, inb, mb, nb, rsrc, csrc, lld};
  } else {
    c.desc = {dtype, g.context, big_m, big_n, mb, nb, rsrc, csrc, lld, 0, 0};
  }
  c.ia = sometimes(draw(1, std::max(1, big_m)), -1, big_m + 3);
  c.ja = sometimes(draw(1, std::max(1, big_n)), -1, big_n + 3);
  c.m = sometimes(draw(0, std::max(0, big_m - c.ia + 1)), -1, 45);
  c.n = sometimes(draw(0, std::max(0, big_n - c.ja + 1)), -1, 45);
  return c;
}

MatrixArgument argument(const Case& c) {
  return MatrixArgument{c.m, kMPos, c.n, kNPos, c.ia, c.ja, c.desc.data(), kDescPos};
}

int reference_chk1mat(const Case& c, int info) {
  chk1mat_(&c.m, &kMPos, &c.n, &kNPos, &c.ia, &c.ja, c.desc.data(), &kDescPos, &info);
  return info;
}

int reference_pb_chkmat(Case c, int context, int info) {
  std::vector<int> desc11(11);
  int ia = 0, ja = 0;
  PB_CargFtoC(c.ia, c.ja, c.desc.data(), &ia, &ja, desc11.data());
  char routine[] = "PDTEST", name[] = "A";
  QuietStderr quiet;
  PB_Cchkmat(context, routine, name, c.m, kMPos, c.n, kNPos, ia, ja, desc11.data(), kDescPos,
             &info);
  return info;
}

TEST(DescriptorCheckVsScalapack, Chk1matOnRandomArguments) {
  const BlacsGridView& g = BlacsGrid::view();
  int me = 0, nprocs = 0;
  Cblacs_pinfo(&me, &nprocs);
  ASSERT_EQ(g.nprow * g.npcol, nprocs >= 4 ? 4 : 1);  // the grid this run is meant to test
  std::mt19937 rng(1234 + g.myrow * 7 + g.mycol);
  int refused = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Case c = random_case(rng, g, false);
    const int previous = trial % 5 == 0 ? -3 : 0;  // an earlier argument already bad
    const int expected = reference_chk1mat(c, previous);
    ASSERT_EQ(check_matrix_scalapack(argument(c), g, previous), expected)
        << "trial " << trial << " m=" << c.m << " n=" << c.n << " ia=" << c.ia << " ja=" << c.ja;
    refused += expected != 0;
  }
  EXPECT_GT(refused, 2000);  // the random cases do exercise the refusals
}

TEST(DescriptorCheckVsScalapack, PbChkmatOnRandomArgumentsBothTypes) {
  const BlacsGridView& g = BlacsGrid::view();
  std::mt19937 rng(4321 + g.myrow * 7 + g.mycol);
  int refused = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    Case c = random_case(rng, g, trial % 2 == 0);
    if (trial % 17 == 0) c.desc[1] = g.context + 1;  // another context
    const int previous = trial % 7 == 0 ? -(kDescPos * 100 - 100 + 3) : 0;
    const int expected = reference_pb_chkmat(c, g.context, previous);
    ASSERT_EQ(check_matrix_pblas(argument(c), g, previous), expected)
        << "trial " << trial << " dtype=" << c.desc[0] << " m=" << c.m << " n=" << c.n
        << " ia=" << c.ia << " ja=" << c.ja;
    refused += expected != 0;
  }
  EXPECT_GT(refused, 600);
}

// Hand-computed codes, on a pretend 2x3 grid seen from process (1, 2).
const BlacsGridView kGrid{7, 2, 3, 1, 2};

TEST(DescriptorCheck, ScalapackCodesUseNineEntryPositions) {
  //               DTYPE CTXT M   N   MB NB RSRC CSRC LLD
  std::vector<int> d{1, 7, 20, 30, 4, 5, 1, 2, 12};
  EXPECT_EQ(check_matrix_scalapack({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), 0);
  d[4] = 0;  // MB
  EXPECT_EQ(check_matrix_scalapack({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), -605);
  d[4] = 4;
  d[6] = 2;  // RSRC outside a 2-row grid
  EXPECT_EQ(check_matrix_scalapack({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), -607);
  d[6] = 1;
  // LOCr(20) on process row 1 of 2, MB 4, RSRC 1 = 12 rows, and LOCc(30) on column 2 is 10
  // columns (not empty): LLD 11 is too small.
  d[8] = 11;
  EXPECT_EQ(check_matrix_scalapack({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), -609);
  d[8] = 12;
  EXPECT_EQ(check_matrix_scalapack({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), 0);
  // Out of bounds: IA + M - 1 = 21 > 20 is charged to M (position 1).
  EXPECT_EQ(check_matrix_scalapack({19, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), -1);
  // An 11-entry descriptor is not accepted by ScaLAPACK routines.
  std::vector<int> d11{2, 7, 20, 30, 4, 5, 4, 5, 1, 2, 12};
  EXPECT_EQ(check_matrix_scalapack({10, 1, 10, 2, 3, 4, d11.data(), 6}, kGrid), -601);
}

TEST(DescriptorCheck, PblasCodesUseElevenEntryPositions) {
  std::vector<int> d{1, 7, 20, 30, 4, 5, 1, 2, 12};
  EXPECT_EQ(check_matrix_pblas({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), 0);
  d[4] = 0;  // MB of a 9-entry descriptor: PBLAS names both IMB (5) and MB (7); IMB wins.
  EXPECT_EQ(check_matrix_pblas({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), -605);
  d[4] = 4;
  d[1] = 8;  // context differs from the operation's
  EXPECT_EQ(check_matrix_pblas({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), -602);
  d[1] = 7;
  d[6] = -1;  // RSRC = -1 (replicated) is legal for PBLAS: every process row holds 20 rows
  EXPECT_EQ(check_matrix_pblas({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), -611);
  d[8] = 20;
  EXPECT_EQ(check_matrix_pblas({10, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), 0);
  // Out of bounds is charged to IA (position DESCA - 2), not to M as CHK1MAT does.
  EXPECT_EQ(check_matrix_pblas({19, 1, 10, 2, 3, 4, d.data(), 6}, kGrid), -4);
  std::vector<int> d11{2, 7, 20, 30, 3, 5, 4, 0, 1, 2, 12};  // NB = 0
  EXPECT_EQ(check_matrix_pblas({10, 1, 10, 2, 3, 4, d11.data(), 6}, kGrid), -608);
  std::vector<int> bad_type{3, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(check_matrix_pblas({10, 1, 10, 2, 3, 4, bad_type.data(), 6}, kGrid), -601);
  // No column of A on process column 2 (N_A = 5 = NB, CSRC 0): a short LLD is accepted
  // there, but LLD must still be >= 1.
  std::vector<int> narrow{1, 7, 20, 5, 4, 5, 1, 0, 3};
  EXPECT_EQ(check_matrix_pblas({10, 1, 5, 2, 3, 1, narrow.data(), 6}, kGrid), 0);
  EXPECT_EQ(check_matrix_scalapack({10, 1, 5, 2, 3, 1, narrow.data(), 6}, kGrid), 0);
  narrow[8] = 0;
  EXPECT_EQ(check_matrix_pblas({10, 1, 5, 2, 3, 1, narrow.data(), 6}, kGrid), -611);
  EXPECT_EQ(check_matrix_scalapack({10, 1, 5, 2, 3, 1, narrow.data(), 6}, kGrid), -609);
  // An earlier argument's error (say argument 3) wins over this descriptor's.
  EXPECT_EQ(check_matrix_pblas({10, 1, 10, 2, 3, 4, d11.data(), 6}, kGrid, -3), -3);
}

TEST(Descriptor, ParseBothTypesAndRoundTrip) {
  const std::vector<int> d9{1, 3, 100, 80, 16, 8, 1, 0, 60};
  const Descriptor a = Descriptor::parse(d9.data());
  EXPECT_EQ(a.type, DescriptorType::BlockCyclic2D);
  EXPECT_EQ(a.imb, 16);
  EXPECT_EQ(a.inb, 8);
  EXPECT_EQ(a.to_array(), d9);
  const std::vector<int> d11{2, 3, 100, 80, 5, 3, 16, 8, 1, 0, 60};
  const Descriptor b = Descriptor::parse(d11.data());
  EXPECT_EQ(b.type, DescriptorType::BlockCyclic2DInb);
  EXPECT_EQ(b.imb, 5);
  EXPECT_EQ(b.inb, 3);
  EXPECT_EQ(b.mb, 16);
  EXPECT_EQ(b.rsrc, 1);
  EXPECT_EQ(b.lld, 60);
  EXPECT_EQ(b.to_array(), d11);
  const std::vector<int> bad{4, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_THROW(Descriptor::parse(bad.data()), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::layout
