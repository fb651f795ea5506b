// How a rank waits when its MPI library yields its core: HETSCAL_IDLE_WAIT.
//
// Open MPI calls sched_yield() at every empty poll when mpi_yield_when_idle is set, which it
// sets by itself when a run has more ranks than cores. Since Linux 6.6 the scheduler (EEVDF)
// moves a yielding task's deadline a whole time slice later at each call, so a rank that polls
// a thousand times while it waits ends up behind every other runnable process. On a shared
// machine those are the other users' processes: beside two `yes`, the 9-rank kernel tests took
// 274 s instead of 5.9 s, the ranks getting 4 % of the cores. A rank that sleeps is placed
// afresh when it wakes, and the same run took 21 s.
//
// HETSCAL_IDLE_WAIT=sleep makes every sched_yield() of the process a 20 microsecond sleep;
// unset or `yield`, sched_yield() is the kernel's. The test suite sets `sleep`: its runs have
// up to 9 ranks on 2 cores and must pass beside other work. On an idle machine sleeping costs
// time instead (the same tests took 17 s), so it is not the default.
//
// The symbol interposes the C library's for the whole process (libhetscal.so, and the
// executables that link the mpi layer: cmake keeps it linked and exported, see
// src/mpi/CMakeLists.txt).
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace {

enum class IdleWait { Yield, Sleep };

IdleWait idle_wait_from_environment() {
  const char* text = std::getenv("HETSCAL_IDLE_WAIT");
  if (text == nullptr || *text == '\0' || std::strcmp(text, "yield") == 0) return IdleWait::Yield;
  if (std::strcmp(text, "sleep") == 0) return IdleWait::Sleep;
  std::fprintf(stderr,
               "hetscal: HETSCAL_IDLE_WAIT='%s' is neither 'yield' nor 'sleep': waiting ranks "
               "yield their core\n",
               text);
  return IdleWait::Yield;
}

}  // namespace

extern "C" int sched_yield() noexcept {
  static const IdleWait mode = idle_wait_from_environment();
  if (mode == IdleWait::Yield) return static_cast<int>(syscall(SYS_sched_yield));
  const timespec pause{0, 20000};
  nanosleep(&pause, nullptr);
  return 0;
}
