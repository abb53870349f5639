// Virtual calls in OpenMP loops: each particle holds a pointer to its species' potential, an abstract
// Potential with two derived classes, Harmonic (k r^2 / 2) and Morse ((1 - e^{-a r})^2); the calls go through
// the vtable inside the parallel regions. Two functions of the positions x (a ring of N particles):
//   E(x) = sum_i V_{s(i)}(x_{i+1} - x_i + 1) + 0.1 V_{s(i)}(x_i)   ('parallel for reduction(+)', x_N := x_0)
//   out_i = V_{s(i)}(x_i) x_{i+1}                                   ('parallel for' writing one value each)
// dE/dx_k = V'_{s(k-1)}(r_{k-1}) - V'_{s(k)}(r_k) + 0.1 V'_{s(k)}(x_k), r_i = x_{i+1} - x_i + 1; the reverse of
// out with its shadow seeded by weights w: d(w.out)/dx_k = w_k V'_{s(k)}(x_k) x_{k+1} + w_{k-1} V_{s(k-1)}(x_{k-1}).
// V' is each class's own analytic slope(). Gradients against these (tolerance 1e-12) and E's against central
// finite differences (h = 1e-6, 1e-7); forward tangents along every unit direction against the gradients
// (1e-12), at 1, 2 and 4 threads at -O2, at 3 threads at -O0.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cxx -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <cmath>
#include "parad.h"
#include "check.h"

extern "C" void __parad_fwddiff_v(void *, ...); /* for values(), which returns nothing */

struct Potential {
  virtual double energy(double r) const = 0;
  virtual double slope(double r) const = 0; /* for the analytic gradient only */
  virtual ~Potential() {}
};

struct Harmonic : Potential {
  double k;
  explicit Harmonic(double k) : k(k) {}
  double energy(double r) const override { return 0.5 * k * r * r; }
  double slope(double r) const override { return k * r; }
};

struct Morse : Potential {
  double a;
  explicit Morse(double a) : a(a) {}
  double energy(double r) const override {
    double e = 1 - std::exp(-a * r);
    return e * e;
  }
  double slope(double r) const override { return 2 * (1 - std::exp(-a * r)) * a * std::exp(-a * r); }
};

enum { N = 17 };

struct System {
  const Potential *species[N];
};

__attribute__((noinline)) static double energy(const double *x, const System *sys) {
  double e = 0;
#pragma omp parallel for reduction(+ : e) schedule(static, 2)
  for (int i = 0; i < N; i++) {
    const Potential *p = sys->species[i];
    e += p->energy(x[(i + 1) % N] - x[i] + 1) + 0.1 * p->energy(x[i]);
  }
  return e;
}

__attribute__((noinline)) static void values(const double *x, double *out, const System *sys) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) out[i] = sys->species[i]->energy(x[i]) * x[(i + 1) % N];
}

static double X0[N];
static System SYS;

static double along(void *ctx, double h) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * h;
  return energy(x, &SYS);
}

int main() {
  Harmonic h(2.0);
  Morse m(1.5);
  for (int i = 0; i < N; i++) SYS.species[i] = i % 3 ? static_cast<const Potential *>(&m) : &h;
  double x[N], dx[N] = {0}, want[N] = {0}, out[N], w[N], dout[N], dv[N] = {0}, want_v[N] = {0};
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.3 * std::sin(1.1 * i) + 0.05 * i, w[i] = dout[i] = std::cos(0.7 * i);
  for (int i = 0; i < N; i++) {
    int j = (i + 1) % N;
    const Potential *p = SYS.species[i];
    double s = p->slope(x[j] - x[i] + 1);
    want[j] += s, want[i] -= s;
    want[i] += 0.1 * p->slope(x[i]);
    want_v[i] += w[i] * p->slope(x[i]) * x[j];
    want_v[j] += w[i] * p->energy(x[i]);
  }
  __parad_autodiff((void *)energy, x, dx, parad_const, &SYS);
  __parad_autodiff((void *)values, x, dv, out, dout, parad_const, &SYS);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(out[k], SYS.species[k]->energy(x[k]) * x[(k + 1) % N], 1e-14);
    CHECK_CLOSE(dx[k], want[k], 1e-12);
    CHECK_CLOSE(dx[k], fd_central(along, &k, 0, 1e-6), 1e-7);
    CHECK_CLOSE(dv[k], want_v[k], 1e-12);
    double e[N] = {0}, t[N], tw = 0;
    e[k] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)energy, x, e, parad_const, &SYS), dx[k], 1e-12);
    __parad_fwddiff_v((void *)values, x, e, out, t, parad_const, &SYS);
    for (int i = 0; i < N; i++) tw += w[i] * t[i];
    CHECK_CLOSE(tw, dv[k], 1e-12);
  }
  return check_done();
}
