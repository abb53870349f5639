// Calls inside a parallel loop that take no shared active memory leave the adjoints of the loop's own
// reads to the ownership analysis: a chain energy E = sum_i pot(x_{i+1} - x_i) + sum_i shape(x_i) w_i with
// the pair potential called through a table of function pointers (chosen at run time), the shape
// function a plain call, and a thread-private scratch array handed to a helper. Each thread reads a block
// of x and one element past it: with a static schedule almost every adjoint update is the thread's own.
// Built with PARAD_COUNT_UPDATES: at 2 and 4 threads under 5% of the updates are atomic (all were, when any
// call in a region stopped the analysis); the gradient against the analytic one (tolerance 1e-12) at 1,
// 2 and 4 threads, and at -O0.
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <omp.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { N = 4000 };

typedef struct {
  double (*energy)(double r, double k);
  double (*slope)(double r, double k); /* dU/dr, for the check */
} Potential;

static double harmonic(double r, double k) { return 0.5 * k * r * r; }
static double harmonic_slope(double r, double k) { return k * r; }
static double quartic(double r, double k) { return k * r * r * r * r; }
static double quartic_slope(double r, double k) { return 4 * k * r * r * r; }
static const Potential table[2] = {{harmonic, harmonic_slope}, {quartic, quartic_slope}};

__attribute__((noinline)) static double shape(double v) { return sin(v) + 0.1 * v * v; }
__attribute__((noinline)) static double sum3(const double *s) { return s[0] * s[1] + s[2]; }

__attribute__((noinline)) static double chain(const double *x, const double *w, const Potential *pot, int n) {
  double e = 0;
#pragma omp parallel for schedule(static) reduction(+ : e)
  for (int i = 0; i < n - 1; i++) {
    double s[3] = {x[i], 0.5, shape(x[i]) * w[i]};
    e += pot->energy(x[i + 1] - x[i], 1.5) + sum3(s);
  }
  return e;
}

int main(void) {
  static double x[N], dx[N], w[N];
  for (int i = 0; i < N; i++) x[i] = sin(0.01 * i), w[i] = 1 + 0.001 * i;
  volatile int which = 1; /* chosen at run time */
  const Potential *pot = &table[which];
  unsigned long long plain0, atomic0, plain1, atomic1;
  parad_adjoint_update_counts(&plain0, &atomic0);
  __parad_autodiff((void *)chain, x, dx, parad_const, w, parad_const, pot, N);
  parad_adjoint_update_counts(&plain1, &atomic1);
  for (int i = 0; i < N; i++) {
    double g = 0;
    if (i + 1 < N) g += -pot->slope(x[i + 1] - x[i], 1.5) + 0.5 + (cos(x[i]) + 0.2 * x[i]) * w[i];
    if (i > 0) g += pot->slope(x[i] - x[i - 1], 1.5);
    CHECK_CLOSE(dx[i], g, 1e-12);
  }
  unsigned long long atomics = atomic1 - atomic0, updates = atomics + plain1 - plain0;
#ifdef COUNTED /* the build counts its updates */
  if (omp_get_max_threads() > 1) {
    CHECK_CLOSE((double)(updates > 0), 1, 0); /* the counts saw the updates */
    if (atomics * 20 >= updates) printf("FAIL: %llu of %llu adjoint updates were atomic\n", atomics, updates), check_failures++;
  }
#endif
  (void)updates;
  return check_done();
}
