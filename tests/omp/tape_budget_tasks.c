// A tape budget counts the tapes' chunks, and each task's or region's tape began with a 64 KiB chunk: 400
// tasks that record about 35 KB in all were stopped under a budget of 1 MiB. Under a budget a tape now
// starts small, so the count stays within a small multiple of what is recorded (plus a small chunk a
// tape). The gradient against the analytic one (1e-12) under 1 MiB; a budget below what the tapes record
// (16 KiB) still stops the program with the figures.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm
// RUN: env OMP_NUM_THREADS=2 %t 1048576
// RUN: env OMP_NUM_THREADS=3 %t 1048576
// RUN: env OMP_NUM_THREADS=2 not %t 16384 2>&1 | FileCheck %s
// CHECK: over the tape budget of 16384 bytes
#include <stdlib.h>

#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
size_t parad_tape_recorded_bytes(void);

enum { N = 400 };

static double f(const double *x) {
  double parts[N];
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i) shared(parts)
    parts[i] = sin(x[i]) * x[i];
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += parts[i];
  return s;
}

int main(int argc, char **argv) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.01 * i;
  parad_set_tape_limit((size_t)atol(argv[1]));
  __parad_autodiff((void *)f, x, dx);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], cos(x[i]) * x[i] + sin(x[i]), 1e-12);
  CHECK_CLOSE(parad_tape_recorded_bytes() > 16384, 1, 0);
  return check_done();
}
