#pragma once
// The seconds the preloaded emulator has charged this process so far (its exported query);
// exits with a message when the emulator is not preloaded, since nothing can be checked.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

inline double charged() {
  using Query = double (*)();
  static auto query = reinterpret_cast<Query>(dlsym(RTLD_DEFAULT, "hetscal_slowdown_charged_seconds"));
  if (query == nullptr) {
    std::printf("the emulator is not preloaded\n");
    std::exit(1);
  }
  return query();
}
