#include "runtime/cholesky_layouts_option.hpp"

#include "runtime/layouts_option.hpp"

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
  return parse_layout_kinds(text, "HETSCAL_CHOLESKY_LAYOUTS", all_cholesky_layouts(), cholesky_layout_option_name);
}

}  // namespace hetscal::runtime
