/* The 2-D heat equation on a 1000 x 1000 grid, 50 explicit steps, parallel over rows with OpenMP (one
 * parallel region per step), and its gradient by Parad's reverse mode and by a hand-written adjoint:
 *
 *   u_{t+1}[i][j] = u_t[i][j] + kappa (u_t[i-1][j] + u_t[i+1][j] + u_t[i][j-1] + u_t[i][j+1] - 4 u_t[i][j])
 *   J(u_0, kappa) = (1/N^2) sum_ij u_T[i][j]^2           (zero boundary, N = 1000, T = 50)
 *
 * with respect to the whole initial field u_0 and the diffusion coefficient kappa. Prints, at 1 and 2
 * threads, the primal, Parad's gradient and the hand-written gradient times (medians), each gradient's
 * ratio to the primal, and the speed-up of all three from 1 to 2 threads; and (built with
 * PARAD_COUNT_UPDATES set, and run with PARAD_BENCH_COUNT) how many adjoint updates of memory one of Parad's
 * gradients makes and how many of them are atomic. Checks, at 2 threads, Parad's gradient against central
 * finite differences (kappa and 5 grid points, relative 1e-5), against the forward-mode tangent along a
 * random direction (relative 1e-9), and against the hand-written gradient (every component, relative 1e-9);
 * prints FAIL and exits non-zero on a mismatch. With PARAD_COMPARE_DIR set, adds both gradients' figures
 * at each thread count to the comparison records (compare.h), and the estimate of finite differences.
 * Built with parad-cc -O2 -fopenmp by scripts/bench. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adcheck.h"
#include "compare.h"
#include "threads.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_const;

enum { N = 1000, T = 50 };
#define NN ((size_t)N * N)

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

/* The hand-written adjoint: the gradient (written, not added) into gu0 (N^2 values) and *gkappa; returns J.
 * levels: steps N^2 doubles, for u_1 .. u_steps; gw: 2 N^2 doubles, two adjoint fields.
 *
 * The step is linear in u and its stencil symmetric, so the adjoint of u_{t+1} = u_t + kappa L u_t (interior
 * cells) is g_t = g_{t+1} + kappa L g_{t+1}: the same five-point stencil applied to g_{t+1}, with g_{t+1}
 * held at zero on the boundary (u_{t+1}'s boundary cells are not computed from u_t). It is a gather: each
 * thread writes its own rows of g_t, as the primal writes its rows of u_{t+1}, with no atomics.
 *
 * Only dJ/dkappa = sum_t <g_{t+1}, L u_t> needs values from the forward sweep: u_t at every step. The
 * forward sweep is the primal's, writing each level into its own buffer instead of two alternating ones
 * (T N^2 doubles, 400 MB; u_0 is the input). Storing the laplacians instead would cost as much memory and a
 * second stream of stores; and with the levels, the reverse sweep need not even form L u_t: L is symmetric,
 * so <g_{t+1}, L u_t> = <u_t, L g_{t+1}> over the interior (the stencil it computes anyway), plus, for each
 * edge cell of u_t, its value times g_{t+1} at its one interior neighbour. (Checkpointing every k-th level
 * would cut the memory by k for one more primal sweep of work.) The interior products are summed per
 * column (acc), so that the loop vectorises as the primal's does, and the columns' sums added at the end.
 *
 * The boundary, as heat() has it: step() writes interior cells only, so u_t's boundary is u_0's for even t
 * (the buffer u_0 was copied into keeps it) and zero for odd t. So at even t, each edge cell of u_0 receives
 * kappa times g_{t+1} at its interior neighbour, and at t = T (if even) the seed 2 u_T / N^2; and its value
 * times that same g_{t+1} goes into dJ/dkappa. edge[] (top and bottom rows, left and right columns) sums
 * g_{t+1} at the neighbours over the even t, each cell by the thread whose rows read it; the corners are
 * read by no stencil. */
