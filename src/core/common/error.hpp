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

/// Marks a failure that only reports another participant's (a split pricing whose peer could
/// not price a candidate). Where participants agree on one failure to report
/// (mpi::agree_on_stage), the original is named, not its echoes.
class EchoedFailure {
 public:
  virtual ~EchoedFailure() = default;
};

/// Another participant failed; the message says where. Not remembered as a refusal.
class PeerFailed : public Error, public EchoedFailure {
 public:
  using Error::Error;
};

/// Another participant refused (InvalidArgument): remembered as a refusal alike everywhere.
class PeerRefused : public InvalidArgument, public EchoedFailure {
 public:
  using InvalidArgument::InvalidArgument;
};

}  // namespace hetscal
