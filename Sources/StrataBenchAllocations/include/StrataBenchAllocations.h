#ifndef STRATA_BENCH_ALLOCATIONS_H
#define STRATA_BENCH_ALLOCATIONS_H

#include <stdbool.h>
#include <stdint.h>

/// Whether this build can count the process's heap allocations: on Linux with glibc, where the
/// benchmark's executable defines `malloc` and its siblings in front of the C library's.
bool strata_bench_allocations_available(void);

/// Starts or stops counting. Off, an allocation costs one more load and branch; on, an atomic
/// increment, which the timed benchmarks should not pay.
void strata_bench_allocations_counting(bool on);

/// How many times `malloc`, `calloc`, `realloc` (to a new block), `posix_memalign`,
/// `aligned_alloc` and `memalign` returned memory while counting was on, on any thread.
uint64_t strata_bench_allocations_count(void);

#endif
