/* Reverse mode on a Gaussian mixture model: the negative log-likelihood of ADBench's GMM objective.
 *
 * Parameters (one array theta): K mixture weights alpha (through log-sum-exp), K means mu_k (d each) and
 * K inverse-covariance factors, each d(d+1)/2 numbers: d log-diagonal entries q_k, then the strictly lower
 * off-diagonal entries column by column. With L_k lower triangular, diag exp(q_k):
 *
 *   f = -n d/2 log(2 pi) + sum_i logsumexp_k(alpha_k + sum(q_k) - |L_k (x_i - mu_k)|^2 / 2)
 *       - n logsumexp(alpha)
 *       + sum_k (gamma^2/2 (|exp(q_k)|^2 + |offdiag_k|^2) - m sum(q_k)) - K C(gamma, m, d)   (Wishart prior)
 *
 * The program computes f and its gradient with Parad (__parad_autodiff) and with a hand-written adjoint,
 * checks that the two agree (relative 1e-9) and that both agree with central finite differences on ten
 * random components (relative 1e-6), times the primal and both gradients (medians), and prints the
 * ratios and the peak tape memory of Parad's gradient. Exits non-zero when any check fails. Built with
 * parad-cc -O2 by scripts/bench. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adcheck.h"
#include "compare.h"

void __parad_autodiff(void *, ...);
extern int parad_const;

/* d and K: 10 and 25 unless built with -DGMM_D=.. -DGMM_K=.. (scripts/compare also runs 64 and 50) */
#ifndef GMM_D
#define GMM_D 10
#define GMM_K 25
#endif
enum { D = GMM_D, K = GMM_K };
static const double GAMMA = 1.0;
static const int WISHART_M = 2;

/* log(sum_i exp(v_i)), shifted by the largest v_i. */
static double logsumexp(const double *v, int k) {
  double mx = v[0];
  for (int i = 1; i < k; i++)
    if (v[i] > mx) mx = v[i];
  double s = 0;
  for (int i = 0; i < k; i++) s += exp(v[i] - mx);
  return log(s) + mx;
}

/* The objective. x: n points of dimension d (data). wconst: the Wishart normalising constant C. */
__attribute__((noinline)) static double gmm_objective(int d, int k, int n, const double *alphas,
                                                      const double *means, const double *icf, const double *x,
                                                      double gamma, int m, double wconst) {
  int isz = d * (d + 1) / 2;
  double sumq[k], qdiag[k * d], xc[d], z[d], main_term[k];
  for (int c = 0; c < k; c++) {
    double s = 0;
    for (int i = 0; i < d; i++) {
      s += icf[c * isz + i];
      qdiag[c * d + i] = exp(icf[c * isz + i]);
    }
    sumq[c] = s;
  }
  double slse = 0;
  for (int p = 0; p < n; p++) {
    for (int c = 0; c < k; c++) {
      const double *mu = means + c * d, *lo = icf + c * isz + d, *qd = qdiag + c * d;
      for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
      for (int i = 0; i < d; i++) z[i] = qd[i] * xc[i];
      int t = 0;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++) z[j] += lo[t++] * xc[i];
      double sq = 0;
      for (int i = 0; i < d; i++) sq += z[i] * z[i];
      main_term[c] = alphas[c] + sumq[c] - 0.5 * sq;
    }
    slse += logsumexp(main_term, k);
  }
  double f = -0.5 * n * d * log(2 * M_PI) + slse - n * logsumexp(alphas, k);
  double prior = 0;
  for (int c = 0; c < k; c++) {
    double fro = 0;
    for (int i = 0; i < d; i++) fro += qdiag[c * d + i] * qdiag[c * d + i];
    for (int i = d; i < isz; i++) fro += icf[c * isz + i] * icf[c * isz + i];
    prior += 0.5 * gamma * gamma * fro - m * sumq[c];
  }
  return f + prior - k * wconst;
}

/* The Wishart prior's normalising constant (no parameter in it). */
static double wishart_constant(int d, double gamma, int m) {
  int nn = d + m + 1;
  double lgd = 0.25 * d * (d - 1) * log(M_PI);
  for (int j = 1; j <= d; j++) lgd += lgamma(0.5 * nn + 0.5 * (1 - j));
  return nn * d * (log(gamma) - 0.5 * log(2.0)) - lgd;
}

/* The hand-written adjoint: the gradient (written, not added) into ga, gm, gicf; returns f. For each
 * point, the forward values of all K components are kept (xc, z), the softmax of the main terms weights
 * each component, and the adjoint of z = L (x - mu) is taken back to q, the off-diagonals and mu. */
