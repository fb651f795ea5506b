#include "tools/plan/input.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "core/common/bounded_file.hpp"
#include "core/common/error.hpp"
#include "core/common/value_list.hpp"
#include "tools/plan/limits.hpp"

namespace hetscal::tools::plan {
namespace {

// strtod also reads "nan" and "inf"; they are numbers here and refused later by Speeds
// with their position, which is the clearer message.
double parse_number(const std::string& token, std::size_t position, const std::string& what) {
  const char* begin = token.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end == begin || *end != '\0') {
    std::ostringstream msg;
    msg << what << ": value " << position << " '" << token << "' is not a number";
    throw InvalidArgument(msg.str());
  }
  return value;
}

std::size_t parse_dimension(const std::string& digits, const std::string& text,
                            const std::string& what) {
  const bool all_digits = !digits.empty() && digits.size() <= 9 &&
                          std::all_of(digits.begin(), digits.end(),
                                      [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!all_digits)
    throw InvalidArgument(what + ": '" + text + "' is not of the form PxQ (e.g. 3x3)");
  const auto value = static_cast<std::size_t>(std::stoul(digits));
  if (value == 0) throw InvalidArgument(what + ": '" + text + "' has a zero dimension");
  return value;
}

}  // namespace

std::string to_string(ValueKind kind) {
  return kind == ValueKind::Speeds ? "speeds" : "cycle-times";
}

std::vector<double> parse_number_list(const std::string& text, const std::string& what) {
  const std::vector<std::string> tokens = core::split_value_list(text);
  if (tokens.empty()) throw InvalidArgument(what + ": the list is empty");
  std::vector<double> values;
  values.reserve(tokens.size());
  for (std::size_t k = 0; k < tokens.size(); ++k) values.push_back(parse_number(tokens[k], k + 1, what));
  return values;
}

ProcessorFile read_processor_file(const std::string& path,
                                  std::optional<ValueKind> declared_kind) {
  // Only a regular file of bounded size: /dev/zero, /dev/urandom or a FIFO is refused by
  // what it is rather than read for ever.
  const core::BoundedFileRead read = core::read_bounded_file(path, kMaxFileBytes, "a processor file");
  if (!read.content) throw InvalidArgument("--file: '" + path + "' " + read.problem);

  std::vector<std::string> tokens = core::split_value_list(*read.content);
  std::optional<ValueKind> header_kind;
  if (!tokens.empty() && core::ascii_lowercase(tokens.front()) == "speeds:") header_kind = ValueKind::Speeds;
  if (!tokens.empty() && core::ascii_lowercase(tokens.front()) == "cycle-times:") header_kind = ValueKind::CycleTimes;
  if (header_kind) tokens.erase(tokens.begin());

  if (header_kind && declared_kind && *header_kind != *declared_kind)
    throw InvalidArgument("--file: '" + path + "' declares " + to_string(*header_kind) +
                          " but --file-kind says " + to_string(*declared_kind));
  const std::optional<ValueKind> kind = header_kind ? header_kind : declared_kind;
  if (!kind)
    throw InvalidArgument("--file: '" + path +
                          "' does not say what its numbers are: start it with 'speeds:' or "
                          "'cycle-times:', or give --file-kind");

  const std::string what = "--file '" + path + "'";
  if (tokens.empty()) throw InvalidArgument(what + ": no numbers in the file");
  ProcessorFile file{*kind, {}};
  for (std::size_t k = 0; k < tokens.size(); ++k)
    file.values.push_back(parse_number(tokens[k], k + 1, what));
  return file;
}

core::Speeds make_speeds(ValueKind kind, const std::vector<double>& values, const std::string& what) {
  try {
    return kind == ValueKind::Speeds ? core::Speeds::from_speeds(values)
                                     : core::Speeds::from_cycle_times(values);
  } catch (const InvalidArgument& error) {
    // core names the list by its kind ("speeds: value 2 of 3 is 0; ..."); name the option.
    const std::string message = error.what();
    const std::string prefix = to_string(kind);
    throw InvalidArgument(what + message.substr(message.rfind(prefix, 0) == 0 ? prefix.size() : 0));
  }
}

Shape parse_shape(const std::string& text, const std::string& what) {
  const std::size_t cross = text.find_first_of("xX");
  if (cross == std::string::npos)
    throw InvalidArgument(what + ": '" + text + "' is not of the form PxQ (e.g. 3x3)");
  return Shape{parse_dimension(text.substr(0, cross), text, what),
               parse_dimension(text.substr(cross + 1), text, what)};
}

PictureFormat picture_format_of(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  const std::size_t slash = path.find_last_of("/\\");
  const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string extension = has_extension ? core::ascii_lowercase(path.substr(dot)) : "";
  if (extension == ".svg") return PictureFormat::Svg;
  if (extension == ".png") return PictureFormat::Png;
  if (extension == ".pdf") return PictureFormat::Pdf;
  throw InvalidArgument("--picture: '" + path + "' must end in .svg, .png or .pdf" +
                        (has_extension ? " (not " + path.substr(dot) + ")" : ""));
}

}  // namespace hetscal::tools::plan