__attribute__((noinline)) static double heat_gradient(const double *u0, double kappa, int steps, double *levels,
                                                      double *gw, double *gu0, double *gkappa) {
  static double edge[4][N];
  memset(edge, 0, sizeof edge);
  /* forward: u_t's boundary is u_0's for even t, zero for odd t */
  for (int t = 1; t <= steps; t++) {
    double *v = levels + (size_t)(t - 1) * NN;
    for (int k = 0; k < N; k++) {
      v[k] = t % 2 ? 0 : u0[k];
      v[(size_t)(N - 1) * N + k] = t % 2 ? 0 : u0[(size_t)(N - 1) * N + k];
      v[(size_t)k * N] = t % 2 ? 0 : u0[(size_t)k * N];
      v[(size_t)k * N + N - 1] = t % 2 ? 0 : u0[(size_t)k * N + N - 1];
    }
  }
  const double *u = u0;
  for (int t = 0; t < steps; t++) {
    double *v = levels + (size_t)t * NN;
    step(u, v, kappa);
    u = v;
  }
  /* J, and the seed g_T = 2 u_T / N^2 on the interior */
  double *gn = gw, *gt = gw + NN, sum = 0, scale = 2 / ((double)N * N);
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (int i = 0; i < N * N; i++) sum += u[i] * u[i];
#pragma omp parallel for schedule(static)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++) gn[(size_t)i * N + j] = scale * u[(size_t)i * N + j];
  for (int k = 0; k < N; k++) {
    gn[k] = gn[(size_t)(N - 1) * N + k] = gn[(size_t)k * N] = gn[(size_t)k * N + N - 1] = 0;
    gt[k] = gt[(size_t)(N - 1) * N + k] = gt[(size_t)k * N] = gt[(size_t)k * N + N - 1] = 0;
  }
  /* reverse: g_t from g_{t+1} (gn); the last step (t = 0) writes gu0's interior */
  double dk = 0;
  for (int t = steps - 1; t >= 0; t--) {
    const double *ut = t ? levels + (size_t)(t - 1) * NN : u0;
    double *out = t ? gt : gu0;
    int even = t % 2 == 0;
#pragma omp parallel reduction(+ : dk)
    {
      double acc[N] = {0};
#pragma omp for schedule(static)
      for (int i = 1; i < N - 1; i++) {
        const double *g = gn + (size_t)i * N, *v = ut + (size_t)i * N;
        double *o = out + (size_t)i * N;
        for (int j = 1; j < N - 1; j++) {
          double lapg = g[j - N] + g[j + N] + g[j - 1] + g[j + 1] - 4 * g[j];
          o[j] = g[j] + kappa * lapg;
          acc[j] += v[j] * lapg;
        }
        if (even) {
          edge[2][i] += g[1], edge[3][i] += g[N - 2];
          if (i == 1)
            for (int j = 1; j < N - 1; j++) edge[0][j] += g[j];
          if (i == N - 2)
            for (int j = 1; j < N - 1; j++) edge[1][j] += g[j];
        }
      }
      for (int j = 1; j < N - 1; j++) dk += acc[j];
    }
    double *s = gn;
    gn = gt;
    gt = s;
  }
  /* u_0's boundary: what the steps at even t gave it, the seed if T is even (u_T's boundary is u_0's) */
  const double *uT = u;
  int seeded = steps % 2 == 0;
  for (int k = 0; k < N; k++) {
    size_t top = k, bottom = (size_t)(N - 1) * N + k, left = (size_t)k * N, right = (size_t)k * N + N - 1;
    dk += u0[top] * edge[0][k] + u0[bottom] * edge[1][k];
    gu0[top] = kappa * edge[0][k] + (seeded ? scale * uT[top] : 0);
    gu0[bottom] = kappa * edge[1][k] + (seeded ? scale * uT[bottom] : 0);
    if (k > 0 && k < N - 1) {
      dk += u0[left] * edge[2][k] + u0[right] * edge[3][k];
      gu0[left] = kappa * edge[2][k] + (seeded ? scale * uT[left] : 0);
      gu0[right] = kappa * edge[3][k] + (seeded ? scale * uT[right] : 0);
    }
  }
  *gkappa = dk;
  return sum / ((double)N * N);
}

/* The parameters [u0 (N^2 values), kappa] in one array, theta; the gradients alike (N^2 + 1 values). */
static double *theta, *grad_parad, *grad_hand, *work, *dwork, *levels, *gwork, *dir;
static double dk, sink;
#define KAPPA theta[NN]

static double primal(void) { return heat(theta, work, KAPPA, T); }
static void run_primal(void *c) { (void)c, sink = primal(); }
static void run_parad(void *c) {
  (void)c;
  memset(grad_parad, 0, sizeof(double) * NN);
  memset(dwork, 0, sizeof(double) * 2 * NN);
  grad_parad[NN] = dk = __parad_autodiff((void *)heat, theta, grad_parad, work, dwork, KAPPA, parad_const, T);
}
static void run_hand(void *c) {
  (void)c, sink = heat_gradient(theta, KAPPA, T, levels, gwork, grad_hand, grad_hand + NN);
}

