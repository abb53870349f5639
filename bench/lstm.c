/* Reverse mode on an LSTM language model: the loss of ADBench's LSTM objective.
 *
 * l layers of b units each (b is also the alphabet size); a sequence of c one-hot characters x_0..x_{c-1}.
 * Layer k has weights W_k and biases B_k, 4b each (forget, input, output gates and the change, unit by
 * unit as in ADBench), and a state (h_k, s_k). Extra parameters: input weights a, output weights v and
 * output biases u (b each). For each step t < c-1:
 *
 *   z = x_t * a (elementwise); for each layer k, with input z:
 *     f = sig(z W_k0 + B_k0), i = sig(h_k W_k1 + B_k1), o = sig(z W_k2 + B_k2), g = tanh(h_k W_k3 + B_k3)
 *     s_k = s_k f + i g,  h_k = o tanh(s_k),  z = h_k
 *   y = z * v + u;  total += x_{t+1} . (y - logsumexp(y))
 *
 * and the loss is -total / ((c-1) b). The gradient is taken with respect to all weights and biases (main
 * and extra); the initial state and the sequence are data. The program computes the loss and its gradient
 * with Parad (__parad_autodiff) and with a hand-written adjoint (a forward sweep that keeps every step's
 * gates, then a reverse sweep over the steps and layers), checks that the two agree (relative 1e-9) and
 * that both agree with central finite differences on ten random components (relative 1e-6), times the
 * primal and both gradients (medians), and prints the ratios and the peak tape memory of Parad's gradient.
 * Exits non-zero when any check fails. Built with parad-cc -O2 by scripts/bench. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adcheck.h"
#include "compare.h"

void __parad_autodiff(void *, ...);
extern int parad_const;

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

/* The objective. mainp: l layers of 8b (weights 4b, biases 4b); extra: 3b; state0: l layers of 2b
 * (hidden, cell); seq: c one-hot vectors of b. */
__attribute__((noinline)) static double lstm_objective(int l, int c, int b, const double *mainp, const double *extra,
                                                       const double *state0, const double *seq) {
  double st[2 * l * b], x2[b], ypred[b];
  for (int i = 0; i < 2 * l * b; i++) st[i] = state0[i];
  double total = 0;
  for (int t = 0; t < c - 1; t++) {
    const double *in = seq + t * b, *goal = seq + (t + 1) * b;
    for (int i = 0; i < b; i++) x2[i] = in[i] * extra[i];
    const double *z = x2;
    for (int k = 0; k < l; k++) {
      const double *w = mainp + 8 * b * k, *bias = w + 4 * b;
      double *h = st + 2 * b * k, *s = h + b;
      for (int i = 0; i < b; i++) {
        double f = sigmoid(z[i] * w[i] + bias[i]);
        double ig = sigmoid(h[i] * w[b + i] + bias[b + i]);
        double o = sigmoid(z[i] * w[2 * b + i] + bias[2 * b + i]);
        double g = tanh(h[i] * w[3 * b + i] + bias[3 * b + i]);
        s[i] = s[i] * f + ig * g;
        h[i] = o * tanh(s[i]);
      }
      z = h;
    }
    double mx = -INFINITY;
    for (int i = 0; i < b; i++) {
      ypred[i] = z[i] * extra[b + i] + extra[2 * b + i];
      if (ypred[i] > mx) mx = ypred[i];
    }
    double se = 0;
    for (int i = 0; i < b; i++) se += exp(ypred[i] - mx);
    double lse = log(se) + mx;
    for (int i = 0; i < b; i++) total += goal[i] * (ypred[i] - lse);
  }
  return -total / ((c - 1) * b);
}

