// Native API: hetero_pdpotrf in place on Cartesian and pattern layouts and on ScaLAPACK
// descriptors at offsets, against the definition: residual ‖A − LLᵀ‖/(‖A‖·N·eps) with the
// factor read from the `uplo` triangle only, the other triangle (NaN) and everything outside
// sub(A) bit-identical; INFO for a matrix not positive definite at a chosen order; argument
// errors with ScaLAPACK's codes and A untouched.
#include <gtest/gtest.h>

#include <tuple>

#include "api_cholesky_support.hpp"

namespace hetscal::api_test {
namespace {

constexpr double kThreshold = 10.0;

TEST(ApiPotrf, InPlaceOnEveryLayout) {
  BlacsGrid grid;
  for (const int n : {1, 45, 70}) {
    const std::vector<double> a = spd_matrix(n);
    for (const int layout :
         {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN, HETSCAL_LAYOUT_ANY}) {
      CholeskyContext c(grid, layout, std::max(n, 8 * world_size()));
      for (const char uplo : {'L', 'U'}) {
        SCOPED_TRACE(std::to_string(n) + " " + std::to_string(layout) + uplo);
        expect_factored_in_place(c, a, n, uplo, kThreshold);
      }
    }
  }
}

TEST(ApiPotrf, ScalapackDescriptorAtAnOffsetWritesOnlyItsTriangle) {
  BlacsGrid grid;
  CholeskyContext c(grid, HETSCAL_LAYOUT_ANY, 64);  // supplies the speeds
  const int n = 33, offset = 2, big_n = n + offset + 3;
  const std::vector<double> a = spd_matrix(n);
  for (const char uplo : {'L', 'U'}) {
    std::vector<double> big(static_cast<std::size_t>(big_n) * big_n);
    for (std::size_t k = 0; k < big.size(); ++k) big[k] = 1000.0 + static_cast<double>(k);
    const std::vector<double> inside = with_nan_outside(uplo, a, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        big[(j + offset) * static_cast<std::size_t>(big_n) + i + offset] =
            inside[j * static_cast<std::size_t>(n) + i];
    BlockCyclic da(grid, big, big_n, big_n, 4);
    int info = -99;
    const char option[2] = {uplo, '\0'};
    EXPECT_EQ(hetero_pdpotrf(option, n, da.local.data(), offset + 1, offset + 1, da.desc, &info),
              HETSCAL_SUCCESS);
    EXPECT_EQ(info, 0);
    const std::vector<double> after = da.gathered(grid);
    std::vector<double> factor(static_cast<std::size_t>(n) * n), rest = after;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const std::size_t k = (j + offset) * static_cast<std::size_t>(big_n) + i + offset;
        factor[j * static_cast<std::size_t>(n) + i] = after[k];
        if (uplo == 'L' ? i >= j : i <= j) rest[k] = big[k];  // only the triangle may change
      }
    EXPECT_LT(factor_residual(uplo, a, factor, n), kThreshold) << uplo;
    EXPECT_TRUE(bit_identical(rest, big)) << uplo;
  }
}

TEST(ApiPotrf, OrderZeroReturnsAtOnce) {
  BlacsGrid grid;
  CholeskyContext c(grid, HETSCAL_LAYOUT_PATTERN, 30);
  const std::vector<int> desc = c.desc(0, 0);
  double unused = 7.0;
  int info = -99;
  EXPECT_EQ(hetero_pdpotrf("U", 0, &unused, 1, 1, desc.data(), &info), HETSCAL_SUCCESS);
  EXPECT_EQ(info, 0);
  BlockCyclic da(grid, spd_matrix(6), 6, 6, 4);  // sub(A) of order 0 at (3, 3)
  const std::vector<double> before = da.local;
  EXPECT_EQ(hetero_pdpotrf("L", 0, da.local.data(), 3, 3, da.desc, &info), HETSCAL_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(da.local, before);
  EXPECT_EQ(unused, 7.0);
}

TEST(ApiPotrf, NotPositiveDefiniteGivesTheOrderOnEveryProcess) {
  BlacsGrid grid;
  const int n = 40;
  for (const int layout : {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN}) {
    CholeskyContext c(grid, layout, n);
    for (const int order : {1, 17, n}) {
      for (const char uplo : {'L', 'U'}) {
        const std::vector<int> desc = c.desc(n, n);
        std::vector<double> local = local_of(desc.data(), spd_matrix(n, order));
        int info = -99;
        const char option[2] = {uplo, '\0'};
        EXPECT_EQ(hetero_pdpotrf(option, n, local.data(), 1, 1, desc.data(), &info),
                  HETSCAL_SUCCESS);
        EXPECT_EQ(info, order) << layout << uplo;
      }
    }
  }
  CholeskyContext speeds(grid, HETSCAL_LAYOUT_ANY, n);
  BlockCyclic da(grid, spd_matrix(n, 23), n, n, 6);  // moved in and back: the same INFO
  int info = -99;
  EXPECT_EQ(hetero_pdpotrf("L", n, da.local.data(), 1, 1, da.desc, &info), HETSCAL_SUCCESS);
  EXPECT_EQ(info, 23);
}

TEST(ApiPotrf, BadArgumentsGiveTheirCodesAndLeaveAUntouched) {
  BlacsGrid grid;
  const int n = 24;
  CholeskyContext c(grid, HETSCAL_LAYOUT_ANY, n);
  const std::vector<int> desc = c.desc(n, n), wide = c.desc(n, n + 1);
  std::vector<int> bad_tile = desc;
  bad_tile[4] += 1;
  const std::vector<double> a0 = local_of(desc.data(), spd_matrix(n));
  struct Case {
    const char* uplo;
    int n, ia, ja;
    const int* desc;
    int expected;
  };
  const Case cases[] = {
      {"Q", n, 1, 1, desc.data(), -1},       {"L", -2, 1, 1, desc.data(), -2},
      {"U", n, 3, 1, desc.data(), -4},       {"L", n, 1, 2, desc.data(), -5},
      {"L", n, 1, 1, wide.data(), -604},     {"U", n, 1, 1, bad_tile.data(), -605},
      {"L", n - 1, 1, 1, desc.data(), -603},
  };
  for (const Case& k : cases) {
    std::vector<double> a = a0;
    int info = 0;
    EXPECT_EQ(hetero_pdpotrf(k.uplo, k.n, a.data(), k.ia, k.ja, k.desc, &info),
              HETSCAL_ERR_ARGUMENT);
    EXPECT_EQ(info, k.expected);
    EXPECT_TRUE(bit_identical(a, a0)) << k.expected;
  }
  // ScaLAPACK descriptors: UPLO, N, and a field of DESCA (LLD too small, numbered 1..9).
  BlockCyclic scalapack(grid, spd_matrix(n), n, n, 4);
  std::vector<int> short_lld(scalapack.desc, scalapack.desc + 9);
  short_lld[8] = 0;
  const std::vector<double> s0 = scalapack.local;
  const std::tuple<const char*, int, const int*, int> scalapack_cases[] = {
      {"x", n, scalapack.desc, -1},
      {"L", -1, scalapack.desc, -2},
      {"U", n, short_lld.data(), -609}};
  for (const auto& [uplo, order, desc_a, expected] : scalapack_cases) {
    std::vector<double> a = s0;
    int info = 0;
    EXPECT_EQ(hetero_pdpotrf(uplo, order, a.data(), 1, 1, desc_a, &info), HETSCAL_ERR_ARGUMENT);
    EXPECT_EQ(info, expected);
    EXPECT_TRUE(bit_identical(a, s0)) << expected;
  }
  // A ScaLAPACK descriptor of a BLACS grid without a hetscal context: nothing to plan with.
  BlacsGrid bare;
  BlockCyclic da(bare, spd_matrix(n), n, n, 4);
  const std::vector<double> before = da.local;
  int info = 0;
  EXPECT_EQ(hetero_pdpotrf("L", n, da.local.data(), 1, 1, da.desc, &info), HETSCAL_ERR_CONTEXT);
  EXPECT_EQ(info, HETSCAL_INFO_FAILED(HETSCAL_ERR_CONTEXT));
  EXPECT_EQ(da.local, before);
}

}  // namespace
}  // namespace hetscal::api_test
