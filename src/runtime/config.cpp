#include "runtime/config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/value_list.hpp"

namespace hetscal::runtime {
namespace {

double parse_speed(const std::string& text, const std::string& entry) {
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value) || value <= 0.0) {
    throw InvalidArgument("hetscal: speed entry '" + entry +
                          "' is not a finite number > 0");
  }
  return value;
}

std::int64_t parse_count(const std::string& name, const std::string& value) {
  std::size_t used = 0;
  long long parsed = -1;
  try {
    parsed = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || parsed < 0) {
    throw InvalidArgument("hetscal: " + name + "='" + value + "' is not an integer >= 0");
  }
  return parsed;
}

std::optional<std::string> read_whole_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

}  // namespace

std::string Configuration::fingerprint() const {
  std::ostringstream out;
  out << "disabled=" << disabled << ";force=" << force << ";min_n=" << min_n
      << ";source=" << static_cast<int>(speeds.source) << ";errors=" << errors.size();
  return out.str();
}

SpeedSpec parse_speed_list(const std::string& text) {
  const std::vector<std::string> entries = core::split_value_list(text);
  if (entries.empty()) throw InvalidArgument("hetscal: the speed list is empty");
  SpeedSpec spec;
  const bool by_host = entries.front().find('=') != std::string::npos;
  spec.source = by_host ? SpeedSource::HostList : SpeedSource::RankList;
  std::set<std::string> hosts;
  for (const std::string& entry : entries) {
    const std::size_t equals = entry.find('=');
    if ((equals != std::string::npos) != by_host) {
      throw InvalidArgument("hetscal: speed entry '" + entry +
                            "' mixes host=speed pairs with plain speeds");
    }
    if (!by_host) {
      spec.rank_speeds.push_back(parse_speed(entry, entry));
      continue;
    }
    const std::string host = entry.substr(0, equals);
    if (host.empty()) throw InvalidArgument("hetscal: speed entry '" + entry + "' has no host name");
    if (!hosts.insert(host).second) {
      throw InvalidArgument("hetscal: host '" + host + "' is given two speeds");
    }
    spec.host_speeds.emplace_back(host, parse_speed(entry.substr(equals + 1), entry));
  }
  return spec;
}

bool parse_switch(const std::string& name, const std::string& value) {
  const std::string v = core::ascii_lowercase(value);
  if (v.empty() || v == "0" || v == "false" || v == "no" || v == "off") return false;
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  throw InvalidArgument("hetscal: " + name + "='" + value + "' is not a switch (1/0, on/off)");
}

Configuration parse_configuration(const EnvironmentLookup& lookup, const FileReader& read_file) {
  Configuration config;
  // Each variable on its own, so that one malformed value is reported with the others.
  const auto guarded = [&config](const auto& parse) {
    try {
      parse();
    } catch (const InvalidArgument& e) {
      config.errors.emplace_back(e.what());
    }
  };
  const auto get = [&lookup](const char* name) { return lookup(name); };
  guarded([&] { if (auto v = get("HETSCAL_DISABLE")) config.disabled = parse_switch("HETSCAL_DISABLE", *v); });
  guarded([&] { if (auto v = get("HETSCAL_FORCE")) config.force = parse_switch("HETSCAL_FORCE", *v); });
  guarded([&] { if (auto v = get("HETSCAL_MIN_N")) config.min_n = parse_count("HETSCAL_MIN_N", *v); });
  guarded([&] {
    if (auto v = get("HETSCAL_VERBOSE")) {
      const std::int64_t level = parse_count("HETSCAL_VERBOSE", *v);
      if (level > 2) throw InvalidArgument("hetscal: HETSCAL_VERBOSE='" + *v + "' is not 0, 1 or 2");
      config.verbosity = static_cast<Verbosity>(level);
    }
  });
  const std::optional<std::string> list = get("HETSCAL_SPEEDS");
  const std::optional<std::string> file = get("HETSCAL_SPEEDS_FILE");
  guarded([&] {
    if (list && file) {
      throw InvalidArgument("hetscal: HETSCAL_SPEEDS and HETSCAL_SPEEDS_FILE are both set");
    } else if (list) {
      config.speeds = parse_speed_list(*list);
    } else if (file) {
      const std::optional<std::string> content = read_file(*file);
      if (!content) throw InvalidArgument("hetscal: HETSCAL_SPEEDS_FILE='" + *file + "' cannot be read");
      config.speeds = parse_speed_list(*content);
    } else if (auto probe = get("HETSCAL_PROBE"); probe && parse_switch("HETSCAL_PROBE", *probe)) {
      config.speeds.source = SpeedSource::Probe;
    }
  });
  return config;
}

const Configuration& process_configuration() {
  static const Configuration config = parse_configuration(
      [](const std::string& name) -> std::optional<std::string> {
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
      },
      read_whole_file);
  return config;
}

double speed_of_process(const SpeedSpec& spec, int world_rank, int world_size,
                        const std::string& host, const std::function<double()>& probe) {
  switch (spec.source) {
    case SpeedSource::RankList:
      if (static_cast<int>(spec.rank_speeds.size()) != world_size) {
        throw InvalidArgument("hetscal: HETSCAL_SPEEDS lists " +
                              std::to_string(spec.rank_speeds.size()) + " speeds for " +
                              std::to_string(world_size) + " ranks of MPI_COMM_WORLD");
      }
      return spec.rank_speeds[static_cast<std::size_t>(world_rank)];
    case SpeedSource::HostList:
      for (const auto& [name, speed] : spec.host_speeds) {
        if (name == host) return speed;
      }
      throw InvalidArgument("hetscal: host '" + host + "' has no speed in HETSCAL_SPEEDS");
    case SpeedSource::Probe:
      return probe();
    case SpeedSource::None:
      break;
  }
  throw InvalidArgument("hetscal: no speeds configured (HETSCAL_SPEEDS, HETSCAL_SPEEDS_FILE "
                        "or HETSCAL_PROBE=1)");
}

}  // namespace hetscal::runtime
