// A process's view of a submatrix of a descriptor against PBLAS's PB_Cinfog2l, PB_Cnumroc
// and PB_Cfirstnb, on random 9- and 11-entry descriptors with RSRC/CSRC != 0 and IA/JA off
// block boundaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "layout/descriptor.hpp"
#include "scalapack_reference.hpp"

namespace hetscal::layout {
namespace {

int draw(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

TEST(LocalSubmatrixVsPblas, StartSourceFirstBlockAndExtents) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 5000; ++trial) {
    BlacsGridView grid;
    grid.nprow = draw(rng, 1, 5);
    grid.npcol = draw(rng, 1, 5);
    grid.myrow = draw(rng, 0, grid.nprow - 1);
    grid.mycol = draw(rng, 0, grid.npcol - 1);
    const int mb = draw(rng, 1, 6), nb = draw(rng, 1, 6);
    const bool eleven = trial % 2 == 0;
    const int imb = eleven ? draw(rng, 1, 9) : mb, inb = eleven ? draw(rng, 1, 9) : nb;
    const int m_a = draw(rng, 1, 60), n_a = draw(rng, 1, 60);
    std::vector<int> desc11{2,
                            0,
                            m_a,
                            n_a,
                            imb,
                            inb,
                            mb,
                            nb,
                            draw(rng, 0, grid.nprow - 1),
                            draw(rng, 0, grid.npcol - 1),
                            100};
    const Descriptor desc = Descriptor::parse(desc11.data());
    const int ia = draw(rng, 0, m_a - 1), ja = draw(rng, 0, n_a - 1);
    const int m = draw(rng, 0, m_a - ia), n = draw(rng, 0, n_a - ja);

    const LocalSubmatrix s = local_submatrix(desc, ia, ja, m, n, grid);
    int ii = 0, jj = 0, prow = 0, pcol = 0;
    PB_Cinfog2l(ia, ja, desc11.data(), grid.nprow, grid.npcol, grid.myrow, grid.mycol, &ii, &jj,
                &prow, &pcol);
    ASSERT_EQ(s.ii, ii) << "trial " << trial;
    ASSERT_EQ(s.jj, jj) << "trial " << trial;
    ASSERT_EQ(s.rows.source, prow);
    ASSERT_EQ(s.cols.source, pcol);
    ASSERT_EQ(s.local_rows, PB_Cnumroc(m, ia, imb, mb, grid.myrow, desc.rsrc, grid.nprow));
    ASSERT_EQ(s.local_cols, PB_Cnumroc(n, ja, inb, nb, grid.mycol, desc.csrc, grid.npcol));
    // sub(A)'s own axes give the same local extents as the parent's.
    ASSERT_EQ(local_extent(s.rows, grid.myrow), s.local_rows);
    ASSERT_EQ(local_extent(s.cols, grid.mycol), s.local_cols);
    if (m > 0) {
      ASSERT_EQ(std::min<std::int64_t>(s.rows.first_block, m), PB_Cfirstnb(m, ia, imb, mb));
    }
    if (n > 0) {
      ASSERT_EQ(std::min<std::int64_t>(s.cols.first_block, n), PB_Cfirstnb(n, ja, inb, nb));
    }
  }
}

}  // namespace
}  // namespace hetscal::layout
