#include "tools/plan/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <unistd.h>

namespace hetscal::tools::plan {

void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  // The process id keeps two concurrent runs writing the same picture apart.
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
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
