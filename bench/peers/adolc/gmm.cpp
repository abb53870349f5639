/* ADOL-C peer of bench/gmm.c: the gradient of ADBench's GMM negative log-likelihood (same inputs, same
 * math, same parameter layout theta = [alphas (K) | means (K d) | icf (K d(d+1)/2)]).
 *
 * The objective is one template over the scalar type: with double it is the primal that is timed, with
 * adouble it records ADOL-C's tape. The tape is recorded once per case (trace_on/trace_off, timed) and
 * gradient(tag, ...) (a zero-order forward sweep keeping the Taylor values, then a first-order reverse
 * sweep) is timed on it: tape reuse, ADOL-C's best case. Cases: d=10 K=25 and d=64 K=50, n = 1000 and
 * 10000 each, or only the d and K given on the command line ("gmm 64 50") or at compile time
 * (-DGMM_D=64 -DGMM_K=50); a case whose tape would not fit is skipped.
 * Checks ten components against central finite differences (relative 1e-6); exits non-zero on a failure.
 * Reports through compare.h when PARAD_COMPARE_DIR is set. */
#include <vector>

#include "adolc_peer.h"

static const double GAMMA = 1.0;
static const int WISHART_M = 2;

/* log(sum_i exp(v_i)), shifted by the largest v_i (chosen on values, as the C code's comparison does). */
template <class T> static T logsumexp(const T *v, int k) {
  int im = 0;
  for (int i = 1; i < k; i++)
    if (val(v[i]) > val(v[im])) im = i;
  T mx = v[im], s = 0;
  for (int i = 0; i < k; i++) s += exp(v[i] - mx);
  return log(s) + mx;
}

template <class T>
static T gmm_objective(int d, int k, int n, const T *alphas, const T *means, const T *icf, const double *x,
                       double gamma, int m, double wconst) {
  int isz = d * (d + 1) / 2;
  std::vector<T> sumq(k), qdiag(k * d), xc(d), z(d), main_term(k);
  for (int c = 0; c < k; c++) {
    T s = 0;
    for (int i = 0; i < d; i++) {
      s += icf[c * isz + i];
      qdiag[c * d + i] = exp(icf[c * isz + i]);
    }
    sumq[c] = s;
  }
  T slse = 0, sq = 0;
  for (int p = 0; p < n; p++) {
    for (int c = 0; c < k; c++) {
      const T *mu = means + c * d, *lo = icf + c * isz + d, *qd = &qdiag[c * d];
      for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
      for (int i = 0; i < d; i++) z[i] = qd[i] * xc[i];
      int t = 0;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++) z[j] += lo[t++] * xc[i];
      sq = 0;
      for (int i = 0; i < d; i++) sq += z[i] * z[i];
      main_term[c] = alphas[c] + sumq[c] - 0.5 * sq;
    }
    slse += logsumexp(main_term.data(), k);
  }
  T f = -0.5 * n * d * log(2 * M_PI) + slse - (double)n * logsumexp(alphas, k);
  T prior = 0;
  for (int c = 0; c < k; c++) {
    T fro = 0;
    for (int i = 0; i < d; i++) fro += qdiag[c * d + i] * qdiag[c * d + i];
    for (int i = d; i < isz; i++) fro += icf[c * isz + i] * icf[c * isz + i];
    prior += 0.5 * gamma * gamma * fro - (double)m * sumq[c];
  }
  return f + prior - k * wconst;
}

/* Operations the adouble objective records (checked against tapestats on the cases that run). */
static double gmm_ops(int d, int k, int n) {
  double per_component = 3.0 * d + d * (d - 1) / 2.0 + 4, per_point = k * per_component + 3.0 * k + 6;
  return n * per_point + k * (d * (d + 1) / 2.0 + 2.0 * d + 8) + 6.0 * k + k * d * (d + 1) / 2.0;
}

static double wishart_constant(int d, double gamma, int m) {
  int nn = d + m + 1;
  double lgd = 0.25 * d * (d - 1) * log(M_PI);
  for (int j = 1; j <= d; j++) lgd += lgamma(0.5 * nn + 0.5 * (1 - j));
  return nn * d * (log(gamma) - 0.5 * log(2.0)) - lgd;
}

