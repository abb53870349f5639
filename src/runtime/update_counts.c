/* Counts of the adjoint updates of shared memory, plain and atomic, for benchmarks (code compiled with
 * PARAD_COUNT_UPDATES set adds to them). In a file of their own: a serial program asking for them must not
 * pull in the OpenMP part of the runtime, and with it libomp. */
#include <parad.h>

unsigned long long __parad_rt_plain_updates, __parad_rt_atomic_updates;

void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic) {
  *plain = __atomic_load_n(&__parad_rt_plain_updates, __ATOMIC_RELAXED);
  *atomic = __atomic_load_n(&__parad_rt_atomic_updates, __ATOMIC_RELAXED);
}
