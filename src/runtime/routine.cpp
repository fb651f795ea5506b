#include "runtime/routine.hpp"

#include <cstdio>

#include "core/common/value_list.hpp"

namespace hetscal::runtime {
namespace {

char precision_letter(ScalarType scalar) {
  switch (scalar) {
    case ScalarType::Float: return 'S';
    case ScalarType::Double: return 'D';
    case ScalarType::ComplexFloat: return 'C';
    case ScalarType::ComplexDouble: return 'Z';
  }
  return '?';
}

const char* routine_suffix(core::Routine routine) {
  switch (routine) {
    case core::Routine::Gemm: return "GEMM";
    case core::Routine::LU: return "GETRF";
    case core::Routine::QR: return "GEQRF";
    case core::Routine::Cholesky: return "POTRF";
  }
  return "?";
}

}  // namespace

std::string RoutineId::name() const {
  return std::string("P") + precision_letter(scalar) + routine_suffix(routine);
}

const char* RoutineId::name_into(char (&out)[8]) const noexcept {
  std::snprintf(out, sizeof out, "P%c%s", precision_letter(scalar), routine_suffix(routine));
  return out;
}

std::string RoutineId::lowercase_name() const { return core::ascii_lowercase(name()); }

}  // namespace hetscal::runtime
