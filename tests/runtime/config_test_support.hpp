#pragma once
/// @file config_test_support.hpp
/// Environments and speeds files for the configuration tests, without touching the process's
/// own environment.
#include <map>
#include <optional>
#include <string>

#include "runtime/config.hpp"

namespace hetscal::runtime {

/// A lookup over `variables` (unset when absent). The map must outlive the lookup.
inline EnvironmentLookup lookup_in(const std::map<std::string, std::string>& variables) {
  return [&variables](const std::string& name) -> std::optional<std::string> {
    const auto found = variables.find(name);
    if (found == variables.end()) return std::nullopt;
    return found->second;
  };
}

/// A reader over `files` (path -> content); other paths cannot be opened.
inline FileReader reader_of(const std::map<std::string, std::string>& files) {
  return [&files](const std::string& path) -> FileRead {
    const auto found = files.find(path);
    if (found == files.end()) return FileRead{std::nullopt, "cannot be opened: no such file"};
    return FileRead{found->second, ""};
  };
}

/// Parses `variables`, with `files` as the only files there are.
inline Configuration parse(const std::map<std::string, std::string>& variables,
                           const std::map<std::string, std::string>& files = {}) {
  return parse_configuration(lookup_in(variables), reader_of(files));
}

}  // namespace hetscal::runtime