/* The case in globals, for fd_check's eval() and the timed calls. */
static int D, K, N, NTHETA;
static double *theta, *grad, *data, wconst;
static short tag;
static volatile double sink;

static double primal(void) {
  return gmm_objective<double>(D, K, N, theta, theta + K, theta + K + K * D, data, GAMMA, WISHART_M, wconst);
}
static void run_primal(void *) { sink = primal(); }
static void run_gradient(void *) { gradient(tag, NTHETA, theta, grad), sink = grad[0]; }

static int run_case(int d, int k, int n, int s) {
  int bad = 0, isz = d * (d + 1) / 2;
  char name[64];
  snprintf(name, sizeof name, "GMM d=%d K=%d n=%d", d, k, n);
  double est = gmm_ops(d, k, n);
  if (too_large(name, est)) return 0;
  D = d, K = k, N = n, NTHETA = k + k * d + k * isz, tag = (short)(1 + s + 2 * (d != 10));
  theta = new double[NTHETA], grad = new double[NTHETA], data = new double[(size_t)n * d];
  wconst = wishart_constant(d, GAMMA, WISHART_M);
  /* bench/gmm.c's generation, with d and K as parameters */
  rng_seed(1234 + s);
  double *alphas = theta, *means = theta + k, *icf = theta + k + k * d;
  for (int c = 0; c < k; c++) {
    alphas[c] = rng_normal();
    for (int i = 0; i < d; i++) means[c * d + i] = rng_uniform();
    for (int i = 0; i < isz; i++) icf[c * isz + i] = i < d ? rng_range(-0.5, 0.5) : 0.5 * rng_normal();
  }
  for (int i = 0; i < n * d; i++) data[i] = rng_uniform();

  double t0 = now_seconds(), f;
  tape_on(tag, est);
  {
    std::vector<adouble> at(NTHETA);
    for (int i = 0; i < NTHETA; i++) at[i] <<= theta[i];
    adouble y = gmm_objective<adouble>(d, k, n, &at[0], &at[k], &at[k + k * d], data, GAMMA, WISHART_M, wconst);
    y >>= f;
  }
  trace_off();
  double t_tape = now_seconds() - t0;
  double bytes;
  size_t ops = tape_ops(tag, &bytes, &bad);

  if (gradient(tag, NTHETA, theta, grad) < 0) printf("FAIL %s: gradient() failed\n", name), bad++;
  double fp = primal(), worst[2];
  if (!(fabs(f - fp) <= 1e-12 * fabs(fp))) printf("FAIL %s: taped f %.17g, primal %.17g\n", name, f, fp), bad++;
  bad += fd_check(name, primal, theta, grad, NULL, NTHETA, 10, 1e-6, worst);

  double tp = time_call(run_primal, NULL), tg = time_call(run_gradient, NULL);
  check_no_files(tag, &bad);
  bad += compare_record(name, "adolc", tp, tg, grad, NTHETA, 1e-8);
  print_case(name, "gradient", tp, t_tape, tg, ops, bytes);
  printf("    f = %.10g; vs finite differences (10 components): %.2g; estimated %.4g operations\n", f, worst[0], est);
  removeTape(tag, ADOLC_REMOVE_COMPLETELY);
  delete[] theta, delete[] grad, delete[] data;
  return bad;
}

int main(int argc, char **argv) {
  static const int configs[][2] = {{10, 25}, {64, 50}}, sizes[] = {1000, 10000};
  int bad = 0;
  printf("ADOL-C: GMM objective (ADBench), gradient by tape reuse\n");
  for (int c = 0; c < 2; c++) {
    int d = configs[c][0], k = configs[c][1];
#if defined(GMM_D) && defined(GMM_K)
    d = GMM_D, k = GMM_K, c = 2;
#endif
    if (argc == 3) d = atoi(argv[1]), k = atoi(argv[2]), c = 2;
    for (int s = 0; s < 2; s++) bad += run_case(d, k, sizes[s], s);
  }
  printf("  checks: %s\n", bad ? "FAILED" : "ok (finite differences to 1e-6)");
  return bad != 0;
}
