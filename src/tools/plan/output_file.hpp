#pragma once
/// @file output_file.hpp
/// Writing an output file all or nothing.
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/error.hpp"

namespace hetscal::tools::plan {

/// An output file could not be written (exit code 1, not a usage error).
class OutputError : public Error {
 public:
  using Error::Error;
};

/// Checks, before any work, that write_file_atomically(path, ...) can succeed: `path` is not
/// a directory and its directory lets a file be created (one is created and removed).
/// @throws OutputError naming the path and the reason.
void require_writable(const std::string& path);

/// Writes `bytes` to a temporary file next to `path`, then renames it to `path`: readers
/// never see a partial file, and on failure nothing is left behind.
/// @throws OutputError naming the path if the file cannot be written.
void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes);

}  // namespace hetscal::tools::plan
