// Global variables the gradient's function reads and nothing writes from the read on are read again in
// the reverse sweep instead of recorded, though the function writes globals before (a table it fills the
// first time it runs) or other globals after (a call counter). Also functions where that must not
// happen, each reading a table, then writing it, then reading it again (the reverse sweep needs the old
// values): the write in the function itself, in a helper it calls, through a pointer a helper is given,
// and, for a table other files may name, by a function of another file the compiler does not see.
// Gradients against the analytic ones (tolerance 1e-12) and central differences (h = 1e-6, tolerance
// 1e-7). The tape of the lazily filled table's product holds no element of the table: under 32 bytes per
// row, where recording it takes 8 n per row. At -O2 and -O0.
// RUN: %parad-cc %cflags %s %S/Inputs/global_writer.c -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s %S/Inputs/global_writer.c -o %t0 && %t0
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);

enum { N = 64, R = 8 };

/* the product y = W x with W filled on the first call, f = sum_i tanh(y_i); a counter of the calls */
static double W[N][N];
static int filled;
int lazy_calls;

static double lazy(const double *x) {
  if (!filled) {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) W[i][j] = 0.01 * ((i * 7 + j * 13) % 17 - 8);
    filled = 1;
  }
  double s = 0;
  for (int i = 0; i < N; i++) {
    double y = 0;
    for (int j = 0; j < N; j++) y += W[i][j] * x[j];
    s += tanh(y);
  }
  lazy_calls++;
  return s;
}

static void lazy_gradient(const double *x, double *want) {
  memset(want, 0, sizeof(double) * N);
  for (int i = 0; i < N; i++) {
    double y = 0;
    for (int j = 0; j < N; j++) y += W[i][j] * x[j];
    double t = tanh(y);
    for (int j = 0; j < N; j++) want[j] += (1 - t * t) * W[i][j];
  }
}

/* Each of the following reads T (reset first), rewrites it T_i <- 3 T_i + 1, then reads it again:
 * f = sum_i x_i T_i + x_i^2 T'_i, df/dx_i = T_i + 2 x_i T'_i. */
static double T[R];
static void reset_T(void) {
  for (int i = 0; i < R; i++) T[i] = 0.5 + 0.25 * i;
}

static double in_function(const double *x) {
  reset_T();
  double s = 0;
  for (int i = 0; i < R; i++) s += x[i] * T[i];
  for (int i = 0; i < R; i++) T[i] = 3 * T[i] + 1;
  for (int i = 0; i < R; i++) s += x[i] * x[i] * T[i];
  return s;
}

__attribute__((noinline)) static void rewrite_T(void) {
  for (int i = 0; i < R; i++) T[i] = 3 * T[i] + 1;
}

static double in_helper(const double *x) {
  reset_T();
  double s = 0;
  for (int i = 0; i < R; i++) s += x[i] * T[i];
  rewrite_T();
  for (int i = 0; i < R; i++) s += x[i] * x[i] * T[i];
  return s;
}

typedef struct {
  double *table;
} View;
__attribute__((noinline)) static void rewrite_view(View *v) {
  for (int i = 0; i < R; i++) v->table[i] = 3 * v->table[i] + 1;
}

static double through_pointer(const double *x) {
  reset_T();
  double s = 0;
  for (int i = 0; i < R; i++) s += x[i] * T[i];
  View v = {T};
  rewrite_view(&v);
  for (int i = 0; i < R; i++) s += x[i] * x[i] * T[i];
  return s;
}

/* defined here, rewritten by Inputs/global_writer.c */
double shared_table[R];
void rewrite_shared_table(void);

static double in_other_file(const double *x) {
  for (int i = 0; i < R; i++) shared_table[i] = 0.5 + 0.25 * i;
  double s = 0;
  for (int i = 0; i < R; i++) s += x[i] * shared_table[i];
  rewrite_shared_table();
  for (int i = 0; i < R; i++) s += x[i] * x[i] * shared_table[i];
  return s;
}

static void check_rewritten(double (*f)(const double *), const double *x) {
  double g[R] = {0};
  __parad_autodiff((void *)f, x, g);
  for (int i = 0; i < R; i++) {
    double t = 0.5 + 0.25 * i;
    CHECK_CLOSE(g[i], t + 2 * x[i] * (3 * t + 1), 1e-12);
    CHECK_CLOSE(g[i], fd_component(f, x, R, i, 1e-6), 1e-7);
  }
}

int main(void) {
  double x[N], g[N], want[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.05 * i - 0.001 * i * i;

  for (int round = 0; round < 2; round++) { /* the first call fills the table, the second finds it filled */
    memset(g, 0, sizeof g);
    size_t before = parad_tape_recorded_bytes();
    __parad_autodiff((void *)lazy, x, g);
    size_t taped = parad_tape_recorded_bytes() - before;
    lazy_gradient(x, want);
    for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
    for (int j = 0; j < N; j += 9) CHECK_CLOSE(g[j], fd_component(lazy, x, N, j, 1e-6), 1e-7);
    CHECK_CLOSE((double)(taped < 32 * N), 1.0, 0);
    if (taped >= 32 * N) printf("lazy table, round %d: %zu bytes taped\n", round, taped);
  }
  CHECK_CLOSE(lazy_calls, 2 + 2 * 2 * 8, 0); /* two gradients, and two runs for each difference */

  check_rewritten(in_function, x);
  check_rewritten(in_helper, x);
  check_rewritten(through_pointer, x);
  check_rewritten(in_other_file, x);
  return check_done();
}
