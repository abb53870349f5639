/* Reverse mode on bundle adjustment: the reprojection error of ADBench's BA objective, summed into one
 * scalar.
 *
 * Each camera has 11 parameters: a rotation as an angle-axis vector r (Rodrigues' formula), the camera
 * centre C, the focal length f, the principal point x0 and two radial distortion coefficients k1, k2.
 * An observation i sees point X of camera c at the feature position u_i, with a weight w_i:
 *
 *   y = R(r) (X - C),  p = (y0, y1) / y2,  s = |p|^2,  proj = f (1 + k1 s + k2 s^2) p + x0
 *   E = sum_i |w_i (proj_i - u_i)|^2 + sum_i (1 - w_i^2)^2
 *
 * The gradient is taken with respect to all camera parameters, all points and all weights. The program
 * computes E and its gradient with Parad (__parad_autodiff) and with a hand-written adjoint, checks that
 * the two agree (relative 1e-9) and that both agree with central finite differences on ten random
 * components (relative 1e-6), times the primal and both gradients (medians), and prints the ratios and
 * the peak tape memory of Parad's gradient. Exits non-zero when any check fails. Built with parad-cc
 * -O2 by scripts/bench. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adcheck.h"
#include "compare.h"

void __parad_autodiff(void *, ...);
extern int parad_const;

enum { NCAM = 20, NPT = 2000, NOBS = 8000, CAMP = 11 };

/* Rotates x by the angle-axis vector r: Rodrigues' formula, or its first order at r = 0. */
static void rodrigues_rotate(const double *r, const double *x, double *out) {
  double sq = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  if (sq != 0) {
    double th = sqrt(sq), c = cos(th), s = sin(th), inv = 1 / th;
    double w0 = r[0] * inv, w1 = r[1] * inv, w2 = r[2] * inv;
    double a0 = w1 * x[2] - w2 * x[1], a1 = w2 * x[0] - w0 * x[2], a2 = w0 * x[1] - w1 * x[0];
    double t = (w0 * x[0] + w1 * x[1] + w2 * x[2]) * (1 - c);
    out[0] = x[0] * c + a0 * s + w0 * t;
    out[1] = x[1] * c + a1 * s + w1 * t;
    out[2] = x[2] * c + a2 * s + w2 * t;
  } else {
    out[0] = x[0] + r[1] * x[2] - r[2] * x[1];
    out[1] = x[1] + r[2] * x[0] - r[0] * x[2];
    out[2] = x[2] + r[0] * x[1] - r[1] * x[0];
  }
}

/* The projection of point X by camera cam into proj[0..1]. */
static void project(const double *cam, const double *X, double *proj) {
  double xm[3], y[3];
  for (int j = 0; j < 3; j++) xm[j] = X[j] - cam[3 + j];
  rodrigues_rotate(cam, xm, y);
  double p0 = y[0] / y[2], p1 = y[1] / y[2];
  double s = p0 * p0 + p1 * p1, l = 1 + cam[9] * s + cam[10] * s * s;
  proj[0] = p0 * l * cam[6] + cam[7];
  proj[1] = p1 * l * cam[6] + cam[8];
}

/* The objective. cam_idx, pt_idx, feats: the observations (data). */
__attribute__((noinline)) static double ba_objective(int nobs, const double *cams, const double *pts, const double *w,
                                                     const int *cam_idx, const int *pt_idx, const double *feats) {
  double e = 0, proj[2];
  for (int i = 0; i < nobs; i++) {
    project(cams + CAMP * cam_idx[i], pts + 3 * pt_idx[i], proj);
    double r0 = w[i] * (proj[0] - feats[2 * i]), r1 = w[i] * (proj[1] - feats[2 * i + 1]);
    double we = 1 - w[i] * w[i];
    e += r0 * r0 + r1 * r1 + we * we;
  }
  return e;
}

/* The hand-written adjoint of project(): the forward values it keeps, then the adjoint of proj (pb0, pb1)
 * added into the camera's and the point's gradients. */
typedef struct {
  double xm[3], y[3], a[3], wv[3], th, c, s, inv, dwx, t, p0, p1, rs, l, d0, d1;
  int full;
} ProjectTrace;

