/* Preloaded with libhetscal.so (before it) to make one allocation fail, as a machine short
 * of memory would, on one rank: the tests of issue 15 item 1 sweep which allocation fails
 * and check that every run ends (right result, or an error path), never hangs.
 *
 *   FAIL_ALLOCATION=<world rank>:<n>   the n-th allocation of at least FAIL_ALLOCATION_BYTES
 *                                      (default 102400) on that rank returns NULL (once)
 *   FAIL_ALLOCATION=count              print on stderr, at exit, how many such allocations
 *                                      each rank made
 * The rank is Open MPI's OMPI_COMM_WORLD_RANK (malloc cannot call MPI). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_realloc(void* pointer, size_t size);
extern void* __libc_memalign(size_t alignment, size_t size);

static long large_allocations = 0;
static long fail_at = -1;    /* the n-th large allocation fails; -1: none */
static int counting = 0;
static size_t threshold = 102400;
static int my_rank = -1;

static void report_count(void) {
  fprintf(stderr, "fail_allocation: rank %d made %ld allocations of >= %zu bytes\n", my_rank,
          large_allocations, threshold);
}

__attribute__((constructor)) static void configure(void) {
  const char* rank = getenv("OMPI_COMM_WORLD_RANK");
  const char* spec = getenv("FAIL_ALLOCATION");
  const char* bytes = getenv("FAIL_ALLOCATION_BYTES");
  my_rank = rank ? atoi(rank) : -1;
  if (bytes) threshold = (size_t)strtoull(bytes, NULL, 10);
  if (!spec) return;
  if (strcmp(spec, "count") == 0) {
    counting = 1;
    atexit(report_count);
    return;
  }
  const char* colon = strchr(spec, ':');
  if (colon && atoi(spec) == my_rank) fail_at = atol(colon + 1);
}

/* Whether this allocation is the one to fail. */
static int fails(size_t size) {
  if (size < threshold || (fail_at < 0 && !counting)) return 0;
  if (++large_allocations != fail_at) return 0;
  static const char message[] = "fail_allocation: an allocation fails here\n";
  (void)!write(2, message, sizeof message - 1);
  return 1;
}

void* malloc(size_t size) {
  if (fails(size)) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_malloc(size);
}

void* calloc(size_t count, size_t size) {
  if (size != 0 && count <= (size_t)-1 / size && fails(count * size)) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_calloc(count, size);
}

void* realloc(void* pointer, size_t size) {
  if (fails(size)) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_realloc(pointer, size);
}

void* aligned_alloc(size_t alignment, size_t size) {
  if (fails(size)) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_memalign(alignment, size);
}

void* memalign(size_t alignment, size_t size) { return aligned_alloc(alignment, size); }

int posix_memalign(void** result, size_t alignment, size_t size) {
  if (fails(size)) return ENOMEM;
  void* p = __libc_memalign(alignment, size);
  if (p == NULL) return ENOMEM;
  *result = p;
  return 0;
}
