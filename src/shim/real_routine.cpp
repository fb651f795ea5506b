#include "shim/real_routine.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace hetscal::shim {

void* real_routine(const char* symbol) {
  void* address = dlsym(RTLD_NEXT, symbol);
  if (address == nullptr) {
    std::fprintf(stderr,
                 "hetscal: ScaLAPACK's %s was not found after libhetscal (%s). Link ScaLAPACK "
                 "after hetscal (-lhetscal -lscalapack-openmpi) or preload hetscal into a "
                 "program linked with ScaLAPACK (LD_PRELOAD=libhetscal.so).\n",
                 symbol, dlerror() ? "dlsym failed" : "no such symbol");
    std::fflush(stderr);
    std::abort();
  }
  return address;
}

}  // namespace hetscal::shim
