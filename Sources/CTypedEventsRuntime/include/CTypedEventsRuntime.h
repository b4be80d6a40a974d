// Sequentially consistent atomic operations on a machine word, for the TypedEvents runtime's
// delivery path.
//
// Swift's `Synchronization.Atomic` needs macOS 15 and iOS 18; the runtime supports older
// systems, so it uses the compiler's builtins (GCC and Clang alike) through these wrappers, as
// swift-nio once did with CNIOAtomics. They are static inline: nothing is linked.
#ifndef C_TYPED_EVENTS_RUNTIME_H
#define C_TYPED_EVENTS_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

static inline intptr_t typed_events_atomic_load(intptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

static inline intptr_t typed_events_atomic_fetch_add(intptr_t *word, intptr_t value) {
  return __atomic_fetch_add(word, value, __ATOMIC_SEQ_CST);
}

static inline intptr_t typed_events_atomic_fetch_or(intptr_t *word, intptr_t value) {
  return __atomic_fetch_or(word, value, __ATOMIC_SEQ_CST);
}

/// Stores `desired` if the word holds `*expected`; otherwise loads the word into `*expected`.
static inline bool typed_events_atomic_compare_exchange(intptr_t *word, intptr_t *expected, intptr_t desired) {
  return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

#endif
