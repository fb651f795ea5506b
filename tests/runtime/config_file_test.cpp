// Speeds files as a hostile user may give them: devices, FIFOs, directories, huge files, and
// a reader that fails. None may block, read without limit or be read twice; each gets a
// message naming HETSCAL_SPEEDS_FILE and what the path is.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <new>
#include <string>

#include "config_test_support.hpp"
#include "runtime/config.hpp"

namespace hetscal::runtime {
namespace {

/// A fresh directory under TMPDIR (or /tmp), removed with what the test put in it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/hetscal-config-XXXXXX";
    path_ = mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name, const std::string& content) const {
    const std::string full = path_ + "/" + name;
    std::ofstream(full, std::ios::binary) << content;
    return full;
  }

 private:
  std::string path_;
};

// The error parsing HETSCAL_SPEEDS_FILE=path gives with the real reader ("" if none).
std::string error_for(const std::string& path) {
  const std::map<std::string, std::string> variables{{"HETSCAL_SPEEDS_FILE", path}};
  const Configuration config = parse_configuration(lookup_in(variables), read_speeds_file);
  return config.errors.empty() ? "" : config.errors.front();
}

TEST(SpeedsFile, ReadsARegularFile) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string path = dir.file("speeds", "# two ranks\n1\n3\n");
  const FileRead read = read_speeds_file(path);
  ASSERT_TRUE(read.content) << read.problem;
  EXPECT_EQ(*read.content, "# two ranks\n1\n3\n");
  EXPECT_EQ(error_for(path), "");
}

TEST(SpeedsFile, RefusesDevicesWithoutReadingThem) {
  EXPECT_EQ(read_speeds_file("/dev/zero").problem, "is a character device, not a regular file");
  EXPECT_EQ(error_for("/dev/zero"),
            "hetscal: HETSCAL_SPEEDS_FILE='/dev/zero' is a character device, not a regular file");
}

TEST(SpeedsFile, RefusesAFifoWithoutBlocking) {
  TempDir dir;
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // Opening a FIFO for reading blocks until a writer comes: the test would hang here.
  EXPECT_EQ(error_for(fifo),
            "hetscal: HETSCAL_SPEEDS_FILE='" + fifo + "' is a FIFO, not a regular file");
}

TEST(SpeedsFile, RefusesADirectory) {
  TempDir dir;
  EXPECT_EQ(error_for(dir.path()),
            "hetscal: HETSCAL_SPEEDS_FILE='" + dir.path() + "' is a directory, not a regular file");
}

TEST(SpeedsFile, RefusesMissingFilesWithTheSystemsReason) {
  TempDir dir;
  const std::string missing = dir.path() + "/none";
  EXPECT_EQ(error_for(missing), "hetscal: HETSCAL_SPEEDS_FILE='" + missing +
                                    "' cannot be opened: No such file or directory");
}

TEST(SpeedsFile, SizeLimitIsKMaxSpeedsFileBytes) {
  TempDir dir;
  // "1 " repeated: exactly at the limit is read (and is a valid list), one byte more is not.
  std::string list;
  for (std::size_t i = 0; i < kMaxSpeedsFileBytes / 2; ++i) list += "1 ";
  ASSERT_EQ(list.size(), kMaxSpeedsFileBytes);
  const FileRead read = read_speeds_file(dir.file("limit", list));
  ASSERT_TRUE(read.content) << read.problem;
  EXPECT_EQ(read.content->size(), kMaxSpeedsFileBytes);
  const std::string big = dir.file("big", list + "1");
  EXPECT_EQ(error_for(big), "hetscal: HETSCAL_SPEEDS_FILE='" + big + "' is 65537 bytes, more "
                                "than the 65536 a speeds file may have");
}

TEST(SpeedsFile, LongPathsAreShortenedInMessages) {
  const std::string path = "/" + std::string(300, 'd') + "/speeds";
  const std::string message = error_for(path);
  EXPECT_LT(message.size(), 300u) << message;
  EXPECT_NE(message.find("'/" + std::string(199, 'd') + "\u2026'"), std::string::npos) << message;
}

// The reader runs once per cache, whatever it gave: a failure is not retried on every call.
TEST(ConfigurationCacheTest, ReadsTheFileOnceAndKeepsFailures) {
  const std::map<std::string, std::string> variables{{"HETSCAL_SPEEDS_FILE", "/speeds"}};
  for (const bool throws : {false, true}) {
    int reads = 0;
    ConfigurationCache cache(lookup_in(variables), [&reads, throws](const std::string&) -> FileRead {
      ++reads;
      if (throws) throw std::bad_alloc();
      return FileRead{std::nullopt, "cannot be read: Input/output error"};
    });
    const Configuration& first = cache.get();
    const Configuration& second = cache.get();
    EXPECT_EQ(reads, 1) << throws;
    EXPECT_EQ(&first, &second);
    ASSERT_EQ(first.errors.size(), 1u);
    EXPECT_EQ(first.errors[0], throws ? "hetscal: reading the configuration failed: std::bad_alloc"
                                      : "hetscal: HETSCAL_SPEEDS_FILE='/speeds' cannot be read: "
                                        "Input/output error");
  }
}

}  // namespace
}  // namespace hetscal::runtime
