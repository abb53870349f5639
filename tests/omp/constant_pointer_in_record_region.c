// A constant array (passed parad_const) put into a local record beside active ones, the record's address
// handed to a parallel region: `resp_t r = {n, freq, w, out}; sweep(a, &r)` with sweep's `omp parallel for`
// reading r->freq[i]. The record's shadow holds the constant pointer itself (a view, ad/constants.h), and
// the region's loads through it must tell the two apart by address; the region is given a slot holding
// the record's address, two loads from the view, which the marks of the region's function missed: reverse
// mode added freq's adjoints into freq itself (the caller's constant array overwritten, then every later
// call wrong) and forward mode took freq's values for its tangents, silently (a probe's RLC sweep over
// frequencies). A slot holding the address of memory holding a view holds one too now
// (constants.c, stores_view).
//   inlined:  sweep inlined into loss (the slot is loss's);
//   called:   sweep not inlined (the record is its parameter);
// freq is static const (read-only memory: an adjoint added there faults). Gradients and tangents against
// the analytic ones (tolerance 1e-12 relative) at 1, 2 and 3 threads, -O2 and -O0; freq checked unchanged.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && %t0
#include <omp.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 64 };

typedef struct {
  int n;
  double *freq;
  const double *w;
  double *out;
} resp_t;

static inline void sweep_inlined(double a, resp_t *r) {
#pragma omp parallel for
  for (int i = 0; i < r->n; i++) r->out[i] = a * r->freq[i] * r->freq[i] * r->w[i];
}

__attribute__((noinline)) static void sweep_called(double a, resp_t *r) {
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < r->n; i++) r->out[i] = a * r->freq[i] * r->freq[i] * r->w[i];
}

static double finish(resp_t *r) {
  double L = 0;
  for (int i = 0; i < r->n; i++) L += r->out[i] * r->out[i];
  free(r->out);
  return L;
}

double loss_inlined(double a, const double *w, const double *freq, int n) {
  resp_t r = {n, (double *)freq, w, malloc(n * sizeof(double))};
  sweep_inlined(a, &r);
  return finish(&r);
}

double loss_called(double a, const double *w, const double *freq, int n) {
  resp_t r = {n, (double *)freq, w, malloc(n * sizeof(double))};
  sweep_called(a, &r);
  return finish(&r);
}

static const double FREQ[N] = {1, 2, 3, 4, 5, 6, 7, 8, 1.5, 2.5, 3.5, 4.5, 0.5, 0.25, 0.75, 1.25,
                               1, 2, 3, 4, 5, 6, 7, 8, 1.5, 2.5, 3.5, 4.5, 0.5, 0.25, 0.75, 1.25,
                               1, 2, 3, 4, 5, 6, 7, 8, 1.5, 2.5, 3.5, 4.5, 0.5, 0.25, 0.75, 1.25,
                               1, 2, 3, 4, 5, 6, 7, 8, 1.5, 2.5, 3.5, 4.5, 0.5, 0.25, 0.75, 1.25};

int main(void) {
  double w[N], a = 0.7;
  for (int i = 0; i < N; i++) w[i] = 0.1 + 0.01 * i;
  /* L = sum (a f^2 w)^2: dL/da = 2 a sum f^4 w^2, dL/dw_i = 2 a^2 f_i^4 w_i */
  double want_a = 0;
  for (int i = 0; i < N; i++) want_a += 2 * a * FREQ[i] * FREQ[i] * FREQ[i] * FREQ[i] * w[i] * w[i];
  for (int threads = 1; threads <= 3; threads++) {
    omp_set_num_threads(threads);
    for (int which = 0; which < 2; which++) {
      void *f = which ? (void *)loss_called : (void *)loss_inlined;
      double dw[N] = {0}, v[N] = {0};
      double da = __parad_autodiff(f, a, w, dw, parad_const, FREQ, N);
      CHECK_CLOSE(da, want_a, 1e-12);
      for (int i = 0; i < N; i += 7) CHECK_CLOSE(dw[i], 2 * a * a * FREQ[i] * FREQ[i] * FREQ[i] * FREQ[i] * w[i], 1e-12);
      CHECK_CLOSE(__parad_fwddiff(f, a, 1.0, w, v, parad_const, FREQ, N), want_a, 1e-12);
      v[3] = 1;
      CHECK_CLOSE(__parad_fwddiff(f, a, 0.0, w, v, parad_const, FREQ, N), 2 * a * a * FREQ[3] * FREQ[3] * FREQ[3] * FREQ[3] * w[3], 1e-12);
    }
  }
  for (int i = 0; i < 16; i++) CHECK_CLOSE(FREQ[i], i < 8 ? i + 1 : FREQ[i], 0);
  return check_done();
}
