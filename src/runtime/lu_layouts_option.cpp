#include "runtime/lu_layouts_option.hpp"

#include "runtime/layouts_option.hpp"

namespace hetscal::runtime {

std::vector<core::LuLayoutKind> all_lu_layouts() { return core::LuPlanOptions{}.kinds; }

const char* lu_layout_option_name(core::LuLayoutKind kind) {
  switch (kind) {
    case core::LuLayoutKind::CallerLayout: return "caller";
    case core::LuLayoutKind::BlockCyclic: return "2dbc";
    case core::LuLayoutKind::HeterogeneousGrid: return "hetero-grid";
    case core::LuLayoutKind::G2dbc: return "g2dbc";
    case core::LuLayoutKind::HeteroPattern: return "hetero-pattern";
  }
  return "?";
}

std::vector<core::LuLayoutKind> parse_lu_layouts(const std::string& text) {
  return parse_layout_kinds(text, "HETSCAL_LU_LAYOUTS", all_lu_layouts(), lu_layout_option_name);
}

std::vector<core::LuLayoutKind> parse_qr_layouts(const std::string& text) {
  return parse_layout_kinds(text, "HETSCAL_QR_LAYOUTS", all_lu_layouts(), lu_layout_option_name);
}

}  // namespace hetscal::runtime