__attribute__((noinline)) static double gmm_gradient(int d, int k, int n, const double *alphas, const double *means,
                                                     const double *icf, const double *x, double gamma, int m,
                                                     double wconst, double *ga, double *gm, double *gicf) {
  int isz = d * (d + 1) / 2;
  double sumq[k], sumq_bar[k], qdiag[k * d], xc[k * d], z[k * d], mt[k], dxc[d], dz[d];
  memset(ga, 0, k * sizeof *ga);
  memset(gm, 0, k * d * sizeof *gm);
  memset(gicf, 0, k * isz * sizeof *gicf);
  for (int c = 0; c < k; c++) {
    double s = 0;
    for (int i = 0; i < d; i++) {
      s += icf[c * isz + i];
      qdiag[c * d + i] = exp(icf[c * isz + i]);
    }
    sumq[c] = s;
    sumq_bar[c] = 0;
  }
  double slse = 0;
  for (int p = 0; p < n; p++) {
    const double *xp = x + p * d;
    double mx = -INFINITY;
    for (int c = 0; c < k; c++) {
      const double *mu = means + c * d, *lo = icf + c * isz + d, *qd = qdiag + c * d;
      double *xcc = xc + c * d, *zc = z + c * d;
      for (int i = 0; i < d; i++) {
        xcc[i] = xp[i] - mu[i];
        zc[i] = qd[i] * xcc[i];
      }
      int t = 0;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++) zc[j] += lo[t++] * xcc[i];
      double sq = 0;
      for (int i = 0; i < d; i++) sq += zc[i] * zc[i];
      mt[c] = alphas[c] + sumq[c] - 0.5 * sq;
      if (mt[c] > mx) mx = mt[c];
    }
    double s = 0;
    for (int c = 0; c < k; c++) s += (mt[c] = exp(mt[c] - mx));
    slse += log(s) + mx;
    double inv = 1 / s;
    for (int c = 0; c < k; c++) {
      double w = mt[c] * inv; /* d slse / d main_term[c] */
      const double *lo = icf + c * isz + d, *qd = qdiag + c * d, *xcc = xc + c * d, *zc = z + c * d;
      double *gq = gicf + c * isz, *glo = gicf + c * isz + d, *gmu = gm + c * d;
      ga[c] += w;
      sumq_bar[c] += w;
      for (int i = 0; i < d; i++) {
        dz[i] = -w * zc[i];
        gq[i] += dz[i] * qd[i] * xcc[i]; /* z_i = exp(q_i) xc_i + ... */
        dxc[i] = qd[i] * dz[i];
      }
      int t = 0;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++, t++) {
          glo[t] += dz[j] * xcc[i];
          dxc[i] += lo[t] * dz[j];
        }
      for (int i = 0; i < d; i++) gmu[i] -= dxc[i];
    }
  }
  /* - n logsumexp(alpha) */
  double amx = alphas[0];
  for (int c = 1; c < k; c++)
    if (alphas[c] > amx) amx = alphas[c];
  double as = 0;
  for (int c = 0; c < k; c++) as += exp(alphas[c] - amx);
  for (int c = 0; c < k; c++) ga[c] -= n * exp(alphas[c] - amx) / as;
  double f = -0.5 * n * d * log(2 * M_PI) + slse - n * (log(as) + amx);
  /* The Wishart prior. */
  double prior = 0;
  for (int c = 0; c < k; c++) {
    double fro = 0, g2 = gamma * gamma;
    for (int i = 0; i < d; i++) {
      double qd = qdiag[c * d + i];
      fro += qd * qd;
      gicf[c * isz + i] += g2 * qd * qd + sumq_bar[c] - m; /* d(exp(q)^2)/dq = 2 exp(q)^2 */
    }
    for (int i = d; i < isz; i++) {
      fro += icf[c * isz + i] * icf[c * isz + i];
      gicf[c * isz + i] += g2 * icf[c * isz + i];
    }
    prior += 0.5 * g2 * fro - m * sumq[c];
  }
  return f + prior - k * wconst;
}

/* The problem in globals: the timed calls go through opaque pointers, as in forward_cost.c. */
enum { ISZ = D * (D + 1) / 2, NTHETA = K + K * D + K * ISZ };
static int n_points;
static double theta[NTHETA], grad_parad[NTHETA], grad_hand[NTHETA], *data, wconst;
#define ALPHAS(v) (v)
#define MEANS(v) ((v) + K)
#define ICF(v) ((v) + K + K * D)
static volatile double sink;

