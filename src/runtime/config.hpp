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
///   HETSCAL_SPEEDS=nodeA=2,nodeB=1   one speed per host name (every rank on that host);
///                            a speed is a normal double > 0 (2.2e-308 .. 1.8e308)
///   HETSCAL_SPEEDS_FILE=path the same list in a regular file of at most kMaxSpeedsFileBytes
///                            (commas, blanks or newlines; # comments)
///   HETSCAL_PROBE=1          neither given: measure each rank with a short local DGEMM
///                            (also the default while HETSCAL_ADAPT is on)
///   HETSCAL_ADAPT=0          keep the starting speeds for the whole run (default 1: learn
///                            them from every computed call, runtime/adaptation.hpp); with
///                            neither speeds nor HETSCAL_PROBE, every call is then forwarded
///   HETSCAL_MIN_N=512        calls with min(M, N, K) below this go to ScaLAPACK
///   HETSCAL_MIN_FLOPS=1000000  calls of fewer flops per rank go to ScaLAPACK unpriced
///                            (kDefaultMinFlopsPerRank says why); 0 prices every call
///   HETSCAL_ROUTINES=pdgemm,pdpotrf  only these routines may be taken over (any case; default
///                            every routine hetscal implements, see known_routines())
///   HETSCAL_FORCE=1          take over every supported call the size rule lets through,
///                            whatever the predicted times (testing)
///   HETSCAL_VERBOSE=1|2      1: each plan, gain and forward reason once, and every change of
///                            speeds with its reason; 2: every call, and the speed estimates
///   HETSCAL_CHOLESKY_LAYOUTS=gcrm,hetero-symmetric  the layouts PxPOTRF's planner may choose
///                            from (default all; cholesky_layouts_option.hpp)
///   HETSCAL_LU_LAYOUTS=g2dbc,hetero-pattern  the layouts PxGETRF's planner may choose from
///                            (default all; lu_layouts_option.hpp)
///   HETSCAL_QR_LAYOUTS=2dbc,hetero-grid  the layouts PxGEQRF's planner may choose from (the
///                            same names and default)
///   HETSCAL_TAKE_OVER=auto|in-place|copy  how a taken-over call reaches its planned layout:
///                            compute in the caller's arrays moving only the surplus, or copy
///                            every operand into hetscal's own layout; auto (default): the
///                            cheaper route that fits in memory (runtime/memory_budget.hpp)
///   HETSCAL_MEMORY=bytes     the memory one rank may use, its own operands included (default:
///                            the host's MemAvailable over its ranks); the ranks' minimum
///                            bounds every plan
///
/// Everything here is read, bounded and validated before any collective: a malformed or
/// hostile value becomes a message in Configuration::errors on the rank that read it, never an
/// exception, a hang or an unbounded read, so that the ranks still reach their agreement.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/common/bounded_file.hpp"
#include "runtime/cholesky_layouts_option.hpp"
#include "runtime/lu_layouts_option.hpp"

namespace hetscal::runtime {

/// The largest speeds file read (64 KiB: thousands of host=speed lines); a bigger file is
/// refused unread rather than read without limit on every rank.
inline constexpr std::size_t kMaxSpeedsFileBytes = 64 * 1024;

/// Where the speeds come from.
enum class SpeedSource {
  None,      ///< nothing configured and HETSCAL_ADAPT=0: every call is forwarded
  RankList,  ///< one speed per rank of MPI_COMM_WORLD
  HostList,  ///< one speed per host name
  Probe,     ///< measured on each rank at first use (the default under HETSCAL_ADAPT)
};

enum class Verbosity { Quiet = 0, Once = 1, EveryCall = 2 };

/// A parsed speed specification (HETSCAL_SPEEDS or the file's content).
struct SpeedSpec {
  SpeedSource source = SpeedSource::None;
  std::vector<double> rank_speeds;                          ///< RankList
  std::vector<std::pair<std::string, double>> host_speeds;  ///< HostList, in given order
  /// Where the list was read, for messages: "HETSCAL_SPEEDS" or "HETSCAL_SPEEDS_FILE='path'".
  std::string origin = "HETSCAL_SPEEDS";
};

/// HETSCAL_TAKE_OVER: how a taken-over call reaches its planned layout.
enum class TakeOverMode {
  Auto,     ///< the cheaper route that fits in memory
  InPlace,  ///< only in the caller's arrays, the surplus moved (forwarded where there is none)
  Copy,     ///< only by copying every operand into hetscal's layout
};

/// "auto", "in-place", "copy".
const char* take_over_mode_name(TakeOverMode mode);

/// Parses HETSCAL_TAKE_OVER (any case). @throws InvalidArgument naming the value otherwise.
TakeOverMode parse_take_over_mode(const std::string& value);

/// HETSCAL_MIN_FLOPS's default. ScaLAPACK does a call of a million flops per rank in tens of
/// microseconds on today's cores: less than a take-over's own agreements, allocation and
/// moves (about a millisecond for a 5x2x5 PDGEMM on two ranks here), and far less than the
/// speed probe and calibration that pricing it would first run (tens of milliseconds, more
/// than a whole run of ScaLAPACK's testers on their stock inputs). LU of order 144 on 2 ranks.
inline constexpr std::int64_t kDefaultMinFlopsPerRank = 1000000;

/// Everything one process read.
struct Configuration {
  bool disabled = false;
  bool force = false;
  bool adapt = true;  ///< HETSCAL_ADAPT: learn speeds from the calls
  std::int64_t min_n = 512;
  std::int64_t min_flops_per_rank = kDefaultMinFlopsPerRank;  ///< HETSCAL_MIN_FLOPS
  Verbosity verbosity = Verbosity::Quiet;
  SpeedSpec speeds;
  /// Lower-case names of the routines that may be taken over (HETSCAL_ROUTINES).
  std::set<std::string> routines;
  /// The layouts the Cholesky planner may choose from (HETSCAL_CHOLESKY_LAYOUTS).
  std::vector<core::CholeskyLayoutKind> cholesky_layouts = all_cholesky_layouts();
  /// The layouts the LU planner may choose from (HETSCAL_LU_LAYOUTS).
  std::vector<core::LuLayoutKind> lu_layouts = all_lu_layouts();
  /// The layouts the QR planner may choose from (HETSCAL_QR_LAYOUTS).
  std::vector<core::LuLayoutKind> qr_layouts = all_lu_layouts();
  TakeOverMode take_over = TakeOverMode::Auto;  ///< HETSCAL_TAKE_OVER
  /// HETSCAL_MEMORY: bytes one rank may use, its operands included; 0 when unset (then the
  /// host's MemAvailable decides). Not part of the fingerprint: the ranks agree on its minimum.
  std::int64_t memory_bytes = 0;
  /// Messages about malformed variables; non-empty means every call is forwarded.
  std::vector<std::string> errors;
  /// Whether reading failed for want of memory (then in `errors` too): not a malformed
  /// setting, which the settings agreement says as such.
  bool short_of_memory = false;

