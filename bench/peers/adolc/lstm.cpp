/* ADOL-C peer of bench/lstm.c: the gradient of ADBench's LSTM loss (same inputs, same math) with respect
 * to theta = [main parameters (l layers of 8b) | extra parameters (3b)], the C program's layout.
 *
 * The loss is one template over the scalar type: with double it is the primal that is timed, with adouble
 * it records ADOL-C's tape. The tape is recorded once per case (trace_on/trace_off, timed) and
 * gradient(tag, ...) (a zero-order forward sweep keeping the Taylor values, then a first-order reverse
 * sweep) is timed on it: tape reuse, ADOL-C's best case. Cases {l, c, b} = {2, 100, 14}, {2, 1024, 14},
 * {4, 1024, 14}, seeded as in lstm.c. Checks ten components against central finite differences (relative
 * 1e-6); exits non-zero on a failure. Reports through compare.h when PARAD_COMPARE_DIR is set. */
#include <vector>

#include "adolc_peer.h"

template <class T> static T sigmoid(const T &x) { return 1 / (1 + exp(-x)); }

/* mainp: l layers of 8b (weights 4b, biases 4b); extra: 3b; state0: l layers of 2b (hidden, cell); seq: c
 * one-hot vectors of b. */
template <class T>
static T lstm_objective(int l, int c, int b, const T *mainp, const T *extra, const double *state0,
                        const double *seq) {
  std::vector<T> st(2 * l * b), x2(b), ypred(b);
  for (int i = 0; i < 2 * l * b; i++) st[i] = state0[i];
  T total = 0;
  for (int t = 0; t < c - 1; t++) {
    const double *in = seq + t * b, *goal = seq + (t + 1) * b;
    for (int i = 0; i < b; i++) x2[i] = in[i] * extra[i];
    const T *z = &x2[0];
    for (int k = 0; k < l; k++) {
      const T *w = mainp + 8 * b * k, *bias = w + 4 * b;
      T *h = &st[2 * b * k], *s = h + b;
      for (int i = 0; i < b; i++) {
        T f = sigmoid<T>(z[i] * w[i] + bias[i]);
        T ig = sigmoid<T>(h[i] * w[b + i] + bias[b + i]);
        T o = sigmoid<T>(z[i] * w[2 * b + i] + bias[2 * b + i]);
        T g = tanh(h[i] * w[3 * b + i] + bias[3 * b + i]);
        s[i] = s[i] * f + ig * g;
        h[i] = o * tanh(s[i]);
      }
      z = h;
    }
    int im = 0; /* the largest ypred, chosen on values as the C code's comparison does */
    for (int i = 0; i < b; i++) {
      ypred[i] = z[i] * extra[b + i] + extra[2 * b + i];
      if (val(ypred[i]) > val(ypred[im])) im = i;
    }
    T mx = ypred[im], se = 0;
    for (int i = 0; i < b; i++) se += exp(ypred[i] - mx);
    T lse = log(se) + mx;
    for (int i = 0; i < b; i++) total += goal[i] * (ypred[i] - lse);
  }
  return -total / (double)((c - 1) * b);
}

/* Operations the adouble loss records (checked against tapestats). */
static double lstm_ops(int l, int c, int b) { return (c - 1.0) * b * (34.0 * l + 10) + 8.0 * l * b; }

/* The case in globals, for fd_check's eval() and the timed calls. */
static int L, C, B, NMAIN, NTHETA;
static double *theta, *grad, *state0, *seq;
static short tag;
static volatile double sink;

static double primal(void) { return lstm_objective<double>(L, C, B, theta, theta + NMAIN, state0, seq); }
static void run_primal(void *) { sink = primal(); }
static void run_gradient(void *) { gradient(tag, NTHETA, theta, grad), sink = grad[0]; }

int main(void) {
  static const int cases[][3] = {{2, 100, 14}, {2, 1024, 14}, {4, 1024, 14}}; /* l, c, b */
  int bad = 0;
  printf("ADOL-C: LSTM loss (ADBench), gradient by tape reuse\n");
  for (int s = 0; s < 3; s++) {
    L = cases[s][0], C = cases[s][1], B = cases[s][2];
    NMAIN = 8 * L * B, NTHETA = NMAIN + 3 * B, tag = (short)(1 + s);
    char name[64];
    snprintf(name, sizeof name, "LSTM l=%d c=%d b=%d", L, C, B);
    double est = lstm_ops(L, C, B);
    if (too_large(name, est)) continue;
    theta = new double[NTHETA], grad = new double[NTHETA], state0 = new double[2 * L * B];
    seq = new double[(size_t)C * B]();
    rng_seed(77 + s);
    for (int i = 0; i < NTHETA; i++) theta[i] = rng_range(-1, 1);
    for (int i = 0; i < 2 * L * B; i++) state0[i] = rng_range(-1, 1);
    for (int t = 0; t < C; t++) seq[t * B + rng_int(B)] = 1;

    double t0 = now_seconds(), f;
    tape_on(tag, est);
    {
      std::vector<adouble> at(NTHETA);
      for (int i = 0; i < NTHETA; i++) at[i] <<= theta[i];
      adouble y = lstm_objective<adouble>(L, C, B, &at[0], &at[NMAIN], state0, seq);
      y >>= f;
    }
    trace_off();
    double t_tape = now_seconds() - t0, bytes;
    size_t ops = tape_ops(tag, &bytes, &bad);

    if (gradient(tag, NTHETA, theta, grad) < 0) printf("FAIL %s: gradient() failed\n", name), bad++;
    double fp = primal(), worst[2];
    if (!(fabs(f - fp) <= 1e-12 * fabs(fp))) printf("FAIL %s: taped loss %.17g, primal %.17g\n", name, f, fp), bad++;
    bad += fd_check(name, primal, theta, grad, NULL, NTHETA, 10, 1e-6, worst);

    double tp = time_call(run_primal, NULL), tg = time_call(run_gradient, NULL);
    check_no_files(tag, &bad);
    bad += compare_record(name, "adolc", tp, tg, grad, NTHETA, 1e-8);
    print_case(name, "gradient", tp, t_tape, tg, ops, bytes);
    printf("    loss = %.10f; vs finite differences (10 components): %.2g; estimated %.4g operations\n", f, worst[0],
           est);
    removeTape(tag, ADOLC_REMOVE_COMPLETELY);
    delete[] theta, delete[] grad, delete[] state0, delete[] seq;
  }
  printf("  checks: %s\n", bad ? "FAILED" : "ok (finite differences to 1e-6)");
  return bad != 0;
}
