// Routine names and ABI option parsing.
#include <gtest/gtest.h>

#include "runtime/abi_options.hpp"
#include "runtime/routine.hpp"

namespace hetscal::runtime {
namespace {

TEST(RuntimeRoutine, ScalapackNames) {
  EXPECT_EQ((RoutineId{core::Routine::Gemm, ScalarType::Double}).name(), "PDGEMM");
  EXPECT_EQ((RoutineId{core::Routine::Cholesky, ScalarType::ComplexDouble}).name(), "PZPOTRF");
  EXPECT_EQ((RoutineId{core::Routine::LU, ScalarType::Float}).name(), "PSGETRF");
  EXPECT_EQ((RoutineId{core::Routine::QR, ScalarType::ComplexFloat}).lowercase_name(), "pcgeqrf");
  EXPECT_EQ(scalar_type_of<std::complex<float>>(), ScalarType::ComplexFloat);
}

TEST(RuntimeAbiOptions, TransAndUplo) {
  EXPECT_EQ(parse_trans("n"), kernels::Op::NoTrans);
  EXPECT_EQ(parse_trans("T"), kernels::Op::Trans);
  EXPECT_TRUE(parse_trans("c").has_value());
  EXPECT_FALSE(parse_trans("x").has_value());
  EXPECT_FALSE(parse_trans(nullptr).has_value());
  EXPECT_EQ(parse_uplo("l"), kernels::Uplo::Lower);
  EXPECT_EQ(parse_uplo("U"), kernels::Uplo::Upper);
  EXPECT_FALSE(parse_uplo("N").has_value());
}

}  // namespace
}  // namespace hetscal::runtime
