/* The 2-D heat equation on a 1000 x 1000 grid, 50 explicit steps, parallel over rows with OpenMP (one
 * parallel region per step), and its gradient by Parad's reverse mode:
 *
 *   u_{t+1}[i][j] = u_t[i][j] + kappa (u_t[i-1][j] + u_t[i+1][j] + u_t[i][j-1] + u_t[i][j+1] - 4 u_t[i][j])
 *   J(u_0, kappa) = (1/N^2) sum_ij u_T[i][j]^2           (zero boundary, N = 1000, T = 50)
 *
 * with respect to the whole initial field u_0 and the diffusion coefficient kappa. Prints the primal and
 * gradient times at 1 and 2 threads, gradient/primal, the speed-up of each from 1 to 2 threads, and how
 * (built with PARAD_COUNT_UPDATES set, and run with PARAD_BENCH_COUNT) how many adjoint updates of memory
 * one gradient makes and how many of them are atomic. Checks the gradient against
 * central finite differences (kappa and 5 grid points, relative 1e-5) and against the forward-mode
 * tangent along a random direction (relative 1e-9). Built with parad-cc -O2 -fopenmp by scripts/bench. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adcheck.h"
#include "threads.h"

typedef struct { double dkappa; } Grad;
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_const;

enum { N = 1000, T = 50 };

static void step(const double *u, double *v, double kappa) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++) {
      const double *c = u + (size_t)i * N + j;
      double lap = c[-N] + c[N] + c[-1] + c[1] - 4 * c[0];
      v[(size_t)i * N + j] = c[0] + kappa * lap;
    }
}

/* work: 2 N^2 doubles (two time levels); their boundaries stay zero. */
__attribute__((noinline)) static double heat(const double *u0, double *work, double kappa, int steps) {
  double *a = work, *b = work + (size_t)N * N;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N * N; i++) a[i] = u0[i], b[i] = 0;
  for (int t = 0; t < steps; t++) {
    step(a, b, kappa);
    double *s = a;
    a = b;
    b = s;
  }
  double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (int i = 0; i < N * N; i++) sum += a[i] * a[i];
  return sum / ((double)N * N);
}

static double *u0, *du0, *work, *dwork, *dir;
static const double kappa = 0.2;
static double dk;

static void zero_boundary(double *u) {
  for (int i = 0; i < N; i++) u[i] = u[(size_t)(N - 1) * N + i] = u[(size_t)i * N] = u[(size_t)i * N + N - 1] = 0;
}

static void run_primal(void *c) { (void)c, dk = heat(u0, work, kappa, T); }
static void run_gradient(void *c) {
  (void)c;
  memset(du0, 0, sizeof(double) * N * N);
  memset(dwork, 0, sizeof(double) * 2 * N * N);
  dk = __parad_autodiff((void *)heat, u0, du0, work, dwork, kappa, parad_const, T);
}

int main(void) {
  u0 = malloc(sizeof(double) * N * N), du0 = malloc(sizeof(double) * N * N);
  work = malloc(sizeof(double) * 2 * N * N), dwork = malloc(sizeof(double) * 2 * N * N);
  dir = malloc(sizeof(double) * N * N);
  double *tw = malloc(sizeof(double) * 2 * N * N);
  rng_seed(42);
  for (size_t i = 0; i < (size_t)N * N; i++) u0[i] = rng_uniform(), dir[i] = rng_range(-1, 1);
  zero_boundary(u0);
  zero_boundary(dir);
  int bad = 0;
  counts_if_asked(run_gradient);

  printf("2-D heat stencil (OpenMP, a parallel region per step): %d x %d grid, %d steps; gradient with respect "
         "to u0 (%d values) and kappa\n", N, N, T, N * N);
  /* checks, at 2 threads */
  omp_set_num_threads(2);
  run_gradient(NULL);
  double g_kappa = dk;
  double h = 1e-4;
  double fd = (heat(u0, work, kappa + h, T) - heat(u0, work, kappa - h, T)) / (2 * h);
  if (!(fabs(fd - g_kappa) <= 1e-5 * fabs(fd))) printf("FAIL dJ/dkappa: %.12g, finite differences %.12g\n", g_kappa, fd), bad++;
  static const int points[5][2] = {{500, 500}, {1, 1}, {250, 731}, {998, 998}, {499, 500}};
  for (int p = 0; p < 5; p++) {
    size_t k = (size_t)points[p][0] * N + points[p][1];
    double save = u0[k], hu = 1e-3;
    u0[k] = save + hu;
    double hi = heat(u0, work, kappa, T);
    u0[k] = save - hu;
    double lo = heat(u0, work, kappa, T);
    u0[k] = save;
    double f = (hi - lo) / (2 * hu);
    if (!(fabs(f - du0[k]) <= 1e-5 * fabs(f) + 1e-12))
      printf("FAIL dJ/du0[%d][%d]: %.12g, finite differences %.12g\n", points[p][0], points[p][1], du0[k], f), bad++;
  }
  memset(tw, 0, sizeof(double) * 2 * N * N);
  double tangent = __parad_fwddiff((void *)heat, u0, dir, work, tw, kappa, 1.0, parad_const, T);
  double dot = g_kappa;
  for (size_t i = 0; i < (size_t)N * N; i++) dot += du0[i] * dir[i];
  if (!(fabs(tangent - dot) <= 1e-9 * fabs(dot))) printf("FAIL gradient . direction %.15g, forward tangent %.15g\n", dot, tangent), bad++;

  time_over_threads(run_primal, run_gradient);
  printf("  checks: %s\n", bad ? "FAILED" : "ok (kappa and 5 points against finite differences to 1e-5; the "
                                             "forward tangent along a random direction to 1e-9)");
  return bad != 0;
}
