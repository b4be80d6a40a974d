// The atomic operations are static inline in the header; this file defines the thread-local.
#include "CTypedEventsRuntime.h"

_Thread_local intptr_t typed_events_handler_depth_value = 0;
