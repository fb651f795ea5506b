// Block-cyclic index arithmetic against ScaLAPACK's TOOLS (numroc_, indxg2p_, indxg2l_,
// indxl2g_), PBLAS's C tools (PB_Cnumroc, PB_Cindxg2p, PB_Cinfog2l, PB_Cfirstnb) and a
// brute-force walk over the indices, on random axes with fixed seeds.
#include "layout/block_cyclic.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/common/error.hpp"
#include "scalapack_reference.hpp"

namespace hetscal::layout {
namespace {

/// Random axis; `with_first_block` draws IMB independently of MB (may exceed it), else
/// IMB = MB as a 9-entry descriptor has; `replicated` allows source = -1.
CyclicAxis random_axis(std::mt19937& rng, bool with_first_block, bool replicated) {
  auto draw = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  CyclicAxis a;
  a.nprocs = draw(1, 7);
  a.block = draw(1, 9);
  a.first_block = with_first_block ? draw(1, 20) : a.block;
  a.extent = draw(0, 120);
  a.source = draw(replicated ? -1 : 0, a.nprocs - 1);
  return a;
}

/// Owner and local index of every global index, by dealing the indices one by one.
struct BruteForce {
  std::vector<int> owner;
  std::vector<std::int64_t> local;
  std::vector<std::int64_t> count;  // per process: indices held
  explicit BruteForce(const CyclicAxis& a) : count(static_cast<std::size_t>(a.nprocs), 0) {
    int proc = a.source;
    std::int64_t left_in_block = a.first_block;
    for (std::int64_t g = 0; g < a.extent; ++g) {
      if (left_in_block == 0) {
        proc = (proc + 1) % a.nprocs;
        left_in_block = a.block;
      }
      owner.push_back(proc);
      local.push_back(count[static_cast<std::size_t>(proc)]++);
      --left_in_block;
    }
  }
};

int as_int(std::int64_t v) { return static_cast<int>(v); }

TEST(BlockCyclicVsScalapack, FortranToolsOnRandomAxes) {
  std::mt19937 rng(20261121);
  for (int trial = 0; trial < 4000; ++trial) {
    const CyclicAxis a = random_axis(rng, false, false);
    const int nb = as_int(a.block), src = a.source, np = a.nprocs, n = as_int(a.extent);
    for (int p = 0; p < np; ++p) {
      ASSERT_EQ(local_extent(a, p), numroc_(&n, &nb, &p, &src, &np))
          << "n=" << n << " nb=" << nb << " p=" << p << " src=" << src << " np=" << np;
    }
    for (int g = 0; g < n; ++g) {
      const int gf = g + 1, dummy = 0;
      const int owner = indxg2p_(&gf, &nb, &dummy, &src, &np);
      ASSERT_EQ(owner_coordinate(a, g), owner) << "g=" << g;
      ASSERT_EQ(global_to_local(a, g) + 1, indxg2l_(&gf, &nb, &dummy, &src, &np));
      const int lf = as_int(global_to_local(a, g)) + 1;
      ASSERT_EQ(local_to_global(a, global_to_local(a, g), owner) + 1,
                indxl2g_(&lf, &nb, &owner, &src, &np));
    }
  }
}

TEST(BlockCyclicVsScalapack, PblasToolsWithFirstBlockAndReplication) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 4000; ++trial) {
    const CyclicAxis a = random_axis(rng, true, true);
    const int imb = as_int(a.first_block), mb = as_int(a.block), src = a.source, np = a.nprocs;
    const int n = as_int(a.extent);
    for (int start = 0; start <= n; ++start) {
      const int count = std::uniform_int_distribution<int>(0, n - start)(rng);
      for (int p = 0; p < np; ++p) {
        ASSERT_EQ(local_count(a, start, count, p), PB_Cnumroc(count, start, imb, mb, p, src, np))
            << "start=" << start << " count=" << count << " imb=" << imb << " mb=" << mb
            << " p=" << p << " src=" << src << " np=" << np;
      }
      ASSERT_EQ(owner_coordinate(a, start), PB_Cindxg2p(start, imb, mb, 0, src, np));
      if (count > 0) {
        ASSERT_EQ(std::min<std::int64_t>(block_remainder(a, start), count),
                  PB_Cfirstnb(count, start, imb, mb));
      }
      // PB_Cinfog2l on the row dimension of an 11-entry descriptor; columns left trivial.
      int desc[11] = {2, 0, n, 1, imb, 1, mb, 1, src, 0, 1};
      for (int p = 0; p < np; ++p) {
        int ii = -1, jj = -1, prow = -2, pcol = -2;
        PB_Cinfog2l(start, 0, desc, np, 1, p, 0, &ii, &jj, &prow, &pcol);
        ASSERT_EQ(local_count_before(a, start, p), ii) << "start=" << start << " p=" << p;
        ASSERT_EQ(owner_coordinate(a, start), prow);
      }
    }
  }
}

TEST(BlockCyclicBruteForce, OwnerLocalIndexAndInverse) {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 3000; ++trial) {
    const CyclicAxis a = random_axis(rng, true, false);
    const BruteForce truth(a);
    for (int p = 0; p < a.nprocs; ++p) {
      ASSERT_EQ(local_extent(a, p), truth.count[static_cast<std::size_t>(p)]);
    }
    for (std::int64_t g = 0; g < a.extent; ++g) {
      const int owner = truth.owner[static_cast<std::size_t>(g)];
      ASSERT_EQ(owner_coordinate(a, g), owner);
      ASSERT_EQ(global_to_local(a, g), truth.local[static_cast<std::size_t>(g)]);
      ASSERT_EQ(local_to_global(a, truth.local[static_cast<std::size_t>(g)], owner), g);
    }
  }
}

TEST(BlockCyclicBruteForce, SubAxisKeepsOwnersAndLocalOrder) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 2000; ++trial) {
    const CyclicAxis a = random_axis(rng, true, false);
    if (a.extent == 0) continue;
    const std::int64_t start = std::uniform_int_distribution<std::int64_t>(0, a.extent - 1)(rng);
    const std::int64_t count =
        std::uniform_int_distribution<std::int64_t>(0, a.extent - start)(rng);
    const CyclicAxis sub = sub_axis(a, start, count);
    for (std::int64_t k = 0; k < count; ++k) {
      const int owner = owner_coordinate(a, start + k);
      ASSERT_EQ(owner_coordinate(sub, k), owner);
      // Same indices, same order: local index in the sub = parent's minus the start offset.
      ASSERT_EQ(global_to_local(sub, k),
                global_to_local(a, start + k) - local_count_before(a, start, owner));
    }
  }
}

TEST(BlockCyclicAxis, ValidateRefusesBadFields) {
  EXPECT_NO_THROW(validate(CyclicAxis{10, 3, 2, -1, 4}));
  EXPECT_THROW(validate(CyclicAxis{-1, 1, 1, 0, 1}), InvalidArgument);
  EXPECT_THROW(validate(CyclicAxis{5, 0, 1, 0, 1}), InvalidArgument);
  EXPECT_THROW(validate(CyclicAxis{5, 1, 0, 0, 1}), InvalidArgument);
  EXPECT_THROW(validate(CyclicAxis{5, 1, 1, 2, 2}), InvalidArgument);
  EXPECT_THROW(validate(CyclicAxis{5, 1, 1, -2, 2}), InvalidArgument);
  EXPECT_THROW(validate(CyclicAxis{5, 1, 1, 0, 0}), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::layout
