#include "scalapack_reference.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace hetscal_test {

void* scalapack_own_symbol(const char* symbol) {
  Dl_info library{};
  void* numroc = dlsym(RTLD_DEFAULT, "numroc_");
  void* handle = numroc && dladdr(numroc, &library) ? dlopen(library.dli_fname, RTLD_LAZY | RTLD_NOLOAD)
                                                    : nullptr;
  void* found = handle ? dlsym(handle, symbol) : nullptr;
  if (!found) {
    std::fprintf(stderr, "scalapack_reference: ScaLAPACK's own %s not found\n", symbol);
    std::abort();
  }
  return found;
}

}  // namespace hetscal_test
