/* Split mode and the adjoints of globals (ad/global_shadows.h). A user chains derivatives through a
 * global: aug(layer) writes h, aug(loss) reads it, rev(loss) leaves h's adjoint in h's shadow, rev(layer)
 * takes it from there. A split-mode gradient is open from an augmented forward call until every tape of
 * split mode has had its reverse call; the generated code zeroes the adjoints of globals where one opens
 * (an augmented forward call while none is open), never at a reverse call, and a whole derivative
 * (__parad_autodiff) computed while one is open runs on zero adjoints and leaves them zero.
 *
 * Counted over all threads, not per thread: a global's shadow is one for the whole program. A tape closes
 * its gradient once, at its reverse call or where split forward mode gives it back (__parad_fwdsplit; it
 * kept the gradient open for good). A tape that never gets either keeps the gradient open, so that the
 * adjoints of globals are not zeroed for later ones (as its memory is never freed). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "tape.h"

static long open_tapes; /* augmented forward calls of split mode whose tape has not been reversed or dropped */

int __parad_rt_split_open(void) { return __atomic_load_n(&open_tapes, __ATOMIC_RELAXED) > 0; }

void __parad_rt_split_augmented(ParadTape *t) {
  t->split_open = 1;
  __atomic_fetch_add(&open_tapes, 1, __ATOMIC_RELAXED);
}

void __parad_rt_split_reversed(ParadTape *t) {
  if (!t || !t->split_open) return;
  t->split_open = 0;
  __atomic_fetch_sub(&open_tapes, 1, __ATOMIC_RELAXED);
}

/* Before a whole derivative: where a split-mode gradient is open, global's adjoints (the shadow, bytes
 * long) must be zero, or a reverse call of the gradient left there an adjoint that its later reverse
 * calls need and that the derivative would drop. */
void __parad_rt_split_check_clear(const unsigned char *shadow, size_t bytes, const char *global) {
  if (!__parad_rt_split_open()) return;
  for (size_t i = 0; i < bytes; i++)
    if (shadow[i]) {
      fprintf(stderr,
              "parad runtime: a derivative (__parad_autodiff) was computed between the calls of a split-mode "
              "gradient while the global '%s' held an adjoint that a reverse call (__parad_reverse) left for a "
              "later one: compute it before the first augmented forward call or after the last reverse call\n",
              global);
      abort();
    }
}
