// HETSCAL_SLOWDOWN's grammar (slowdown.hpp): rank:factor[@calls=A..B | @t=A..B], parsed apart
// from the interposer so that it is unit-tested without preloading anything.
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/common/error.hpp"
#include "tools/slowdown/slowdown.hpp"

namespace hetscal::slowdown {
namespace {

std::string in_entry(const std::string& entry) { return " in '" + entry + "'"; }

double parse_number(const std::string& text, const std::string& what, const std::string& entry) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    throw InvalidArgument("HETSCAL_SLOWDOWN: " + what + " '" + text + "' is not a number" + in_entry(entry));
  return value;
}

// "calls=A..B" or "t=A..B", B optional.
void parse_window(const std::string& window, const std::string& entry, Phase& phase) {
  const auto equals = window.find('=');
  const std::string clock = window.substr(0, equals);
  if (equals == std::string::npos || (clock != "calls" && clock != "t"))
    throw InvalidArgument("HETSCAL_SLOWDOWN: window '" + window + "' is not calls=A..B or t=A..B" + in_entry(entry));
  phase.clock = clock == "calls" ? WindowClock::Calls : WindowClock::Seconds;
  const std::string range = window.substr(equals + 1);
  const auto dots = range.find("..");
  if (dots == std::string::npos)
    throw InvalidArgument("HETSCAL_SLOWDOWN: window '" + window + "' has no '..'" + in_entry(entry));
  phase.start = parse_number(range.substr(0, dots), "window start", entry);
  const std::string end = range.substr(dots + 2);
  if (!end.empty()) phase.end = parse_number(end, "window end", entry);
  if (phase.start < 0.0 || phase.end <= phase.start)
    throw InvalidArgument("HETSCAL_SLOWDOWN: window '" + window + "' is empty or negative (want 0 <= A < B)" + in_entry(entry));
  if (phase.clock == WindowClock::Calls &&
      (phase.start != std::floor(phase.start) || (std::isfinite(phase.end) && phase.end != std::floor(phase.end))))
    throw InvalidArgument("HETSCAL_SLOWDOWN: call numbers in '" + window + "' are not whole" + in_entry(entry));
}

// One entry: its rank and phase.
std::pair<long, Phase> parse_entry(const std::string& entry) {
  const auto colon = entry.find(':');
  if (colon == std::string::npos)
    throw InvalidArgument("HETSCAL_SLOWDOWN: entry '" + entry + "' is not rank:factor");
  char* end = nullptr;
  const long rank = std::strtol(entry.c_str(), &end, 10);
  if (colon == 0 || end != entry.c_str() + colon || rank < 0)
    throw InvalidArgument("HETSCAL_SLOWDOWN: bad rank in '" + entry + "'");
  const auto at = entry.find('@', colon);
  Phase phase;
  const std::string factor = entry.substr(colon + 1, at == std::string::npos ? std::string::npos : at - colon - 1);
  phase.factor = parse_number(factor, "factor", entry);
  if (phase.factor < 1.0)
    throw InvalidArgument("HETSCAL_SLOWDOWN: factor in '" + entry + "' is below 1 (only slowing is possible)");
  if (at != std::string::npos) parse_window(entry.substr(at + 1), entry, phase);
  return {rank, phase};
}

bool overlap(const Phase& a, const Phase& b) {
  if (a.clock == WindowClock::Always || b.clock == WindowClock::Always) return true;
  // Windows on different clocks cannot be compared: they may overlap, so they are refused.
  if (a.clock != b.clock) return true;
  return a.start < b.end && b.start < a.end;
}

}  // namespace

std::vector<Phase> phases_for_rank(const std::string& spec, int rank) {
  std::vector<std::pair<long, Phase>> all;
  std::stringstream entries(spec);
  for (std::string entry; std::getline(entries, entry, ',');) {
    auto parsed = parse_entry(entry);
    for (const auto& [other_rank, other] : all)
      if (other_rank == parsed.first && overlap(other, parsed.second))
        throw InvalidArgument("HETSCAL_SLOWDOWN: entry '" + entry + "' overlaps an earlier entry of rank " +
                              std::to_string(parsed.first));
    all.push_back(std::move(parsed));
  }
  std::vector<Phase> mine;
  for (const auto& [listed, phase] : all)
    if (listed == rank) mine.push_back(phase);
  return mine;
}

double factor_at(const std::vector<Phase>& phases, double call, double seconds) {
  for (const Phase& phase : phases) {
    const double now = phase.clock == WindowClock::Calls ? call : seconds;
    if (phase.clock == WindowClock::Always || (phase.start <= now && now < phase.end)) return phase.factor;
  }
  return 1.0;
}

double factor_for_rank(const std::string& spec, int rank) {
  const std::vector<Phase> phases = phases_for_rank(spec, rank);
  if (phases.empty()) return 1.0;
  if (phases.front().clock != WindowClock::Always)
    throw InvalidArgument("HETSCAL_SLOWDOWN: rank " + std::to_string(rank) + "'s factor changes during the run");
  return phases.front().factor;
}

}  // namespace hetscal::slowdown
