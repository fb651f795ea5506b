#pragma once
/// @file mangling.hpp
/// Exports one implementation under the four names Fortran compilers give a routine:
/// lower case with and without a trailing underscore, upper case with and without.
/// Fortran's hidden CHARACTER length arguments follow the declared ones on every ABI hetscal
/// targets, so wrappers that ignore them are call-compatible.
///
/// Usage, with the parameter list and the argument list of the implementation:
///   HETSCAL_EXPORT_MANGLINGS(pdgemm, PDGEMM, shim::pxgemm<double>,
///                            (const char* transa, ...), ("pdgemm_", "PDGEMM", transa, ...))

#define HETSCAL_DEFINE_ENTRY(symbol, implementation, parameters, arguments) \
  extern "C" void symbol parameters { implementation arguments; }

#define HETSCAL_EXPORT_MANGLINGS(lower, upper, implementation, parameters, arguments) \
  HETSCAL_DEFINE_ENTRY(lower##_, implementation, parameters, arguments)               \
  HETSCAL_DEFINE_ENTRY(lower, implementation, parameters, arguments)                  \
  HETSCAL_DEFINE_ENTRY(upper, implementation, parameters, arguments)                  \
  HETSCAL_DEFINE_ENTRY(upper##_, implementation, parameters, arguments)
