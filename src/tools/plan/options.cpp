#include "tools/plan/options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <limits>

#include "core/common/error.hpp"
#include "core/planners/model_candidates.hpp"
#include "tools/plan/limits.hpp"
#include "tools/plan/text_format.hpp"

namespace hetscal::tools::plan {
namespace {

// Options that only make sense with another one.
constexpr const char* kModelSettings[] = {"--order",   "--flops",       "--memory",
                                          "--network", "--latency",     "--bandwidth",
                                          "--caller-grid", "--caller-block", "--exhaustive",
                                          "--ranks-per-node"};
constexpr const char* kProcessorSources[] = {"--speeds", "--cycle-times", "--file"};

bool given(const CLI::App& app, const char* option) { return app.count(option) > 0; }

// CLI11's IsMember prints its list after the type name in --help; this one says nothing
// there (the type name lists the choices) and names the choices in its error.
CLI::Validator one_of(std::vector<std::string> names) {
  return CLI::Validator(
      [names](std::string& value) -> std::string {
        if (std::find(names.begin(), names.end(), value) != names.end()) return "";
        std::string choices;
        for (const std::string& name : names) choices += (choices.empty() ? "" : ", ") + name;
        return "'" + value + "' is not one of " + choices;
      },
      "");
}

std::size_t positive(long long value, const char* option, long long largest) {
  if (value < 1 || value > largest)
    throw InvalidArgument(std::string(option) + ": " + std::to_string(value) +
                          " is out of range; give 1 to " + std::to_string(largest));
  return static_cast<std::size_t>(value);
}

void forbid_with(const CLI::App& app, const char* option, const char* mode) {
  if (given(app, option))
    throw InvalidArgument(std::string(option) + " does not apply to " + mode);
}

void require_for(const CLI::App& app, const char* option, const char* needed) {
  if (given(app, option) && !given(app, needed))
    throw InvalidArgument(std::string(option) + " only applies to " + needed);
}

// The limits of limits.hpp that a list of processor values must meet, checked before any plan:
// at most `most` values (kMaxProcessors, or kMaxModelProcessors with --model), each a normal
// double (a subnormal one has no usable inverse) and the fastest at most kMaxSpeedRatio times
// the slowest.
void check_processor_values(const std::vector<double>& values, const std::string& what,
                            std::size_t most = kMaxProcessors) {
  if (values.size() > most)
    throw InvalidArgument(what + ": " + std::to_string(values.size()) + " processors, more than the " +
                          std::to_string(most) + " hetscal-plan plans for" +
                          (most == kMaxProcessors ? " (" + std::to_string(kMaxModelProcessors) + " with --model)"
                                                  : std::string()));
  for (std::size_t k = 0; k < values.size(); ++k)
    if (values[k] > 0.0 && values[k] < std::numeric_limits<double>::min())
      throw InvalidArgument(what + ": value " + std::to_string(k + 1) + " of " + std::to_string(values.size()) +
                            " is " + format("%.3g", values[k]) +
                            ", below 2.2e-308 (values are relative: scale the list up)");
  const auto [slowest, fastest] = std::minmax_element(values.begin(), values.end());
  if (*slowest > 0.0 && *fastest / kMaxSpeedRatio > *slowest)
    throw InvalidArgument(what + ": the largest value is " + format("%g", *fastest / *slowest) +
                          " times the smallest, more than the " + format("%g", kMaxSpeedRatio) +
                          " hetscal-plan plans for");
}

std::vector<double> relative_to_smallest(std::vector<double> values) {
  const double smallest = *std::min_element(values.begin(), values.end());
  for (double& v : values) v /= smallest;
  return values;
}

void read_processors(const CLI::App& app, const CommandLine& line, Options& options) {
  int sources = 0;
  for (const char* source : kProcessorSources) sources += given(app, source) ? 1 : 0;
  if (sources == 0)
    throw InvalidArgument("no processors given: use --speeds, --cycle-times or --file");
  if (sources > 1)
    throw InvalidArgument("give the processors once: --speeds, --cycle-times and --file exclude each other");

  std::vector<double> values;
  if (given(app, "--speeds")) {
    options.input_kind = ValueKind::Speeds;
    values = parse_number_list(line.speeds, "--speeds");
  } else if (given(app, "--cycle-times")) {
    options.input_kind = ValueKind::CycleTimes;
    values = parse_number_list(line.cycle_times, "--cycle-times");
  } else {
    std::optional<ValueKind> declared;
    if (given(app, "--file-kind"))
      declared = line.file_kind == "speeds" ? ValueKind::Speeds : ValueKind::CycleTimes;
    ProcessorFile file = read_processor_file(line.file, declared);
    options.input_kind = file.kind;
    values = std::move(file.values);
  }
  const std::string what = given(app, "--file") ? "--file '" + line.file + "'"
                                                 : "--" + to_string(options.input_kind);
  const core::Speeds typed = make_speeds(options.input_kind, values, what);
  check_processor_values(values, what, given(app, "--model") ? kMaxModelProcessors : kMaxProcessors);
  options.given_values = values;
  // Plans use values relative to the fastest processor, so that huge speeds (1e308) do not
  // overflow their sums; cycle-times are scaled as typed (7.8 stays 7.8 when the fastest
  // has 1), not as 1/(1/7.8).
  options.speeds = typed.normalised();
  options.cycle_times = options.input_kind == ValueKind::CycleTimes
                            ? relative_to_smallest(values)
                            : options.speeds.cycle_times();
}

void check_grid(const Shape& grid, std::size_t processors) {
  if (grid.rows * grid.cols > processors)
    throw InvalidArgument("--grid " + std::to_string(grid.rows) + "x" + std::to_string(grid.cols) +
                          " needs " + std::to_string(grid.rows * grid.cols) + " processors, but " +
                          std::to_string(processors) + " are given");
}

ModelSettings model_settings(const CLI::App& app, const CommandLine& line) {
  ModelSettings settings;
  settings.routine = routine_from(line.routine);
  if (given(app, "--order")) settings.order = positive(line.order, "--order", kMaxOrder);
  if (given(app, "--flops")) settings.flops_at_speed_one = line.flops;
  if (given(app, "--memory")) settings.memory_bytes = line.memory;
  if (given(app, "--network"))
    settings.network = line.network == "switched" ? core::NetworkKind::Switched : core::NetworkKind::SharedBus;
  if (given(app, "--latency")) settings.latency_s = line.latency;
  if (given(app, "--bandwidth")) settings.bandwidth_bytes_per_s = line.bandwidth;
  if (given(app, "--ranks-per-node")) {
    if (settings.network != core::NetworkKind::Switched)
      throw InvalidArgument("--ranks-per-node needs --network switched (a shared bus has no per-node links)");
    settings.ranks_per_node = positive(line.ranks_per_node, "--ranks-per-node", static_cast<long long>(kMaxModelProcessors));
  }
  if (given(app, "--caller-grid")) settings.caller_grid = parse_shape(line.caller_grid, "--caller-grid");
  if (given(app, "--caller-block")) settings.caller_block = positive(line.caller_block, "--caller-block", kMaxOrder);
  settings.exhaustive = line.exhaustive;
  return settings;
}

core::Speeds rebalance_speeds(const std::string& text, const std::string& what) {
  const std::vector<double> values = parse_number_list(text, what);
  const core::Speeds speeds = make_speeds(ValueKind::Speeds, values, what);
  check_processor_values(values, what);
  return speeds;
}

// Sizes whose work grows too fast to finish (limits.hpp), refused before any plan is made.
void check_work_limits(const Options& options) {
  const std::size_t processors = options.speeds.size();
  if (options.model && options.model->exhaustive && processors > kMaxExhaustiveProcessors)
    throw InvalidArgument("--model --exhaustive: " + std::to_string(processors) + " processors, more than the " +
                          std::to_string(kMaxExhaustiveProcessors) + " its full search prices candidates for");
  if (processors > kMaxProcessors && (options.mode != Mode::Grid || options.grid || options.panel || options.picture_path))
    throw InvalidArgument("--model: " + std::to_string(processors) + " processors, more than the " +
                          std::to_string(kMaxProcessors) + " --pattern, --grid, --panel and --picture plan for");
  if (options.mode == Mode::Pattern && options.pattern == PatternKind::Gcrm && processors > kMaxGcrmProcessors)
    throw InvalidArgument("--pattern gcrm: " + std::to_string(processors) + " processors, more than the " +
                          std::to_string(kMaxGcrmProcessors) + " its search is run for");
  if (options.panel && std::max(options.panel->rows, options.panel->cols) > kMaxPanelSide)
    throw InvalidArgument("--panel " + shape_text(options.panel->rows, options.panel->cols) +
                          ": a side is larger than " + std::to_string(kMaxPanelSide));
}

void check_rebalance(const CLI::App& app, const CommandLine& line, Options& options) {
  for (const char* option : {"--speeds", "--cycle-times", "--file", "--grid", "--panel", "--pattern", "--model"})
    forbid_with(app, option, "--rebalance (it takes its own speeds)");
  options.old_speeds = rebalance_speeds(line.rebalance.at(0), "--rebalance OLD");
  options.new_speeds = rebalance_speeds(line.rebalance.at(1), "--rebalance NEW");
  if (options.old_speeds.size() != options.new_speeds.size())
    throw InvalidArgument("--rebalance: OLD has " + std::to_string(options.old_speeds.size()) +
                          " speeds and NEW " + std::to_string(options.new_speeds.size()) +
                          "; give one of each per processor");
  options.rebalance.blocks = options.matrix_tiles;
  if (line.row_migration_cost == "spanned") options.rebalance.pricing = RowMigrationPricing::Spanned;
  options.rebalance.optimal = options.method == GridMethod::Exact;
}

// The limits of limits.hpp, for --help.
std::string limits_text() {
  return "Limits (larger problems are refused with a message naming the option): at most " +
         std::to_string(kMaxProcessors) + " processors (" + std::to_string(kMaxModelProcessors) +
         " with --model, " + std::to_string(kMaxExhaustiveProcessors) + " with --model --exhaustive, " +
         std::to_string(kMaxGcrmProcessors) +
         " with --pattern gcrm); the fastest at most " + format("%g", kMaxSpeedRatio) +
         " times the slowest; --order at most " + std::to_string(kMaxOrder) +
         ", and --model's pricing at most " + format("%g", kMaxModelOperations) +
         " operations and " + std::to_string(static_cast<long long>(kMaxModelBytes) >> 20) +
         " MiB (the message gives the largest --order that fits); --panel sides at most " +
         std::to_string(kMaxPanelSide) + "; --pattern hetero at most " +
         std::to_string(static_cast<long long>(kMaxPatternCells)) + " cells and " +
         std::to_string(kMaxPatternSide) + " per side; --matrix-tiles at most " +
         std::to_string(kMaxPictureTiles) +
         ". With --model, heterogeneous pattern candidates are built on the fastest 2, 3, ... "
         "processors only while their cells together stay within " +
         std::to_string(static_cast<long long>(core::CandidateOptions{}.max_pattern_cells)) +
         " (cells grow with the speed ratio); the report says from which count on they were "
         "left out. --picture's path is checked before the plan is made.\n";
}

}  // namespace

void declare_options(CLI::App& app, CommandLine& line) {
  app.description(
      "Plans a heterogeneous 2D block distribution for processors of different speeds "
      "(Boudet, Petitet, Rastello & Robert 1999): arranges them on a p x q grid, gives grid "
      "row i a share r_i of the rows and grid column j a share c_j of the columns, rounds "
      "them to an integer block panel B_p x B_q with LU orderings, and predicts the speedup "
      "over ScaLAPACK's 2D block-cyclic distribution. Also: distribution patterns (--pattern), "
      "predicted times (--model) and rebalancing after a change of speeds (--rebalance).");
  app.footer(
      "Processor file (--file): a regular file of at most " + std::to_string(kMaxFileBytes / 1024) +
      " KiB; numbers separated by spaces, commas or newlines; '#' starts a comment. Its first "
      "token may be 'speeds:' or 'cycle-times:' to say what the numbers are; otherwise give "
      "--file-kind.\n"
      "Processors are numbered from 0 in the order given; plans use speeds relative to the "
      "fastest.\n" +
      limits_text() +
      "Exit status: 0 on success, 2 for a bad command line or input (one message on standard "
      "error, nothing written), 1 if an output file cannot be written or no plan can be made.");

  const std::string input = "Processors (one of)";
  app.add_option("--speeds", line.speeds, "relative speeds, e.g. 1,2,2.5 (larger is faster)")
      ->type_name("LIST")->group(input);
  app.add_option("--cycle-times", line.cycle_times, "cycle-times (time per unit of work), e.g. 7.8,1,1,4")
      ->type_name("LIST")->group(input);
  app.add_option("--file", line.file, "read speeds or cycle-times from a file (see below)")
      ->type_name("PATH")->group(input);
  app.add_option("--file-kind", line.file_kind, "what --file holds, if the file does not say")
      ->check(one_of({"speeds", "cycle-times"}))->type_name("speeds|cycle-times")->group(input);

  const std::string plan = "Plan";
  app.add_option("--grid", line.grid,
                 "grid shape (otherwise every shape is tried and the best chosen); with "
                 "--pattern 2dbc or hetero, the pattern's shape")
      ->type_name("PxQ")->group(plan);
  app.add_option("--panel", line.panel, "integer block panel B_p x B_q (default: see the report)")
      ->type_name("BPxBQ")->group(plan);
  app.add_flag("--exact", line.exact,
               "exact search over all non-decreasing arrangements and spanning trees instead "
               "of the polynomial heuristic (small grids only); with --rebalance, the optimal "
               "row plan")->group(plan);
  app.add_option("--pattern", line.pattern,
                 "a distribution pattern instead of a grid: 2dbc, g2dbc (LU, any P), gcrm "
                 "(Cholesky), hetero (cells in proportion to speed)")
      ->type_name("KIND")->group(plan);
  app.add_option("--rebalance", line.rebalance,
                 "plan the redistribution of a column-based partition laid out for the OLD "
                 "speeds once the speeds become NEW (two lists of speeds)")
      ->expected(2)->type_name("LIST")->group(plan);
  app.add_option("--row-migration-cost", line.row_migration_cost,
                 "--rebalance: a row migration costs the whole width (constant) or only the "
                 "columns it crosses owners in (spanned)")
      ->check(one_of({"constant", "spanned"}))->type_name("constant|spanned")->group(plan);

  const std::string model = "Time model (--model)";
  app.add_option("--model", line.routine,
                 "print the predicted times of the candidate distributions for one call")
      ->type_name("gemm|lu|qr|cholesky")->group(model);
  app.add_option("--order", line.order, "matrix order N (default 4096)")->type_name("N")->group(model);
  app.add_option("--flops", line.flops, "flop/s of the fastest processor (default 1e8)")
      ->type_name("RATE")->group(model);
  app.add_option("--memory", line.memory, "bytes of memory per processor (default 512 MiB)")
      ->type_name("BYTES")->group(model);
  app.add_option("--network", line.network, "shared bus (Ethernet) or switched (default shared)")
      ->check(one_of({"shared", "switched"}))->type_name("shared|switched")->group(model);
  app.add_option("--latency", line.latency, "seconds per message (default 1e-4)")
      ->type_name("SECONDS")->group(model);
  app.add_option("--bandwidth", line.bandwidth, "bytes per second (default 1.25e7)")
      ->type_name("RATE")->group(model);
  app.add_option("--ranks-per-node", line.ranks_per_node,
                 "switched: processors 0..K-1 share one link into the switch, K..2K-1 the next, "
                 "... (--bandwidth is the link's; default: one link per processor)")
      ->type_name("K")->group(model);
  app.add_option("--caller-grid", line.caller_grid,
                 "the caller's block-cyclic grid (default: the squarest p x q using all processors)")
      ->type_name("PxQ")->group(model);
  app.add_option("--caller-block", line.caller_block, "the caller's block size (default 64)")
      ->type_name("NB")->group(model);
  app.add_flag("--exhaustive", line.exhaustive,
               "price every candidate on every process count (the full search, to check the "
               "default scalable one against)")
      ->group(model);

  const std::string output = "Output";
  app.add_flag("--json", line.json, "print the report as JSON instead of text")->group(output);
  app.add_option("--picture", line.picture, "draw the tile-to-processor map to FILE.svg, FILE.png or FILE.pdf")
      ->type_name("FILE")->group(output);
  app.add_option("--matrix-tiles", line.matrix_tiles,
                 "the picture shows an N x N tile matrix (default: two panels or pattern "
                 "periods); with --rebalance, the matrix side in blocks (default 60)")
      ->type_name("N")->group(output);
}

Options check_options(const CLI::App& app, const CommandLine& line) {
  Options options;
  require_for(app, "--file-kind", "--file");
  require_for(app, "--row-migration-cost", "--rebalance");
  for (const char* setting : kModelSettings) require_for(app, setting, "--model");
  if (given(app, "--matrix-tiles"))
    options.matrix_tiles = positive(line.matrix_tiles, "--matrix-tiles", static_cast<long long>(kMaxPictureTiles));
  if (line.exact) options.method = GridMethod::Exact;
  if (line.json) options.output = OutputFormat::Json;
  if (given(app, "--picture")) {
    options.picture_format = picture_format_of(line.picture);
    options.picture_path = line.picture;
  }

  if (given(app, "--rebalance")) {
    options.mode = Mode::Rebalance;
    check_rebalance(app, line, options);
    return options;
  }
  read_processors(app, line, options);
  if (given(app, "--pattern")) {
    options.mode = Mode::Pattern;
    options.pattern = pattern_kind_from(line.pattern);
    forbid_with(app, "--panel", "--pattern");
    forbid_with(app, "--exact", "--pattern");
  }
  if (given(app, "--grid")) {
    options.grid = parse_shape(line.grid, "--grid");
    if (options.mode == Mode::Grid) check_grid(*options.grid, options.speeds.size());
  }
  if (given(app, "--panel")) options.panel = parse_shape(line.panel, "--panel");
  if (given(app, "--model")) options.model = model_settings(app, line);
  check_work_limits(options);
  return options;
}

}  // namespace hetscal::tools::plan
