#include "mpi/fault_injection.hpp"

#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <thread>
#include <utility>

#include "core/common/value_list.hpp"

namespace hetscal::mpi {
namespace {

constexpr Stage kStages[] = {Stage::Plan, Stage::Allocate, Stage::MoveIn, Stage::Compute,
                             Stage::MoveOut};

// The stages this process must fail, from HETSCAL_TEST_FAULT (read once).
const std::set<Stage>& faulty_stages() {
  static const std::set<Stage> stages = [] {
    std::set<Stage> chosen;
    const char* text = std::getenv("HETSCAL_TEST_FAULT");
    if (text == nullptr || *text == '\0') return chosen;
    int world_rank = 0;
    if (MPI_Comm_rank(MPI_COMM_WORLD, &world_rank) != MPI_SUCCESS) return chosen;  // no fault then
    for (const std::string& entry : core::split_value_list(text)) {
      const std::size_t at = entry.find('@');
      bool known = false;
      for (Stage stage : kStages) {
        if (at == std::string::npos || entry.compare(0, at, stage_name(stage)) != 0 ||
            at != std::string(stage_name(stage)).size()) {
          continue;
        }
        known = true;
        if (entry.substr(at + 1) == std::to_string(world_rank)) chosen.insert(stage);
      }
      if (!known) {
        std::fprintf(stderr, "hetscal: HETSCAL_TEST_FAULT entry '%.40s' is not <stage>@<rank>; ignored\n",
                     entry.c_str());
      }
    }
    return chosen;
  }();
  return stages;
}

// HETSCAL_TEST_SLOW_COMPUTE in seconds (read once; 0 when unset or malformed).
double slow_compute_seconds() {
  static const double seconds = [] {
    const char* text = std::getenv("HETSCAL_TEST_SLOW_COMPUTE");
    if (text == nullptr || *text == '\0') return 0.0;
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (*end != '\0' || !std::isfinite(value) || value < 0.0) {
      std::fprintf(stderr, "hetscal: HETSCAL_TEST_SLOW_COMPUTE='%.40s' is not a number of seconds; ignored\n", text);
      return 0.0;
    }
    return value;
  }();
  return seconds;
}

}  // namespace

const char* stage_name(Stage stage) {
  switch (stage) {
    case Stage::Plan: return "plan";
    case Stage::Allocate: return "allocate";
    case Stage::MoveIn: return "move-in";
    case Stage::Compute: return "compute";
    case Stage::MoveOut: return "move-out";
  }
  return "?";
}

void fault_point(Stage stage) {
  if (faulty_stages().count(stage) != 0) {
    throw InjectedFault(std::string("injected fault (HETSCAL_TEST_FAULT) in stage ") + stage_name(stage));
  }
}

void slow_compute_point() {
  const double seconds = slow_compute_seconds();
  if (seconds > 0.0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

}  // namespace hetscal::mpi
