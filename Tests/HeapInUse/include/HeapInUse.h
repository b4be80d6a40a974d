// The bytes the C allocator has handed out and not taken back, for a test that shows memory
// stays flat. glibc's mallinfo2 is not reachable from Swift's Glibc module.
#ifndef HEAP_IN_USE_H
#define HEAP_IN_USE_H
#include <stddef.h>

/// Bytes in use (glibc: mallinfo2().uordblks + hblkhd), or 0 where the allocator cannot say.
size_t heap_in_use(void);

#endif
