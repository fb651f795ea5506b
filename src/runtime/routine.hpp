#pragma once
/// @file routine.hpp
/// Which ScaLAPACK routine a call is: the algorithm (core::Routine) and the scalar type, so
/// that one generic path (plan cache, decision, report) serves PDGEMM, PSPOTRF, PZGETRF …
#include <complex>
#include <string>

#include "core/time_models/time_model.hpp"

namespace hetscal::runtime {

enum class ScalarType { Float, Double, ComplexFloat, ComplexDouble };

template <typename T>
constexpr ScalarType scalar_type_of();
template <>
constexpr ScalarType scalar_type_of<float>() { return ScalarType::Float; }
template <>
constexpr ScalarType scalar_type_of<double>() { return ScalarType::Double; }
template <>
constexpr ScalarType scalar_type_of<std::complex<float>>() { return ScalarType::ComplexFloat; }
template <>
constexpr ScalarType scalar_type_of<std::complex<double>>() { return ScalarType::ComplexDouble; }

struct RoutineId {
  core::Routine routine = core::Routine::Gemm;
  ScalarType scalar = ScalarType::Double;

  /// ScaLAPACK's name in upper case: "PDGEMM", "PZPOTRF", "PSGETRF", "PCGEQRF".
  std::string name() const;
  /// The same in lower case, as HETSCAL_ROUTINES lists it: "pdgemm".
  std::string lowercase_name() const;
  /// name() written into `out` (allocates nothing, for a report made short of memory).
  /// @return out.
  const char* name_into(char (&out)[8]) const noexcept;

  friend bool operator<(RoutineId a, RoutineId b) {
    return a.routine != b.routine ? a.routine < b.routine : a.scalar < b.scalar;
  }
  friend bool operator==(RoutineId a, RoutineId b) {
    return a.routine == b.routine && a.scalar == b.scalar;
  }
};

}  // namespace hetscal::runtime