static void project_forward(const double *cam, const double *X, ProjectTrace *tr, double proj[2]) {
  const double *r = cam;
  double *xm = tr->xm, *y = tr->y, *a = tr->a, *wv = tr->wv;
  for (int j = 0; j < 3; j++) xm[j] = X[j] - cam[3 + j];
  double sq = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  tr->full = sq != 0;
  if (tr->full) {
    tr->th = sqrt(sq), tr->c = cos(tr->th), tr->s = sin(tr->th), tr->inv = 1 / tr->th;
    for (int j = 0; j < 3; j++) wv[j] = r[j] * tr->inv;
    a[0] = wv[1] * xm[2] - wv[2] * xm[1];
    a[1] = wv[2] * xm[0] - wv[0] * xm[2];
    a[2] = wv[0] * xm[1] - wv[1] * xm[0];
    tr->dwx = wv[0] * xm[0] + wv[1] * xm[1] + wv[2] * xm[2];
    tr->t = tr->dwx * (1 - tr->c);
    for (int j = 0; j < 3; j++) y[j] = xm[j] * tr->c + a[j] * tr->s + wv[j] * tr->t;
  } else {
    y[0] = xm[0] + r[1] * xm[2] - r[2] * xm[1];
    y[1] = xm[1] + r[2] * xm[0] - r[0] * xm[2];
    y[2] = xm[2] + r[0] * xm[1] - r[1] * xm[0];
  }
  tr->p0 = y[0] / y[2], tr->p1 = y[1] / y[2];
  tr->rs = tr->p0 * tr->p0 + tr->p1 * tr->p1;
  tr->l = 1 + cam[9] * tr->rs + cam[10] * tr->rs * tr->rs;
  tr->d0 = tr->p0 * tr->l, tr->d1 = tr->p1 * tr->l;
  proj[0] = tr->d0 * cam[6] + cam[7];
  proj[1] = tr->d1 * cam[6] + cam[8];
}

static void project_reverse(const double *cam, const ProjectTrace *tr, double pb0, double pb1, double *gcam,
                            double *gX) {
  const double *r = cam, *xm = tr->xm, *y = tr->y, *a = tr->a, *wv = tr->wv;
  double p0 = tr->p0, p1 = tr->p1, rs = tr->rs, l = tr->l, k1 = cam[9], k2 = cam[10], f = cam[6];
  gcam[6] += pb0 * tr->d0 + pb1 * tr->d1;
  gcam[7] += pb0;
  gcam[8] += pb1;
  double db0 = pb0 * f, db1 = pb1 * f;
  double lb = db0 * p0 + db1 * p1;
  gcam[9] += lb * rs;
  gcam[10] += lb * rs * rs;
  double rsb = lb * (k1 + 2 * k2 * rs);
  double qb0 = db0 * l + 2 * rsb * p0, qb1 = db1 * l + 2 * rsb * p1; /* adjoint of p */
  double yb[3] = {qb0 / y[2], qb1 / y[2], -(qb0 * p0 + qb1 * p1) / y[2]};
  double xb[3], rb[3];
  if (tr->full) {
    double c = tr->c, s = tr->s, t = tr->t, inv = tr->inv;
    double cb = yb[0] * xm[0] + yb[1] * xm[1] + yb[2] * xm[2];
    double sb = yb[0] * a[0] + yb[1] * a[1] + yb[2] * a[2];
    double tb = yb[0] * wv[0] + yb[1] * wv[1] + yb[2] * wv[2];
    double ab[3], wb[3];
    for (int j = 0; j < 3; j++) xb[j] = c * yb[j], ab[j] = s * yb[j], wb[j] = t * yb[j];
    double dwxb = tb * (1 - c);
    cb -= tb * tr->dwx;
    for (int j = 0; j < 3; j++) wb[j] += dwxb * xm[j], xb[j] += dwxb * wv[j];
    /* a = w x xm: wb += xm x ab, xb += ab x w */
    wb[0] += xm[1] * ab[2] - xm[2] * ab[1];
    wb[1] += xm[2] * ab[0] - xm[0] * ab[2];
    wb[2] += xm[0] * ab[1] - xm[1] * ab[0];
    xb[0] += ab[1] * wv[2] - ab[2] * wv[1];
    xb[1] += ab[2] * wv[0] - ab[0] * wv[2];
    xb[2] += ab[0] * wv[1] - ab[1] * wv[0];
    double thb = -s * cb + c * sb - (wb[0] * r[0] + wb[1] * r[1] + wb[2] * r[2]) * inv * inv;
    for (int j = 0; j < 3; j++) rb[j] = wb[j] * inv + thb * r[j] * inv;
  } else {
    /* y = xm + r x xm: rb = xm x yb, xb = yb + yb x r */
    rb[0] = xm[1] * yb[2] - xm[2] * yb[1];
    rb[1] = xm[2] * yb[0] - xm[0] * yb[2];
    rb[2] = xm[0] * yb[1] - xm[1] * yb[0];
    xb[0] = yb[0] + yb[1] * r[2] - yb[2] * r[1];
    xb[1] = yb[1] + yb[2] * r[0] - yb[0] * r[2];
    xb[2] = yb[2] + yb[0] * r[1] - yb[1] * r[0];
  }
  for (int j = 0; j < 3; j++) {
    gcam[j] += rb[j];
    gcam[3 + j] -= xb[j];
    gX[j] += xb[j];
  }
}

