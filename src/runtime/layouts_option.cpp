#include "runtime/layouts_option.hpp"

#include <algorithm>

#include "core/common/error.hpp"
#include "core/common/value_list.hpp"
#include "runtime/config.hpp"

namespace hetscal::runtime {

std::vector<std::size_t> parse_layout_names(const std::string& text, const std::string& variable,
                                            const std::vector<std::string>& names) {
  const std::vector<std::string> entries = core::split_value_list(text);
  if (entries.empty()) throw InvalidArgument("hetscal: " + variable + " names no layout");
  std::vector<bool> named(names.size(), false);
  for (const std::string& entry : entries) {
    const auto found = std::find(names.begin(), names.end(), core::ascii_lowercase(entry));
    if (found == names.end()) {
      std::string known;
      for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
      throw InvalidArgument("hetscal: " + variable + ": '" + message_excerpt(entry) +
                            "' is not a layout (" + known + ")");
    }
    named[static_cast<std::size_t>(found - names.begin())] = true;
  }
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (named[i]) indices.push_back(i);
  return indices;
}

}  // namespace hetscal::runtime
