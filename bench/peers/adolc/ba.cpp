/* ADOL-C peer of bench/ba.c's Jacobian workload: for every observation i of ADBench's BA problem (the
 * inputs made exactly as in ba.c), the 2 x 15 Jacobian of the reprojection residual r_i = w_i (proj_i - u_i)
 * with respect to (the 11 parameters of camera cam_idx[i], the 3 coordinates of point pt_idx[i], w_i), into
 * J[30 i + 15 row + col].
 *
 * The residual of one observation is one template over the scalar type: with double it is the primal
 * (all 8000 residuals) that is timed, with adouble it records ADOL-C's tape of one observation: 17
 * independents (the 15, then the feature u_i, so that one tape serves every observation) and 2 dependents.
 * Each block is one fov_forward sweep with 15 directions (the identity, none on u_i): about 24 ms for all
 * blocks here, against about 40 ms for the jacobian() driver (a zero-order forward sweep, then a reverse
 * sweep with both rows as weights) with u_i as a set_param_vec parameter instead, and about 32 ms for the
 * same with u_i as an input: ADOL-C's fastest standard way here. Rodrigues' formula branches on r = 0
 * and camera 0 has r = 0: two tapes, one per branch, each recorded once (the taping time is both), and
 * each observation uses the one its camera's branch takes. Checks fifteen entries against central finite
 * differences (relative 1e-6); exits non-zero on a failure. Reports through compare.h when
 * PARAD_COMPARE_DIR is set. */
#include "adolc_peer.h"

enum { NCAM = 20, NPT = 2000, NOBS = 8000, CAMP = 11, NIN = CAMP + 3 + 1, NJAC = 2 * NIN * NOBS };

/* Rotates x by the angle-axis vector r: Rodrigues' formula, or its first order at r = 0. */
template <class T> static void rodrigues_rotate(const T *r, const T *x, T *out) {
  T sq = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  if (val(sq) != 0) {
    T th = sqrt(sq), c = cos(th), s = sin(th), inv = 1 / th;
    T w0 = r[0] * inv, w1 = r[1] * inv, w2 = r[2] * inv;
    T a0 = w1 * x[2] - w2 * x[1], a1 = w2 * x[0] - w0 * x[2], a2 = w0 * x[1] - w1 * x[0];
    T t = (w0 * x[0] + w1 * x[1] + w2 * x[2]) * (1 - c);
    out[0] = x[0] * c + a0 * s + w0 * t;
    out[1] = x[1] * c + a1 * s + w1 * t;
    out[2] = x[2] * c + a2 * s + w2 * t;
  } else {
    out[0] = x[0] + r[1] * x[2] - r[2] * x[1];
    out[1] = x[1] + r[2] * x[0] - r[0] * x[2];
    out[2] = x[2] + r[0] * x[1] - r[1] * x[0];
  }
}

template <class T> static void project(const T *cam, const T *X, T *proj) {
  T xm[3], y[3];
  for (int j = 0; j < 3; j++) xm[j] = X[j] - cam[3 + j];
  rodrigues_rotate(cam, xm, y);
  T p0 = y[0] / y[2], p1 = y[1] / y[2];
  T s = p0 * p0 + p1 * p1, l = 1 + cam[9] * s + cam[10] * s * s;
  proj[0] = p0 * l * cam[6] + cam[7];
  proj[1] = p1 * l * cam[6] + cam[8];
}

template <class T> static void residual(const T *cam, const T *X, const T &w, const T *feat, T *r) {
  T proj[2];
  project(cam, X, proj);
  r[0] = w * (proj[0] - feat[0]);
  r[1] = w * (proj[1] - feat[1]);
}

/* The problem, laid out as in ba.c. */
static double theta[NCAM * CAMP + NPT * 3 + NOBS], feats[2 * NOBS], resid[2 * NOBS], jac[NJAC];
static int cam_idx[NOBS], pt_idx[NOBS];
#define CAMS(v) (v)
#define PTS(v) ((v) + NCAM * CAMP)
#define WTS(v) ((v) + NCAM * CAMP + NPT * 3)
static volatile double sink;

/* ba.c's make_problem. */
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

/* Observation i's inputs: the 15 in the Jacobian's column order, then the feature. */
static void gather(int i, double *in) {
  for (int k = 0; k < CAMP; k++) in[k] = CAMS(theta)[CAMP * cam_idx[i] + k];
  for (int k = 0; k < 3; k++) in[CAMP + k] = PTS(theta)[3 * pt_idx[i] + k];
  in[CAMP + 3] = WTS(theta)[i];
  in[NIN] = feats[2 * i], in[NIN + 1] = feats[2 * i + 1];
}
static int rotated(int i) {
  const double *r = CAMS(theta) + CAMP * cam_idx[i];
  return r[0] * r[0] + r[1] * r[1] + r[2] * r[2] != 0;
}
static short tape_of(int i) { return rotated(i) ? 1 : 2; }

