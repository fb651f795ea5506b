#pragma once
/// @file cholesky_layouts_option.hpp
/// HETSCAL_CHOLESKY_LAYOUTS: the kinds of layout the Cholesky planner may choose from
/// (default: all). For tests and experiments: it makes a pattern run on a machine where the
/// model would pick a grid, or keeps a kind out. Names, any case, separated by commas or
/// blanks: caller, 2dbc, hetero-grid, g2dbc, gcrm, hetero-symmetric.
#include <string>
#include <vector>

#include "core/planners/cholesky_plan.hpp"

namespace hetscal::runtime {

/// Every kind, in core::CholeskyPlanOptions' order.
std::vector<core::CholeskyLayoutKind> all_cholesky_layouts();

/// The option's name of `kind` ("gcrm", "hetero-symmetric" ...).
const char* cholesky_layout_option_name(core::CholeskyLayoutKind kind);

/// Parses the variable's value; the kinds come back in all_cholesky_layouts()' order, once each.
/// @throws InvalidArgument naming the first unknown entry, or when the list is empty.
std::vector<core::CholeskyLayoutKind> parse_cholesky_layouts(const std::string& text);

}  // namespace hetscal::runtime
