#pragma once
/// @file config.hpp
/// hetscal's configuration from the environment, read once per process. Parsing is pure
/// (parse_configuration takes the variables as a lookup), so that it is unit-tested; what a
/// process read is later agreed with the other ranks of a context (the shim's context state,
/// the native API's context creation), since ranks that decided differently would deadlock.
/// Read by both the shim and the native API, so it lives below them.
///
/// Variables:
///   HETSCAL_DISABLE=1        forward every call to ScaLAPACK
///   HETSCAL_SPEEDS=1,2,3,4   one relative speed per rank of MPI_COMM_WORLD, or
///   HETSCAL_SPEEDS=nodeA=2,nodeB=1   one speed per host name (every rank on that host)
///   HETSCAL_SPEEDS_FILE=path the same list in a file (commas, blanks or newlines; # comments)
///   HETSCAL_PROBE=1          neither given: measure each rank with a short local DGEMM
///   HETSCAL_MIN_N=512        calls with min(M, N, K) below this go to ScaLAPACK
///   HETSCAL_FORCE=1          take over every supported call the size rule lets through,
///                            whatever the predicted times (testing)
///   HETSCAL_VERBOSE=1|2      1: each plan, gain and forward reason once; 2: every call
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hetscal::runtime {

/// Where the speeds come from.
enum class SpeedSource {
  None,      ///< nothing configured: every call is forwarded (nothing to plan with)
  RankList,  ///< one speed per rank of MPI_COMM_WORLD
  HostList,  ///< one speed per host name
  Probe,     ///< measured on each rank at first use
};

enum class Verbosity { Quiet = 0, Once = 1, EveryCall = 2 };

/// A parsed speed specification (HETSCAL_SPEEDS or the file's content).
struct SpeedSpec {
  SpeedSource source = SpeedSource::None;
  std::vector<double> rank_speeds;                          ///< RankList
  std::vector<std::pair<std::string, double>> host_speeds;  ///< HostList, in given order
};

/// Everything one process read.
struct Configuration {
  bool disabled = false;
  bool force = false;
  std::int64_t min_n = 512;
  Verbosity verbosity = Verbosity::Quiet;
  SpeedSpec speeds;
  /// Messages about malformed variables; non-empty means every call is forwarded.
  std::vector<std::string> errors;

  bool valid() const { return errors.empty(); }
  /// A canonical text of every setting that changes a decision: equal on two ranks iff they
  /// would decide alike (the speed values themselves are compared after resolution).
  std::string fingerprint() const;
};

/// Looks up one environment variable; nullopt when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;
/// Reads a file's whole content; nullopt when it cannot be read.
using FileReader = std::function<std::optional<std::string>(const std::string&)>;

/// Parses a speed list: "1,2.5,3" (ranks) or "host=2,other=1" (hosts); commas, blanks and
/// newlines separate entries; '#' starts a comment up to the end of the line.
/// @throws InvalidArgument naming the bad entry (empty list, a value not finite and > 0,
///         a mix of both forms, a repeated or empty host name).
SpeedSpec parse_speed_list(const std::string& text);

/// Parses a switch: 1/0, true/false, yes/no, on/off (any case); empty counts as false.
/// @throws InvalidArgument naming `name` and the value otherwise.
bool parse_switch(const std::string& name, const std::string& value);

/// Parses every variable; malformed ones land in Configuration::errors (never throws).
/// HETSCAL_SPEEDS and HETSCAL_SPEEDS_FILE together is an error (which one would win?).
Configuration parse_configuration(const EnvironmentLookup& lookup, const FileReader& read_file);

/// The process's configuration from getenv, parsed on first call (thread-safe).
const Configuration& process_configuration();

/// The speed of one process under `spec`.
/// @param world_rank the process's rank in MPI_COMM_WORLD.
/// @param world_size the size of MPI_COMM_WORLD (a RankList must have exactly this many).
/// @param host the process's host name (MPI_Get_processor_name).
/// @param probe measures this process when the source is Probe.
/// @throws InvalidArgument when the list does not match world_size or the host is not listed.
double speed_of_process(const SpeedSpec& spec, int world_rank, int world_size,
                        const std::string& host, const std::function<double()>& probe);

}  // namespace hetscal::runtime
