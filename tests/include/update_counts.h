/* update_counts.h: the share of atomic adjoint updates a gradient made, for tests built counting them
 * (PARAD_COUNT_UPDATES=1 at compile time, -DCOUNTED).
 *
 *   count_from();        before the gradient
 *   counted("what");     after it: where COUNTED is defined, the test fails unless the counts saw updates
 *                        and fewer than 5% of them were atomic
 */
#ifndef PARAD_TEST_UPDATE_COUNTS_H
#define PARAD_TEST_UPDATE_COUNTS_H

#include <parad.h>
#include <stdio.h>

#include "check.h"

static unsigned long long counts_plain0, counts_atomic0;

__attribute__((unused)) static void count_from(void) { parad_adjoint_update_counts(&counts_plain0, &counts_atomic0); }

__attribute__((unused)) static void counted(const char *what) {
  unsigned long long plain, atomic;
  parad_adjoint_update_counts(&plain, &atomic);
  unsigned long long atomics = atomic - counts_atomic0, updates = atomics + plain - counts_plain0;
#ifdef COUNTED
  CHECK_CLOSE((double)(updates > 0), 1, 0); /* the counts saw the updates */
  if (atomics * 20 >= updates) printf("FAIL: %s: %llu of %llu adjoint updates were atomic\n", what, atomics, updates), check_failures++;
#endif
  (void)what, (void)updates;
}

#endif
