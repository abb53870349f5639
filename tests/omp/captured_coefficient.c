// A shared coefficient k that a parallel loop only reads, while it stores doubles: clang passes k by
// address, and unless Parad can tell that the stores miss it, the loop reloads k on every iteration and
// the forward sweep records a copy of it per iteration. When optimised, rows() must record at most one
// value per iteration (the tape peak for n = 20000 stays under 8 n bytes plus 64 KiB), and so must
// rows_if(), whose if clause makes clang call the outlined function directly too; doubled() writes k
// inside the region (in a single), so there k must not be taken for read-only. f = sum_i k u_i^2 (rows),
// and with k doubled first (doubled). Analytic: df/dk = sum u_i^2 (times 2), df/du_i = 2 k u_i (times 2),
// tolerance 1e-12; forward tangents along k and one u_i (1e-12).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <stddef.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);

enum { N = 20000 };

__attribute__((noinline)) static double rows(const double *u, double *v, double k, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) v[i] = k * u[i] * u[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}

__attribute__((noinline)) static double rows_if(const double *u, double *v, double k, int n) {
#pragma omp parallel for schedule(static) if (n > 100)
  for (int i = 0; i < n; i++) v[i] = k * u[i] * u[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}

__attribute__((noinline)) static double doubled(const double *u, double *v, double k, int n) {
#pragma omp parallel shared(k)
  {
#pragma omp single
    k = 2 * k;
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) v[i] = k * u[i] * u[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}

static double u[N], du[N], v[N], dv[N], e[N];

static const double k = 0.7;
static double su2;

/* the checks of one function; returns the tape peak of its gradient */
#define CHECK_FUNCTION(fn, factor, peak)                                                         \
  do {                                                                                           \
    for (int i = 0; i < N; i++) du[i] = dv[i] = 0;                                               \
    parad_tape_reset_peak();                                                                     \
    double dk = __parad_autodiff((void *)fn, u, du, v, dv, k, N);                                \
    peak = parad_tape_peak_bytes();                                                              \
    CHECK_CLOSE(dk, factor * su2, 1e-12);                                                        \
    for (int i = 0; i < N; i += 997) CHECK_CLOSE(du[i], factor * 2 * k * u[i], 1e-12);            \
    for (int i = 0; i < N; i++) e[i] = i == 123, dv[i] = 0;                                      \
    CHECK_CLOSE(__parad_fwddiff((void *)fn, u, e, v, dv, k, 0.0, N), du[123], 1e-12);            \
    for (int i = 0; i < N; i++) e[i] = 0;                                                        \
    CHECK_CLOSE(__parad_fwddiff((void *)fn, u, e, v, dv, k, 1.0, N), dk, 1e-12);                 \
  } while (0)

int main(void) {
  for (int i = 0; i < N; i++) u[i] = 1 + 0.5 * __builtin_sin(0.01 * i), su2 += u[i] * u[i];
  size_t peak;
  CHECK_FUNCTION(rows, 1, peak);
#ifdef __OPTIMIZE__ /* at -O0 nothing hoists loads: every iteration records k */
  CHECK_CLOSE(peak <= 8.0 * N + 65536 ? 0.0 : (double)peak, 0.0, 0);
#endif
  CHECK_FUNCTION(rows_if, 1, peak);
#ifdef __OPTIMIZE__
  CHECK_CLOSE(peak <= 8.0 * N + 65536 ? 0.0 : (double)peak, 0.0, 0);
#endif
  CHECK_FUNCTION(doubled, 2, peak);
  return check_done();
}