static double primal(void) {
  return gmm_objective(D, K, n_points, ALPHAS(theta), MEANS(theta), ICF(theta), data, GAMMA, WISHART_M, wconst);
}
__attribute__((noinline)) static void parad_gradient(void) {
  memset(grad_parad, 0, sizeof grad_parad);
  __parad_autodiff((void *)gmm_objective, parad_const, D, parad_const, K, parad_const, n_points, ALPHAS(theta),
                   ALPHAS(grad_parad), MEANS(theta), MEANS(grad_parad), ICF(theta), ICF(grad_parad), parad_const,
                   data, parad_const, GAMMA, parad_const, WISHART_M, parad_const, wconst);
}
__attribute__((noinline)) static double hand_gradient(void) {
  return gmm_gradient(D, K, n_points, ALPHAS(theta), MEANS(theta), ICF(theta), data, GAMMA, WISHART_M, wconst,
                      ALPHAS(grad_hand), MEANS(grad_hand), ICF(grad_hand));
}
static double (*volatile primal_p)(void) = primal;
static void (*volatile parad_p)(void) = parad_gradient;
static double (*volatile hand_p)(void) = hand_gradient;
static void run_primal(void *c) { (void)c, sink = primal_p(); }
static void run_parad(void *c) { (void)c, parad_p(), sink = grad_parad[0]; }
static void run_hand(void *c) { (void)c, sink = hand_p(); }

int main(void) {
  static const int sizes[] = {1000, 10000};
  int bad = 0;
  char line[2][160];
  double tp[2], tpar[2], th[2];
  size_t tape[2];
  wconst = wishart_constant(D, GAMMA, WISHART_M);
  printf("GMM objective (ADBench), d = %d, K = %d: gradient with respect to all %d parameters\n", D, K, NTHETA);
  for (int s = 0; s < 2; s++) {
    n_points = sizes[s];
    rng_seed(1234 + s);
    for (int c = 0; c < K; c++) {
      ALPHAS(theta)[c] = rng_normal();
      for (int i = 0; i < D; i++) MEANS(theta)[c * D + i] = rng_uniform();
      for (int i = 0; i < ISZ; i++) ICF(theta)[c * ISZ + i] = i < D ? rng_range(-0.5, 0.5) : 0.5 * rng_normal();
    }
    data = malloc((size_t)n_points * D * sizeof *data);
    for (int i = 0; i < n_points * D; i++) data[i] = rng_uniform();

    double f = primal();
    parad_gradient();
    double fh = hand_gradient(), worst_hand, worst_fd[2];
    if (!(fabs(f - fh) <= 1e-10 * fabs(f))) {
      printf("FAIL n = %d: objective %.17g, from the hand-written adjoint %.17g\n", n_points, f, fh);
      bad++;
    }
    char what[64];
    snprintf(what, sizeof what, "GMM n=%d", n_points);
    bad += compare_gradients(what, grad_parad, grad_hand, NTHETA, 1e-9, &worst_hand);
    bad += fd_check(what, primal, theta, grad_parad, grad_hand, NTHETA, 10, 1e-6, worst_fd);
    printf("  n = %5d: f = %.10g; parad vs hand-written: max relative difference %.2g; vs finite differences "
           "(10 components): %.2g (parad), %.2g (hand)\n",
           n_points, f, worst_hand, worst_fd[0], worst_fd[1]);

    parad_tape_reset_peak();
    parad_gradient();
    tape[s] = parad_tape_peak_bytes();
    double times[3];
    time_three((void (*[3])(void *)){run_primal, run_parad, run_hand}, times);
    tp[s] = times[0], tpar[s] = times[1], th[s] = times[2];
    snprintf(line[s], sizeof line[s], "GMM d=%d K=%d n=%d", D, K, n_points);
    bad += compare_record(line[s], "parad", tp[s], tpar[s], grad_parad, NTHETA, 0);
    bad += compare_record(line[s], "hand", tp[s], th[s], grad_hand, NTHETA, 1e-9);
    bad += compare_finite_differences(line[s], primal, theta, NTHETA, tp[s], 5, 1e-3);
    free(data);
  }
  print_header();
  for (int s = 0; s < 2; s++) print_row(line[s], tp[s], tpar[s], th[s], tape[s]);
  for (int s = 0; s < 2; s++) { /* tape per point */
    char name[32];
    snprintf(name, sizeof name, "gmm-d%d-n%d", D, sizes[s]);
    print_kernel_line(name, tp[s], tpar[s], th[s], (double)tape[s] / sizes[s]);
  }
  printf("  checks: %s\n", bad ? "FAILED" : "ok (parad = hand-written to 1e-9; both = finite differences to 1e-6)");
  return bad != 0;
}
