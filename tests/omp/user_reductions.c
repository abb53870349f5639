// User-defined reductions ('#pragma omp declare reduction'): a struct of running statistics whose
// combiner is a function (sums and a maximum), and a product written as its own reduction, in one
// 'parallel for' with schedule(dynamic, 3). f = variance + max sin x_i + prod (1 + 0.1 x_i). libomp
// combines user reductions through clang's combiner function, which the derivative must reverse like
// the built-in ones. Gradient against forward tangents along every unit direction (1e-10) and central
// differences (h = 1e-6, 1e-6); 1 to 4 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  double s, q, m;
} Stats;

static void combine(Stats *out, const Stats *in) {
  out->s += in->s, out->q += in->q, out->m = fmax(out->m, in->m);
}
#pragma omp declare reduction(stats : Stats : combine(&omp_out, &omp_in)) initializer(omp_priv = (Stats){0, 0, -1e300})
#pragma omp declare reduction(prod : double : omp_out *= omp_in) initializer(omp_priv = 1)

enum { N = 37 };

__attribute__((noinline)) static double f(const double *x) {
  Stats st = {0, 0, -1e300};
  double p = 1;
#pragma omp parallel for reduction(stats : st) reduction(prod : p) schedule(dynamic, 3)
  for (int i = 0; i < N; i++) {
    st.s += x[i], st.q += x[i] * x[i], st.m = fmax(st.m, sin(x[i]));
    p *= 1 + 0.1 * x[i];
  }
  double mean = st.s / N;
  return st.q / N - mean * mean + st.m + p;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.05 * i - 0.001 * i * i; /* one largest sine: no tie at the maximum */
  CHECK_GRADIENT(f, x, N, 1e-10, 1e-6, 1e-6);
  return check_done();
}