/* The hand-written adjoint: the gradient (written, not added) into gmain and gextra; returns the loss. */
__attribute__((noinline)) static double lstm_gradient(int l, int c, int b, const double *mainp, const double *extra,
                                                      const double *state0, const double *seq, double *gmain,
                                                      double *gextra) {
  /* Per step and layer: the layer's input, old hidden and cell values, the four gates, tanh(new cell). */
  enum { IN, HO, CO, F, I, O, G, TC, NREC };
  size_t per = (size_t)NREC * b;
  double *rec = malloc((size_t)(c - 1) * l * per * sizeof *rec), *prob = malloc((size_t)(c - 1) * b * sizeof *prob);
  double st[2 * l * b], hbar[l * b], cbar[l * b];
  memset(gmain, 0, 8 * l * b * sizeof *gmain);
  memset(gextra, 0, 3 * b * sizeof *gextra);
  for (int i = 0; i < 2 * l * b; i++) st[i] = state0[i];
  double total = 0;
  /* forward */
  for (int t = 0; t < c - 1; t++) {
    const double *in = seq + t * b, *goal = seq + (t + 1) * b;
    for (int k = 0; k < l; k++) {
      double *r = rec + ((size_t)t * l + k) * per;
      const double *w = mainp + 8 * b * k, *bias = w + 4 * b;
      double *h = st + 2 * b * k, *s = h + b;
      for (int i = 0; i < b; i++) {
        double z = k == 0 ? in[i] * extra[i] : st[2 * b * (k - 1) + i];
        double f = sigmoid(z * w[i] + bias[i]);
        double ig = sigmoid(h[i] * w[b + i] + bias[b + i]);
        double o = sigmoid(z * w[2 * b + i] + bias[2 * b + i]);
        double g = tanh(h[i] * w[3 * b + i] + bias[3 * b + i]);
        r[IN * b + i] = z, r[HO * b + i] = h[i], r[CO * b + i] = s[i];
        r[F * b + i] = f, r[I * b + i] = ig, r[O * b + i] = o, r[G * b + i] = g;
        s[i] = s[i] * f + ig * g;
        double tc = tanh(s[i]);
        r[TC * b + i] = tc;
        h[i] = o * tc;
      }
    }
    const double *top = st + 2 * b * (l - 1);
    double *y = prob + (size_t)t * b, mx = -INFINITY, se = 0;
    for (int i = 0; i < b; i++) {
      y[i] = top[i] * extra[b + i] + extra[2 * b + i];
      if (y[i] > mx) mx = y[i];
    }
    for (int i = 0; i < b; i++) se += exp(y[i] - mx);
    double lse = log(se) + mx;
    for (int i = 0; i < b; i++) {
      total += goal[i] * (y[i] - lse);
      y[i] = exp(y[i] - lse); /* kept: the softmax */
    }
  }
  double count = (double)(c - 1) * b;
  /* reverse */
  memset(hbar, 0, sizeof hbar);
  memset(cbar, 0, sizeof cbar);
  for (int t = c - 2; t >= 0; t--) {
    const double *in = seq + t * b, *goal = seq + (t + 1) * b, *p = prob + (size_t)t * b;
    const double *rtop = rec + ((size_t)t * l + l - 1) * per;
    double sg = 0;
    for (int i = 0; i < b; i++) sg += goal[i];
    for (int i = 0; i < b; i++) {
      double yb = -(goal[i] - p[i] * sg) / count;
      double htop = rtop[O * b + i] * rtop[TC * b + i];
      gextra[b + i] += yb * htop;
      gextra[2 * b + i] += yb;
      hbar[(l - 1) * b + i] += yb * extra[b + i];
    }
    for (int k = l - 1; k >= 0; k--) {
      const double *r = rec + ((size_t)t * l + k) * per, *w = mainp + 8 * b * k;
      double *gw = gmain + 8 * b * k, *gb = gw + 4 * b;
      for (int i = 0; i < b; i++) {
        double f = r[F * b + i], ig = r[I * b + i], o = r[O * b + i], g = r[G * b + i], tc = r[TC * b + i];
        double z = r[IN * b + i], ho = r[HO * b + i];
        double hb = hbar[k * b + i], cb = cbar[k * b + i];
        double ob = hb * tc;
        cb += hb * o * (1 - tc * tc);
        double fb = cb * r[CO * b + i], ib = cb * g, gbar = cb * ig;
        double zf = fb * f * (1 - f), zi = ib * ig * (1 - ig), zo = ob * o * (1 - o), zg = gbar * (1 - g * g);
        gw[i] += zf * z, gb[i] += zf;
        gw[b + i] += zi * ho, gb[b + i] += zi;
        gw[2 * b + i] += zo * z, gb[2 * b + i] += zo;
        gw[3 * b + i] += zg * ho, gb[3 * b + i] += zg;
        double zb = zf * w[i] + zo * w[2 * b + i];
        hbar[k * b + i] = zi * w[b + i] + zg * w[3 * b + i]; /* to the previous step's hidden */
        cbar[k * b + i] = cb * f;                            /* to the previous step's cell */
        if (k > 0)
          hbar[(k - 1) * b + i] += zb; /* the layer below's new hidden value at this step */
        else
          gextra[i] += zb * in[i];
      }
    }
  }
  free(rec);
  free(prob);
  return -total / count;
}

/* The problem in globals: the timed calls go through opaque pointers, as in forward_cost.c. */
static int L, C, B, NMAIN, NTHETA;
static double *theta, *grad_parad, *grad_hand, *state0, *seq;
static volatile double sink;

