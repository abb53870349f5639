// llm.c's matmul as it is written: `#pragma omp parallel for collapse(2)` over (b, t), the output row and
// the input row found from the collapsed counter (k / T, k % T), no `restrict`, the weights, biases and
// activations slices of one parameter vector and one activation vector. The check that a region's arrays
// are apart could not bound an index divided or taken modulo by a variable, nor an array pointer that is
// NULL in one of the calls (the bias: `bias != NULL ? bias[o] : 0`), so every multiply-add recorded its
// two reads (4.3 primals in float for a 4 x 64 x 128 -> 512 -> 128 MLP). A non-negative index divided
// by, or taken modulo, a divisor the check finds positive is bounded now (ad/apart_spans.c), and a null
// among a captured pointer's values reads nothing (ad/apart.c): 1.8 primals there. The second
// product's input rows are still recorded (its output is a slice of the same vector, written in the same
// region).
//   h = W1 x + b1, g = gelu(h), y = W2 g + b2 (b2 absent: NULL), L = sum y^2
// Gradients of all parameters and of the input against a hand-written adjoint (1e-11) and central
// differences along several components (h = 1e-6, 1e-5); the tape under 8 bytes per multiply-add (it was
// 18; 5.7 now). At -O2 with 1, 2 and 3 threads, and -O0 at 2.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);

enum { B = 2, T = 8, C = 16, H = 32 };

static void matmul_forward(double *out, const double *inp, const double *weight, const double *bias, int b_, int t_,
                           int c_, int oc) {
#pragma omp parallel for collapse(2)
  for (int b = 0; b < b_; b++)
    for (int t = 0; t < t_; t++) {
      const double *inp_bt = inp + b * t_ * c_ + t * c_;
      double *out_bt = out + b * t_ * oc + t * oc;
      for (int o = 0; o < oc; o++) {
        double val = bias != NULL ? bias[o] : 0.0;
        const double *wrow = weight + o * c_;
        for (int i = 0; i < c_; i++) val += inp_bt[i] * wrow[i];
        out_bt[o] = val;
      }
    }
}

static double gelu(double x) { return 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x))); }
static double gelu_prime(double x) {
  double u = 0.7978845608 * (x + 0.044715 * x * x * x), th = tanh(u);
  return 0.5 * (1 + th) + 0.5 * x * (1 - th * th) * 0.7978845608 * (1 + 3 * 0.044715 * x * x);
}

enum { NP = H * C + H + C * H, NA = 2 * B * T * H + B * T * C, NX = B * T * C };

static double loss(double *params, double *acts, double *x) {
  double *w1 = params, *b1 = params + H * C, *w2 = b1 + H;
  double *h = acts, *g = acts + B * T * H, *y = g + B * T * H;
  matmul_forward(h, x, w1, b1, B, T, C, H);
#pragma omp parallel for
  for (int i = 0; i < B * T * H; i++) g[i] = gelu(h[i]);
  matmul_forward(y, g, w2, NULL, B, T, H, C);
  double s = 0;
  for (int i = 0; i < B * T * C; i++) s += y[i] * y[i];
  return s;
}

/* The adjoint by hand: dy = 2 y; dW2 = dy g^T, dg = W2^T dy; dh = dg gelu'(h); dW1 = dh x^T, db1, dx = W1^T dh */
static void loss_adjoint(const double *p, double *x, double *dp, double *dx) {
  double a[NA];
  loss((double *)p, a, x);
  const double *w1 = p, *w2 = p + H * C + H, *h = a, *g = a + B * T * H, *y = g + B * T * H;
  double *dw1 = dp, *db1 = dp + H * C, *dw2 = db1 + H;
  for (int r = 0; r < B * T; r++) {
    double dg[H] = {0}, dh[H];
    for (int o = 0; o < C; o++) {
      double dy = 2 * y[r * C + o];
      for (int i = 0; i < H; i++) dw2[o * H + i] += dy * g[r * H + i], dg[i] += dy * w2[o * H + i];
    }
    for (int i = 0; i < H; i++) dh[i] = dg[i] * gelu_prime(h[r * H + i]);
    for (int o = 0; o < H; o++) {
      db1[o] += dh[o];
      for (int i = 0; i < C; i++) dw1[o * C + i] += dh[o] * x[r * C + i], dx[r * C + i] += dh[o] * w1[o * C + i];
    }
  }
}

int main(void) {
  double *p = malloc(NP * sizeof *p), *dp = calloc(NP, sizeof *dp), *a = calloc(NA, sizeof *a), *da = calloc(NA, sizeof *da);
  double *x = malloc(NX * sizeof *x), *dx = calloc(NX, sizeof *dx), *hp = calloc(NP, sizeof *hp), *hx = calloc(NX, sizeof *hx);
  for (int i = 0; i < NP; i++) p[i] = 0.4 * sin(i * 0.37 + 0.2);
  for (int i = 0; i < NX; i++) x[i] = cos(i * 0.11);
  parad_tape_reset_peak();
  __parad_autodiff((void *)loss, p, dp, a, da, x, dx);
  size_t tape = parad_tape_recorded_bytes();
  loss_adjoint(p, x, hp, hx);
  for (int i = 0; i < NP; i++) CHECK_CLOSE(dp[i], hp[i], 1e-11);
  for (int i = 0; i < NX; i++) CHECK_CLOSE(dx[i], hx[i], 1e-11);
  for (int j = 0; j < NP; j += 7) {
    double s = p[j], e;
    p[j] = s + 1e-6, e = loss(p, a, x), p[j] = s - 1e-6, e -= loss(p, a, x), p[j] = s;
    CHECK_CLOSE(dp[j], e / 2e-6, 1e-5);
  }
  for (int j = 0; j < NX; j += 5) {
    double s = x[j], e;
    x[j] = s + 1e-6, e = loss(p, a, x), x[j] = s - 1e-6, e -= loss(p, a, x), x[j] = s;
    CHECK_CLOSE(dx[j], e / 2e-6, 1e-5);
  }
  double macs = (double)B * T * (C * H + H * C);
#ifdef __OPTIMIZE__
  if (!(tape < 8 * macs)) printf("FAIL tape %zu bytes for %.0f multiply-adds\n", tape, macs), check_failures++;
#endif
  printf("tape %zu bytes, %.2f per multiply-add\n", tape, tape / macs);
  return check_done();
}