/* The hand-written adjoint: the gradient (written, not added) into gc, gp, gw; returns E. Each
 * observation's forward values stay in locals and its adjoint is added into its camera and point. */
__attribute__((noinline)) static double ba_gradient(int nobs, const double *cams, const double *pts, const double *w,
                                                    const int *cam_idx, const int *pt_idx, const double *feats,
                                                    double *gc, double *gp, double *gw) {
  memset(gc, 0, NCAM * CAMP * sizeof *gc);
  memset(gp, 0, NPT * 3 * sizeof *gp);
  double e = 0;
  for (int i = 0; i < nobs; i++) {
    const double *cam = cams + CAMP * cam_idx[i], *X = pts + 3 * pt_idx[i];
    ProjectTrace tr;
    double proj[2];
    project_forward(cam, X, &tr, proj);
    double e0 = proj[0] - feats[2 * i], e1 = proj[1] - feats[2 * i + 1];
    double wi = w[i], r0 = wi * e0, r1 = wi * e1, we = 1 - wi * wi;
    e += r0 * r0 + r1 * r1 + we * we;
    double rb0 = 2 * r0, rb1 = 2 * r1;
    gw[i] = rb0 * e0 + rb1 * e1 - 4 * we * wi;
    project_reverse(cam, &tr, rb0 * wi, rb1 * wi, gc + CAMP * cam_idx[i], gp + 3 * pt_idx[i]);
  }
  return e;
}

/* The Jacobian workload: for every observation, the 2 x 15 Jacobian of its reprojection residual
 * r = w (proj(cam, X) - u) with respect to the camera (11), the point (3) and the weight, row by row into
 * jac[30 i ..]. Parad's takes two reverse sweeps over all observations (below); the hand-written one runs
 * project() forward once per observation and its adjoint twice. */
enum { JROW = CAMP + 3 + 1 };
__attribute__((noinline)) static void ba_residual(const double *cam, const double *X, const double *w,
                                                  const double *feat, double *r) {
  double proj[2];
  project(cam, X, proj);
  r[0] = *w * (proj[0] - feat[0]);
  r[1] = *w * (proj[1] - feat[1]);
}

/* All residuals from the observations' own copies of their inputs (15 each, gathered): the rows of
 * different observations then depend on different inputs, so one reverse sweep seeded with every
 * observation's row 0 yields all their row-0 Jacobians at once (a colouring of the block-sparse
 * Jacobian), and a second one all row-1 Jacobians. */
__attribute__((noinline)) static void ba_residuals_gathered(int nobs, const double *in, const double *feats,
                                                            double *r) {
  for (int i = 0; i < nobs; i++) {
    const double *x = in + (size_t)JROW * i;
    ba_residual(x, x + CAMP, x + CAMP + 3, feats + 2 * i, r + 2 * i);
  }
}

