#include "runtime/context_state.hpp"

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include "core/common/error.hpp"
#include "mpi/agreement.hpp"
#include "mpi/mpi_error.hpp"
#include "runtime/report.hpp"
#include "runtime/speed_probe.hpp"

namespace hetscal::runtime {
namespace {

using runtime::Configuration;
using runtime::SpeedSource;
using runtime::process_configuration;
using runtime::speed_of_process;

// FNV-1a: the same on every rank (std::hash need not be).
std::uint64_t fingerprint_hash(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

std::string host_name() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  if (MPI_Get_processor_name(name, &length) != MPI_SUCCESS) return {};  // no host: per-host speeds refuse
  return std::string(name, static_cast<std::size_t>(length));
}

// `rank` of `comm` in MPI_COMM_WORLD, or -1 when MPI cannot say (the number is only printed).
int world_rank_of(MPI_Comm comm, int rank) {
  MPI_Group group, world;
  if (MPI_Comm_group(comm, &group) != MPI_SUCCESS) return -1;
  int translated = MPI_UNDEFINED;
  if (MPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
    if (MPI_Group_translate_ranks(group, 1, &rank, world, &translated) != MPI_SUCCESS) translated = MPI_UNDEFINED;
    (void)MPI_Group_free(&world);  // a failed free only leaks a group
  }
  (void)MPI_Group_free(&group);
  return translated == MPI_UNDEFINED ? -1 : translated;
}

// Library messages start with "hetscal: ", and so does every printed line.
std::string without_prefix(const std::string& message) {
  const std::string prefix = "hetscal: ";
  return message.compare(0, prefix.size(), prefix) == 0 ? message.substr(prefix.size()) : message;
}

// What each rank tells the others when a context starts; doubles only, so one MPI type
// carries it.
struct RankReport {
  double speed;
  double fingerprint;  // the settings' hash's bits
  double has_speed;    // 1: `speed` is usable
  double read;         // 1: this rank read its configuration; 0: it could not; -1: for memory
  double memory;       // HETSCAL_MEMORY, 0 when unset
};

constexpr double kReadShortOfMemory = -1.0;

// HETSCAL_MEMORY as the ranks agree on it: the smallest any rank set (ranks that did not set
// it are bounded by it too), or 0 when none did.
std::int64_t agreed_memory(const std::vector<RankReport>& all) {
  double smallest = 0.0;
  for (const RankReport& report : all) {
    if (report.memory > 0.0 && (smallest == 0.0 || report.memory < smallest)) smallest = report.memory;
  }
  return static_cast<std::int64_t>(smallest);
}

double as_double(std::uint64_t bits) {
  double value;
  static_assert(sizeof value == sizeof bits, "64-bit double");
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Reading the configuration may fail on one rank only (memory): that rank still joins the
// agreement, saying it could not read, so every rank forwards alike and says why.
const Configuration* read_configuration(std::string& failure, bool& short_of_memory) {
  try {
    const Configuration& config = process_configuration();
    short_of_memory = config.short_of_memory;
    return &config;
  } catch (const std::bad_alloc& e) {
    short_of_memory = true;
    failure = e.what();
    return nullptr;
  } catch (const std::exception& e) {
    failure = e.what();
    return nullptr;
  }
}

std::string context_rank_text(const ContextState& state, int rank) {
  return "rank " + std::to_string(rank) + " of the context (MPI_COMM_WORLD rank " +
         std::to_string(world_rank_of(state.context->comm, rank)) + ")";
}

// Why the ranks' settings cannot be used, or "": a rank that could not read them, ranks that
// read different ones, or malformed ones (the same on every rank then).
std::string settings_problem(const ContextState& state, const std::vector<RankReport>& all,
                             const Configuration& config, const std::string& read_failure) {
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r].read != 1.0) {
      // Every rank knows the kind of failure; only the rank itself knows its text.
      const std::string why = all[r].read == kReadShortOfMemory ? "out of memory" : read_failure;
      return context_rank_text(state, static_cast<int>(r)) + " could not read its HETSCAL_* settings" +
             (why.empty() ? "" : " (" + why + ")") + ": every call is forwarded";
    }
  }
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (std::memcmp(&all[r].fingerprint, &all[0].fingerprint, sizeof(double)) != 0) {
      return context_rank_text(state, static_cast<int>(r)) +
             " read other HETSCAL_* settings than rank 0: every call is forwarded";
    }
  }
  if (config.valid()) return {};
  std::string problem = "malformed configuration, every call is forwarded: " + without_prefix(config.errors.front());
  for (std::size_t i = 1; i < config.errors.size(); ++i) problem += "; " + without_prefix(config.errors[i]);
  return problem;
}