static double primal(void) { return lstm_objective(L, C, B, theta, theta + NMAIN, state0, seq); }
__attribute__((noinline)) static void parad_gradient(void) {
  memset(grad_parad, 0, NTHETA * sizeof *grad_parad);
  __parad_autodiff((void *)lstm_objective, parad_const, L, parad_const, C, parad_const, B, theta, grad_parad,
                   theta + NMAIN, grad_parad + NMAIN, parad_const, state0, parad_const, seq);
}
__attribute__((noinline)) static double hand_gradient(void) {
  return lstm_gradient(L, C, B, theta, theta + NMAIN, state0, seq, grad_hand, grad_hand + NMAIN);
}
static double (*volatile primal_p)(void) = primal;
static void (*volatile parad_p)(void) = parad_gradient;
static double (*volatile hand_p)(void) = hand_gradient;
static void run_primal(void *c) { (void)c, sink = primal_p(); }
static void run_parad(void *c) { (void)c, parad_p(), sink = grad_parad[0]; }
static void run_hand(void *c) { (void)c, sink = hand_p(); }

int main(void) {
  static const int cases[][3] = {{2, 100, 14}, {2, 1024, 14}, {4, 1024, 14}}; /* l, c, b */
  enum { NCASE = sizeof cases / sizeof cases[0] };
  int bad = 0;
  char line[NCASE][80];
  double tp[NCASE], tpar[NCASE], th[NCASE];
  size_t tape[NCASE];
  printf("LSTM language model (ADBench LSTM objective): gradient with respect to all weights and biases\n");
  for (int s = 0; s < NCASE; s++) {
    L = cases[s][0], C = cases[s][1], B = cases[s][2];
    NMAIN = 8 * L * B, NTHETA = NMAIN + 3 * B;
    theta = malloc(NTHETA * sizeof *theta);
    grad_parad = malloc(NTHETA * sizeof *theta);
    grad_hand = malloc(NTHETA * sizeof *theta);
    state0 = malloc(2 * L * B * sizeof *state0);
    seq = calloc((size_t)C * B, sizeof *seq);
    rng_seed(77 + s);
    for (int i = 0; i < NTHETA; i++) theta[i] = rng_range(-1, 1);
    for (int i = 0; i < 2 * L * B; i++) state0[i] = rng_range(-1, 1);
    for (int t = 0; t < C; t++) seq[t * B + rng_int(B)] = 1;

    double f = primal();
    parad_gradient();
    double fh = hand_gradient(), worst_hand, worst_fd[2];
    char what[64];
    snprintf(what, sizeof what, "LSTM l=%d c=%d b=%d", L, C, B);
    if (!(fabs(f - fh) <= 1e-12 * fabs(f))) {
      printf("FAIL %s: loss %.17g, from the hand-written adjoint %.17g\n", what, f, fh);
      bad++;
    }
    bad += compare_gradients(what, grad_parad, grad_hand, NTHETA, 1e-9, &worst_hand);
    bad += fd_check(what, primal, theta, grad_parad, grad_hand, NTHETA, 10, 1e-6, worst_fd);
    printf("  l = %d, c = %4d, b = %d (%d parameters): loss = %.10f; parad vs hand-written: max relative "
           "difference %.2g; vs finite differences (10 components): %.2g (parad), %.2g (hand)\n",
           L, C, B, NTHETA, f, worst_hand, worst_fd[0], worst_fd[1]);

    parad_tape_reset_peak();
    parad_gradient();
    tape[s] = parad_tape_peak_bytes();
    double times[3];
    time_three((void (*[3])(void *)){run_primal, run_parad, run_hand}, times);
    tp[s] = times[0], tpar[s] = times[1], th[s] = times[2];
    snprintf(line[s], sizeof line[s], "LSTM l=%d c=%d b=%d", L, C, B);
    bad += compare_record(line[s], "parad", tp[s], tpar[s], grad_parad, NTHETA, 0);
    bad += compare_record(line[s], "hand", tp[s], th[s], grad_hand, NTHETA, 1e-9);
    bad += compare_finite_differences(line[s], primal, theta, NTHETA, tp[s], 5, 1e-3);
    free(theta), free(grad_parad), free(grad_hand), free(state0), free(seq);
  }
  print_header();
  for (int s = 0; s < NCASE; s++) print_row(line[s], tp[s], tpar[s], th[s], tape[s]);
  for (int s = 0; s < NCASE; s++) { /* tape per character */
    char name[32];
    snprintf(name, sizeof name, "lstm-l%d-c%d", cases[s][0], cases[s][1]);
    print_kernel_line(name, tp[s], tpar[s], th[s], (double)tape[s] / cases[s][1]);
  }
  printf("  checks: %s\n", bad ? "FAILED" : "ok (parad = hand-written to 1e-9; both = finite differences to 1e-6)");
  return bad != 0;
}
