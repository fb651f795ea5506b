// Configuration parsing: good and bad values, host=speed pairs, counts, routines,
// fingerprints. Hostile speeds files (devices, FIFOs, directories, huge files) are in
// config_file_test.cpp.
#include "runtime/config.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "config_test_support.hpp"
#include "core/common/error.hpp"

namespace hetscal::runtime {
namespace {

TEST(RuntimeConfig, RankListWithAnySeparatorAndComments) {
  const SpeedSpec spec = parse_speed_list("1, 2.5\n3 # the slow one\n4e0");
  EXPECT_EQ(spec.source, SpeedSource::RankList);
  EXPECT_EQ(spec.rank_speeds, (std::vector<double>{1.0, 2.5, 3.0, 4.0}));
}

TEST(RuntimeConfig, HostPairs) {
  const SpeedSpec spec = parse_speed_list("nodeA=2,nodeB=0.5");
  ASSERT_EQ(spec.source, SpeedSource::HostList);
  ASSERT_EQ(spec.host_speeds.size(), 2u);
  EXPECT_EQ(spec.host_speeds[1].first, "nodeB");
  EXPECT_EQ(spec.host_speeds[1].second, 0.5);
}

TEST(RuntimeConfig, RefusesBadSpeedLists) {
  for (const char* bad : {"", " # only a comment", "1,x", "0", "-1", "nan", "inf", "1e400", "2.5abc", "1e-308",
                          "1,a=2", "a=2,1", "=2", "a=", "a=1,a=2", "a=0"}) {
    EXPECT_THROW(parse_speed_list(bad), InvalidArgument) << "'" << bad << "'";
  }
}

TEST(RuntimeConfig, Switches) {
  for (const char* on : {"1", "true", "YES", "On"}) EXPECT_TRUE(parse_switch("X", on)) << on;
  for (const char* off : {"", "0", "false", "no", "OFF"}) EXPECT_FALSE(parse_switch("X", off)) << off;
  for (const char* bad : {"2", "enable", "y"}) EXPECT_THROW(parse_switch("X", bad), InvalidArgument) << bad;
}

TEST(RuntimeConfig, DefaultsWhenNothingIsSet) {
  const Configuration config = parse({});
  EXPECT_TRUE(config.valid());
  EXPECT_FALSE(config.disabled);
  EXPECT_FALSE(config.force);
  EXPECT_EQ(config.min_n, 512);
  EXPECT_EQ(config.verbosity, Verbosity::Quiet);
  // No speeds given: start from the probe and learn the speeds from the calls.
  EXPECT_TRUE(config.adapt);
  EXPECT_EQ(config.speeds.source, SpeedSource::Probe);
}

TEST(RuntimeConfig, AdaptationCanBeSwitchedOff) {
  const Configuration off = parse({{"HETSCAL_ADAPT", "0"}});
  EXPECT_TRUE(off.valid());
  EXPECT_FALSE(off.adapt);
  // Without adaptation and without speeds there is nothing to plan with (every call forwarded).
  EXPECT_EQ(off.speeds.source, SpeedSource::None);
  EXPECT_EQ(parse({{"HETSCAL_ADAPT", "0"}, {"HETSCAL_PROBE", "1"}}).speeds.source, SpeedSource::Probe);
  const Configuration given = parse({{"HETSCAL_ADAPT", "off"}, {"HETSCAL_SPEEDS", "1,2"}});
  EXPECT_EQ(given.speeds.source, SpeedSource::RankList);
  EXPECT_NE(given.fingerprint(), parse({{"HETSCAL_SPEEDS", "1,2"}}).fingerprint());
  const Configuration bad = parse({{"HETSCAL_ADAPT", "sometimes"}});
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_EQ(bad.errors[0], "hetscal: HETSCAL_ADAPT='sometimes' is not a switch (1/0, on/off)");
}

TEST(RuntimeConfig, EveryVariable) {
  const Configuration config = parse({{"HETSCAL_DISABLE", "0"}, {"HETSCAL_FORCE", "1"},
                                      {"HETSCAL_MIN_N", "0"}, {"HETSCAL_VERBOSE", "2"},
                                      {"HETSCAL_SPEEDS", "1,2,3,4"}});
  EXPECT_TRUE(config.valid());
  EXPECT_TRUE(config.force);
  EXPECT_EQ(config.min_n, 0);
  EXPECT_EQ(config.verbosity, Verbosity::EveryCall);
  EXPECT_EQ(config.speeds.rank_speeds.size(), 4u);
}

TEST(RuntimeConfig, MinFlopsPerRank) {
  EXPECT_EQ(parse({}).min_flops_per_rank, kDefaultMinFlopsPerRank);
  EXPECT_EQ(parse({{"HETSCAL_MIN_FLOPS", "0"}}).min_flops_per_rank, 0);
  EXPECT_EQ(parse({{"HETSCAL_MIN_FLOPS", "250000"}}).min_flops_per_rank, 250000);
  const Configuration bad = parse({{"HETSCAL_MIN_FLOPS", "1e6"}});
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(bad.errors[0].find("HETSCAL_MIN_FLOPS='1e6'"), std::string::npos) << bad.errors[0];
  EXPECT_NE(parse({{"HETSCAL_MIN_FLOPS", "0"}}).fingerprint(), parse({}).fingerprint())
      << "ranks with other floors must not agree";
}

TEST(RuntimeConfig, TakeOverModeAndMemory) {
  EXPECT_EQ(parse({}).take_over, TakeOverMode::Auto);
  EXPECT_EQ(parse({}).memory_bytes, 0);
  EXPECT_EQ(parse({{"HETSCAL_TAKE_OVER", "In-Place"}}).take_over, TakeOverMode::InPlace);
  EXPECT_EQ(parse({{"HETSCAL_TAKE_OVER", "copy"}}).take_over, TakeOverMode::Copy);
  EXPECT_EQ(parse({{"HETSCAL_TAKE_OVER", "auto"}}).take_over, TakeOverMode::Auto);
  EXPECT_EQ(parse({{"HETSCAL_MEMORY", "1073741824"}}).memory_bytes, 1073741824);
  for (const char* bad : {"", "inplace", "copy,auto", "1"}) {
    const Configuration config = parse({{"HETSCAL_TAKE_OVER", bad}});
    ASSERT_EQ(config.errors.size(), 1u) << bad;
    EXPECT_NE(config.errors[0].find("is not auto, in-place or copy"), std::string::npos) << config.errors[0];
  }
  for (const char* bad : {"0", "-1", "1e9", "lots"}) {
    const Configuration config = parse({{"HETSCAL_MEMORY", bad}});
    ASSERT_EQ(config.errors.size(), 1u) << bad;
    EXPECT_NE(config.errors[0].find("HETSCAL_MEMORY"), std::string::npos) << config.errors[0];
  }
  // The route decides, so ranks must agree on it; the memory is agreed as the ranks' minimum.
  EXPECT_NE(parse({}).fingerprint(), parse({{"HETSCAL_TAKE_OVER", "copy"}}).fingerprint());
  EXPECT_EQ(parse({}).fingerprint(), parse({{"HETSCAL_MEMORY", "1000000"}}).fingerprint());
}

TEST(RuntimeConfig, SpeedsFromFileAndProbe) {
  const Configuration from_file = parse({{"HETSCAL_SPEEDS_FILE", "/speeds"}}, {{"/speeds", "# hosts\nn1=1\nn2=3\n"}});
  EXPECT_TRUE(from_file.valid());
  EXPECT_EQ(from_file.speeds.source, SpeedSource::HostList);
  EXPECT_EQ(parse({{"HETSCAL_PROBE", "1"}}).speeds.source, SpeedSource::Probe);
  // A given list wins over probing.
  EXPECT_EQ(parse({{"HETSCAL_PROBE", "1"}, {"HETSCAL_SPEEDS", "1,2"}}).speeds.source, SpeedSource::RankList);
}

TEST(RuntimeConfig, CollectsEveryMalformedVariable) {
  const Configuration config = parse({{"HETSCAL_MIN_N", "-3"}, {"HETSCAL_VERBOSE", "3"},
                                      {"HETSCAL_FORCE", "maybe"}, {"HETSCAL_SPEEDS", "1,2,fast"}});
  ASSERT_EQ(config.errors.size(), 4u);
  EXPECT_NE(config.errors[0].find("HETSCAL_FORCE='maybe'"), std::string::npos);
  EXPECT_NE(config.errors[1].find("HETSCAL_MIN_N='-3'"), std::string::npos);
  EXPECT_NE(config.errors[3].find("'fast'"), std::string::npos);
  EXPECT_FALSE(parse({{"HETSCAL_MIN_N", "12x"}}).valid());
}

TEST(RuntimeConfig, RefusesAmbiguousOrUnreadableSpeedSources) {
  EXPECT_FALSE(parse({{"HETSCAL_SPEEDS", "1"}, {"HETSCAL_SPEEDS_FILE", "/speeds"}},
                     {{"/speeds", "1"}}).valid());
  const Configuration missing = parse({{"HETSCAL_SPEEDS_FILE", "/nowhere"}});
  ASSERT_EQ(missing.errors.size(), 1u);
  EXPECT_NE(missing.errors[0].find("/nowhere"), std::string::npos);
}

TEST(RuntimeConfig, FingerprintSeparatesDecisiveSettingsOnly) {
  const std::string base = parse({{"HETSCAL_SPEEDS", "1,3"}}).fingerprint();
  // The verbosity and where the list was read decide nothing.
  EXPECT_EQ(base, parse({{"HETSCAL_SPEEDS", "1,3"}, {"HETSCAL_VERBOSE", "1"}}).fingerprint());
  EXPECT_EQ(base, parse({{"HETSCAL_SPEEDS_FILE", "/s"}}, {{"/s", "1\n3\n"}}).fingerprint());
  EXPECT_EQ(base, parse({{"HETSCAL_SPEEDS", "1,3"}, {"HETSCAL_ROUTINES", "PZGEMM pcgemm psgemm pdgemm "
                                                     "pdpotrf pspotrf pcpotrf pzpotrf pdgetrf psgetrf "
                                                     "pcgetrf pzgetrf pdgeqrf psgeqrf pcgeqrf pzgeqrf"}})
                      .fingerprint());  // every routine named = the default
  const std::vector<std::map<std::string, std::string>> other_decisions{
      {{"HETSCAL_SPEEDS", "3,1"}},  // the same speeds on other ranks
      {{"HETSCAL_SPEEDS", "1,3,1"}},
      {{"HETSCAL_SPEEDS", "1,3.0000000000000004"}},  // the next double after 3
      {{"HETSCAL_SPEEDS", "1,3"}, {"HETSCAL_MIN_N", "0"}},
      {{"HETSCAL_SPEEDS", "1,3"}, {"HETSCAL_DISABLE", "1"}},
      {{"HETSCAL_SPEEDS", "1,3"}, {"HETSCAL_FORCE", "1"}},
      {{"HETSCAL_SPEEDS", "1,3"}, {"HETSCAL_ROUTINES", "pdgemm"}},
      {{"HETSCAL_SPEEDS", "1,3"}, {"HETSCAL_FORCE", "maybe"}},  // malformed: forwards all
      {{"HETSCAL_PROBE", "1"}},
      {},
  };
  for (const auto& variables : other_decisions) {
    EXPECT_NE(base, parse(variables).fingerprint()) << parse(variables).fingerprint();
  }
  EXPECT_NE(parse({{"HETSCAL_ROUTINES", "pdgemm"}}).fingerprint(),
            parse({{"HETSCAL_ROUTINES", "pdpotrf"}}).fingerprint());
  EXPECT_NE(parse({{"HETSCAL_SPEEDS", "a=1,b=2"}}).fingerprint(),
            parse({{"HETSCAL_SPEEDS", "a=2,b=1"}}).fingerprint());
  EXPECT_NE(parse({{"HETSCAL_SPEEDS", "a=1,b=2"}}).fingerprint(),
            parse({{"HETSCAL_SPEEDS", "b=2,a=1"}}).fingerprint());  // order decides rank order
}

TEST(RuntimeConfig, SpeedsAreNormalPositiveDoubles) {
  EXPECT_EQ(parse_speed_list("2.3e-308,1e308").rank_speeds, (std::vector<double>{2.3e-308, 1e308}));
  const auto message_of = [](const std::string& list) -> std::string {
    try {
      parse_speed_list(list);
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_EQ(message_of("1e-308"), "hetscal: HETSCAL_SPEEDS: speed entry '1e-308' is subnormal, "
                                  "below 2.2e-308 (speeds are relative: scale the list up)");
  EXPECT_NE(message_of("1e309").find("'1e309' is outside the range of a double"), std::string::npos);
  EXPECT_NE(message_of("0").find("'0' is not > 0"), std::string::npos);
  EXPECT_NE(message_of("inf").find("'inf' is not finite"), std::string::npos);
  EXPECT_NE(message_of("1,fast").find("'fast' is not a number"), std::string::npos);
  EXPECT_EQ(message_of(" # none"), "hetscal: HETSCAL_SPEEDS lists no speed");
  EXPECT_EQ(message_of("a=1,a=2"), "hetscal: HETSCAL_SPEEDS: host 'a' is given two speeds");
}

TEST(RuntimeConfig, MessagesQuoteShortEscapedExcerpts) {
  EXPECT_EQ(message_excerpt("plain"), "plain");
  EXPECT_EQ(message_excerpt("\x1b[31mred\x7f\\"), "\\x1b[31mred\\x7f\\x5c");
  EXPECT_EQ(message_excerpt(std::string(40, 'a')), std::string(40, 'a'));
  EXPECT_EQ(message_excerpt(std::string(41, 'a')), std::string(40, 'a') + "\u2026");
  EXPECT_EQ(message_excerpt("caf\xc3\xa9", 4), "caf\\xc3\u2026");
  // A 50 kB entry with terminal escapes gives a short message without a raw control byte.
  const std::string hostile = "\x1b]0;owned\x07" + std::string(50000, '9') + "x";
  const Configuration config = parse({{"HETSCAL_SPEEDS", hostile}});
  ASSERT_EQ(config.errors.size(), 1u);
  const std::string& message = config.errors[0];
  EXPECT_LT(message.size(), 200u) << message;
  EXPECT_NE(message.find("'\\x1b]0;owned\\x07" + std::string(30, '9') + "\u2026'"), std::string::npos)
      << message;
  for (const char c : message) EXPECT_FALSE(c >= 0 && c < 0x20) << message;
}

TEST(RuntimeConfig, RoutinesAreAKnownSubsetInAnyCase) {
  std::set<std::string> expected;  // written out, not built as the library builds it
  for (const char* name : {"psgemm", "pdgemm", "pcgemm", "pzgemm", "pspotrf", "pdpotrf", "pcpotrf",
                           "pzpotrf", "psgetrf", "pdgetrf", "pcgetrf", "pzgetrf", "psgeqrf",
                           "pdgeqrf", "pcgeqrf", "pzgeqrf"}) {
    expected.insert(name);
  }
  EXPECT_EQ(known_routines(), expected);
  const Configuration all = parse({});
  for (const std::string& name : expected) EXPECT_TRUE(all.allows(name)) << name;
  EXPECT_FALSE(all.allows("pdgesv"));

  const Configuration some = parse({{"HETSCAL_ROUTINES", "PDGEMM, pdPotrf\npzgemm"}});
  ASSERT_TRUE(some.valid());
  EXPECT_EQ(some.routines, (std::set<std::string>{"pdgemm", "pdpotrf", "pzgemm"}));
  EXPECT_TRUE(some.allows("PDGEMM"));
  EXPECT_TRUE(some.allows("pdpotrf"));
  EXPECT_FALSE(some.allows("pdgetrf"));
  EXPECT_FALSE(some.allows("psgemm"));

  const Configuration unknown = parse({{"HETSCAL_ROUTINES", "pdgemm,pdgesv_,pdgetrf"}});
  ASSERT_EQ(unknown.errors.size(), 1u);
  EXPECT_NE(unknown.errors[0].find("HETSCAL_ROUTINES: 'pdgesv_' is not a routine hetscal implements"),
            std::string::npos) << unknown.errors[0];
  EXPECT_EQ(unknown.routines, expected);  // left at the default; the error forwards every call
  EXPECT_FALSE(parse({{"HETSCAL_ROUTINES", " , "}}).valid());
}

TEST(RuntimeConfig, CholeskyLayoutsAreAKnownSubsetInAnyCase) {
  using core::CholeskyLayoutKind;
  EXPECT_EQ(parse({}).cholesky_layouts.size(), 6u);
  const Configuration some = parse({{"HETSCAL_CHOLESKY_LAYOUTS", "Hetero-Symmetric, gcrm\nGCRM"}});
  ASSERT_TRUE(some.valid());
  EXPECT_EQ(some.cholesky_layouts,
            (std::vector<CholeskyLayoutKind>{CholeskyLayoutKind::Gcrm, CholeskyLayoutKind::HeteroSymmetric}));
  EXPECT_NE(some.fingerprint(), parse({{"HETSCAL_CHOLESKY_LAYOUTS", "gcrm"}}).fingerprint());
  EXPECT_EQ(parse({{"HETSCAL_CHOLESKY_LAYOUTS", "caller 2dbc hetero-grid g2dbc gcrm hetero-symmetric"}}).fingerprint(),
            parse({}).fingerprint());
  const Configuration unknown = parse({{"HETSCAL_CHOLESKY_LAYOUTS", "gcrm,2d-block-cyclic"}});
  ASSERT_EQ(unknown.errors.size(), 1u);
  EXPECT_NE(unknown.errors[0].find("HETSCAL_CHOLESKY_LAYOUTS: '2d-block-cyclic' is not a layout (caller, 2dbc"),
            std::string::npos) << unknown.errors[0];
  EXPECT_FALSE(parse({{"HETSCAL_CHOLESKY_LAYOUTS", " , "}}).valid());
}

TEST(RuntimeConfig, LuLayoutsAreAKnownSubsetInAnyCase) {
  using core::LuLayoutKind;
  EXPECT_EQ(parse({}).lu_layouts, all_lu_layouts());
  EXPECT_EQ(all_lu_layouts().size(), 5u);
  const Configuration some = parse({{"HETSCAL_LU_LAYOUTS", "Hetero-Pattern G2DBC,g2dbc"}});
  ASSERT_TRUE(some.valid());
  EXPECT_EQ(some.lu_layouts, (std::vector<LuLayoutKind>{LuLayoutKind::G2dbc, LuLayoutKind::HeteroPattern}));
  EXPECT_NE(some.fingerprint(), parse({{"HETSCAL_LU_LAYOUTS", "g2dbc"}}).fingerprint());
  EXPECT_EQ(parse({{"HETSCAL_LU_LAYOUTS", "caller,2dbc,hetero-grid,g2dbc,hetero-pattern"}}).fingerprint(),
            parse({}).fingerprint());
  const Configuration unknown = parse({{"HETSCAL_LU_LAYOUTS", "2dbc,gcrm"}});
  ASSERT_EQ(unknown.errors.size(), 1u);
  EXPECT_NE(unknown.errors[0].find("HETSCAL_LU_LAYOUTS: 'gcrm' is not a layout (caller, 2dbc, hetero-grid, g2dbc, "
                                   "hetero-pattern)"),
            std::string::npos) << unknown.errors[0];
  EXPECT_EQ(unknown.lu_layouts, all_lu_layouts());  // left at the default; the error forwards every call
  EXPECT_FALSE(parse({{"HETSCAL_LU_LAYOUTS", ""}}).valid());
}

TEST(RuntimeConfig, QrLayoutsAreParsedAsTheLusOnTheirOwn) {
  using core::LuLayoutKind;
  EXPECT_EQ(parse({}).qr_layouts, all_lu_layouts());
  const Configuration some = parse({{"HETSCAL_QR_LAYOUTS", "HETERO-grid 2dbc"}});
  ASSERT_TRUE(some.valid());
  EXPECT_EQ(some.qr_layouts, (std::vector<LuLayoutKind>{LuLayoutKind::BlockCyclic, LuLayoutKind::HeterogeneousGrid}));
  EXPECT_EQ(some.lu_layouts, all_lu_layouts());  // the LU's own variable is not read for QR
  EXPECT_NE(some.fingerprint(), parse({{"HETSCAL_LU_LAYOUTS", "2dbc,hetero-grid"}}).fingerprint());
  const Configuration unknown = parse({{"HETSCAL_QR_LAYOUTS", "tsqr"}});
  ASSERT_EQ(unknown.errors.size(), 1u);
  EXPECT_NE(unknown.errors[0].find("HETSCAL_QR_LAYOUTS: 'tsqr' is not a layout"), std::string::npos) << unknown.errors[0];
  EXPECT_FALSE(parse({{"HETSCAL_QR_LAYOUTS", " , "}}).valid());
}

TEST(RuntimeConfig, CountErrorsNameTheVariableTheListCameFrom) {
  const Configuration from_file = parse({{"HETSCAL_SPEEDS_FILE", "/etc/speeds"}}, {{"/etc/speeds", "1 2"}});
  ASSERT_TRUE(from_file.valid());
  const auto count_error = [](const SpeedSpec& spec) -> std::string {
    try {
      speed_of_process(spec, 0, 3, "node", [] { return 1.0; });
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_EQ(count_error(from_file.speeds),
            "hetscal: HETSCAL_SPEEDS_FILE='/etc/speeds' lists 2 speeds for 3 ranks of MPI_COMM_WORLD");
  EXPECT_EQ(count_error(parse({{"HETSCAL_SPEEDS", "1 2"}}).speeds),
            "hetscal: HETSCAL_SPEEDS lists 2 speeds for 3 ranks of MPI_COMM_WORLD");
  const Configuration bad_file = parse({{"HETSCAL_SPEEDS_FILE", "/s"}}, {{"/s", "1\nslow\n"}});
  ASSERT_EQ(bad_file.errors.size(), 1u);
  EXPECT_EQ(bad_file.errors[0], "hetscal: HETSCAL_SPEEDS_FILE='/s': speed entry 'slow' is not a number");
}

TEST(RuntimeConfig, SpeedOfEachProcess) {
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