static void zero_boundary(double *u) {
  for (int i = 0; i < N; i++) u[i] = u[(size_t)(N - 1) * N + i] = u[(size_t)i * N] = u[(size_t)i * N + N - 1] = 0;
}

int main(void) {
  theta = malloc(sizeof(double) * (NN + 1));
  grad_parad = malloc(sizeof(double) * (NN + 1)), grad_hand = malloc(sizeof(double) * (NN + 1));
  work = malloc(sizeof(double) * 2 * NN), dwork = malloc(sizeof(double) * 2 * NN);
  levels = malloc(sizeof(double) * T * NN), gwork = malloc(sizeof(double) * 2 * NN);
  dir = malloc(sizeof(double) * NN);
  double *tw = malloc(sizeof(double) * 2 * NN);
  rng_seed(42);
  for (size_t i = 0; i < NN; i++) theta[i] = rng_uniform(), dir[i] = rng_range(-1, 1);
  zero_boundary(theta);
  zero_boundary(dir);
  KAPPA = 0.2;
  double *u0 = theta, *du0 = grad_parad, kappa = KAPPA;
  int bad = 0;
  counts_if_asked("heat2d", run_parad);

  printf("2-D heat stencil (OpenMP, a parallel region per step): %d x %d grid, %d steps; gradient with respect "
         "to u0 (%d values) and kappa\n", N, N, T, N * N);
  /* checks, at 2 threads */
  omp_set_num_threads(2);
  run_parad(NULL);
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
  memset(tw, 0, sizeof(double) * 2 * NN);
  double tangent = __parad_fwddiff((void *)heat, u0, dir, work, tw, kappa, 1.0, parad_const, T);
  double dot = g_kappa;
  for (size_t i = 0; i < NN; i++) dot += du0[i] * dir[i];
  if (!(fabs(tangent - dot) <= 1e-9 * fabs(dot))) printf("FAIL gradient . direction %.15g, forward tangent %.15g\n", dot, tangent), bad++;
  /* the hand-written adjoint, every component */
  double f = primal(), fh = heat_gradient(theta, KAPPA, T, levels, gwork, grad_hand, grad_hand + NN), worst;
  if (!(fabs(f - fh) <= 1e-12 * fabs(f))) printf("FAIL J %.17g, from the hand-written adjoint %.17g\n", f, fh), bad++;
  bad += compare_gradients("heat", grad_parad, grad_hand, (long)NN + 1, 1e-9, &worst);
  printf("  J = %.12g, dJ/dkappa = %.12g; parad vs hand-written: max relative difference %.2g\n", f, g_kappa, worst);

  double t[3][3];
  time_over_threads((void (*[3])(void *)){run_primal, run_parad, run_hand}, t);
  /* the tape of one gradient at 1 thread, per cell and step */
  omp_set_num_threads(1);
  parad_tape_reset_peak();
  run_parad(NULL);
  print_kernel_lines("heat2d", t, (double)parad_tape_recorded_bytes() / ((double)(N - 2) * (N - 2) * T));
  /* the comparison records: the gradients from one call at each thread count */
  for (int threads = 1; threads <= 2; threads++) {
    char name[64];
    snprintf(name, sizeof name, "Heat %dx%d T=%d, %d thread%s", N, N, T, threads, threads > 1 ? "s" : "");
    omp_set_num_threads(threads);
    run_parad(NULL);
    run_hand(NULL);
    bad += compare_record(name, "parad", t[threads][0], t[threads][1], grad_parad, (long)NN + 1, 0);
    bad += compare_record(name, "hand", t[threads][0], t[threads][2], grad_hand, (long)NN + 1, 1e-9);
    /* records an estimate for these sizes: 2n primals is far over budget */
    bad += compare_finite_differences(name, primal, theta, (long)NN + 1, t[threads][0], 5.0, 1e-5);
  }
  printf("  checks: %s\n", bad ? "FAILED" : "ok (kappa and 5 points against finite differences to 1e-5; the "
                                             "forward tangent along a random direction to 1e-9; parad = "
                                             "hand-written to 1e-9)");
  return bad != 0;
}
