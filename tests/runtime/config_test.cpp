// Configuration parsing: good and bad values, host=speed pairs, counts.
#include <gtest/gtest.h>

#include <map>

#include "core/error.hpp"
#include "runtime/config.hpp"

namespace hetscal::runtime {
namespace {

Configuration parse(const std::map<std::string, std::string>& variables,
                    const std::map<std::string, std::string>& files = {}) {
  return parse_configuration(
      [&](const std::string& name) -> std::optional<std::string> {
        const auto found = variables.find(name);
        if (found == variables.end()) return std::nullopt;
        return found->second;
      },
      [&](const std::string& path) -> std::optional<std::string> {
        const auto found = files.find(path);
        if (found == files.end()) return std::nullopt;
        return found->second;
      });
}

TEST(ShimConfig, RankListWithAnySeparatorAndComments) {
  const SpeedSpec spec = parse_speed_list("1, 2.5\n3 # the slow one\n4e0");
  EXPECT_EQ(spec.source, SpeedSource::RankList);
  EXPECT_EQ(spec.rank_speeds, (std::vector<double>{1.0, 2.5, 3.0, 4.0}));
}

TEST(ShimConfig, HostPairs) {
  const SpeedSpec spec = parse_speed_list("nodeA=2,nodeB=0.5");
  ASSERT_EQ(spec.source, SpeedSource::HostList);
  ASSERT_EQ(spec.host_speeds.size(), 2u);
  EXPECT_EQ(spec.host_speeds[1].first, "nodeB");
  EXPECT_EQ(spec.host_speeds[1].second, 0.5);
}

TEST(ShimConfig, RefusesBadSpeedLists) {
  for (const char* bad : {"", " # only a comment", "1,x", "0", "-1", "nan", "inf", "1e400", "2.5abc",
                          "1,a=2", "a=2,1", "=2", "a=", "a=1,a=2", "a=0"}) {
    EXPECT_THROW(parse_speed_list(bad), InvalidArgument) << "'" << bad << "'";
  }
}

TEST(ShimConfig, Switches) {
  for (const char* on : {"1", "true", "YES", "On"}) EXPECT_TRUE(parse_switch("X", on)) << on;
  for (const char* off : {"", "0", "false", "no", "OFF"}) EXPECT_FALSE(parse_switch("X", off)) << off;
  for (const char* bad : {"2", "enable", "y"}) EXPECT_THROW(parse_switch("X", bad), InvalidArgument) << bad;
}

TEST(ShimConfig, DefaultsWhenNothingIsSet) {
  const Configuration config = parse({});
  EXPECT_TRUE(config.valid());
  EXPECT_FALSE(config.disabled);
  EXPECT_FALSE(config.force);
  EXPECT_EQ(config.min_n, 512);
  EXPECT_EQ(config.verbosity, Verbosity::Quiet);
  EXPECT_EQ(config.speeds.source, SpeedSource::None);
}

TEST(ShimConfig, EveryVariable) {
  const Configuration config = parse({{"HETSCAL_DISABLE", "0"}, {"HETSCAL_FORCE", "1"},
                                      {"HETSCAL_MIN_N", "0"}, {"HETSCAL_VERBOSE", "2"},
                                      {"HETSCAL_SPEEDS", "1,2,3,4"}});
  EXPECT_TRUE(config.valid());
  EXPECT_TRUE(config.force);
  EXPECT_EQ(config.min_n, 0);
  EXPECT_EQ(config.verbosity, Verbosity::EveryCall);
  EXPECT_EQ(config.speeds.rank_speeds.size(), 4u);
}

TEST(ShimConfig, SpeedsFromFileAndProbe) {
  const Configuration from_file = parse({{"HETSCAL_SPEEDS_FILE", "/speeds"}}, {{"/speeds", "# hosts\nn1=1\nn2=3\n"}});
  EXPECT_TRUE(from_file.valid());
  EXPECT_EQ(from_file.speeds.source, SpeedSource::HostList);
  EXPECT_EQ(parse({{"HETSCAL_PROBE", "1"}}).speeds.source, SpeedSource::Probe);
  // A given list wins over probing.
  EXPECT_EQ(parse({{"HETSCAL_PROBE", "1"}, {"HETSCAL_SPEEDS", "1,2"}}).speeds.source, SpeedSource::RankList);
}

TEST(ShimConfig, CollectsEveryMalformedVariable) {
  const Configuration config = parse({{"HETSCAL_MIN_N", "-3"}, {"HETSCAL_VERBOSE", "3"},
                                      {"HETSCAL_FORCE", "maybe"}, {"HETSCAL_SPEEDS", "1,2,fast"}});
  ASSERT_EQ(config.errors.size(), 4u);
  EXPECT_NE(config.errors[0].find("HETSCAL_FORCE='maybe'"), std::string::npos);
  EXPECT_NE(config.errors[1].find("HETSCAL_MIN_N='-3'"), std::string::npos);
  EXPECT_NE(config.errors[3].find("'fast'"), std::string::npos);
  EXPECT_FALSE(parse({{"HETSCAL_MIN_N", "12x"}}).valid());
}

TEST(ShimConfig, RefusesAmbiguousOrUnreadableSpeedSources) {
  EXPECT_FALSE(parse({{"HETSCAL_SPEEDS", "1"}, {"HETSCAL_SPEEDS_FILE", "/speeds"}},
                     {{"/speeds", "1"}}).valid());
  const Configuration missing = parse({{"HETSCAL_SPEEDS_FILE", "/nowhere"}});
  ASSERT_EQ(missing.errors.size(), 1u);
  EXPECT_NE(missing.errors[0].find("/nowhere"), std::string::npos);
}

TEST(ShimConfig, FingerprintSeparatesDecisiveSettingsOnly) {
  const std::string base = parse({{"HETSCAL_SPEEDS", "1,2"}}).fingerprint();
  EXPECT_EQ(base, parse({{"HETSCAL_SPEEDS", "1,2"}, {"HETSCAL_VERBOSE", "1"}}).fingerprint());
  EXPECT_NE(base, parse({{"HETSCAL_SPEEDS", "1,2"}, {"HETSCAL_MIN_N", "0"}}).fingerprint());
  EXPECT_NE(base, parse({{"HETSCAL_SPEEDS", "1,2"}, {"HETSCAL_DISABLE", "1"}}).fingerprint());
  EXPECT_NE(base, parse({}).fingerprint());
}

TEST(ShimConfig, SpeedOfEachProcess) {
  const auto no_probe = []() -> double { throw std::logic_error("probe not expected"); };
  const SpeedSpec ranks = parse_speed_list("1,2,3");
  EXPECT_EQ(speed_of_process(ranks, 2, 3, "any", no_probe), 3.0);
  EXPECT_THROW(speed_of_process(ranks, 0, 4, "any", no_probe), InvalidArgument);  // count
  const SpeedSpec hosts = parse_speed_list("a=1,b=5");
  EXPECT_EQ(speed_of_process(hosts, 7, 9, "b", no_probe), 5.0);
  EXPECT_THROW(speed_of_process(hosts, 0, 1, "c", no_probe), InvalidArgument);
  SpeedSpec probe;
  probe.source = SpeedSource::Probe;
  EXPECT_EQ(speed_of_process(probe, 0, 1, "a", [] { return 4.5e9; }), 4.5e9);
  EXPECT_THROW(speed_of_process(SpeedSpec{}, 0, 1, "a", no_probe), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::runtime
