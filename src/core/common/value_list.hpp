#pragma once
/// @file value_list.hpp
/// The one grammar of lists of values that hetscal reads from people (HETSCAL_SPEEDS, speed
/// files, hetscal-plan's --speeds and --file): entries separated by commas, blanks or
/// newlines; '#' starts a comment that runs to the end of its line.
#include <string>
#include <vector>

namespace hetscal::core {

/// The entries of `text`, in order, comments removed; empty when there are none.
std::vector<std::string> split_value_list(const std::string& text);

/// `text` in ASCII lower case (for case-insensitive keywords and switches).
std::string ascii_lowercase(std::string text);

}  // namespace hetscal::core
