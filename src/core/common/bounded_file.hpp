#pragma once
/// @file bounded_file.hpp
/// Reading a small input file that a user names (a speeds file, a processor file) without
/// ever blocking or reading without limit: /dev/zero, /dev/urandom, a FIFO or a directory
/// given as the file is refused by what it is, an oversized file by its size. POSIX only
/// (stat, open, read): the one part of core/ that touches the operating system, kept here so
/// that the library's configuration and the tools share one reader.
#include <cstddef>
#include <optional>
#include <string>

namespace hetscal::core {

/// What reading a bounded file gave: its content, or why there is none.
struct BoundedFileRead {
  std::optional<std::string> content;
  /// Without content, what is wrong, to follow the file's name in a message: "is a
  /// directory, not a regular file", "is 70000 bytes, more than the 65536 ... may have",
  /// "cannot be opened: No such file or directory" ...
  std::string problem;
};

/// Reads a regular file of at most `max_bytes` bytes. The path is checked with stat before it
/// is opened (opening some devices has effects: a tape rewinds, a FIFO blocks), opened
/// O_NONBLOCK and checked again on the open descriptor (the path may have been replaced in
/// between), and at most max_bytes + 1 bytes are read (one more tells a file that grew).
/// @param path the file's path.
/// @param max_bytes the largest size accepted.
/// @param what names the file's role in the size message ("a speeds file").
/// @return the content, or the problem; never throws for a bad file.
BoundedFileRead read_bounded_file(const std::string& path, std::size_t max_bytes,
                                  const std::string& what);

}  // namespace hetscal::core