  Configuration();
  bool valid() const { return errors.empty(); }
  /// @param routine a routine name in any case ("pdgemm", "PDPOTRF").
  /// @return whether HETSCAL_ROUTINES lets hetscal take `routine` over.
  bool allows(const std::string& routine) const;
  /// A canonical text of every setting that changes a decision (switches, minimum size,
  /// adaptation, routines, Cholesky and LU layouts, take-over mode, speed source and speed
  /// values, whether anything is malformed): equal on two
  /// ranks iff they would decide alike. The verbosity is left out: it changes no decision.
  std::string fingerprint() const;
};

/// Looks up one environment variable; nullopt when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;

/// What reading a speeds file gave: its content, or why there is none ("is a directory, not
/// a regular file", "cannot be opened: ..." ...).
using FileRead = core::BoundedFileRead;
/// Reads a speeds file (read_speeds_file, or a stand-in in tests).
using FileReader = std::function<FileRead(const std::string&)>;

/// Reads a speeds file without ever blocking or reading without limit: only a regular file
/// (checked before opening, so that no device is opened, and again on the open descriptor,
/// opened O_NONBLOCK so that a FIFO swapped in cannot block), of at most kMaxSpeedsFileBytes.
/// @param path the file's path.
/// @return the content, or the problem: what the path is when not a regular file (directory,
///         FIFO, character device ...), its size when too big, the system's error otherwise.
FileRead read_speeds_file(const std::string& path);

/// `text` made safe and short for a message: at most `max_chars` characters, then "…";
/// bytes outside printable ASCII (control bytes, bytes of non-ASCII characters) and the
/// backslash written as \xNN.
std::string message_excerpt(const std::string& text, std::size_t max_chars = 40);

/// Every routine name HETSCAL_ROUTINES accepts: PDGEMM, PDPOTRF, PDGETRF, PDGEQRF and their
/// S, C and Z variants, in lower case.
const std::set<std::string>& known_routines();

/// Parses HETSCAL_ROUTINES: routine names separated by commas or blanks, any case.
/// @throws InvalidArgument naming the first unknown entry, or when the list is empty.
std::set<std::string> parse_routine_list(const std::string& text);

/// Parses a speed list: "1,2.5,3" (ranks) or "host=2,other=1" (hosts); commas, blanks and
/// newlines separate entries; '#' starts a comment up to the end of the line.
/// @param origin where the text comes from, named in messages and kept in SpeedSpec::origin.
/// @throws InvalidArgument naming `origin` and the bad entry (empty list, a value that is not
///         a normal double > 0, a mix of both forms, a repeated or empty host name).
SpeedSpec parse_speed_list(const std::string& text, const std::string& origin = "HETSCAL_SPEEDS");

/// Parses a switch: 1/0, true/false, yes/no, on/off (any case); empty counts as false.
/// @throws InvalidArgument naming `name` and the value otherwise.
bool parse_switch(const std::string& name, const std::string& value);

/// Parses every variable; malformed ones land in Configuration::errors (never throws, also
/// not when `read_file` does).
/// HETSCAL_SPEEDS and HETSCAL_SPEEDS_FILE together is an error (which one would win?).
Configuration parse_configuration(const EnvironmentLookup& lookup, const FileReader& read_file);

/// A configuration parsed on first use and kept, errors included, for the cache's life:
/// the speeds file is read once, whatever the outcome. Thread-safe.
class ConfigurationCache {
 public:
  ConfigurationCache(EnvironmentLookup lookup, FileReader read_file);
  /// The configuration; parsed by the first call (never throws: failures are its errors).
  const Configuration& get();

 private:
  EnvironmentLookup lookup_;
  FileReader read_file_;
  std::once_flag parsed_;
  Configuration config_;
};

/// The process's configuration from getenv and read_speeds_file, parsed on first call.
const Configuration& process_configuration();

/// The speed of one process under `spec`.
/// @param world_rank the process's rank in MPI_COMM_WORLD.
/// @param world_size the size of MPI_COMM_WORLD (a RankList must have exactly this many).
/// @param host the process's host name (MPI_Get_processor_name).
/// @param probe measures this process when the source is Probe.
/// @throws InvalidArgument naming spec.origin when the list does not match world_size or
///         the host is not listed.
double speed_of_process(const SpeedSpec& spec, int world_rank, int world_size,
                        const std::string& host, const std::function<double()>& probe);

}  // namespace hetscal::runtime
