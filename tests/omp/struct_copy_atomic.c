// Records copied whole out of a shared array inside a parallel region (`Part a = ps[i]`, `Vec3 r = p[j]`):
// the reverse sweep adds the copies' adjoints into the array's atomically where another thread may own
// them. At -O0 (the derivative made from an optimised copy) the copy's fields are read with alignment 1,
// and an atomic add with that alignment became a call into libatomic: the program did not link
// ("undefined reference to __atomic_compare_exchange"). Gradients against the analytic ones (1e-12), at
// -O0 and -O2, at 1 and 3 threads.
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && env OMP_NUM_THREADS=1 %t0 && env OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc %cflags -fopenmp %s -o %t && env OMP_NUM_THREADS=3 %t
#include "check.h"

double __parad_autodiff(void *, ...);

typedef struct {
  int type;
  double q;
} Part;
typedef struct {
  double x, y, z;
} Vec3;

__attribute__((noinline)) static double energy(const Part *ps, int np) {
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < np; i++) {
    Part a = ps[i];
    e += (a.type + 1) * a.q * a.q;
  }
  return e;
}

/* sum over pairs i < j of |p_i - p_j|^2 */
__attribute__((noinline)) static double spread(const Vec3 *p, int n) {
  double e = 0;
#pragma omp parallel for reduction(+ : e) schedule(dynamic, 1)
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      Vec3 a = p[i], b = p[j];
      e += (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z);
    }
  return e;
}

int main(void) {
  enum { N = 7 };
  Part ps[N], dps[N] = {{0, 0}};
  Vec3 p[N], dp[N] = {{0, 0, 0}};
  for (int i = 0; i < N; i++) ps[i] = (Part){i % 3, 0.5 + 0.25 * i}, p[i] = (Vec3){0.1 * i, 1 - 0.2 * i, 0.3 * i * i};
  __parad_autodiff((void *)energy, ps, dps, N);
  __parad_autodiff((void *)spread, p, dp, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dps[i].q, 2 * (ps[i].type + 1) * ps[i].q, 1e-12);
    double gx = 0, gy = 0, gz = 0; /* d/dp_i = 2 sum_j (p_i - p_j) */
    for (int j = 0; j < N; j++) gx += 2 * (p[i].x - p[j].x), gy += 2 * (p[i].y - p[j].y), gz += 2 * (p[i].z - p[j].z);
    CHECK_CLOSE(dp[i].x, gx, 1e-12);
    CHECK_CLOSE(dp[i].y, gy, 1e-12);
    CHECK_CLOSE(dp[i].z, gz, 1e-12);
  }
  return check_done();
}
