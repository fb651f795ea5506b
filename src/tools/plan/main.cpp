// hetscal-plan: plans a heterogeneous 2D distribution for given processor speeds and prints
// it (text or JSON), optionally with a picture. The picture's path is checked first; then
// everything is computed in memory, and only then is the picture written (atomically) and
// the report printed, so a failure leaves neither partial output nor a partial file.
#include <CLI/CLI.hpp>
#include <iostream>

#include "core/common/error.hpp"
#include "tools/plan/options.hpp"
#include "tools/plan/output_file.hpp"
#include "tools/plan/picture.hpp"
#include "tools/plan/plan.hpp"

namespace {

using namespace hetscal::tools::plan;

constexpr int kExitOutputError = 1;  // an output cannot be written, or core cannot make the plan
constexpr int kExitUsageError = 2;

int fail(int code, const std::string& message) {
  std::cerr << "hetscal-plan: error: " << message << '\n';
  return code;
}

int run(const Options& options) {
  // An unwritable picture is reported before the work, not after it.
  if (options.picture_path) require_writable(*options.picture_path);
  const Report report = build_report(options);
  const std::string printed = options.output == OutputFormat::Json ? render_json(report) : render_text(report);
  if (options.picture_path)
    write_file_atomically(*options.picture_path, render_picture(picture_of(report), options.picture_format));
  std::cout << printed;
  std::cout.flush();
  return std::cout ? 0 : fail(kExitOutputError, "cannot write the report to standard output");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("hetscal-plan", "hetscal-plan");
  CommandLine line;
  declare_options(app, line);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    return fail(kExitUsageError, error.what());
  }

  try {
    return run(check_options(app, line));
  } catch (const hetscal::InvalidArgument& error) {
    return fail(kExitUsageError, error.what());
  } catch (const hetscal::Error& error) {  // OutputError, or a plan core cannot make
    return fail(kExitOutputError, error.what());
  } catch (const std::exception& error) {
    return fail(kExitOutputError, std::string("internal error: ") + error.what());
  }
}
