// What a rank may newly allocate for a call: /proc/meminfo's MemAvailable, HETSCAL_MEMORY less
// the operands and what hetscal holds, and the host's memory shared by its ranks.
#include "runtime/memory_budget.hpp"

#include <gtest/gtest.h>

namespace hetscal::runtime {
namespace {

TEST(MemoryBudget, ReadsMemAvailableInKibibytes) {
  const std::string meminfo = "MemTotal:       16314516 kB\nMemFree:          912332 kB\n"
                              "MemAvailable:    8000000 kB\nBuffers:          110000 kB\n";
  ASSERT_TRUE(mem_available_bytes(meminfo).has_value());
  EXPECT_DOUBLE_EQ(*mem_available_bytes(meminfo), 8000000.0 * 1024.0);
}

TEST(MemoryBudget, NoValidMemAvailableLineIsNothing) {
  EXPECT_FALSE(mem_available_bytes("").has_value());
  EXPECT_FALSE(mem_available_bytes("MemTotal: 100 kB\n").has_value());
  EXPECT_FALSE(mem_available_bytes("MemAvailable: lots kB\n").has_value());
  EXPECT_FALSE(mem_available_bytes("MemAvailable: 100 MB\n").has_value());
  EXPECT_FALSE(mem_available_bytes("MemAvailable: -5 kB\n").has_value());
}

TEST(MemoryBudget, ThisHostHasSomeMemoryAvailable) {
  const std::optional<double> available = host_available_bytes();
  ASSERT_TRUE(available.has_value());
  EXPECT_GT(*available, 0.0);
}

TEST(MemoryBudget, TheSettingCountsTheOperandsAndWhatHetscalHolds) {
  // 1000 bytes per rank, 600 in operands, 100 already held: 300 more may be allocated.
  EXPECT_DOUBLE_EQ(*fresh_bytes_allowed(1000, std::nullopt, 2, 600.0, 100.0), 300.0);
  // The host's figure does not count when the setting is given.
  EXPECT_DOUBLE_EQ(*fresh_bytes_allowed(1000, 1e12, 1, 600.0, 100.0), 300.0);
  EXPECT_LT(*fresh_bytes_allowed(1000, std::nullopt, 1, 1200.0, 0.0), 0.0);
}

TEST(MemoryBudget, TheHostsAvailableMemoryIsSharedByItsRanks) {
  // MemAvailable already excludes the operands and hetscal's buffers.
  EXPECT_DOUBLE_EQ(*fresh_bytes_allowed(0, 800.0, 4, 600.0, 100.0), 200.0);
  EXPECT_FALSE(fresh_bytes_allowed(0, std::nullopt, 4, 600.0, 100.0).has_value());
}

TEST(MemoryBudget, MebibytesText) { EXPECT_EQ(mebibytes_text(3.0 * (1 << 20)), "3.0 MiB"); }

}  // namespace
}  // namespace hetscal::runtime
