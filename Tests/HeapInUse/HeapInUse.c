#include "HeapInUse.h"
#if defined(__linux__)
#include <malloc.h>  // defines __GLIBC__ on glibc systems
#endif

size_t heap_in_use(void) {
#if defined(__GLIBC__)
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
#else
  return 0;
#endif
}
