// Native API: NULL speeds take the shim's configuration (HETSCAL_SPEEDS). These tests depend
// on the environment, so ctest runs them apart (api_configured_speeds_*), each with the
// setting it needs; the default runs filter them out.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "api_test_support.hpp"

namespace hetscal::api_test {
namespace {

// Needs HETSCAL_SPEEDS = one valid speed per process, comma-separated.
TEST(ApiConfiguredSpeeds, NullSpeedsAreTheConfiguredOnes) {
  const char* configured = std::getenv("HETSCAL_SPEEDS");
  ASSERT_NE(configured, nullptr) << "run with HETSCAL_SPEEDS set";
  std::vector<double> speeds;
  std::stringstream list(configured);
  for (std::string item; std::getline(list, item, ',');) speeds.push_back(std::stod(item));
  ASSERT_EQ(static_cast<int>(speeds.size()), world_size());
  BlacsGrid grid;
  hetscal_context_t from_list = HETSCAL_CONTEXT_NULL, from_config = HETSCAL_CONTEXT_NULL;
  ASSERT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 210, 190, 90, &from_list),
            HETSCAL_SUCCESS);
  ASSERT_EQ(hetscal_gemm_context_create(grid.context, nullptr, 210, 190, 90, &from_config),
            HETSCAL_SUCCESS);
  double list_figures[3], config_figures[3];
  hetscal_context_prediction(from_list, &list_figures[0], &list_figures[1], &list_figures[2]);
  hetscal_context_prediction(from_config, &config_figures[0], &config_figures[1],
                             &config_figures[2]);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(list_figures[i], config_figures[i]);
  EXPECT_EQ(hetscal_context_tile(from_list), hetscal_context_tile(from_config));
  EXPECT_EQ(hetscal_local_rows(from_list, 210), hetscal_local_rows(from_config, 210));
  EXPECT_EQ(hetscal_local_cols(from_list, 190), hetscal_local_cols(from_config, 190));
  EXPECT_EQ(hetscal_context_free(&from_list), HETSCAL_SUCCESS);
  EXPECT_EQ(hetscal_context_free(&from_config), HETSCAL_SUCCESS);
}

// Needs a malformed HETSCAL_SPEEDS: refused on every process, no context made.
TEST(ApiConfiguredSpeeds, MalformedConfigurationIsRefused) {
  BlacsGrid grid;
  hetscal_context_t ctx = 77;
  EXPECT_EQ(hetscal_gemm_context_create(grid.context, nullptr, 100, 100, 100, &ctx),
            HETSCAL_ERR_SPEEDS);
  EXPECT_EQ(ctx, HETSCAL_CONTEXT_NULL);
}

}  // namespace
}  // namespace hetscal::api_test
