// Parallel regions whose loops the optimiser turns into memset and memcpy of shared memory:
//  - slices: particle-in-cell deposition, each thread zeroing its slice of one scratch array
//    (`loc = scratch + tid * NG`, a memset at -O2), depositing there by cell (`loc[c % NG] += w`), then
//    a worksharing loop summing the slices into the density;
//  - rows: copying rows of a shared array of cells (a value and a material tag: a memcpy the region's
//    float copies, omp/omp_shared_copies.c, do not turn into a loop) into another one, a stencil reading
//    the copy, under a dynamic schedule;
//  - local: each iteration copying a row of a shared array into a local buffer (a memcpy from shared
//    memory) and filling a row of the output with a memset before adding into it.
// J nonlinear in each. Gradient against forward tangents (tolerance 1e-10) and central differences
// (h = 1e-6, tolerance 1e-6) at 1 to 4 threads, and at -O0.
// A memset or memcpy of shared memory in a region gave up the plan of its shared adjoints: at 2 threads
// every adjoint update of the deposition was atomic (the gradient 10-15 times the primal, 2.3 at 1
// thread; in the other two, all or 9% of them). Their bytes are noted as any access's now
// (reverse/rev_shared.c, "bulk copies"): under 5% atomic at 2 and 4 threads in the deposition and the
// local rows (checked, built with PARAD_COUNT_UPDATES; none seen). The copied rows' share is not checked:
// their dynamic schedule's chunks make it vary from run to run (0 to 30% seen, all before).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && %t 1 && %t 2 && %t 3 && %t 4
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t2 && %t2 2 && %t2 4
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && %t0 3
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { NP = 400, NG = 16, MAX_THREADS = 4, R = 12, C = 10, N = R * C };

__attribute__((noinline)) static double slices(const double *x, double *scratch) {
  double rho[NG];
  int nthr = omp_get_max_threads();
#pragma omp parallel
  {
    double *loc = scratch + (size_t)omp_get_thread_num() * NG;
    for (int c = 0; c < NG; c++) loc[c] = 0;
#pragma omp for
    for (int i = 0; i < NP; i++) {
      double fl = floor(x[i]);
      int c = (int)fl;
      double w = x[i] - fl;
      loc[c % NG] += (1 - w) * x[i];
      loc[(c + 1) % NG] += w * w;
    }
#pragma omp for
    for (int c = 0; c < NG; c++) {
      double s = 0;
      for (int t = 0; t < nthr; t++) s += scratch[t * NG + c];
      rho[c] = s;
    }
  }
  double J = 0;
  for (int c = 0; c < NG; c++) J += rho[c] * rho[c] * (1 + 0.01 * c);
  return 1e-3 * J; /* of order 1e2: differences of step 1e-6 round to 1e-7 */
}

typedef struct {
  double v;
  int tag;
} Cell;

__attribute__((noinline)) static double rows(const Cell *x, Cell *copy, double *out, int c) {
#pragma omp parallel
  {
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < R; i++) memcpy(&copy[i * c], &x[i * c], c * sizeof(Cell));
#pragma omp for schedule(dynamic, 3)
    for (int i = 1; i < R - 1; i++)
      for (int j = 0; j < C; j++)
        out[i * C + j] = copy[(i - 1) * C + j].v * copy[(i + 1) * C + j].v + sin(copy[i * C + j].v) * (1 + 0.5 * copy[i * C + j].tag);
  }
  double J = 0;
  for (int i = C; i < N - C; i++) J += out[i] * out[i];
  return J;
}

__attribute__((noinline)) static double local(const double *x, double *out) {
#pragma omp parallel for
  for (int i = 0; i < R; i++) {
    double buf[C];
    memcpy(buf, &x[i * C], sizeof buf);
    memset(&out[i * C], 0, C * sizeof(double));
    for (int j = 0; j < C; j++)
      for (int k = 0; k < C; k++) out[i * C + j] += buf[k] * buf[(j + k) % C] * 0.1;
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += out[i] * sqrt(1 + out[i] * out[i]);
  return J;
}

static double scratch[MAX_THREADS * NG], dscratch[MAX_THREADS * NG], out[N], dout[N];
static Cell cells[N], dcells[N], copy[N], dcopy[N];
static double slices_J(const double *x) { return slices(x, scratch); }
static void set_cells(const double *x) {
  for (int i = 0; i < N; i++) cells[i] = (Cell){x[i], i % 3};
}
static double rows_J(const double *x) {
  set_cells(x);
  return rows(cells, copy, out, C);
}
static double local_J(const double *x) { return local(x, out); }

static void clear_shadows(void) {
  memset(dscratch, 0, sizeof dscratch);
  memset(dcopy, 0, sizeof dcopy);
  memset(dcells, 0, sizeof dcells);
  memset(dout, 0, sizeof dout);
}

static void gradient(int which, const double *x, double *g) {
  clear_shadows();
  if (which == 0) __parad_autodiff((void *)slices, x, g, scratch, dscratch);
  else if (which == 1) {
    set_cells(x);
    __parad_autodiff((void *)rows, cells, dcells, copy, dcopy, out, dout, C);
    for (int i = 0; i < N; i++) g[i] += dcells[i].v;
  }
  else __parad_autodiff((void *)local, x, g, out, dout);
}

static void check(int which, int n, array_fn f) {
  double x[NP], g[NP] = {0}, v[NP], dot = 0, t;
  for (int i = 0; i < n; i++) x[i] = which == 0 ? fmod(i * 7.3 * 0.618034, NG - 1) + 0.05 : 0.3 + 0.2 * sin(0.37 * i), v[i] = cos(0.11 * i);
  gradient(which, x, g);
  clear_shadows();
  if (which == 0) t = __parad_fwddiff((void *)slices, x, v, scratch, dscratch);
  else if (which == 1) {
    for (int i = 0; i < N; i++) dcells[i].v = v[i];
    t = __parad_fwddiff((void *)rows, cells, dcells, copy, dcopy, out, dout, C);
  }
  else t = __parad_fwddiff((void *)local, x, v, out, dout);
  for (int i = 0; i < n; i++) dot += g[i] * v[i];
  CHECK_CLOSE(t, dot, 1e-10);
  for (int j = 0; j < n; j += 7) CHECK_CLOSE(g[j], fd_component(f, x, n, j, 1e-6), 1e-6);
#ifdef COUNTED
  if (which == 1) return; /* (above) */
  unsigned long long plain0, atomic0, plain1, atomic1;
  parad_adjoint_update_counts(&plain0, &atomic0);
  for (int i = 0; i < n; i++) g[i] = 0;
  gradient(which, x, g);
  parad_adjoint_update_counts(&plain1, &atomic1);
  printf("%s: adjoint updates: %llu plain, %llu atomic\n", which == 0 ? "slices" : which == 1 ? "rows" : "local", plain1 - plain0,
         atomic1 - atomic0);
  CHECK_CLOSE(atomic1 - atomic0 < (plain1 - plain0) / 20, 1, 0);
#endif
}

int main(int argc, char **argv) {
  omp_set_num_threads(argc > 1 ? atoi(argv[1]) : 2);
  check(0, NP, slices_J);
  check(1, N, rows_J);
  check(2, N, local_J);
  return check_done();
}
