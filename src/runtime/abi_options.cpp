#include "runtime/abi_options.hpp"

#include <cctype>

namespace hetscal::runtime {
namespace {

char upper(const char* option) {
  return option ? static_cast<char>(std::toupper(static_cast<unsigned char>(option[0]))) : '\0';
}

}  // namespace

std::optional<kernels::Op> parse_trans(const char* option) {
  switch (upper(option)) {
    case 'N': return kernels::Op::NoTrans;
    case 'T': return kernels::Op::Trans;
    case 'C': return kernels::Op::ConjTrans;
    default: return std::nullopt;
  }
}

std::optional<kernels::Side> parse_side(const char* option) {
  switch (upper(option)) {
    case 'L': return kernels::Side::Left;
    case 'R': return kernels::Side::Right;
    default: return std::nullopt;
  }
}

std::optional<kernels::Uplo> parse_uplo(const char* option) {
  switch (upper(option)) {
    case 'U': return kernels::Uplo::Upper;
    case 'L': return kernels::Uplo::Lower;
    default: return std::nullopt;
  }
}

}  // namespace hetscal::runtime