static void ba_jacobian_parad(int nobs, const double *cams, const double *pts, const double *w, const int *cam_idx,
                              const int *pt_idx, const double *feats, double *jac, double *in, double *din,
                              double *r, double *dr) {
  for (int i = 0; i < nobs; i++) {
    double *x = in + (size_t)JROW * i;
    memcpy(x, cams + CAMP * cam_idx[i], CAMP * sizeof *x);
    memcpy(x + CAMP, pts + 3 * pt_idx[i], 3 * sizeof *x);
    x[CAMP + 3] = w[i];
  }
  for (int row = 0; row < 2; row++) {
    memset(din, 0, (size_t)JROW * nobs * sizeof *din);
    for (int i = 0; i < 2 * nobs; i++) dr[i] = i % 2 == row;
    __parad_autodiff((void *)ba_residuals_gathered, parad_const, nobs, in, din, parad_const, feats, r, dr);
    for (int i = 0; i < nobs; i++)
      memcpy(jac + (size_t)2 * JROW * i + JROW * row, din + (size_t)JROW * i, JROW * sizeof *jac);
  }
}

__attribute__((noinline)) static void ba_jacobian_hand(int nobs, const double *cams, const double *pts,
                                                       const double *w, const int *cam_idx, const int *pt_idx,
                                                       const double *feats, double *jac) {
  for (int i = 0; i < nobs; i++) {
    const double *cam = cams + CAMP * cam_idx[i], *X = pts + 3 * pt_idx[i];
    ProjectTrace tr;
    double proj[2];
    project_forward(cam, X, &tr, proj);
    for (int row = 0; row < 2; row++) {
      double *j = jac + (size_t)2 * JROW * i + JROW * row;
      memset(j, 0, JROW * sizeof *j);
      project_reverse(cam, &tr, row == 0 ? w[i] : 0, row == 1 ? w[i] : 0, j, j + CAMP);
      j[CAMP + 3] = proj[row] - feats[2 * i + row];
    }
  }
}

/* The problem in globals: the timed calls go through opaque pointers, as in forward_cost.c. */
enum { NTHETA = NCAM * CAMP + NPT * 3 + NOBS };
static double theta[NTHETA], grad_parad[NTHETA], grad_hand[NTHETA], feats[2 * NOBS];
static int cam_idx[NOBS], pt_idx[NOBS];
#define CAMS(v) (v)
#define PTS(v) ((v) + NCAM * CAMP)
#define WTS(v) ((v) + NCAM * CAMP + NPT * 3)
static volatile double sink;

