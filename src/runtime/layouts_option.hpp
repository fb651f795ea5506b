#pragma once
/// @file layouts_option.hpp
/// The parsing shared by the planners' layout options (HETSCAL_CHOLESKY_LAYOUTS,
/// HETSCAL_LU_LAYOUTS): names, any case, separated by commas or blanks.
#include <cstddef>
#include <string>
#include <vector>

namespace hetscal::runtime {

/// Which of `names` the option's value lists.
/// @param text the variable's value.
/// @param variable the variable's name, for messages.
/// @param names every layout's option name, in the planner's order.
/// @return the indices into `names` of the layouts listed, increasing, once each.
/// @throws InvalidArgument naming the variable and the first unknown entry (with the known
///         names), or when the list is empty.
std::vector<std::size_t> parse_layout_names(const std::string& text, const std::string& variable,
                                            const std::vector<std::string>& names);

/// parse_layout_names over the kinds `all`, named by `name_of`.
/// @return the kinds listed, in the order of `all`, once each.
/// @throws InvalidArgument as parse_layout_names.
template <typename Kind>
std::vector<Kind> parse_layout_kinds(const std::string& text, const std::string& variable,
                                     const std::vector<Kind>& all, const char* (*name_of)(Kind)) {
  std::vector<std::string> names;
  for (Kind kind : all) names.emplace_back(name_of(kind));
  std::vector<Kind> kinds;
  for (std::size_t i : parse_layout_names(text, variable, names)) kinds.push_back(all[i]);
  return kinds;
}

}  // namespace hetscal::runtime
