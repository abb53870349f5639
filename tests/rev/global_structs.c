// Pointers to heap blocks kept in global structs, as programs keep a grid or a mesh:
//   `static Grid grid`: a struct global with two pointer fields (blocks main allocates), a count, and a
//     float field the differentiated code sets from its input (grid.scale = x_0^2);
//   `static Mesh *mesh`: a struct main allocates and keeps in a global pointer, whose fields point to
//     blocks main allocates too (malloc, posix_memalign), one level down.
// Each slot of a global gets, at every derivative's entry, a zeroed shadow of the block it points to in
// its shadow global, and each pointer a block holds at a constant offset the same in the block's shadow
// (ad/global_blocks.h). At -O0 the structs stay in memory; at -O2 the optimiser splits `grid` into
// globals of its own.
//   J(x) = sum_i sin(grid.flux_i) grid.scale + sum_i mesh->w_i mesh->u_i^2, where grid.u = x^2 (grid.n
//   points), grid.flux = differences of grid.u, mesh->u = cos(x) + x_0 (an OpenMP loop), mesh->w =
//   mesh->u shifted by one. Gradient against central differences (h = 1e-6, tolerance 1e-6 relative),
//   forward tangent along v against gradient . v (1e-10); twice, mesh->u reallocated by main between.
//   lazy(x): a context struct the function allocates on its first call, with its blocks
//     (`if (!ctx) { ctx = malloc(...); ctx->w = malloc(...); ... }`), J = sum_i tanh x_i tanh x_{i+1 mod n}:
//     gradient and tangent against the analytic derivative (1e-12), three times (valgrind showed the
//     shadows the first derivative made for those blocks left behind, before the runtime kept them).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  double *u, *flux;
  int n;
  double scale;
} Grid;

typedef struct {
  int n;
  double *u, *w;
} Mesh;

enum { N = 7 };
static Grid grid;
static Mesh *mesh;

static double objective(const double *x) {
  grid.scale = x[0] * x[0];
  for (int i = 0; i < grid.n; i++) grid.u[i] = x[i] * x[i];
  for (int i = 0; i + 1 < grid.n; i++) grid.flux[i] = grid.u[i + 1] - grid.u[i];
#pragma omp parallel for
  for (int i = 0; i < mesh->n; i++) mesh->u[i] = cos(x[i]) + x[0];
  for (int i = 0; i < mesh->n; i++) mesh->w[i] = mesh->u[(i + 1) % mesh->n];
  double J = 0;
  for (int i = 0; i + 1 < grid.n; i++) J += sin(grid.flux[i]) * grid.scale;
  for (int i = 0; i < mesh->n; i++) J += mesh->w[i] * mesh->u[i] * mesh->u[i];
  return J;
}

typedef struct {
  int n;
  double *w, *z;
} Context;
static Context *ctx;

static double lazy(const double *x, int n) {
  if (!ctx) {
    ctx = malloc(sizeof *ctx);
    ctx->n = n;
    ctx->w = malloc(n * sizeof(double));
    ctx->z = calloc(n, sizeof(double));
  }
  for (int i = 0; i < n; i++) ctx->w[i] = tanh(x[i]);
  for (int i = 0; i < n; i++) ctx->z[i] = ctx->w[i] * ctx->w[(i + 1) % n];
  double J = 0;
  for (int i = 0; i < n; i++) J += ctx->z[i];
  return J;
}

int main(void) {
  int n = N - (getenv("PARAD_TEST_NEVER_SET") != NULL); /* a size the compiler does not see */
  grid.n = n;
  grid.u = malloc(n * sizeof(double));
  grid.flux = calloc(n, sizeof(double));
  mesh = malloc(sizeof *mesh);
  mesh->n = n;
  mesh->u = malloc(n * sizeof(double));
  if (posix_memalign((void **)&mesh->w, 64, n * sizeof(double))) return 1;
  double x[N], g[N], v[N];
  for (int i = 0; i < n; i++) x[i] = 0.15 * (i + 1) - 0.3, v[i] = cos(2.0 * i);
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < n; i++) g[i] = 0;
    __parad_autodiff((void *)objective, x, g);
    double dv = __parad_fwddiff((void *)objective, x, v), gv = 0;
    for (int i = 0; i < n; i++) {
      CHECK_CLOSE(g[i], fd_component(objective, x, n, i, 1e-6), 1e-6);
      gv += g[i] * v[i];
    }
    CHECK_CLOSE(dv, gv, 1e-10);
    free(mesh->u);
    mesh->u = malloc(n * sizeof(double));
  }
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < n; i++) g[i] = 0;
    __parad_autodiff((void *)lazy, x, g, n);
    double dv = __parad_fwddiff((void *)lazy, x, v, n), want_dv = 0;
    for (int i = 0; i < n; i++) {
      double want = (1 - tanh(x[i]) * tanh(x[i])) * (tanh(x[(i + 1) % n]) + tanh(x[(i + n - 1) % n]));
      CHECK_CLOSE(g[i], want, 1e-12);
      want_dv += want * v[i];
    }
    CHECK_CLOSE(dv, want_dv, 1e-12);
  }
  free(grid.u), free(grid.flux), free(mesh->u), free(mesh->w), free(mesh);
  free(ctx->w), free(ctx->z), free(ctx);
  return check_done();
}