// The speeds every rank reported, or why there are none.
void agree_speeds(ContextSpeeds& speeds, const std::vector<RankReport>& all, const std::string& own_problem) {
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r].has_speed == 0.0) {
      speeds.problem = own_problem.empty() ? "rank " + std::to_string(r) + " of the context has no speed"
                                           : without_prefix(own_problem);
      return;
    }
  }
  for (const RankReport& report : all) speeds.values.push_back(report.speed);
}

// The probe runs DGEMMs for tens of milliseconds (speed_probe.cpp), more than a whole run
// of ScaLAPACK's testers on their stock inputs, whose calls the rules that need no speeds
// forward: it waits for the first call that needs the speeds (agree_probed_speeds). Given
// speeds cost nothing to read and are agreed at once.
bool probes_on_first_need(const Configuration& config) {
  return !config.disabled && config.valid() && config.speeds.source == SpeedSource::Probe;
}

void settle(ContextState& state, const std::vector<RankReport>& all, const Configuration& config,
            const std::string& read_failure, const std::string& speed_problem);
void report_problems(const ContextState& state, const Configuration& config) noexcept;

// Every rank's report, gathered. What each rank does alone (reading its settings, its
// speed, the room for the reports) is agreed first: a rank short of memory there throws the
// same StageFailed as the others, and the context is set up again on its next call. A rank
// whose configuration could not be read for memory says so in its report.
void agree(ContextState& state) {
  std::string read_failure, speed_problem;
  bool short_of_memory = false;
  const Configuration* read = read_configuration(read_failure, short_of_memory);
  const Configuration* config = read;
  RankReport mine{0.0, 0.0, 0.0, short_of_memory ? kReadShortOfMemory : read ? 1.0 : 0.0, 0.0};
  std::vector<RankReport> all;
  mpi::run_agreed(state.context->comm, "settings agreement", [&] {
    if (!config) {
      static const Configuration unread;  // made here: it allocates
      config = &unread;
    }
    const bool probe_later = read && probes_on_first_need(*config);
    mine.speed = read && !probe_later ? configured_speed(*config, speed_problem) : 0.0;
    mine.has_speed = probe_later || (speed_problem.empty() && mine.speed > 0.0) ? 1.0 : 0.0;
    mine.fingerprint = as_double(read ? fingerprint_hash(config->fingerprint()) : 0u);
    mine.memory = static_cast<double>(config->memory_bytes);
    all.resize(static_cast<std::size_t>(state.context->num_ranks()));
  });
  constexpr int kReportDoubles = sizeof(RankReport) / sizeof(double);
  mpi::check_mpi(MPI_Allgather(&mine, kReportDoubles, MPI_DOUBLE, all.data(), kReportDoubles, MPI_DOUBLE,
                               state.context->comm),
                 "MPI_Allgather of the ranks' settings");
  mpi::run_agreed(state.context->comm, "settings agreement",
                  [&] { settle(state, all, *config, read_failure, speed_problem); });
  report_problems(state, *config);
}

// The agreed settings and speeds from every rank's report (local: agreed by agree()).
void settle(ContextState& state, const std::vector<RankReport>& all, const Configuration& config,
            const std::string& read_failure, const std::string& speed_problem) {
  state.verbosity = config.verbosity;
  state.settings = AgreedSettings::of(config);
  state.settings.memory_bytes = agreed_memory(all);
  state.settings.problem = settings_problem(state, all, config, read_failure);
  state.speeds.adapt = config.adapt;
  state.speeds.probed = config.speeds.source == SpeedSource::Probe;
  agree_speeds(state.speeds, all, speed_problem);
  if (probes_on_first_need(config) && state.speeds.agreed()) {
    state.speeds.values.clear();  // placeholders: agree_probed_speeds measures them
    state.speeds.awaiting_probe = true;
  }
}

// Problems of the configuration itself are printed whatever the verbosity: a user who set
// HETSCAL_SPEEDS wrongly must learn that hetscal is doing nothing. Only the line is lost
// when memory fails.
void report_problems(const ContextState& state, const Configuration& config) noexcept {
  try {
    if (!state.settings.problem.empty()) {
      report_once(Verbosity::Once, Verbosity::Once, state.is_root(), state.settings.problem);
    } else if (!state.settings.disabled && config.speeds.source != SpeedSource::None && !state.speeds.agreed()) {
      report_once(Verbosity::Once, Verbosity::Once, state.is_root(), state.speeds.problem);
    }
  } catch (const std::exception&) {
  }
}

int delete_state(MPI_Comm, int, void* attribute, void*) {
  delete static_cast<ContextState*>(attribute);
  return MPI_SUCCESS;
}

