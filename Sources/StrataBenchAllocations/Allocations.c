// Counts heap allocations for the benchmark's allocation budgets. On Linux with glibc, an
// executable's own `malloc` is found before the C library's by every library it loads, so
// defining the allocation functions here and forwarding them to glibc's `__libc_*` entry points
// sees every allocation of the process: Swift's runtime, Foundation, GRDB and SQLite alike. A
// count, not a time: it is the same on every run of one build, so CI can hold it.
#include "StrataBenchAllocations.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static atomic_bool counting = false;
static _Atomic uint64_t allocations = 0;

static inline void count(void) {
  if (atomic_load_explicit(&counting, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  }
}

static inline void *counted(void *pointer) {
  if (pointer) count();
  return pointer;
}

void *malloc(size_t size) { return counted(__libc_malloc(size)); }
void *calloc(size_t count, size_t size) { return counted(__libc_calloc(count, size)); }
void free(void *pointer) { __libc_free(pointer); }

void *realloc(void *pointer, size_t size) {
  // A block that grows where it is is not a new allocation; one that moves is.
  void *result = __libc_realloc(pointer, size);
  if (result && result != pointer) count();
  return result;
}

void *memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }
void *aligned_alloc(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void *pointer = __libc_memalign(alignment, size);
  if (!pointer) return ENOMEM;
  *result = counted(pointer);
  return 0;
}

bool strata_bench_allocations_available(void) { return true; }
void strata_bench_allocations_counting(bool on) { atomic_store_explicit(&counting, on, memory_order_relaxed); }
uint64_t strata_bench_allocations_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
#else
bool strata_bench_allocations_available(void) { return false; }
void strata_bench_allocations_counting(bool on) { (void)on; }
uint64_t strata_bench_allocations_count(void) { return 0; }
#endif
