#include "runtime/cholesky_layouts_option.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/value_list.hpp"
#include "runtime/config.hpp"

namespace hetscal::runtime {

std::vector<core::CholeskyLayoutKind> all_cholesky_layouts() { return core::CholeskyPlanOptions{}.kinds; }

const char* cholesky_layout_option_name(core::CholeskyLayoutKind kind) {
  switch (kind) {
    case core::CholeskyLayoutKind::CallerLayout: return "caller";
    case core::CholeskyLayoutKind::BlockCyclic: return "2dbc";
    case core::CholeskyLayoutKind::HeterogeneousGrid: return "hetero-grid";
    case core::CholeskyLayoutKind::G2dbc: return "g2dbc";
    case core::CholeskyLayoutKind::Gcrm: return "gcrm";
    case core::CholeskyLayoutKind::HeteroSymmetric: return "hetero-symmetric";
  }
  return "?";
}

std::vector<core::CholeskyLayoutKind> parse_cholesky_layouts(const std::string& text) {
  const std::vector<std::string> entries = core::split_value_list(text);
  if (entries.empty()) throw InvalidArgument("hetscal: HETSCAL_CHOLESKY_LAYOUTS names no layout");
  const std::vector<core::CholeskyLayoutKind> all = all_cholesky_layouts();
  std::vector<bool> named(all.size(), false);
  for (const std::string& entry : entries) {
    const std::string name = core::ascii_lowercase(entry);
    const auto found = std::find_if(all.begin(), all.end(), [&](core::CholeskyLayoutKind kind) {
      return name == cholesky_layout_option_name(kind);
    });
    if (found == all.end()) {
      std::string known;
      for (core::CholeskyLayoutKind kind : all) known += std::string(known.empty() ? "" : ", ") + cholesky_layout_option_name(kind);
      throw InvalidArgument("hetscal: HETSCAL_CHOLESKY_LAYOUTS: '" + message_excerpt(entry) +
                            "' is not a layout (" + known + ")");
    }
    named[static_cast<std::size_t>(found - all.begin())] = true;
  }
  std::vector<core::CholeskyLayoutKind> kinds;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (named[i]) kinds.push_back(all[i]);
  return kinds;
}

}  // namespace hetscal::runtime
