#pragma once
/// @file lu_layouts_option.hpp
/// HETSCAL_LU_LAYOUTS and HETSCAL_QR_LAYOUTS: the kinds of layout the LU planner may choose
/// from for an LU and for a QR (default: all; the same families, geqrf_plan.hpp). For
/// tests and experiments, as HETSCAL_CHOLESKY_LAYOUTS: names, any case, separated by commas
/// or blanks: caller, 2dbc, hetero-grid, g2dbc, hetero-pattern.
#include <string>
#include <vector>

#include "core/planners/lu_plan.hpp"

namespace hetscal::runtime {

/// Every kind, in core::LuPlanOptions' order.
std::vector<core::LuLayoutKind> all_lu_layouts();

/// The option's name of `kind` ("g2dbc", "hetero-pattern" ...).
const char* lu_layout_option_name(core::LuLayoutKind kind);

/// Parses the variable's value; the kinds come back in all_lu_layouts()' order, once each.
/// @throws InvalidArgument naming the first unknown entry, or when the list is empty.
std::vector<core::LuLayoutKind> parse_lu_layouts(const std::string& text);

/// Parses HETSCAL_QR_LAYOUTS' value as parse_lu_layouts does.
/// @throws InvalidArgument naming HETSCAL_QR_LAYOUTS and the first unknown entry, or when
///   the list is empty.
std::vector<core::LuLayoutKind> parse_qr_layouts(const std::string& text);

}  // namespace hetscal::runtime