static double primal(void) { return ba_objective(NOBS, CAMS(theta), PTS(theta), WTS(theta), cam_idx, pt_idx, feats); }
__attribute__((noinline)) static void parad_gradient(void) {
  memset(grad_parad, 0, sizeof grad_parad);
  __parad_autodiff((void *)ba_objective, parad_const, NOBS, CAMS(theta), CAMS(grad_parad), PTS(theta),
                   PTS(grad_parad), WTS(theta), WTS(grad_parad), parad_const, cam_idx, parad_const, pt_idx,
                   parad_const, feats);
}
__attribute__((noinline)) static double hand_gradient(void) {
  return ba_gradient(NOBS, CAMS(theta), PTS(theta), WTS(theta), cam_idx, pt_idx, feats, CAMS(grad_hand),
                     PTS(grad_hand), WTS(grad_hand));
}
enum { NJAC = NOBS * 2 * JROW };
static double jac_parad[NJAC], jac_hand[NJAC], jac_fd[NJAC], resid[2 * NOBS];
static double gathered[JROW * NOBS], dgathered[JROW * NOBS], dresid[2 * NOBS]; /* Parad's work space */
static void residuals(void) {
  for (int i = 0; i < NOBS; i++)
    ba_residual(CAMS(theta) + CAMP * cam_idx[i], PTS(theta) + 3 * pt_idx[i], WTS(theta) + i, feats + 2 * i, resid + 2 * i);
}
static void jacobian_parad(void) {
  ba_jacobian_parad(NOBS, CAMS(theta), PTS(theta), WTS(theta), cam_idx, pt_idx, feats, jac_parad, gathered,
                    dgathered, resid, dresid);
}
static void jacobian_hand(void) { ba_jacobian_hand(NOBS, CAMS(theta), PTS(theta), WTS(theta), cam_idx, pt_idx, feats, jac_hand); }
/* The naive baseline: central differences of each residual in each of its 15 inputs (h = 1e-6). */
static void jacobian_fd(void) {
  for (int i = 0; i < NOBS; i++) {
    double in[JROW], hi[2], lo[2];
    memcpy(in, CAMS(theta) + CAMP * cam_idx[i], CAMP * sizeof *in);
    memcpy(in + CAMP, PTS(theta) + 3 * pt_idx[i], 3 * sizeof *in);
    in[CAMP + 3] = WTS(theta)[i];
    for (int k = 0; k < JROW; k++) {
      double x = in[k], h = 1e-6 * (fabs(x) > 1 ? fabs(x) : 1);
      in[k] = x + h;
      ba_residual(in, in + CAMP, in + CAMP + 3, feats + 2 * i, hi);
      in[k] = x - h;
      ba_residual(in, in + CAMP, in + CAMP + 3, feats + 2 * i, lo);
      in[k] = x;
      for (int row = 0; row < 2; row++) jac_fd[(size_t)2 * JROW * i + JROW * row + k] = (hi[row] - lo[row]) / (2 * h);
    }
  }
}
static void (*volatile jac_p[4])(void) = {residuals, jacobian_parad, jacobian_hand, jacobian_fd};
static void run_residuals(void *c) { (void)c, jac_p[0](), sink = resid[0]; }
static void run_jac_parad(void *c) { (void)c, jac_p[1](), sink = jac_parad[0]; }
static void run_jac_hand(void *c) { (void)c, jac_p[2](), sink = jac_hand[0]; }
static void run_jac_fd(void *c) { (void)c, jac_p[3](), sink = jac_fd[0]; }

static double (*volatile primal_p)(void) = primal;
static void (*volatile parad_p)(void) = parad_gradient;
static double (*volatile hand_p)(void) = hand_gradient;
static void run_primal(void *c) { (void)c, sink = primal_p(); }
static void run_parad(void *c) { (void)c, parad_p(), sink = grad_parad[0]; }
static void run_hand(void *c) { (void)c, sink = hand_p(); }

/* Cameras on a ring around the origin, 15 units away, looking roughly at it; points in a cube; each point
 * seen by four cameras; features are the projections of the parameters before a small perturbation, plus
 * noise. Camera 0 has no rotation at all (the first-order branch of Rodrigues' formula). */
static void make_problem(void) {
  rng_seed(2024);
  for (int c = 0; c < NCAM; c++) {
    double *cam = CAMS(theta) + CAMP * c;
    for (int j = 0; j < 3; j++) cam[j] = c == 0 ? 0 : rng_range(-0.2, 0.2);
    cam[3] = rng_range(-1, 1), cam[4] = rng_range(-1, 1), cam[5] = -15 + rng_range(-1, 1);
    cam[6] = rng_range(0.8, 1.2);
    cam[7] = rng_range(-0.05, 0.05), cam[8] = rng_range(-0.05, 0.05);
    cam[9] = rng_range(-0.1, 0.1), cam[10] = rng_range(-0.01, 0.01);
  }
  for (int i = 0; i < NPT * 3; i++) PTS(theta)[i] = rng_range(-3, 3);
  for (int i = 0; i < NOBS; i++) {
    pt_idx[i] = i % NPT;
    cam_idx[i] = rng_int(NCAM);
    double proj[2];
    project(CAMS(theta) + CAMP * cam_idx[i], PTS(theta) + 3 * pt_idx[i], proj);
    feats[2 * i] = proj[0] + 0.01 * rng_normal();
    feats[2 * i + 1] = proj[1] + 0.01 * rng_normal();
    WTS(theta)[i] = rng_range(0.8, 1.2);
  }
  for (int i = 0; i < NCAM * CAMP + NPT * 3; i++)
    if (i >= CAMP) theta[i] *= 1 + 0.01 * rng_normal(); /* camera 0 keeps its zero rotation */
}

