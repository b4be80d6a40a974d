// The atomic operations are static inline in the header; SwiftPM needs one source file.
#include "CTypedEventsRuntime.h"
