// Checkpointed loops run by a parallel region's threads whose steps read inputs all threads share: a
// Monte Carlo pricer's paths, each a checkpointed time loop, reading the volatility and the step through the
// region's captured variables (clang loads their addresses once, before the loop: refused as "a value
// computed before it"), and weights read through a pointer to the caller's array. Each thread's steps add
// to the same adjoints: they were added plainly, and two threads at once lost updates (a gradient off by
// a few percent, different each run, at 2 threads and more). Against the same function without the marker
// (taped): the gradient equal to 1e-12 relative to its largest component, 5 gradients a run, at 1, 2 and
// 4 threads at -O2 and 3 at -O0; every component against central differences (h = 1e-6, 1e-6 relative).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { PATHS = 48, STEPS = 60, NP = 6 };
static double Z[PATHS][STEPS];

/* p: spot, volatility, then four weights of the payoff's terms */
#define PRICER(NAME, MARK)                                                                                  \
  double NAME(const double *p) {                                                                         \
    double sig = p[1], dt = 1.0 / STEPS, sum = 0;                                                        \
    const double *w = p + 2;                                                                             \
    _Pragma("omp parallel for reduction(+ : sum) schedule(static, 1)")                                   \
    for (int i = 0; i < PATHS; i++) {                                                                    \
      double s = p[0], a = 0;                                                                            \
      for (int j = 0; j < STEPS; j++) {                                                                  \
        MARK;                                                                                            \
        s *= exp(-0.5 * sig * sig * dt + sig * sqrt(dt) * Z[i][j]);                                      \
        a += w[j % 4] * s * dt;                                                                          \
      }                                                                                                  \
      sum += a * a;                                                                                      \
    }                                                                                                    \
    return sum / PATHS;                                                                                  \
  }
PRICER(price_checkpointed, __parad_checkpoint_loop())
PRICER(price_taped, (void)0)

int main(void) {
  for (int i = 0; i < PATHS; i++)
    for (int j = 0; j < STEPS; j++) Z[i][j] = sin(1.7 * j + 0.37 * i * i);
  double p[NP] = {1.0, 0.3, 0.5, -0.2, 0.8, 0.1}, want[NP] = {0}, largest = 0;
  __parad_autodiff((void *)price_taped, p, want);
  for (int k = 0; k < NP; k++) largest = fmax(largest, fabs(want[k]));
  CHECK_CLOSE(price_checkpointed(p), price_taped(p), 1e-12);
  for (int run = 0; run < 5; run++) {
    double dp[NP] = {0};
    __parad_autodiff((void *)price_checkpointed, p, dp);
    for (int k = 0; k < NP; k++) CHECK_CLOSE(dp[k] / largest, want[k] / largest, 1e-12);
  }
  for (int k = 0; k < NP; k++) CHECK_CLOSE(want[k], fd_component(price_checkpointed, p, NP, k, 1e-6), 1e-6);
  return check_done();
}
