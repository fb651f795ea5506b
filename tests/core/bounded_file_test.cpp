// core's bounded file reader on the files a hostile user may name: devices, a FIFO, a
// directory, a file one byte over the limit. None may block or be read without limit.
// (tests/runtime/config_file_test.cpp checks the speeds file's messages built on it.)
#include "core/common/bounded_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace hetscal::core {
namespace {

/// A fresh directory under the system's temporary directory, removed after the test.
class ScratchDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "hetscal-bounded-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  std::string write(const std::string& name, const std::string& content) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  std::string dir_;
};

TEST_F(ScratchDir, ReadsARegularFileUpToTheLimitExactly) {
  const BoundedFileRead read = read_bounded_file(write("ten", "0123456789"), 10, "a test file");
  ASSERT_TRUE(read.content) << read.problem;
  EXPECT_EQ(*read.content, "0123456789");
  EXPECT_EQ(read.problem, "");
}

TEST_F(ScratchDir, RefusesOneByteOverTheLimitNamingTheRole) {
  const BoundedFileRead read = read_bounded_file(write("eleven", "0123456789!"), 10, "a test file");
  EXPECT_FALSE(read.content);
  EXPECT_EQ(read.problem, "is 11 bytes, more than the 10 a test file may have");
}

TEST_F(ScratchDir, RefusesAFifoWithoutOpeningIt) {
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // Opening a FIFO for reading blocks until a writer comes: the test would hang here.
  EXPECT_EQ(read_bounded_file(fifo, 10, "a test file").problem, "is a FIFO, not a regular file");
}

TEST_F(ScratchDir, RefusesADirectoryAndAMissingFile) {
  EXPECT_EQ(read_bounded_file(dir_, 10, "a test file").problem, "is a directory, not a regular file");
  EXPECT_EQ(read_bounded_file(dir_ + "/none", 10, "a test file").problem,
            "cannot be opened: No such file or directory");
}

TEST(BoundedFile, RefusesEndlessDevices) {
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    const BoundedFileRead read = read_bounded_file(device, 1 << 20, "a test file");
    EXPECT_FALSE(read.content) << device;
    EXPECT_EQ(read.problem, "is a character device, not a regular file") << device;
  }
}

}  // namespace
}  // namespace hetscal::core
