#include "driver_input.hpp"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hetscal::driver {
namespace {

// Lines of the file, consumed one item at a time.
class Lines {
 public:
  explicit Lines(const std::string& path) : in_(path) {
    if (!in_) throw std::runtime_error("cannot read " + path);
  }
  // The first `count` whitespace-separated values of the next line (quotes stripped).
  std::vector<std::string> values(std::size_t count, const std::string& what) {
    std::string line;
    ++number_;
    if (!std::getline(in_, line))
      throw std::runtime_error("line " + std::to_string(number_) + ": missing " + what);
    std::istringstream words(line);
    std::vector<std::string> out;
    std::string word;
    while (out.size() < count && words >> word) {
      if (word.size() >= 2 && word.front() == '\'' && word.back() == '\'')
        word = word.substr(1, word.size() - 2);
      out.push_back(word);
    }
    if (out.size() < count) {
      throw std::runtime_error("line " + std::to_string(number_) + ": " + what + " needs " +
                               std::to_string(count) + " values");
    }
    return out;
  }
  template <typename T>
  std::vector<T> numbers(std::size_t count, const std::string& what) {
    std::vector<T> out;
    for (const std::string& text : values(count, what)) {
      std::istringstream value(text);
      T x{};
      if (!(value >> x) || !value.eof())
        throw std::runtime_error("line " + std::to_string(number_) + ": bad " + what + " '" + text +
                                 "'");
      out.push_back(x);
    }
    return out;
  }
  int count(const std::string& what) { return positive<int>(1, what).front(); }
  // As numbers(), each value > 0 (sizes, block sizes, speeds).
  template <typename T>
  std::vector<T> positive(std::size_t count, const std::string& what) {
    std::vector<T> out = numbers<T>(count, what);
    for (const T x : out) {
      if (!(x > 0))
        throw std::runtime_error("line " + std::to_string(number_) + ": " + what +
                                 " must be > 0, not " + std::to_string(x));
    }
    return out;
  }

 private:
  std::ifstream in_;
  int number_ = 0;
};

// One option per problem, each the first letter (any case) of one of `allowed`.
std::vector<char> options(Lines& lines, std::size_t count, const std::string& allowed,
                          const std::string& what) {
  std::vector<char> out;
  for (const std::string& option : lines.values(count, what)) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(option[0])));
    if (allowed.find(c) == std::string::npos)
      throw std::runtime_error(what + ": '" + option + "' is not one of " + allowed);
    out.push_back(c);
  }
  return out;
}

// The title line, first of every file.
void read_title(Lines& lines, const std::string& path, DriverSettings& settings) {
  std::getline(std::ifstream(path), settings.title);
  lines.values(0, "title");
}

// Block sizes, grids, speeds, repetitions and threshold, after the problems.
void read_settings(Lines& lines, DriverSettings& settings) {
  settings.block = lines.positive<int>(
      static_cast<std::size_t>(lines.count("number of block sizes")), "values of NB");
  const auto grids = static_cast<std::size_t>(lines.count("number of grids"));
  settings.grid_rows = lines.numbers<int>(grids, "values of P");
  settings.grid_cols = lines.numbers<int>(grids, "values of Q");
  settings.speeds =
      lines.positive<double>(static_cast<std::size_t>(lines.count("number of speeds")), "speeds");
  settings.repetitions = lines.count("repetitions");
  settings.threshold = lines.numbers<double>(1, "threshold").front();
  if (!(settings.threshold >= 0.0))
    throw std::runtime_error("threshold must be >= 0, not " + std::to_string(settings.threshold));
}

// A driver input: the title, the problems (read by `problems`) and the common settings.
template <typename Input, typename Problems>
Input read_input(const std::string& path, Problems problems) {
  Lines lines(path);
  Input in;
  read_title(lines, path, in);
  problems(lines, static_cast<std::size_t>(lines.count("number of problems")), in);
  read_settings(lines, in);
  return in;
}

}  // namespace

GemmInput read_gemm_input(const std::string& path) {
  return read_input<GemmInput>(path, [](Lines& lines, std::size_t problems, GemmInput& in) {
    in.m = lines.numbers<int>(problems, "values of M");
    in.n = lines.numbers<int>(problems, "values of N");
    in.k = lines.numbers<int>(problems, "values of K");
    in.trans_a = options(lines, problems, "NTC", "values of TRANSA");
    in.trans_b = options(lines, problems, "NTC", "values of TRANSB");
  });
}

PotrfInput read_potrf_input(const std::string& path) {
  return read_input<PotrfInput>(path, [](Lines& lines, std::size_t problems, PotrfInput& in) {
    in.n = lines.positive<int>(problems, "values of N");
    in.uplo = options(lines, problems, "LU", "values of UPLO");
    in.layout = options(lines, problems, "ACP", "values of LAYOUT");
  });
}

RectangularInput read_rectangular_input(const std::string& path) {
  return read_input<RectangularInput>(path, [](Lines& lines, std::size_t problems,
                                               RectangularInput& in) {
    in.m = lines.positive<int>(problems, "values of M");
    in.n = lines.positive<int>(problems, "values of N");
    in.layout = options(lines, problems, "ACP", "values of LAYOUT");
  });
}

}  // namespace hetscal::driver
