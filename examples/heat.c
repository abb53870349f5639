/* Example: sensitivities of a heat-conduction simulation with forward-mode AD.
 *
 * A rod of N cells cools and diffuses heat for T explicit time steps. We ask how the temperature at the
 * rod's centre at the end depends on
 *   - the conductivity k (one scalar input: one tangent), and
 *   - the initial temperatures (many inputs: four directions at once in vector mode).
 * Each derivative is printed beside a central finite difference, with the time it took.
 *
 * Build and run:  bin/parad-cc -O2 examples/heat.c -o heat && ./heat */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <parad.h>

enum { N = 2000, T = 2000 };

typedef struct { double d[4]; } Four;
Four __parad_fwddiff4(void *, ...); /* vector mode: a struct of 4 tangents */

/* Explicit finite-volume steps with a nonlinear (radiative) loss; returns the centre temperature. */
static double simulate(const double *initial, double k, double *work, int n, int steps) {
  double *u = work, *next = work + n;
  for (int i = 0; i < n; i++) u[i] = initial[i];
  double dt = 0.2;
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      double left = i > 0 ? u[i - 1] : u[i], right = i + 1 < n ? u[i + 1] : u[i];
      double loss = 1e-3 * u[i] * u[i] * u[i] * u[i] / (1 + u[i] * u[i]);
      next[i] = u[i] + dt * (k * (left - 2 * u[i] + right) - loss);
    }
    double *tmp = u; /* swap the buffers: pointers, and their shadows, change places */
    u = next;
    next = tmp;
  }
  return u[n / 2];
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(void) {
  double *u0 = malloc(N * sizeof *u0), *work = malloc(2 * N * sizeof *work);
  double *dwork = calloc(2 * N, sizeof *dwork), *zero = calloc(N, sizeof *zero);
  for (int i = 0; i < N; i++) u0[i] = 1 + exp(-pow((i - N / 2.0) / (N / 10.0), 2)) + 0.3 * sin(0.01 * i);
  double k = 0.35, h = 1e-6;

  /* Each computation runs three times; the fastest run is the one timed (the first also warms caches). */
  double centre = 0, dk = 0, t_primal = 1e9, t_tangent = 1e9, t_vector = 1e9;
  double *dirs = calloc(4 * N, sizeof *dirs), *dworks = calloc(4 * 2 * N, sizeof *dworks);
  /* Smooth directions, nowhere tiny: a narrow bump's tails would carry tangents below the smallest
     normal double ahead of the diffusion front, and arithmetic on subnormal numbers runs many times
     slower on some processors (four tangents took 25 simulations instead of 5 on an Intel Xeon). */
  for (int d = 0; d < 4; d++)
    for (int i = 0; i < N; i++) dirs[d * N + i] = 1 + 0.5 * cos(0.002 * (d + 1) * i + 0.7 * d);
  Four du;
  for (int rep = 0; rep < 3; rep++) {
    double t0 = seconds();
    centre = simulate(u0, k, work, N, T);
    t_primal = fmin(t_primal, seconds() - t0);

    /* d centre / d k: k is duplicated (value 0.35, tangent 1); the initial state is constant. */
    t0 = seconds();
    dk = __parad_fwddiff((void *)simulate, parad_const, u0, k, 1.0, work, dwork, N, T);
    t_tangent = fmin(t_tangent, seconds() - t0);

    /* Four directional derivatives with respect to the initial temperatures, in one call. */
    t0 = seconds();
    du = __parad_fwddiff4((void *)simulate, parad_width, 4, u0, dirs, dirs + N, dirs + 2 * N, dirs + 3 * N,
                          parad_const, k, work, dworks, dworks + 2 * N, dworks + 4 * N, dworks + 6 * N, N, T);
    t_vector = fmin(t_vector, seconds() - t0);
  }
  double fd_k = (simulate(u0, k + h, work, N, T) - simulate(u0, k - h, work, N, T)) / (2 * h);

  printf("Heat rod, %d cells, %d time steps: centre temperature at the end = %.10f\n\n", N, T, centre);
  printf("%-44s %16s %16s %10s\n", "derivative", "forward mode", "finite diff.", "rel. diff");
  int ok = 1;
  double rel = fabs(dk - fd_k) / fabs(fd_k);
  ok &= rel < 1e-6;
  printf("%-44s %16.10f %16.10f %10.1e\n", "d centre / d conductivity", dk, fd_k, rel);
  double *up = malloc(N * sizeof *up);
  for (int d = 0; d < 4; d++) {
    for (int i = 0; i < N; i++) up[i] = u0[i] + h * dirs[d * N + i];
    double hi = simulate(up, k, work, N, T);
    for (int i = 0; i < N; i++) up[i] = u0[i] - h * dirs[d * N + i];
    double fd = (hi - simulate(up, k, work, N, T)) / (2 * h);
    rel = fabs(du.d[d] - fd) / fabs(fd);
    ok &= rel < 1e-6;
    char name[64];
    snprintf(name, sizeof name, "d centre / d initial state, direction %d", d);
    printf("%-44s %16.10f %16.10f %10.1e\n", name, du.d[d], fd, rel);
  }
  printf("\n%-44s %12.1f ms\n", "time: simulation", 1e3 * t_primal);
  printf("%-44s %12.1f ms  (%.2f x the simulation)\n", "time: simulation + 1 tangent", 1e3 * t_tangent,
         t_tangent / t_primal);
  printf("%-44s %12.1f ms  (%.2f x the simulation)\n", "time: simulation + 4 tangents (vector mode)",
         1e3 * t_vector, t_vector / t_primal);
  printf("\nfinite-difference check (relative difference < 1e-6): %s\n", ok ? "passed" : "FAILED");
  free(u0), free(work), free(dwork), free(zero), free(dirs), free(dworks), free(up);
  return !ok;
}