int main(void) {
  int bad = 0;
  make_problem();
  printf("Bundle adjustment (ADBench BA objective), %d cameras, %d points, %d observations: gradient with "
         "respect to all %d parameters\n",
         NCAM, NPT, NOBS, NTHETA);
  double e = primal();
  parad_gradient();
  double eh = hand_gradient(), worst_hand, worst_fd[2], worst_cam[2];
  if (!(fabs(e - eh) <= 1e-12 * fabs(e))) {
    printf("FAIL objective %.17g, from the hand-written adjoint %.17g\n", e, eh);
    bad++;
  }
  bad += compare_gradients("BA", grad_parad, grad_hand, NTHETA, 1e-9, &worst_hand);
  bad += fd_check("BA", primal, theta, grad_parad, grad_hand, NTHETA, 10, 1e-6, worst_fd);
  /* Ten more in the cameras, which the random draw above mostly misses (they are 220 of 14220). */
  bad += fd_check("BA cameras", primal, theta, grad_parad, grad_hand, NCAM * CAMP, 10, 1e-6, worst_cam);
  for (int g = 0; g < 2; g++)
    if (worst_cam[g] > worst_fd[g]) worst_fd[g] = worst_cam[g];
  printf("  E = %.10g; parad vs hand-written: max relative difference %.2g; vs finite differences (10 + 10 "
         "components): %.2g (parad), %.2g (hand)\n",
         e, worst_hand, worst_fd[0], worst_fd[1]);

  parad_tape_reset_peak();
  parad_gradient();
  size_t tape = parad_tape_peak_bytes();
  double times[3];
  time_three((void (*[3])(void *)){run_primal, run_parad, run_hand}, times);
  double tp = times[0], tpar = times[1], th = times[2];
  char line[80];
  snprintf(line, sizeof line, "ba %dc %dp %do", NCAM, NPT, NOBS);

  /* The Jacobian workload: Parad against the hand-written rows (1e-9) and, where they are not tiny, the
   * finite differences (1e-6 of the largest entry of the row). */
  residuals();
  jacobian_parad();
  jacobian_hand();
  jacobian_fd();
  double worst_jac, worst_jfd = 0;
  bad += compare_gradients("BA Jacobian", jac_parad, jac_hand, NJAC, 1e-9, &worst_jac);
  for (int r = 0; r < 2 * NOBS; r++) {
    const double *p = jac_parad + (size_t)JROW * r, *f = jac_fd + (size_t)JROW * r;
    double scale = max_abs(p, JROW);
    for (int k = 0; k < JROW; k++)
      if (fabs(p[k] - f[k]) > worst_jfd * scale) worst_jfd = fabs(p[k] - f[k]) / scale;
  }
  if (!(worst_jfd <= 1e-6)) printf("FAIL BA Jacobian: against finite differences, relative %.3g\n", worst_jfd), bad++;
  double jt[3], tfd = seconds_per_call(run_jac_fd, NULL, 3, 0.2);
  time_three((void (*[3])(void *)){run_residuals, run_jac_parad, run_jac_hand}, jt);
  printf("  Jacobian of the %d residuals (2 x %d per observation): parad vs hand-written %.2g, vs finite "
         "differences %.2g (relative to each row's largest entry)\n", 2 * NOBS, JROW, worst_jac, worst_jfd);
  print_header();
  print_row(line, tp, tpar, th, tape);
  snprintf(line, sizeof line, "ba Jacobian %do", NOBS);
  print_row(line, jt[0], jt[1], jt[2], 0);
  print_kernel_line("ba", tp, tpar, th, (double)tape / NOBS); /* tape per observation */
  print_kernel_line("ba-jacobian", jt[0], jt[1], jt[2], -1);
  bad += compare_record("BA Jacobian 8000 obs", "parad", jt[0], jt[1], jac_parad, NJAC, 0);
  bad += compare_record("BA Jacobian 8000 obs", "hand", jt[0], jt[2], jac_hand, NJAC, 1e-9);
  bad += compare_record("BA Jacobian 8000 obs", "fd", jt[0], tfd, jac_fd, NJAC, 1e-3);
  printf("  checks: %s\n", bad ? "FAILED" : "ok (parad = hand-written to 1e-9; both = finite differences to 1e-6)");
  return bad != 0;
}
