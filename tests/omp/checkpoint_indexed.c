// A checkpointed time loop over a sparse matrix in CSR form whose structure arrays are constant arguments
// (passed with parad_const, no shadow), as is a damping coefficient per row (read through a pointer the
// function computes from that argument, c + 1): each step
// x <- x + h (A tanh(x) - c x), the product a parallel loop over rows reading x through the column
// indices, two arrays swapped. The loop's variables then hold pointers whose shadows the steps never need
// (the steps only read integers through them, or every request passes them constant). Against the same
// function without the marker (taped step by step): the result and the gradient with respect to the
// matrix's values and the initial x equal (1e-12 relative to the largest component), with no budget and
// a budget of a few snapshots, at 1, 2 and 4 threads at -O2, 3 at -O0 and 2 with -g (clang's debug
// wrappers of the regions); forward mode through the marked loop against the gradient along a direction
// (1e-12); one component against central differences (1e-6).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc %cflags -g -fopenmp %s -o %tg -lm && OMP_NUM_THREADS=2 %tg
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { G = 24, N = G * G, STEPS = 300 };

#define STEPPER(NAME, MARK)                                                                                 \
  double NAME(const int *rowptr, const int *col, const double *a, const double *c, const double *x0) { \
    double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N);                               \
    const double *damp = c + 1; /* computed from a constant argument: no shadow either */                  \
    for (int i = 0; i < N; i++) x[i] = x0[i];                                                              \
    for (int t = 0; t < STEPS; t++) {                                                                      \
      MARK;                                                                                                \
      _Pragma("omp parallel for schedule(static)")                                                         \
      for (int i = 0; i < N; i++) {                                                                        \
        double s = 0;                                                                                      \
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += a[k] * tanh(x[col[k]]);                       \
        y[i] = x[i] + 0.01 * (s - damp[i] * x[i]);                                                         \
      }                                                                                                    \
      double *w = x;                                                                                       \
      x = y, y = w;                                                                                        \
    }                                                                                                      \
    double J = 0;                                                                                          \
    for (int i = 0; i < N; i++) J += (i % 5 + 1) * x[i] * x[i];                                            \
    free(x), free(y);                                                                                      \
    return J;                                                                                              \
  }
STEPPER(stepper_checkpointed, __parad_checkpoint_loop())
STEPPER(stepper_taped, (void)0)

static int rowptr[N + 1], col[5 * N], nnz;
static double a[5 * N], c[N + 1], x0[N];

static void build(void) {
  for (int i = 0; i < G; i++)
    for (int j = 0; j < G; j++) {
      rowptr[i * G + j] = nnz;
      static const int d[5][2] = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
      for (int n = 0; n < 5; n++) {
        int p = i + d[n][0], q = j + d[n][1];
        if (p < 0 || p >= G || q < 0 || q >= G) continue;
        col[nnz] = p * G + q;
        a[nnz] = n == 2 ? -3.9 : 1 + 0.1 * sin(nnz);
        nnz++;
      }
    }
  rowptr[N] = nnz;
  for (int i = 0; i < N; i++) x0[i] = cos(0.3 * i), c[i + 1] = 0.5 + 0.4 * sin(i);
}

static double along(void *ctx, double v) {
  (void)ctx;
  double keep = a[7];
  a[7] = v;
  double J = stepper_checkpointed(rowptr, col, a, c, x0);
  a[7] = keep;
  return J;
}

int main(void) {
  build();
  static double da[5 * N], dx[N], da2[5 * N], dx2[N], va[5 * N], vx[N];
  double J = stepper_taped(rowptr, col, a, c, x0);
  __parad_autodiff((void *)stepper_taped, parad_const, rowptr, parad_const, col, a, da, parad_const, c, x0, dx);
  double big = 0;
  for (int i = 0; i < nnz; i++) big = fmax(big, fabs(da[i]));
  for (int i = 0; i < N; i++) big = fmax(big, fabs(dx[i]));
  const size_t budgets[] = {0, 1u << 20};
  for (int b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    for (int i = 0; i < nnz; i++) da2[i] = 0;
    for (int i = 0; i < N; i++) dx2[i] = 0;
    __parad_autodiff((void *)stepper_checkpointed, parad_const, rowptr, parad_const, col, a, da2, parad_const, c, x0, dx2);
    for (int i = 0; i < nnz; i++) CHECK_CLOSE(da2[i] / big, da[i] / big, 1e-12);
    for (int i = 0; i < N; i++) CHECK_CLOSE(dx2[i] / big, dx[i] / big, 1e-12);
  }
  parad_set_tape_limit(0);
  CHECK_CLOSE(stepper_checkpointed(rowptr, col, a, c, x0), J, 1e-12);
  double dot = 0;
  for (int i = 0; i < nnz; i++) va[i] = sin(i + 0.5), dot += va[i] * da[i];
  for (int i = 0; i < N; i++) vx[i] = cos(i + 0.5), dot += vx[i] * dx[i];
  double tangent = __parad_fwddiff((void *)stepper_checkpointed, parad_const, rowptr, parad_const, col, a, va, parad_const, c, x0, vx);
  CHECK_CLOSE(tangent, dot, 1e-12);
  CHECK_CLOSE(da2[7], fd_central(along, NULL, a[7], 1e-5), 1e-6);
  return check_done();
}
