#pragma once
/// @file error.hpp
/// Typed errors thrown by hetscal's library code. The shim catches them and maps them to
/// ScaLAPACK's INFO or PB_Cabort; tools print their message and exit non-zero.
#include <stdexcept>
#include <string>

namespace hetscal {

/// Base of every error hetscal throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An input (speeds, sizes, options, configuration) that cannot be used; the message names
/// the offending value.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

}  // namespace hetscal
