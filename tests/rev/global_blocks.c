// Heap blocks kept in pointer globals, as programs keep their state: `static double *u, *unew, *coef`
// allocated in main (malloc, posix_memalign), filled by the differentiated code. Each such global gets a
// shadow global holding a zeroed shadow of its block at every derivative's entry (ad/global_blocks.h).
//   jacobi(x): u = x^2, five OpenMP Jacobi sweeps into unew with a coefficient table only main writes,
//     the buffers swapped through the globals after each sweep (an odd number: the next call starts
//     from the other block), J = sum sin(u_i) u_i with sin(u) kept in a scratch block that the first
//     call allocates (calloc, inside the derivative). Gradient against central differences (h = 1e-6,
//     tolerance 1e-6 relative), the forward tangent along v against gradient . v (1e-10); three rounds,
//     u freed and allocated anew in main between the second and the third.
//   grow(x, n): a workspace grown on demand inside the function (free, then malloc, when n exceeds what
//     it holds), J = sum_i sin x_i sin x_{i+1 mod n}: gradient and tangent against the analytic
//     derivative (1e-12) for n = 3, 4, 5, 5 (no growth), 6, 7, 8.
//   fixed(x): a block of constant size, which the optimiser turns into a global array of bytes.
//   wrapped(x): blocks main gets from allocation wrappers (xmalloc with its out-of-memory check, and a
//     dvector calling it), which -O0 keeps as calls: J = sum_i (sin(x_i^2) + x_{i+1}^2)^2 against the
//     analytic gradient (1e-12).
//   constants_only(x): a block main gets from calloc, which the function fills with constants only (a
//     helper's result the optimiser folds) and reads into active values: it holds nothing active, yet its
//     global gets a shadow where the derivative reads it, so main's allocation must be noted too (fuzz
//     seed omp 4183: the runtime stopped the program, saying main had not allocated the block). J = sum_i
//     tanh(x_i + c_{(i+2) mod 8}) + tanh(c_4 or x_1, by a test the optimiser turns into a choice of
//     addresses, which gives the block's global its shadow) against the analytic gradient (1e-12).
//   merged(x): `c ? h[k] : mg[j]`, h a heap block a parallel region shares (so it lives in a slot) and mg
//     a global's block: the optimiser loads the pointer from a choice of the two slots' addresses, the
//     global's and the local's (refused before, OpenMP fuzz seed 11694: the global's address went
//     somewhere not followed). Against central differences (h = 1e-6, 1e-6 relative) and the tangent
//     along v against gradient . v (1e-10).
// -O2 at 1 and 3 threads, -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 10, STEPS = 5 };
static double *u, *unew, *coef, *scratch;
static int n;

static void sweep(void) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++) unew[i] = coef[i] * (u[i - 1] + u[i + 1]) + 0.5 * u[i];
  unew[0] = u[0], unew[n - 1] = u[n - 1];
  double *t = u;
  u = unew, unew = t;
}

static double jacobi(const double *x) {
  if (!scratch) scratch = calloc(n, sizeof *scratch);
  for (int i = 0; i < n; i++) u[i] = x[i] * x[i];
  for (int s = 0; s < STEPS; s++) sweep();
  double J = 0;
  for (int i = 0; i < n; i++) scratch[i] = sin(u[i]);
  for (int i = 0; i < n; i++) J += scratch[i] * u[i];
  return J;
}

static double *work;
static int nwork;

static double grow(const double *x, int m) {
  if (nwork < m) {
    free(work);
    work = malloc(m * sizeof *work);
    nwork = m;
  }
  for (int i = 0; i < m; i++) work[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < m; i++) s += work[i] * work[(i + 1) % m];
  return s;
}

static double *fixed_block;

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}
static double *dvector(int m) { return xmalloc(m * sizeof(double)); }
static double *wu, *ww;

static double wrapped(const double *x) {
  for (int i = 0; i < n; i++) wu[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) ww[i] = sin(wu[i]) + wu[(i + 1) % n];
  double J = 0;
  for (int i = 0; i < n; i++) J += ww[i] * ww[i];
  return J;
}

static double fixed(const double *x) {
  for (int i = 0; i < 4; i++) fixed_block[i] = x[i] * x[(i + 1) % 4];
  return fixed_block[0] * fixed_block[2] + exp(fixed_block[1] - fixed_block[3]);
}

static double *consts;

static double constants_only(const double *x) {
  memset(consts, 0, 8 * sizeof *consts);
  for (int i = 0; i < 8; i++) consts[i] = 0.25 * 0.5;
  double J = tanh((log(1 + x[0] * x[0]) >= 0.3) ? consts[4] : x[1]); /* a choice of addresses at -O2 */
  for (int i = 0; i < n; i++) J += tanh(x[i] + consts[(i + 2) % 8]);
  return J;
}

static double *mg;

