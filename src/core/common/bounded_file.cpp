#include "core/common/bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace hetscal::core {
namespace {

// What a file that is not a regular one is, for "'x' is a directory, not a regular file".
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

BoundedFileRead failure(std::string problem) { return BoundedFileRead{std::nullopt, std::move(problem)}; }

std::string too_big(std::uintmax_t bytes, std::size_t max_bytes, const std::string& what) {
  return "is " + std::to_string(bytes) + " bytes, more than the " + std::to_string(max_bytes) +
         " " + what + " may have";
}

std::string not_regular(mode_t mode) { return "is " + kind_of(mode) + ", not a regular file"; }

// Reads at most max_bytes + 1 bytes: one more tells a file grown since fstat.
BoundedFileRead read_at_most(int fd, std::size_t max_bytes, const std::string& what) {
  std::string content(max_bytes + 1, '\0');
  std::size_t used = 0;
  while (used < content.size()) {
    const ssize_t got = ::read(fd, content.data() + used, content.size() - used);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      return failure(std::string("cannot be read: ") + std::strerror(errno));
    }
    used += static_cast<std::size_t>(got);
  }
  if (used > max_bytes) return failure(too_big(used, max_bytes, what));
  content.resize(used);
  return BoundedFileRead{std::move(content), ""};
}

}  // namespace

BoundedFileRead read_bounded_file(const std::string& path, std::size_t max_bytes,
                                  const std::string& what) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return failure(std::string("cannot be opened: ") + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) return failure(not_regular(info.st_mode));
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes) {
    return failure(too_big(static_cast<std::uintmax_t>(info.st_size), max_bytes, what));
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return failure(std::string("cannot be opened: ") + std::strerror(errno));
  BoundedFileRead result;
  if (::fstat(fd, &info) != 0) {
    result = failure(std::string("cannot be examined: ") + std::strerror(errno));
  } else if (!S_ISREG(info.st_mode)) {
    result = failure(not_regular(info.st_mode));
  } else {
    result = read_at_most(fd, max_bytes, what);
  }
  ::close(fd);
  return result;
}

}  // namespace hetscal::core
