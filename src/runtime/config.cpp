#include "runtime/config.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <sstream>

#include "core/common/bounded_file.hpp"
#include "core/common/error.hpp"
#include "core/common/value_list.hpp"

namespace hetscal::runtime {
namespace {

// A path is quoted longer than a bad entry: its directories are what tells files apart.
constexpr std::size_t kPathExcerpt = 200;

std::string quoted(const std::string& text, std::size_t max_chars = 40) {
  return "'" + message_excerpt(text, max_chars) + "'";
}

// Why `text` is not a speed, or "" when `value` is one. Speeds are relative, so any normal
// double > 0 will do; a subnormal one is refused, since the planner's sums and ratios of
// speeds would lose it (1e-308 + 1 == 1) or overflow dividing by it.
std::string speed_problem(const std::string& text, double& value) {
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (stop == text.data() || (error == std::errc() && stop != end)) return "is not a number";
  if (error == std::errc::result_out_of_range) {
    return "is outside the range of a double (a speed lies between 2.2e-308 and 1.8e308)";
  }
  if (!std::isfinite(value)) return "is not finite";
  if (value <= 0.0) return "is not > 0";
  if (value < std::numeric_limits<double>::min()) {
    return "is subnormal, below 2.2e-308 (speeds are relative: scale the list up)";
  }
  return "";
}

double parse_speed(const std::string& text, const std::string& entry, const std::string& origin) {
  double value = 0.0;
  const std::string problem = speed_problem(text, value);
  if (!problem.empty()) {
    throw InvalidArgument("hetscal: " + origin + ": speed entry " + quoted(entry) + " " + problem);
  }
  return value;
}

std::int64_t parse_count(const std::string& name, const std::string& value) {
  std::int64_t parsed = -1;
  const char* const end = value.data() + value.size();
  const auto [stop, error] = std::from_chars(value.data(), end, parsed);
  if (error != std::errc() || stop != end || parsed < 0) {
    throw InvalidArgument("hetscal: " + name + "=" + quoted(value) + " is not an integer >= 0");
  }
  return parsed;
}

std::string join(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

void add_speeds(std::ostringstream& out, const SpeedSpec& speeds) {
  out << ";source=" << static_cast<int>(speeds.source) << ";speeds=" << std::hexfloat;
  for (double speed : speeds.rank_speeds) out << speed << ',';
  // Host names carry their length, so that no name can imitate a list of others.
  for (const auto& [host, speed] : speeds.host_speeds) {
    out << host.size() << ':' << host << '=' << speed << ',';
  }
  out << std::defaultfloat;
}

std::optional<std::string> getenv_lookup(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

}  // namespace

std::string message_excerpt(const std::string& text, std::size_t max_chars) {
  std::string shown;
  for (std::size_t i = 0; i < text.size() && i < max_chars; ++i) {
    const unsigned char byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f && byte != '\\') {
      shown += static_cast<char>(byte);
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      shown += escaped;
    }
  }
  return text.size() > max_chars ? shown + "\u2026" : shown;
}

FileRead read_speeds_file(const std::string& path) {
  return core::read_bounded_file(path, kMaxSpeedsFileBytes, "a speeds file");
}

const std::set<std::string>& known_routines() {
  static const std::set<std::string> names = [] {
    std::set<std::string> all;
    for (const char* operation : {"gemm", "potrf", "getrf", "geqrf"}) {
      for (const char type : {'s', 'd', 'c', 'z'}) all.insert(std::string("p") + type + operation);
    }
    return all;
  }();
  return names;
}

std::set<std::string> parse_routine_list(const std::string& text) {
  const std::vector<std::string> entries = core::split_value_list(text);
  if (entries.empty()) {
    throw InvalidArgument("hetscal: HETSCAL_ROUTINES names no routine (unset it to allow all, "
                          "or set HETSCAL_DISABLE=1 to forward every call)");
  }
  std::set<std::string> routines;
  for (const std::string& entry : entries) {
    const std::string name = core::ascii_lowercase(entry);
    if (known_routines().count(name) == 0) {
      throw InvalidArgument("hetscal: HETSCAL_ROUTINES: " + quoted(entry) +
                            " is not a routine hetscal implements (" + join(known_routines()) + ")");
    }
    routines.insert(name);
  }
  return routines;
}

const char* take_over_mode_name(TakeOverMode mode) {
  switch (mode) {
    case TakeOverMode::Auto: return "auto";
    case TakeOverMode::InPlace: return "in-place";
    case TakeOverMode::Copy: return "copy";
  }
  return "?";
}

TakeOverMode parse_take_over_mode(const std::string& value) {
  const std::string v = core::ascii_lowercase(value);
  for (TakeOverMode mode : {TakeOverMode::Auto, TakeOverMode::InPlace, TakeOverMode::Copy}) {
    if (v == take_over_mode_name(mode)) return mode;
  }
  throw InvalidArgument("hetscal: HETSCAL_TAKE_OVER=" + quoted(value) + " is not auto, in-place or copy");
}

Configuration::Configuration() : routines(known_routines()) {}

bool Configuration::allows(const std::string& routine) const {
  return routines.count(core::ascii_lowercase(routine)) != 0;
}

std::string Configuration::fingerprint() const {
  std::ostringstream out;
  out << "valid=" << valid() << ";disabled=" << disabled << ";force=" << force
      << ";adapt=" << adapt << ";min_n=" << min_n << ";min_flops=" << min_flops_per_rank << ";routines=" << join(routines) << ";cholesky_layouts=";
  for (core::CholeskyLayoutKind kind : cholesky_layouts) out << cholesky_layout_option_name(kind) << ',';
  out << ";lu_layouts=";
  for (core::LuLayoutKind kind : lu_layouts) out << lu_layout_option_name(kind) << ',';
  out << ";qr_layouts=";
  for (core::LuLayoutKind kind : qr_layouts) out << lu_layout_option_name(kind) << ',';
  out << ";take_over=" << take_over_mode_name(take_over);
  add_speeds(out, speeds);
  return out.str();
}

SpeedSpec parse_speed_list(const std::string& text, const std::string& origin) {
  const std::vector<std::string> entries = core::split_value_list(text);
  if (entries.empty()) throw InvalidArgument("hetscal: " + origin + " lists no speed");
  SpeedSpec spec;
  spec.origin = origin;
  const bool by_host = entries.front().find('=') != std::string::npos;
  spec.source = by_host ? SpeedSource::HostList : SpeedSource::RankList;
  for (const std::string& entry : entries) {
    const std::size_t equals = entry.find('=');
    if ((equals != std::string::npos) != by_host) {
      throw InvalidArgument("hetscal: " + origin + ": speed entry " + quoted(entry) +
                            " mixes host=speed pairs with plain speeds");
    }
    if (!by_host) {
      spec.rank_speeds.push_back(parse_speed(entry, entry, origin));
      continue;
    }
    const std::string host = entry.substr(0, equals);
    if (host.empty()) {
      throw InvalidArgument("hetscal: " + origin + ": speed entry " + quoted(entry) +
                            " has no host name");
    }
    for (const auto& [known, speed] : spec.host_speeds) {
      if (known == host) {
        throw InvalidArgument("hetscal: " + origin + ": host " + quoted(host) +
                              " is given two speeds");
      }
    }
    spec.host_speeds.emplace_back(host, parse_speed(entry.substr(equals + 1), entry, origin));
  }
  return spec;
}

bool parse_switch(const std::string& name, const std::string& value) {
  const std::string v = core::ascii_lowercase(value);
  if (v.empty() || v == "0" || v == "false" || v == "no" || v == "off") return false;
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  throw InvalidArgument("hetscal: " + name + "=" + quoted(value) +
                        " is not a switch (1/0, on/off)");
}

namespace {

SpeedSpec speeds_from_file(const std::string& path, const FileReader& read_file) {
  const std::string origin = "HETSCAL_SPEEDS_FILE=" + quoted(path, kPathExcerpt);
  const FileRead read = read_file(path);
  if (!read.content) throw InvalidArgument("hetscal: " + origin + " " + read.problem);
  return parse_speed_list(*read.content, origin);
}

}  // namespace

Configuration parse_configuration(const EnvironmentLookup& lookup, const FileReader& read_file) {
  Configuration config;
  // Each variable on its own, so that one malformed value is reported with the others; any
  // other failure (memory, a reader's exception) is a message too, never an escape.
  const auto guarded = [&config](const auto& parse) {
    try {
      parse();
    } catch (const InvalidArgument& e) {
      config.errors.emplace_back(e.what());
    } catch (const std::bad_alloc& e) {
      config.short_of_memory = true;
      config.errors.emplace_back(std::string("hetscal: reading the configuration failed: ") + e.what());
    } catch (const std::exception& e) {
      config.errors.emplace_back(std::string("hetscal: reading the configuration failed: ") + e.what());
    }
  };
  const auto get = [&lookup](const char* name) { return lookup(name); };
  guarded([&] { if (auto v = get("HETSCAL_DISABLE")) config.disabled = parse_switch("HETSCAL_DISABLE", *v); });
  guarded([&] { if (auto v = get("HETSCAL_FORCE")) config.force = parse_switch("HETSCAL_FORCE", *v); });
  guarded([&] { if (auto v = get("HETSCAL_ADAPT")) config.adapt = parse_switch("HETSCAL_ADAPT", *v); });
  guarded([&] { if (auto v = get("HETSCAL_MIN_N")) config.min_n = parse_count("HETSCAL_MIN_N", *v); });
  guarded([&] {
    if (auto v = get("HETSCAL_MIN_FLOPS")) config.min_flops_per_rank = parse_count("HETSCAL_MIN_FLOPS", *v);
  });
  guarded([&] { if (auto v = get("HETSCAL_ROUTINES")) config.routines = parse_routine_list(*v); });
  guarded([&] {
    if (auto v = get("HETSCAL_CHOLESKY_LAYOUTS")) config.cholesky_layouts = parse_cholesky_layouts(*v);
  });
  guarded([&] { if (auto v = get("HETSCAL_LU_LAYOUTS")) config.lu_layouts = parse_lu_layouts(*v); });
  guarded([&] { if (auto v = get("HETSCAL_QR_LAYOUTS")) config.qr_layouts = parse_qr_layouts(*v); });
  guarded([&] { if (auto v = get("HETSCAL_TAKE_OVER")) config.take_over = parse_take_over_mode(*v); });
  guarded([&] {
    if (auto v = get("HETSCAL_MEMORY")) {
      config.memory_bytes = parse_count("HETSCAL_MEMORY", *v);
      if (config.memory_bytes == 0) throw InvalidArgument("hetscal: HETSCAL_MEMORY=" + quoted(*v) + " is not a number of bytes > 0");
    }
  });
  guarded([&] {
    if (auto v = get("HETSCAL_VERBOSE")) {
      const std::int64_t level = parse_count("HETSCAL_VERBOSE", *v);
      if (level > 2) throw InvalidArgument("hetscal: HETSCAL_VERBOSE=" + quoted(*v) + " is not 0, 1 or 2");
      config.verbosity = static_cast<Verbosity>(level);
    }
  });
  guarded([&] {
    const std::optional<std::string> list = get("HETSCAL_SPEEDS");
    const std::optional<std::string> file = get("HETSCAL_SPEEDS_FILE");
    if (list && file) {
      throw InvalidArgument("hetscal: HETSCAL_SPEEDS and HETSCAL_SPEEDS_FILE are both set");
    } else if (list) {
      config.speeds = parse_speed_list(*list, "HETSCAL_SPEEDS");
    } else if (file) {
      config.speeds = speeds_from_file(*file, read_file);
    } else if (auto probe = get("HETSCAL_PROBE"); probe && parse_switch("HETSCAL_PROBE", *probe)) {
      config.speeds.source = SpeedSource::Probe;
    } else if (config.adapt) {
      // Nothing given: start from the probe and learn the speeds from the calls.
      config.speeds.source = SpeedSource::Probe;
    }
  });
  return config;
}

ConfigurationCache::ConfigurationCache(EnvironmentLookup lookup, FileReader read_file)
    : lookup_(std::move(lookup)), read_file_(std::move(read_file)) {}

const Configuration& ConfigurationCache::get() {
  // parse_configuration does not throw, so call_once always completes and never parses again.
  std::call_once(parsed_, [this] { config_ = parse_configuration(lookup_, read_file_); });
  return config_;
}

const Configuration& process_configuration() {
  static ConfigurationCache cache(getenv_lookup, read_speeds_file);
  return cache.get();
}

double speed_of_process(const SpeedSpec& spec, int world_rank, int world_size,
                        const std::string& host, const std::function<double()>& probe) {
  switch (spec.source) {
    case SpeedSource::RankList:
      if (static_cast<int>(spec.rank_speeds.size()) != world_size) {
        throw InvalidArgument("hetscal: " + spec.origin + " lists " +
                              std::to_string(spec.rank_speeds.size()) + " speeds for " +
                              std::to_string(world_size) + " ranks of MPI_COMM_WORLD");
      }
      return spec.rank_speeds[static_cast<std::size_t>(world_rank)];
    case SpeedSource::HostList:
      for (const auto& [name, speed] : spec.host_speeds) {
        if (name == host) return speed;
      }
      throw InvalidArgument("hetscal: host " + quoted(host) + " has no speed in " + spec.origin);
    case SpeedSource::Probe:
      return probe();
    case SpeedSource::None:
      break;
  }
  throw InvalidArgument("hetscal: no speeds configured (HETSCAL_SPEEDS, HETSCAL_SPEEDS_FILE "
                        "or HETSCAL_PROBE=1)");
}

}  // namespace hetscal::runtime
