#pragma once
/// @file scalar_types.hpp
/// The four scalar types hetscal's templates are instantiated for (float, double,
/// std::complex<float>, std::complex<double>: ScaLAPACK's S, D, C, Z, in that order), listed
/// once, for every layer: a template is instantiated in its one .cpp file and declared
/// `extern template` in its header, from one list of its signatures.
#include <complex>

/// X(A, T) for each scalar type T, in the order S, D, C, Z.
#define HETSCAL_FOR_EACH_SCALAR_WITH(X, A) \
  X(A, float) X(A, double) X(A, std::complex<float>) X(A, std::complex<double>)

#define HETSCAL_APPLY_TO_SCALAR(X, T) X(T)
/// X(T) for each scalar type T (X a macro taking the type).
#define HETSCAL_FOR_EACH_SCALAR(X) HETSCAL_FOR_EACH_SCALAR_WITH(HETSCAL_APPLY_TO_SCALAR, X)

/// A template's instantiations are written once, in its header, as a macro
/// INSTANCES(PREFIX, T) holding one `PREFIX template <declaration>;` per function, T the
/// scalar type. The header then declares them for the four types (explicit instantiation
/// declarations: no other file instantiates them) ...
#define HETSCAL_EXTERN_FOR_EACH_SCALAR(INSTANCES) HETSCAL_FOR_EACH_SCALAR_WITH(INSTANCES, extern)
/// ... and the template's one .cpp file defines them.
#define HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(INSTANCES) HETSCAL_FOR_EACH_SCALAR_WITH(INSTANCES, )
