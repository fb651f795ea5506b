// Native API: hetero_pdormqr against ScaLAPACK's PDORMQR on the same factors (PDGEQRF's or
// hetero_pdgeqrf's, TAU in PDGEQRF's format) for SIDE L/R × TRANS N/T at aligned offsets,
// everything outside sub(C) bit-identical; with the factors in place on a hetscal descriptor
// against Q applied from its definition, C in place (SIDE R transposed internally) or on a
// ScaLAPACK descriptor; the round trip geqrf then Qᵀ·A giving R's columns; argument errors
// with PDORMQR's codes (its alignment conditions included) and C untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "api_qr_support.hpp"

namespace hetscal::api_test {
namespace {

constexpr double kRounding = 1e-12;

/// ScaLAPACK's own PDORMQR on a copy of C's local array.
std::vector<double> scalapack_ormqr(const char* side, const char* trans, int m, int n, int k,
                                    const BlockCyclic& a, const std::vector<double>& a_local,
                                    int ia, int ja, const std::vector<double>& tau,
                                    const BlockCyclic& c, int ic, int jc) {
  std::vector<double> result = c.local;
  int info = -1;
  std::vector<double> work = workspace_for([&](double* w, const int* lwork) {
    pdormqr_(side, trans, &m, &n, &k, a_local.data(), &ia, &ja, a.desc, tau.data(), result.data(),
             &ic, &jc, c.desc, w, lwork, &info);
  });
  const int lwork = static_cast<int>(work.size());
  pdormqr_(side, trans, &m, &n, &k, a_local.data(), &ia, &ja, a.desc, tau.data(), result.data(),
           &ic, &jc, c.desc, work.data(), &lwork, &info);
  EXPECT_EQ(info, 0);
  return result;
}

TEST(ApiOrmqr, ScalapackDescriptorsGivePdormqrsResult) {
  BlacsGrid grid;
  QrContext c(grid, HETSCAL_LAYOUT_ANY, 64, 64);  // supplies the speeds
  const int nb = 4, q_order = 30, other = 13;
  // A: Q's order × K at (5, 3); C at (5, 2) for SIDE L, at (2, 5) for SIDE R: the alignment
  // PDORMQR requires (the same offset in the block, and process row for SIDE L).
  const int ia = 5, ja = 3;
  BlockCyclic a(grid, random_matrix(6, q_order + 8, 27), q_order + 8, 27, nb);
  for (const auto& [ours, k] : {std::pair<bool, int>{false, 21}, {true, 21}, {true, 1}}) {
    // factors and TAU by PDGEQRF, or by hetero_pdgeqrf; K reflectors of them used
    std::vector<double> factors = a.local, tau(a.local.size() / a.lld + 1, 0.0);
    if (ours) {
      int info = -1;
      ASSERT_EQ(hetero_pdgeqrf(q_order, k, factors.data(), ia, ja, a.desc, tau.data(), &info),
                HETSCAL_SUCCESS);
      ASSERT_EQ(info, 0);
    } else {
      const ScalapackQr qr(a, q_order, k, ia, ja, 0.0);
      factors = qr.local;
      tau = qr.tau;
    }
    for (const char* side : {"L", "R"}) {
      const bool left = side[0] == 'L';
      const int m = left ? q_order : other, n = left ? other : q_order;
      const int ic = left ? 5 : 2, jc = left ? 2 : 5;
      const std::vector<double> whole_c = random_matrix(7, m + 6, n + 6);
      BlockCyclic cc(grid, whole_c, m + 6, n + 6, nb);
      for (const char* trans : {"N", "T"}) {
        SCOPED_TRACE(std::string(side) + trans + (ours ? " hetscal's factors" : "") + " K " +
                     std::to_string(k));
        const std::vector<double> expected =
            scalapack_ormqr(side, trans, m, n, k, a, factors, ia, ja, tau, cc, ic, jc);
        std::vector<double> local = cc.local;
        const std::vector<double> a_before = factors, tau_before = tau;
        int info = -99;
        EXPECT_EQ(hetero_pdormqr(side, trans, m, n, k, factors.data(), ia, ja, a.desc, tau.data(),
                                 local.data(), ic, jc, cc.desc, &info),
                  HETSCAL_SUCCESS);
        EXPECT_EQ(info, 0);
        EXPECT_LT(max_relative_difference(local, expected), kRounding);
        for (std::size_t e = 0; e < local.size(); ++e)  // outside sub(C): as PDORMQR left it
          if (cc.local[e] == expected[e]) {
            EXPECT_EQ(local[e], expected[e]) << e;
          }
        EXPECT_TRUE(bit_identical(factors, a_before) && bit_identical(tau, tau_before));
      }
    }
  }
}

/// C (rows×cols) := op(Q)·C or C·op(Q) from the definition, Q from `factors` (order × k).
Dense reference_ormqr(bool left, bool transposed, const Dense& factors,
                      const std::vector<double>& tau, int k, const Dense& c) {
  if (left) {
    Dense result = c;
    apply_reflectors(factors, tau, k, transposed, result);
    return result;
  }
  Dense ct{c.cols, c.rows, std::vector<double>(c.x.size())};  // C·op(Q) = (op(Q)ᵀ·Cᵀ)ᵀ
  for (int j = 0; j < c.cols; ++j)
    for (int i = 0; i < c.rows; ++i) ct(j, i) = c(i, j);
  apply_reflectors(factors, tau, k, !transposed, ct);
  Dense result = c;
  for (int j = 0; j < c.cols; ++j)
    for (int i = 0; i < c.rows; ++i) result(i, j) = ct(j, i);
  return result;
}

TEST(ApiOrmqr, FactorsInPlaceOnEveryLayout) {
  BlacsGrid grid;
  const int m = 46, n = 31, k = 27, other = 9;
  for (const int layout : {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN}) {
    QrContext c(grid, layout, m, n);
    const std::vector<int> desca = c.desc(m, n);
    std::vector<double> a = local_of(desca.data(), random_matrix(8, m, n));
    std::vector<double> tau(static_cast<std::size_t>(n));
    int info = -99;
    ASSERT_EQ(hetero_pdgeqrf(m, n, a.data(), 1, 1, desca.data(), tau.data(), &info),
              HETSCAL_SUCCESS);
    const Dense factors{m, n, whole_of(desca.data(), a)};
    for (const char* side : {"L", "R"}) {
      const bool left = side[0] == 'L';
      const int rows = left ? m : other, cols = left ? other : m;
      const Dense c0{rows, cols, random_matrix(9, rows, cols)};
      for (const char* trans : {"N", "T"}) {
        SCOPED_TRACE(std::string(side) + trans + " layout " + std::to_string(layout));
        const Dense expected = reference_ormqr(left, trans[0] == 'T', factors, tau, k, c0);
        const std::vector<int> descc = c.desc(rows, cols);  // C in place
        std::vector<double> local = local_of(descc.data(), c0.x);
        EXPECT_EQ(hetero_pdormqr(side, trans, rows, cols, k, a.data(), 1, 1, desca.data(),
                                 tau.data(), local.data(), 1, 1, descc.data(), &info),
                  HETSCAL_SUCCESS);
        EXPECT_EQ(info, 0);
        EXPECT_LT(max_relative_difference(whole_of(descc.data(), local), expected.x), kRounding);
        BlockCyclic scalapack(grid, c0.x, rows, cols, 5);  // C moved in and back
        EXPECT_EQ(hetero_pdormqr(side, trans, rows, cols, k, a.data(), 1, 1, desca.data(),
                                 tau.data(), scalapack.local.data(), 1, 1, scalapack.desc, &info),
                  HETSCAL_SUCCESS);
        EXPECT_EQ(info, 0);
        EXPECT_LT(max_relative_difference(scalapack.gathered(grid), expected.x), kRounding);
      }
    }
  }
}

TEST(ApiOrmqr, QTransposedTimesAGivesR) {
  BlacsGrid grid;
  for (const auto& [m, n] : {std::pair<int, int>{52, 37}, {30, 44}}) {
    QrContext c(grid, HETSCAL_LAYOUT_ANY, m, n);
    const std::vector<int> desc = c.desc(m, n);
    const std::vector<double> a0 = random_matrix(10, m, n);
    std::vector<double> factors = local_of(desc.data(), a0), a = factors;
    std::vector<double> tau(static_cast<std::size_t>(std::min(m, n)));
    int info = -99;
    ASSERT_EQ(hetero_pdgeqrf(m, n, factors.data(), 1, 1, desc.data(), tau.data(), &info),
              HETSCAL_SUCCESS);
    ASSERT_EQ(hetero_pdormqr("L", "T", m, n, std::min(m, n), factors.data(), 1, 1, desc.data(),
                             tau.data(), a.data(), 1, 1, desc.data(), &info),
              HETSCAL_SUCCESS);
    EXPECT_EQ(info, 0);
    const Dense r{m, n, whole_of(desc.data(), a)}, f{m, n, whole_of(desc.data(), factors)};
    double largest = 0.0, error = 0.0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        largest = std::max(largest, std::abs(f(i, j)));
        error = std::max(error, std::abs(r(i, j) - (i <= j ? f(i, j) : 0.0)));
      }
    EXPECT_LT(error, kRounding * largest) << m << "x" << n;
  }
}

TEST(ApiOrmqr, BadArgumentsGiveTheirCodesAndLeaveCUntouched) {
  BlacsGrid grid;
  const int n = 24, nb = 4;
  QrContext context(grid, HETSCAL_LAYOUT_ANY, n, n);
  BlockCyclic a(grid, random_matrix(1, n, n), n, n, nb), c(grid, random_matrix(2, n, n), n, n, nb);
  const std::vector<double> tau(a.local.size() / a.lld + 1, 0.5);
  std::vector<int> tall_blocks(c.desc, c.desc + 9), wide_blocks(tall_blocks), typed(tall_blocks);
  tall_blocks[4] = 2 * nb;  // MB_C ≠ MB_A (LLD raised to fit: refused before any access)
  tall_blocks[8] = n;
  wide_blocks[5] = 2 * nb;  // NB_C ≠ MB_A
  typed[0] = 2;
  BlacsGrid bare;
  BlockCyclic elsewhere(bare, random_matrix(2, n, n), n, n, nb);
  struct Case {
    const char *side, *trans;
    int m, n, k, ia, ic, jc;
    const int* descc;
    int expected;
  };
  std::vector<Case> cases = {
      {"X", "N", n, n, 4, 1, 1, 1, c.desc, -1},
      {"L", "C", n, n, 4, 1, 1, 1, c.desc, -2},
      {"L", "N", -1, n, 4, 1, 1, 1, c.desc, -3},
      {"R", "N", n, -1, 4, 1, 1, 1, c.desc, -4},
      {"L", "N", n, n, -1, 1, 1, 1, c.desc, -5},
      {"L", "N", n - 4, n, 21, 5, 5, 1, c.desc, -5},  // K > Q's order
      {"L", "N", n, n, 4, 1, 1, 1, typed.data(), -1401},
      {"L", "N", n - 1, n, 4, 2, 1, 1, c.desc, -12},  // IA, IC: other block offsets
      {"R", "N", n, n - 1, 4, 1, 1, 2, c.desc, -13},  // IA, JC: other offsets
      {"L", "N", n, n, 4, 1, 1, 1, tall_blocks.data(), -1405},
      {"R", "N", n, n, 4, 1, 1, 1, wide_blocks.data(), -906},
      {"L", "N", n, n, 4, 1, 1, 1, elsewhere.desc, -1402},
  };
  if (grid.nprow > 1)  // IA and IC at the same block offset on other process rows
    cases.push_back({"L", "N", n - 4, n, 4, 5, 1, 1, c.desc, -12});
  for (const Case& k : cases) {
    SCOPED_TRACE(k.expected);
    std::vector<double> local = k.descc == elsewhere.desc ? elsewhere.local : c.local;
    const std::vector<double> before = local;
    int info = 0;
    EXPECT_EQ(hetero_pdormqr(k.side, k.trans, k.m, k.n, k.k, a.local.data(), k.ia, 1, a.desc,
                             tau.data(), local.data(), k.ic, k.jc, k.descc, &info),
              HETSCAL_ERR_ARGUMENT);
    EXPECT_EQ(info, k.expected);
    EXPECT_TRUE(bit_identical(local, before));
  }
  // Factors in place: the same scalar codes; a C of another size is its descriptor's M or N.
  const std::vector<int> desca = context.desc(n, n), small = context.desc(n - 1, n);
  std::vector<double> factors = local_of(desca.data(), random_matrix(1, n, n));
  std::vector<double> local = local_of(desca.data(), random_matrix(2, n, n));
  const std::vector<double> before = local;
  const Case in_place[] = {
      {"L", "N", n, n, n + 1, 1, 1, 1, desca.data(), -5},
      {"L", "N", n, n, 4, 1, 1, 1, small.data(), -1403},
      {"L", "N", n, n, 4, 1, 2, 1, desca.data(), -12},
      {"Q", "N", n, n, 4, 1, 1, 1, desca.data(), -1},
  };
  for (const Case& k : in_place) {
    SCOPED_TRACE(k.expected);
    int info = 0;
    EXPECT_EQ(hetero_pdormqr(k.side, k.trans, k.m, k.n, k.k, factors.data(), k.ia, 1, desca.data(),
                             tau.data(), local.data(), k.ic, k.jc, k.descc, &info),
              HETSCAL_ERR_ARGUMENT);
    EXPECT_EQ(info, k.expected);
    EXPECT_TRUE(bit_identical(local, before));
  }
}

}  // namespace
}  // namespace hetscal::api_test
