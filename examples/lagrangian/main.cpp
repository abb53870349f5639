// The Lagrangian hydrodynamics example: the gradient of the final weighted energy with respect to every
// zone's initial energy, by reverse mode through the whole run (classes, std::vector, OpenMP loops), checked
// against central finite differences and a forward-mode tangent, with the primal's and the gradient's times.
// As with Enzyme, the differentiated function takes the object and a shadow object of the same shape
// (Hydro::zeros_like): after the gradient, the shadow's energies hold the adjoints of the initial ones.
//   OMP_NUM_THREADS=2 ./lagrangian [zones] [steps]
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "hydro.h"
#include "parad.h"

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 20000, steps = argc > 2 ? std::atoi(argv[2]) : 200;
  const double dt = 0.2 / n;  // a quarter of the sound's crossing time of a zone, about
  std::vector<double> e0(n), de0(n, 0.0);
  for (int j = 0; j < n; j++) {  // a shock tube: energy 2.5 on the left, 0.25 on the right, a smooth step between
    double xc = (j + 0.5) / n;
    e0[j] = 0.25 + 2.25 * 0.5 * (1 - std::tanh((xc - 0.5) / 0.01));
  }
  double J = simulate(e0.data(), n, steps, dt);
  {
    Hydro h(n, e0.data()), dh = Hydro::zeros_like(h);
    __parad_autodiff((void *)run, parad_dup, &h, &dh, parad_const, steps, parad_const, dt);
    de0 = dh.energies(); /* the adjoints of the initial energies */
  }
  int failed = 0;
  // finite differences at zones in the left state, in the initial step, near the shock's path, on the right
  const int probes[4] = {n / 10, n / 2 - n / 200, n / 2 + n / 100, 9 * n / 10};
  double worst_fd = 0;
  for (int j : probes) {
    std::vector<double> ep(e0), em(e0);
    double h = 1e-4 * e0[j]; /* J is about 2 and each derivative about a zone's mass: smaller steps drown in rounding */
    ep[j] += h, em[j] -= h;
    double fd = (simulate(ep.data(), n, steps, dt) - simulate(em.data(), n, steps, dt)) / (2 * h);
    double rel = std::fabs(de0[j] - fd) / std::fmax(std::fabs(fd), 1e-12);
    worst_fd = std::fmax(worst_fd, rel);
    if (!(rel <= 1e-5)) failed++, std::printf("zone %d: gradient %.12g, finite differences %.12g\n", j, de0[j], fd);
  }
  // a forward-mode tangent along a smooth direction against the gradient's dot product with it
  std::vector<double> v(n);
  double dot = 0;
  for (int j = 0; j < n; j++) v[j] = std::cos(0.001 * j), dot += v[j] * de0[j];
  Hydro h(n, e0.data()), th = Hydro::zeros_like(h);
  th.energies() = v;
  double t = __parad_fwddiff((void *)run, parad_dup, &h, &th, parad_const, steps, parad_const, dt);
  double rel_t = std::fabs(t - dot) / std::fmax(std::fabs(dot), 1e-300);
  if (!(rel_t <= 1e-10)) failed++, std::printf("tangent %.15g, gradient . direction %.15g\n", t, dot);
  std::vector<double> tp, tg;
  for (int r = 0; r < 5; r++) {
    Hydro a(n, e0.data()), b(n, e0.data()), db = Hydro::zeros_like(b);
    double t0 = omp_get_wtime();
    J = run(&a, steps, dt);
    double t1 = omp_get_wtime();
    __parad_autodiff((void *)run, parad_dup, &b, &db, parad_const, steps, parad_const, dt);
    double t2 = omp_get_wtime();
    tp.push_back(t1 - t0), tg.push_back(t2 - t1);
  }
  std::printf("lagrangian: %d zones, %d steps, %d threads: J = %.12f\n", n, steps, omp_get_max_threads(), J);
  std::printf("  gradient vs central differences at 4 zones: worst relative difference %.1e (tolerance 1e-5)\n", worst_fd);
  std::printf("  tangent vs gradient . direction: relative difference %.1e (tolerance 1e-10)\n", rel_t);
  std::printf("  primal %.2f ms, gradient %.2f ms, gradient/primal %.2f (medians of 5)\n", 1e3 * median(tp), 1e3 * median(tg),
              median(tg) / median(tp));
  std::printf("  %s\n", failed ? "checks FAILED" : "checks: ok");
  return failed != 0;
}