int state_keyval() {
  static const int keyval = [] {
    int created = MPI_KEYVAL_INVALID;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &created, nullptr) != MPI_SUCCESS) {
      throw Error("hetscal: MPI_Comm_create_keyval failed");
    }
    return created;
  }();
  return keyval;
}

}  // namespace

double configured_speed(const Configuration& config, std::string& problem) {
  if (config.disabled || !config.valid()) return 0.0;
  if (config.speeds.source == SpeedSource::None) {
    problem = "no speeds configured (HETSCAL_SPEEDS, HETSCAL_SPEEDS_FILE or HETSCAL_PROBE=1)";
    return 0.0;
  }
  int world_rank = 0, world_size = 1;
  if (MPI_Comm_rank(MPI_COMM_WORLD, &world_rank) != MPI_SUCCESS ||
      MPI_Comm_size(MPI_COMM_WORLD, &world_size) != MPI_SUCCESS) {
    problem = "MPI could not say this process's rank in MPI_COMM_WORLD";
    return 0.0;
  }
  try {
    return speed_of_process(config.speeds, world_rank, world_size, host_name(), probed_speed);
  } catch (const std::exception& e) {
    problem = e.what();
    return 0.0;
  }
}

AgreedSettings AgreedSettings::of(const Configuration& config) {
  AgreedSettings settings;
  settings.disabled = config.disabled;
  settings.force = config.force;
  settings.min_n = config.min_n;
  settings.min_flops_per_rank = config.min_flops_per_rank;
  settings.routines = config.routines;
  settings.cholesky_layouts = config.cholesky_layouts;
  settings.lu_layouts = config.lu_layouts;
  settings.qr_layouts = config.qr_layouts;
  settings.take_over = config.take_over;
  settings.memory_bytes = config.memory_bytes;
  return settings;
}

bool AgreedSettings::allows(RoutineId routine) const {
  return routines.count(routine.lowercase_name()) != 0;
}

void agree_probed_speeds(ContextState& state) {
  ContextSpeeds& speeds = state.speeds;
  if (!speeds.awaiting_probe) return;
  std::string problem;
  RankReport mine{0.0, 0.0, 0.0, 1.0, 0.0};
  std::vector<RankReport> all;
  const auto ranks = static_cast<std::size_t>(state.context->num_ranks());
  mpi::run_agreed(state.context->comm, "speed probe", [&] {
    mine.speed = configured_speed(process_configuration(), problem);
    mine.has_speed = problem.empty() && mine.speed > 0.0 ? 1.0 : 0.0;
    all.resize(ranks);
    speeds.values.reserve(ranks);
  });
  constexpr int kReportDoubles = sizeof(RankReport) / sizeof(double);
  mpi::check_mpi(MPI_Allgather(&mine, kReportDoubles, MPI_DOUBLE, all.data(), kReportDoubles, MPI_DOUBLE,
                               state.context->comm),
                 "MPI_Allgather of the probed speeds");
  speeds.awaiting_probe = false;
  try {
    agree_speeds(speeds, all, problem);  // the values fit the room reserved above
  } catch (const std::exception&) {
    speeds.values.clear();  // only the problem's text failed: no rank has the speeds then
    speeds.problem = "out of memory while agreeing the probed speeds";
  }
  if (!speeds.agreed()) {
    try {
      report_once(Verbosity::Once, Verbosity::Once, state.is_root(), speeds.problem);
    } catch (const std::exception&) {
    }
  }
}

const MachineFigures& machine_figures(ContextState& state) {
  std::optional<MachineFigures>& machine = state.resources.machine;
  if (!machine) {
    machine = measure_machine(state.context->comm, state.speeds.values);
    // HETSCAL_MEMORY bounds what the planner assumes a rank holds, its operands included.
    const double allowed = static_cast<double>(state.settings.memory_bytes);
    if (allowed > 0.0 && allowed < machine->memory_bytes) machine->memory_bytes = allowed;
  }
  return *machine;
}

ContextState& context_state(int blacs_context) {
  const mpi::ContextInfo& context = mpi::context_info(blacs_context);
  void* cached = nullptr;
  int found = 0;
  mpi::check_mpi(MPI_Comm_get_attr(context.comm, state_keyval(), &cached, &found),
                 "MPI_Comm_get_attr of the context's state");
  if (found) return *static_cast<ContextState*>(cached);
  std::unique_ptr<ContextState> state;
  mpi::run_agreed(context.comm, "settings agreement", [&] { state = std::make_unique<ContextState>(); });
  state->context = &context;
  agree(*state);
  mpi::check_mpi(MPI_Comm_set_attr(context.comm, state_keyval(), state.get()),
                 "MPI_Comm_set_attr of the context's state");
  return *state.release();
}

}  // namespace hetscal::runtime
