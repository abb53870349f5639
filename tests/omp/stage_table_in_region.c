// An effect chain as audio code runs it: a parallel loop over channels, each copying its input into a
// buffer of its own (malloc'd in the loop) and handing it, with the shared parameters and an echo line of
// its own, to each stage of a table of function pointers (a clipper, a gain, a one-pole filter, an echo
// that clears its line, floats and position, with one memset). The stages are not inlined, and a
// callee given the parameters with the buffer could, for all the region knew, store the one into the
// other: the buffer was not the thread's own, and every adjoint update of the buffer inside the stages
// was atomic at 2 threads (most of all; the gradient slower at 2 threads than at 1). A callee that
// stores no pointer (a memset only nulls them, and this one clears floats and an integer) keeps the
// buffer the thread's own, and the stages' pairs are told which parameters point into it (PairKind.own):
// under 5% atomic at 2 and 4 threads (checked, built with PARAD_COUNT_UPDATES).
//   J(p) = sum over channels and samples (last stage(...(first stage(in))) - 0.5)^2
// Gradient against central differences (h = 1e-6, tolerance 1e-6) and forward tangents (1e-10) at 1
// to 4 threads, and at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && %t 1 && %t 2 && %t 3 && %t 4
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t2 -lm && %t2 2 && %t2 4
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && %t0 3
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { NCH = 12, N = 400, NP = 5, LINE = 37 };

typedef struct { /* a channel's echo line: floats and an integer, cleared as one record */
  double line[LINE];
  int w;
} Echo;

static void clip(Echo *s, const double *p, double *buf, int n) {
  (void)s;
  for (int i = 0; i < n; i++) buf[i] = tanh(buf[i] * p[0]) / p[0];
}
static void gain(Echo *s, const double *p, double *buf, int n) {
  (void)s;
  for (int i = 0; i < n; i++) buf[i] *= p[1];
}
static void smooth(Echo *s, const double *p, double *buf, int n) {
  (void)s;
  double z = 0;
  for (int i = 0; i < n; i++) buf[i] = z = p[2] * z + (1 - p[2]) * buf[i] + p[3] * buf[i] * buf[i];
}
static void echo(Echo *s, const double *p, double *buf, int n) {
  memset(s, 0, sizeof *s);
  for (int i = 0; i < n; i++) {
    double out = s->line[s->w];
    s->line[s->w] = buf[i] + p[4] * out;
    s->w = (s->w + 1) % LINE;
    buf[i] += out;
  }
}

typedef void (*stage_fn)(Echo *, const double *, double *, int);
static stage_fn const stages[4] = {clip, gain, smooth, echo};

static double in[NCH * N];

__attribute__((noinline)) static double loss(const double *p) {
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int c = 0; c < NCH; c++) {
    double *buf = malloc(N * sizeof *buf);
    Echo *s = malloc(sizeof *s);
    memcpy(buf, in + (size_t)c * N, N * sizeof *buf);
    for (int k = 0; k < 4; k++) stages[(k + c) % 4 == 1 ? 1 : k](s, p, buf, N);
    for (int i = 0; i < N; i++) e += (buf[i] - 0.5) * (buf[i] - 0.5);
    free(s);
    free(buf);
  }
  return e / NCH;
}

int main(int argc, char **argv) {
  omp_set_num_threads(argc > 1 ? atoi(argv[1]) : 2);
  for (int i = 0; i < NCH * N; i++) in[i] = sin(0.01 * i) + 0.3 * cos(0.17 * i);
  double p[NP] = {1.7, 0.9, 0.6, 0.05, 0.4}, v[NP] = {0.3, -1, 0.5, 2, -0.7};
  for (int pass = 0; pass < 2; pass++) {
    double g[NP] = {0}, dot = 0;
    unsigned long long plain0, atomic0, plain1, atomic1;
    parad_adjoint_update_counts(&plain0, &atomic0);
    __parad_autodiff((void *)loss, p, g);
    parad_adjoint_update_counts(&plain1, &atomic1);
    double t = __parad_fwddiff((void *)loss, p, v);
    for (int j = 0; j < NP; j++) {
      dot += g[j] * v[j];
      if (pass == 0) CHECK_CLOSE(g[j], fd_component(loss, p, NP, j, 1e-6), 1e-6);
    }
    CHECK_CLOSE(t, dot, 1e-10);
#ifdef COUNTED
    if (pass == 1) {
      printf("adjoint updates: %llu plain, %llu atomic\n", plain1 - plain0, atomic1 - atomic0);
      CHECK_CLOSE(atomic1 - atomic0 < (plain1 - plain0) / 20, 1, 0);
    }
#endif
  }
  return check_done();
}
