#include "core/common/value_list.hpp"

#include <algorithm>
#include <cctype>

namespace hetscal::core {

std::vector<std::string> split_value_list(const std::string& text) {
  std::vector<std::string> entries;
  std::string current;
  bool in_comment = false;
  for (const char ch : text + "\n") {  // the final newline flushes the last entry
    if (ch == '\n') in_comment = false;
    if (in_comment) continue;
    if (ch == '#') {
      in_comment = true;  // the entry before it ends at the newline that ends the comment
    } else if (ch == ',' || std::isspace(static_cast<unsigned char>(ch)) != 0) {
      if (!current.empty()) entries.push_back(current);
      current.clear();
    } else {
      current += ch;
    }
  }
  return entries;
}

std::string ascii_lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace hetscal::core
