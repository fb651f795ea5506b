#pragma once
/// @file text_format.hpp
/// Small printf-style helpers shared by the text renderers of hetscal-plan.
#include <cstddef>
#include <string>

namespace hetscal::tools::plan {

/// `value` formatted by the printf conversion `spec` (one %-conversion for a double).
std::string format(const char* spec, double value);

/// `value` formatted by the printf conversion `spec` (one %s conversion).
std::string format(const char* spec, const std::string& value);

/// "PxQ", e.g. "3x3".
std::string shape_text(std::size_t rows, std::size_t cols);

}  // namespace hetscal::tools::plan
