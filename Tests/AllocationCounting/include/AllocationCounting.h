#ifndef ALLOCATION_COUNTING_H
#define ALLOCATION_COUNTING_H

#include <stdbool.h>
#include <stdint.h>

/// Whether this build counts allocations: not under a sanitizer, which brings its own malloc.
bool allocation_counting_available(void);

/// Starts counting the calling thread's allocations from zero.
void allocation_counting_start(void);

/// Stops counting and returns how many allocations the calling thread made since the start.
uint64_t allocation_counting_stop(void);

#endif
