#include "runtime/context_state.hpp"

#include <mpi.h>

#include <cstdint>
#include <cstring>

#include "core/error.hpp"
#include "runtime/speed_probe.hpp"
#include "runtime/report.hpp"

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
  MPI_Get_processor_name(name, &length);
  return std::string(name, static_cast<std::size_t>(length));
}

int world_rank_of(MPI_Comm comm, int rank) {
  MPI_Group group, world;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int translated = MPI_UNDEFINED;
  MPI_Group_translate_ranks(group, 1, &rank, world, &translated);
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  return translated;
}

// Library messages start with "hetscal: ", and so does every printed line.
std::string without_prefix(const std::string& message) {
  const std::string prefix = "hetscal: ";
  return message.compare(0, prefix.size(), prefix) == 0 ? message.substr(prefix.size()) : message;
}

struct RankReport {
  double speed;
  double fingerprint;  // the hash's bits, carried in a double so one MPI type suffices
  double has_speed;
};

double as_double(std::uint64_t bits) {
  double value;
  static_assert(sizeof value == sizeof bits, "64-bit double");
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Reading the configuration may fail on one rank only (memory): that rank still joins the
// agreement, with a fingerprint no configuration has, so every rank forwards alike.
const Configuration* read_configuration(std::string& failure) {
  try {
    return &process_configuration();
  } catch (const std::exception& e) {
    failure = std::string("reading the configuration failed: ") + e.what();
    return nullptr;
  }
}

void agree(ContextState& state) {
  std::string failure, speed_problem;
  const Configuration* read = read_configuration(failure);
  static const Configuration unread;
  const Configuration& config = read ? *read : unread;
  const double speed = read ? configured_speed(config, speed_problem) : 0.0;
  const RankReport mine{speed,
                        as_double(read ? fingerprint_hash(config.fingerprint()) : 0u),
                        speed_problem.empty() && speed > 0.0 ? 1.0 : 0.0};
  const int ranks = state.context->num_ranks();
  std::vector<RankReport> all(static_cast<std::size_t>(ranks));
  MPI_Allgather(&mine, 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, state.context->comm);

  state.disabled = config.disabled;
  state.force = config.force;
  state.adapt = config.adapt;
  state.speeds_probed = config.speeds.source == SpeedSource::Probe;
  state.min_n = config.min_n;
  state.routines = config.routines;
  state.cholesky_layouts = config.cholesky_layouts;
  state.lu_layouts = config.lu_layouts;
  state.qr_layouts = config.qr_layouts;
  state.verbosity = config.verbosity;
  for (int r = 0; r < ranks; ++r) {
    if (std::memcmp(&all[r].fingerprint, &all[0].fingerprint, sizeof(double)) != 0) {
      state.configuration_problem = "rank " + std::to_string(r) + " of the context (MPI_COMM_WORLD rank " +
                                    std::to_string(world_rank_of(state.context->comm, r)) +
                                    ") read other HETSCAL_* settings than rank 0: every call is forwarded";
      break;
    }
  }
  if (!failure.empty()) state.configuration_problem = failure + ": every call is forwarded";
  if (state.configuration_problem.empty() && !config.valid()) {
    state.configuration_problem = "malformed configuration, every call is forwarded: " + without_prefix(config.errors.front());
    for (std::size_t i = 1; i < config.errors.size(); ++i) state.configuration_problem += "; " + without_prefix(config.errors[i]);
  }
  for (int r = 0; r < ranks && state.speeds_problem.empty(); ++r) {
    if (all[r].has_speed == 0.0) {
      state.speeds_problem = speed_problem.empty()
                                 ? "rank " + std::to_string(r) + " of the context has no speed"
                                 : without_prefix(speed_problem);
    }
  }
  if (state.speeds_problem.empty()) {
    for (const RankReport& report : all) state.speeds.push_back(report.speed);
  }
  // Problems of the configuration itself are printed whatever the verbosity: a user who set
  // HETSCAL_SPEEDS wrongly must learn that hetscal is doing nothing.
  if (!state.configuration_problem.empty()) {
    report_once(Verbosity::Once, Verbosity::Once, state.is_root(), state.configuration_problem);
  } else if (!state.disabled && config.speeds.source != SpeedSource::None && !state.speeds_problem.empty()) {
    report_once(Verbosity::Once, Verbosity::Once, state.is_root(), state.speeds_problem);
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
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  try {
    return speed_of_process(config.speeds, world_rank, world_size, host_name(), probed_speed);
  } catch (const std::exception& e) {
    problem = e.what();
    return 0.0;
  }
}

bool ContextState::allows(RoutineId routine) const {
  return routines.count(routine.lowercase_name()) != 0;
}

const MachineFigures& machine_figures(ContextState& state) {
  if (!state.machine) state.machine = measure_machine(state.context->comm, state.speeds);
  return *state.machine;
}

ContextState& context_state(int blacs_context) {
  const mpi::ContextInfo& context = mpi::context_info(blacs_context);
  void* cached = nullptr;
  int found = 0;
  MPI_Comm_get_attr(context.comm, state_keyval(), &cached, &found);
  if (found) return *static_cast<ContextState*>(cached);
  auto state = std::make_unique<ContextState>();
  state->context = &context;
  agree(*state);
  MPI_Comm_set_attr(context.comm, state_keyval(), state.get());
  return *state.release();
}

}  // namespace hetscal::runtime
