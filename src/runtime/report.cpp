#include "runtime/report.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

namespace hetscal::runtime {
namespace {

struct Counts {
  long computed = 0;
  long forwarded = 0;
};

std::mutex& lock() {
  static std::mutex m;
  return m;
}

std::map<std::string, Counts>& counts() {
  static auto* table = new std::map<std::string, Counts>;  // outlives static destructors
  return *table;
}

void print_summary() { std::fputs(summary_text().c_str(), stderr); }

void arm_summary(Verbosity verbosity) {
  static std::once_flag armed;
  if (verbosity == Verbosity::Quiet) return;
  std::call_once(armed, [] { std::atexit(print_summary); });
}

}  // namespace

void report_once(Verbosity verbosity, Verbosity needed, bool context_root, const std::string& message) {
  if (!context_root || verbosity < needed) return;
  static std::set<std::string> printed;
  std::lock_guard<std::mutex> guard(lock());
  if (!printed.insert(message).second) return;
  std::fprintf(stderr, "hetscal: %s\n", message.c_str());
}

void report_always(Verbosity verbosity, Verbosity needed, bool context_root, const std::string& message) {
  if (context_root && verbosity >= needed) std::fprintf(stderr, "hetscal: %s\n", message.c_str());
}

void report_once_per_key(Verbosity verbosity, bool context_root, const std::string& key,
                         const std::string& message) {
  if (!context_root || verbosity == Verbosity::Quiet) return;
  if (verbosity == Verbosity::Once) {
    static std::set<std::string> keys;
    std::lock_guard<std::mutex> guard(lock());
    if (!keys.insert(key).second) return;
  }
  std::fprintf(stderr, "hetscal: %s\n", message.c_str());
}

void report_call(Verbosity verbosity, bool context_root, const std::string& routine,
                 bool computed, const std::string& what) {
  arm_summary(verbosity);
  {
    std::lock_guard<std::mutex> guard(lock());
    Counts& c = counts()[routine];
    ++(computed ? c.computed : c.forwarded);
  }
  if (verbosity == Verbosity::EveryCall) {
    report_always(verbosity, Verbosity::EveryCall, context_root, what);
  } else {
    report_once(verbosity, Verbosity::Once, context_root, what);
  }
}

std::string summary_text() {
  std::lock_guard<std::mutex> guard(lock());
  std::string text;
  for (const auto& [routine, c] : counts()) {
    text += "hetscal: summary: " + routine + " " + std::to_string(c.computed) + " computed, " +
            std::to_string(c.forwarded) + " forwarded\n";
  }
  return text;
}

}  // namespace hetscal::runtime
