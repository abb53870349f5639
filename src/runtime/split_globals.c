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
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "tape.h"

static long open_tapes; /* augmented forward calls of split mode whose tape has not been reversed or dropped */

/* Open tapes whose functions carry derivatives through a global from call to call, by the global's shadow,
 * with their numbers in the order of their augmented forward calls (see __parad_rt_split_check_order). */
static pthread_mutex_t order_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long next_seq;
static struct Carrier {
  const void *shadow;
  unsigned long seq;
} *carriers;
static size_t n_carriers, cap_carriers;

__attribute__((destructor)) static void free_carriers(void) { free(carriers); } /* for memory checkers */

int __parad_rt_split_open(void) { return __atomic_load_n(&open_tapes, __ATOMIC_RELAXED) > 0; }

void __parad_rt_split_augmented(ParadTape *t) {
  t->split_open = 1;
  __atomic_fetch_add(&open_tapes, 1, __ATOMIC_RELAXED);
  t->split_seq = __atomic_add_fetch(&next_seq, 1, __ATOMIC_RELAXED);
}

void __parad_rt_split_shadows(ParadTape *t, unsigned n, const void *const *shadows) {
  if (!t || !n) return;
  free(t->split_shadows);
  t->split_shadows = malloc(n * sizeof *t->split_shadows);
  if (!t->split_shadows) abort();
  for (unsigned i = 0; i < n; i++) t->split_shadows[i] = shadows[i];
  t->nsplit_shadows = n;
}

void __parad_rt_split_same_shadows(ParadTape *t, unsigned n, const void *const *shadows, const char *message) {
  if (!t || t->nsplit_shadows != n) return; /* a tape of another call: split mode's own checks say so */
  for (unsigned i = 0; i < n; i++)
    if (shadows[i] != t->split_shadows[i]) {
      fprintf(stderr, "parad runtime: %s\n", message);
      abort();
    }
}

void __parad_rt_split_carries(ParadTape *t, const void *shadow, size_t bytes, const char *global) {
  (void)bytes, (void)global;
  pthread_mutex_lock(&order_mu);
  if (n_carriers == cap_carriers) {
    cap_carriers = cap_carriers ? 2 * cap_carriers : 16;
    struct Carrier *grown = realloc(carriers, cap_carriers * sizeof *carriers);
    if (!grown) abort();
    carriers = grown;
  }
  carriers[n_carriers++] = (struct Carrier){shadow, t->split_seq};
  pthread_mutex_unlock(&order_mu);
}

void __parad_rt_split_reversed(ParadTape *t) {
  if (!t || !t->split_open) return;
  t->split_open = 0;
  __atomic_fetch_sub(&open_tapes, 1, __ATOMIC_RELAXED);
  pthread_mutex_lock(&order_mu);
  size_t kept = 0;
  for (size_t i = 0; i < n_carriers; i++)
    if (carriers[i].seq != t->split_seq) carriers[kept++] = carriers[i];
  n_carriers = kept;
  pthread_mutex_unlock(&order_mu);
}

/* Before a reverse call of split mode whose function carries derivatives from call to call through a global
 * (it reads what an earlier call wrote there): an adjoint the global holds was left by the reverse call of
 * the call after the one it belongs to, so the reverse calls of the tapes that carry it must come newest
 * first. One that finds an adjoint there while a newer such tape is open would take another call's (and
 * that newer call's reverse would leave its own to a call already reversed): the program stops instead.
 * Independent calls (the global a scratch each call writes before it reads) leave nothing there. */
void __parad_rt_split_check_order(const unsigned char *shadow, size_t bytes, const char *global) {
  ParadTape *t = __parad_rt_current;
  if (!t || !t->split_open) return;
  size_t i = 0;
  while (i < bytes && !shadow[i]) i++;
  if (i == bytes) return;
  unsigned long newest = 0;
  pthread_mutex_lock(&order_mu);
  for (size_t k = 0; k < n_carriers; k++)
    if (carriers[k].shadow == shadow && carriers[k].seq > newest) newest = carriers[k].seq;
  pthread_mutex_unlock(&order_mu);
  if (newest == t->split_seq) return;
  fprintf(stderr,
          "parad runtime: split mode's reverse calls (__parad_reverse) came out of order while the global '%s' "
          "carries a derivative from one call to the next: reverse the calls in the opposite order of their "
          "augmented forward calls (__parad_augmentfwd)\n",
          global);
  exit(70);
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
