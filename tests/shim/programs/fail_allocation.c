/* An allocator for the fault-injection sweep (issue 30): linked into a test program, it
 * replaces malloc and its relatives for the whole process and, while armed, counts the
 * allocations hetscal's own code makes, failing the k-th one (once), as a machine short of
 * memory would. An allocation is hetscal's when the first caller outside the C and C++
 * runtimes (libc, libstdc++, libgcc_s) lies in a library whose file name contains
 * "libhetscal": operator new, std::vector, std::string … called from hetscal all count,
 * while MPI's, OpenBLAS's and the test program's own allocations do not.
 *
 * backtrace() loads libgcc_s (and allocates) on its first use: it is primed at start-up,
 * before anything is armed, so that it never allocates inside malloc. A thread-local guard
 * keeps the allocator's own calls out of the count. */
#define _GNU_SOURCE
#include "fail_allocation.h"

#include <dlfcn.h>
#include <link.h>
#include <unwind.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_realloc(void* pointer, size_t size);
extern void* __libc_memalign(size_t alignment, size_t size);

static atomic_int armed = 0;
static atomic_long counted = 0;
static atomic_int fired = 0;
static long fail_at = 0; /* the fail_at-th counted allocation fails; 0: none */
static __thread int inside = 0;

/* FAIL_ALLOCATION_TRACE=<path>: the stack of every failed allocation is appended to
 * <path>.<pid>, to find a hang's cause. */
static int trace_fd = -1;

__attribute__((constructor)) static void prime_backtrace(void) {
  void* frames[4];
  (void)backtrace(frames, 4);
  const char* trace = getenv("FAIL_ALLOCATION_TRACE");
  if (trace) {
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", trace, (int)getpid());
    trace_fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  }
}

void fail_allocation_arm(long k) {
  fail_at = k;
  atomic_store(&counted, 0);
  atomic_store(&fired, 0);
  atomic_store(&armed, 1);
}

long fail_allocation_disarm(int* failed) {
  atomic_store(&armed, 0);
  if (failed) *failed = atomic_load(&fired);
  return atomic_load(&counted);
}

/* Whether `name` is a runtime library an allocation passes through on its way from its
 * real caller (operator new, std::string's growth, …). */
static int runtime_library(const char* name) {
  return strstr(name, "/libc.so") || strstr(name, "/libstdc++") || strstr(name, "/libgcc_s");
}

/* The file name of the object holding code address `pc` ("" for the program), or NULL.
 * Every allocation of an armed call asks this for a few frames: _dl_find_object looks the
 * object up without allocating and in O(log objects), where dladdr searches its symbol table
 * too (most of the sweep's run time). */
static const char* object_name(void* pc) {
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
  struct dl_find_object found;
  return _dl_find_object(pc, &found) == 0 && found.dlfo_link_map ? found.dlfo_link_map->l_name : NULL;
#else
  Dl_info info;
  return dladdr(pc, &info) ? info.dli_fname : NULL;
#endif
}

/* The walk up the stack of from_hetscal(): frames counted, and the verdict once known. */
struct walk {
  int depth;
  int from_hetscal;
};

/* One frame of the walk: frame 0 is from_hetscal(), 1 fails(), 2 the allocator's entry point,
 * 3 its caller. The first caller outside the runtime libraries decides, and the walk stops
 * there (the unwinding of each frame is most of what is left of the sweep's cost). */
static _Unwind_Reason_Code visit_frame(struct _Unwind_Context* context, void* argument) {
  struct walk* walk = argument;
  if (walk->depth++ < 3) return _URC_NO_REASON;
  const char* name = object_name((void*)_Unwind_GetIP(context));
  if (name && runtime_library(name) && walk->depth < 16) return _URC_NO_REASON;
  walk->from_hetscal = name && strstr(name, "libhetscal") != NULL;
  return _URC_END_OF_STACK;
}

/* Whether the allocation in progress comes from hetscal's code. */
static __attribute__((noinline)) int from_hetscal(void) {
  struct walk walk = {0, 0};
  _Unwind_Backtrace(visit_frame, &walk);
  return walk.from_hetscal;
}

/* Whether this allocation is the one to fail (counting it when it is hetscal's). */
static __attribute__((noinline)) int fails(void) {
  if (!atomic_load(&armed) || inside) return 0;
  inside = 1;
  int result = 0;
  if (from_hetscal()) {
    const long n = atomic_fetch_add(&counted, 1) + 1;
    if (n == fail_at) {
      atomic_store(&fired, 1);
      if (trace_fd >= 0) {
        void* frames[32];
        backtrace_symbols_fd(frames, backtrace(frames, 32), trace_fd);
        (void)!write(trace_fd, "--\n", 3);
      }
      result = 1;
    }
  }
  inside = 0;
  return result;
}

void* malloc(size_t size) {
  if (fails()) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_malloc(size);
}

void* calloc(size_t count, size_t size) {
  if (fails()) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_calloc(count, size);
}

void* realloc(void* pointer, size_t size) {
  if (fails()) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_realloc(pointer, size);
}

void* aligned_alloc(size_t alignment, size_t size) {
  if (fails()) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_memalign(alignment, size);
}

void* memalign(size_t alignment, size_t size) {
  if (fails()) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_memalign(alignment, size);
}

int posix_memalign(void** result, size_t alignment, size_t size) {
  if (fails()) return ENOMEM;
  void* p = __libc_memalign(alignment, size);
  if (p == NULL) return ENOMEM;
  *result = p;
  return 0;
}
