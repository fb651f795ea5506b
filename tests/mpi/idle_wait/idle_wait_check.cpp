// HETSCAL_IDLE_WAIT (src/mpi/idle_wait.cpp) as the MPI library meets it: sched_yield().
// Usage: hetscal_idle_wait_check sleep|yield. With `sleep`, 50 calls must take at least 50
// sleeps of 20 microseconds (nanosleep never returns early, so no load can flip this); with
// `yield`, each call must return 0 as the kernel's does. Prints what it measured.
#include <sched.h>

#include <chrono>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "sleep") != 0 && std::strcmp(argv[1], "yield") != 0)) {
    std::fprintf(stderr, "usage: %s sleep|yield\n", argv[0]);
    return 2;
  }
  constexpr int kCalls = 50;
  const auto start = std::chrono::steady_clock::now();
  for (int call = 0; call < kCalls; ++call) {
    if (sched_yield() != 0) {
      std::printf("sched_yield() returned nonzero\n");
      return 1;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d calls of sched_yield() took %.0f microseconds\n", kCalls, seconds * 1e6);
  const bool slept = seconds >= kCalls * 20e-6;
  if (std::strcmp(argv[1], "sleep") == 0 && !slept) {
    std::printf("expected at least %d microseconds of sleep\n", kCalls * 20);
    return 1;
  }
  return 0;
}
