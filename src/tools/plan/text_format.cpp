#include "tools/plan/text_format.hpp"

#include <cstdio>

namespace hetscal::tools::plan {

std::string format(const char* spec, double value) {
  char text[64];
  std::snprintf(text, sizeof text, spec, value);
  return text;
}

std::string format(const char* spec, const std::string& value) {
  char text[256];
  std::snprintf(text, sizeof text, spec, value.c_str());
  return text;
}

std::string shape_text(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

}  // namespace hetscal::tools::plan