static double merged(const double *x) {
  memset(mg, 0, 8 * sizeof *mg);
  for (int i = 0; i < 8; i++) mg[i] = 1.5 * x[i % n];
  double *h = malloc((n + 2) * sizeof *h); /* the region's: it lives in a slot */
  for (int i = 0; i < n + 2; i++) h[i] = x[i % n] * x[i % n];
  int m = (int)(3 + 3 * tanh(x[0]));
  double a = (x[1] * x[2] >= -0.1 || x[3] < -3.0 ? h[0] + x[1] : 0.5) > -2.0 ? h[m % (n + 2)] : mg[m % 8];
  double t = 0;
#pragma omp parallel for reduction(+ : t)
  for (int i = 0; i < n; i++) {
    h[i] += a * x[i];
    t += h[i] * mg[i % 8];
  }
  free(h);
  return t;
}

int main(void) {
  n = N - (getenv("PARAD_TEST_NEVER_SET") != NULL); /* a size the compiler does not see */
  u = malloc(sizeof(double) * n);
  if (posix_memalign((void **)&unew, 64, sizeof(double) * n)) return 1;
  coef = malloc(sizeof(double) * n);
  fixed_block = malloc(4 * sizeof(double));
  for (int i = 0; i < n; i++) coef[i] = 0.2 + 0.01 * i;
  double x[N], g[N], v[N];
  for (int i = 0; i < n; i++) x[i] = 0.1 * (i + 1), v[i] = 0.3 - 0.05 * i;

  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < n; i++) g[i] = 0;
    __parad_autodiff((void *)jacobi, x, g);
    double dv = __parad_fwddiff((void *)jacobi, x, v), gv = 0;
    for (int i = 0; i < n; i++) {
      CHECK_CLOSE(g[i], fd_component(jacobi, x, n, i, 1e-6), 1e-6);
      gv += g[i] * v[i];
    }
    CHECK_CLOSE(dv, gv, 1e-10);
    if (round == 1) { /* another block for u between gradients */
      free(u);
      u = malloc(sizeof(double) * n);
    }
  }

  int sizes[] = {3, 4, 5, 5, 6, 7, 8};
  for (int k = 0; k < (int)(sizeof sizes / sizeof *sizes); k++) {
    int m = sizes[k];
    for (int i = 0; i < N; i++) g[i] = 0;
    __parad_autodiff((void *)grow, x, g, m);
    double dv = __parad_fwddiff((void *)grow, x, v, m), want_dv = 0;
    for (int i = 0; i < m; i++) {
      double want = cos(x[i]) * (sin(x[(i + 1) % m]) + sin(x[(i + m - 1) % m]));
      CHECK_CLOSE(g[i], want, 1e-12);
      want_dv += want * v[i];
    }
    CHECK_CLOSE(dv, want_dv, 1e-12);
  }

  for (int i = 0; i < 4; i++) g[i] = 0;
  __parad_autodiff((void *)fixed, x, g);
  double p[4];
  for (int i = 0; i < 4; i++) p[i] = x[i] * x[(i + 1) % 4];
  double e = exp(p[1] - p[3]);
  double dp[4] = {p[2], e, p[0], -e}; /* dJ/dp */
  for (int i = 0; i < 4; i++) CHECK_CLOSE(g[i], dp[i] * x[(i + 1) % 4] + dp[(i + 3) % 4] * x[(i + 3) % 4], 1e-12);

  wu = xmalloc(n * sizeof *wu);
  ww = dvector(n);
  for (int i = 0; i < n; i++) g[i] = 0;
  __parad_autodiff((void *)wrapped, x, g);
  for (int i = 0; i < n; i++) { /* dJ/dx_i = 2 w_i cos(x_i^2) 2 x_i + 2 w_{i-1} 2 x_i */
    int before = (i + n - 1) % n;
    double w_i = sin(x[i] * x[i]) + x[(i + 1) % n] * x[(i + 1) % n];
    double w_b = sin(x[before] * x[before]) + x[i] * x[i];
    CHECK_CLOSE(g[i], 4 * x[i] * (w_i * cos(x[i] * x[i]) + w_b), 1e-12);
  }
  consts = calloc(8, sizeof *consts);
  for (int i = 0; i < n; i++) g[i] = 0;
  __parad_autodiff((void *)constants_only, x, g);
  for (int i = 0; i < n; i++) { /* log(1 + x_0^2) < 0.3: the first term is tanh(x_1) */
    double want = 1 - pow(tanh(x[i] + 0.125), 2) + (i == 1 ? 1 - pow(tanh(x[1]), 2) : 0);
    CHECK_CLOSE(g[i], want, 1e-12);
  }
  mg = calloc(8, sizeof *mg);
  for (int i = 0; i < n; i++) g[i] = 0;
  __parad_autodiff((void *)merged, x, g);
  double dv = __parad_fwddiff((void *)merged, x, v), gv = 0;
  for (int i = 0; i < n; i++) {
    CHECK_CLOSE(g[i], fd_component(merged, x, n, i, 1e-6), 1e-6);
    gv += g[i] * v[i];
  }
  CHECK_CLOSE(dv, gv, 1e-10);
  free(u), free(unew), free(coef), free(scratch), free(work), free(wu), free(ww), free(consts), free(mg);
  /* (fixed_block kept: freed, it would stay a pointer) */
  return check_done();
}
