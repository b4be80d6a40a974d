// Counts the calling thread's heap allocations by defining malloc and its relatives in the test
// executable, which takes precedence over the C library's; each forwards to glibc's own entry
// point. Per-thread counters keep tests that run in parallel on other threads out of the count.
#define _GNU_SOURCE
#include "AllocationCounting.h"

#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ALLOCATION_COUNTING_DISABLED 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(ALLOCATION_COUNTING_DISABLED)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread bool counting;
static __thread uint64_t count;

static inline void note(void) {
  if (counting) count += 1;
}

void *malloc(size_t size) {
  note();
  return __libc_malloc(size);
}

void *calloc(size_t number, size_t size) {
  note();
  return __libc_calloc(number, size);
}

void *realloc(void *pointer, size_t size) {
  note();
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  note();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  note();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  note();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return 12;  // ENOMEM
  *result = pointer;
  return 0;
}

bool allocation_counting_available(void) { return true; }

void allocation_counting_start(void) {
  count = 0;
  counting = true;
}

uint64_t allocation_counting_stop(void) {
  counting = false;
  return count;
}

#else

bool allocation_counting_available(void) { return false; }
void allocation_counting_start(void) {}
uint64_t allocation_counting_stop(void) { return 0; }

#endif