/* Tape `tag` on observation i's inputs. */
static void record(short tag, int i) {
  double in[NIN + 2], out[2];
  gather(i, in);
  tape_on(tag, 1000);
  {
    adouble a[NIN + 2], r[2];
    for (int k = 0; k < NIN + 2; k++) a[k] <<= in[k];
    residual(a, a + CAMP, a[CAMP + 3], a + NIN, r);
    r[0] >>= out[0], r[1] >>= out[1];
  }
  trace_off();
}

static void residuals(void *) {
  for (int i = 0; i < NOBS; i++) {
    const double *cam = CAMS(theta) + CAMP * cam_idx[i], *X = PTS(theta) + 3 * pt_idx[i];
    residual(cam, X, WTS(theta)[i], feats + 2 * i, resid + 2 * i);
  }
  sink = resid[0];
}

static double **seed; /* (NIN + 2) x NIN: the identity, then zeros for the feature */
static int jacobians(void) {
  int rc = 0;
  for (int i = 0; i < NOBS; i++) {
    double in[NIN + 2], r[2], *rows[2] = {jac + 2 * NIN * i, jac + 2 * NIN * i + NIN};
    gather(i, in);
    if (fov_forward(tape_of(i), 2, NIN + 2, NIN, in, seed, r, rows) < 0) rc = -1;
  }
  return rc;
}
static void run_jacobians(void *) { jacobians(), sink = jac[0]; }

/* Entry (i, row, col) by a fourth-order central difference of the double residual. */
static double fd_entry(int i, int row, int col) {
  double in[NIN + 2], v[4], r[2];
  static const double off[4] = {1, -1, 2, -2};
  gather(i, in);
  double x = in[col], h = 1e-3 * (fabs(x) > 1 ? fabs(x) : 1);
  for (int q = 0; q < 4; q++) {
    in[col] = x + off[q] * h;
    residual(in, in + CAMP, in[CAMP + 3], in + NIN, r);
    v[q] = r[row];
  }
  return (8 * (v[0] - v[1]) - (v[2] - v[3])) / (12 * h);
}

int main(void) {
  int bad = 0;
  const char *name = "BA Jacobian 8000 obs";
  make_problem();
  printf("ADOL-C: BA residual Jacobians (2 x %d per observation, %d observations) by vector forward "
         "mode, one tape per Rodrigues branch, reused\n", NIN, NOBS);
  int first[2] = {-1, -1}; /* the first observation taking each branch */
  for (int i = NOBS - 1; i >= 0; i--) first[tape_of(i) - 1] = i;

  seed = myalloc2(NIN + 2, NIN);
  for (int a = 0; a < NIN + 2; a++)
    for (int b = 0; b < NIN; b++) seed[a][b] = a == b;
  double t0 = now_seconds();
  for (short tag = 1; tag <= 2; tag++)
    if (first[tag - 1] >= 0) record(tag, first[tag - 1]);
  double t_tape = now_seconds() - t0, bytes[2] = {0, 0};
  size_t ops[2] = {0, 0};
  for (short tag = 1; tag <= 2; tag++)
    if (first[tag - 1] >= 0) ops[tag - 1] = tape_ops(tag, &bytes[tag - 1], &bad);

  if (jacobians() < 0) printf("FAIL %s: fov_forward() failed\n", name), bad++;
  /* ten random entries, and five in observations of the unrotated camera (the other tape) */
  double worst = 0;
  for (int c = 0; c < 15; c++) {
    int i = rng_int(NOBS), row = rng_int(2), col = rng_int(NIN);
    while (c >= 10 && first[1] >= 0 && rotated(i)) i = rng_int(NOBS);
    const double *jr = jac + 2 * NIN * i + NIN * row;
    double fd = fd_entry(i, row, col), scale = fmax(fabs(jr[col]), 1e-3 * max_abs(jr, NIN));
    double rel = fabs(fd - jr[col]) / scale;
    if (!(rel <= 1e-6))
      printf("FAIL %s: J[%d][%d][%d] = %.17g, finite differences %.17g (relative %.3g)\n", name, i, row, col,
             jr[col], fd, rel), bad++;
    if (rel > worst) worst = rel;
  }

  double tp = time_call(residuals, NULL), tj = time_call(run_jacobians, NULL);
  check_no_files(1, &bad), check_no_files(2, &bad);
  bad += compare_record(name, "adolc", tp, tj, jac, NJAC, 1e-8);
  print_case(name, "Jacobian", tp, t_tape, tj, ops[0] + ops[1], bytes[0] + bytes[1]);
  printf("    tapes of %zu (r != 0) and %zu (r = 0) operations; vs finite differences (15 entries): %.2g\n", ops[0],
         ops[1], worst);
  printf("  checks: %s\n", bad ? "FAILED" : "ok (finite differences to 1e-6)");
  myfree2(seed);
  return bad != 0;
}
