#include "tools/plan/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hetscal::tools::plan {

namespace {

// The process id keeps two concurrent runs writing the same picture apart.
std::string temporary_of(const std::string& path) { return path + ".tmp" + std::to_string(::getpid()); }

}  // namespace

void require_writable(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    throw OutputError("--picture: cannot write '" + path + "': it is a directory");
  const std::string temporary = temporary_of(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd < 0) throw OutputError("--picture: cannot write '" + path + "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(temporary.c_str());
}

void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  const std::string temporary = temporary_of(path);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out)
      throw OutputError("--picture: cannot write '" + path + "': " + std::strerror(errno));
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw OutputError("--picture: error while writing '" + path + "'");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw OutputError("--picture: cannot write '" + path + "': " + reason);
  }
}

}  // namespace hetscal::tools::plan
