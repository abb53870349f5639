/* fdtd2d: T steps of the 2-D finite-difference time-domain method (Yee's scheme, TE mode) on an nx x ny
 * grid: a source row ey[0][*] = fict[t], then ey and ex updated from hz, then hz from the new ex and ey,
 * in place, each loop parallel over rows. J(ex0, ey0, hz0, fict) = sum w (ex^2 + ey^2 + hz^2) at the end.
 * Hand-written adjoint: each update is linear and in place (a field minus a difference of another), so the
 * reverse step takes the adjoints of hz's update into ex's and ey's, then those of ex's and ey's updates
 * into hz's, and ey's source row into fict[t]; each written as a gather over rows, as the primal. */
#include "kernel.h"

enum { NX = 700, NY = 700, T = 50 };
#define F ((size_t)NX * NY)
static double *w, *work, *dwork, *gex, *gey, *ghz;

/* work: ex, ey, hz */
static double fdtd2d(const double *restrict ex0, const double *restrict ey0, const double *restrict hz0,
                     const double *restrict fict, double *restrict work,
                     const double *restrict w) {
  double *ex = work, *ey = work + F, *hz = work + 2 * F;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < NX * NY; i++) ex[i] = ex0[i], ey[i] = ey0[i], hz[i] = hz0[i];
  for (int t = 0; t < T; t++) {
    for (int j = 0; j < NY; j++) ey[j] = fict[t];
#pragma omp parallel for schedule(static)
    for (int i = 1; i < NX; i++)
      for (int j = 0; j < NY; j++)
        ey[(size_t)i * NY + j] -= 0.5 * (hz[(size_t)i * NY + j] - hz[(size_t)(i - 1) * NY + j]);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < NX; i++)
      for (int j = 1; j < NY; j++)
        ex[(size_t)i * NY + j] -= 0.5 * (hz[(size_t)i * NY + j] - hz[(size_t)i * NY + j - 1]);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < NX - 1; i++)
      for (int j = 0; j < NY - 1; j++) {
        size_t c = (size_t)i * NY + j;
        hz[c] -= 0.7 * (ex[c + 1] - ex[c] + ey[c + NY] - ey[c]);
      }
  }
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 0; i < NX * NY; i++) J += w[i] * (ex[i] * ex[i] + ey[i] * ey[i] + hz[i] * hz[i]);
  return J;
}

#define EX(v) (v)
#define EY(v) ((v) + F)
#define HZ(v) ((v) + 2 * F)
#define FICT(v) ((v) + 3 * F)

static double primal(const double *x) { return fdtd2d(EX(x), EY(x), HZ(x), FICT(x), work, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(dwork, sizeof(double) * 3 * F);
  __parad_autodiff((void *)fdtd2d, EX(x), EX(g), EY(x), EY(g), HZ(x), HZ(g), FICT(x), FICT(g), work, dwork, parad_const,
                   w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)fdtd2d, EX(x), EX(v), EY(x), EY(v), HZ(x), HZ(v), FICT(x), FICT(v), work, dwork,
                         parad_const, w);
}

/* Every loop is a gather over rows, the primal's edges handled with row factors (0 or 1) and the
 * first and last columns apart, so that the rows' loops vectorise as the primal's do. */
static double hand(const double *x, double *g) {
  double J = primal(x);
  const double *ex = work, *ey = work + F, *hz = work + 2 * F;
  double *gfict = FICT(g);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < NX * NY; i++) gex[i] = 2 * w[i] * ex[i], gey[i] = 2 * w[i] * ey[i], ghz[i] = 2 * w[i] * hz[i];
  for (int t = T - 1; t >= 0; t--) {
    /* hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j]) for i < nx-1, j < ny-1 */
#pragma omp parallel for schedule(static)
    for (int i = 0; i < NX; i++) {
      const double *h = ghz + (size_t)i * NY, *up = i ? h - NY : h;
      double *gx = gex + (size_t)i * NY, *gy = gey + (size_t)i * NY;
      double own = i < NX - 1, above = i >= 1; /* rows i and i-1 of hz were updated */
      gx[0] += 0.7 * own * h[0];
      for (int j = 1; j < NY - 1; j++) gx[j] += 0.7 * own * (h[j] - h[j - 1]);
      gx[NY - 1] -= 0.7 * own * h[NY - 2];
      for (int j = 0; j < NY - 1; j++) gy[j] += 0.7 * (own * h[j] - above * up[j]);
    }
    /* ey[0][*] = fict[t] */
    double s = 0;
    for (int j = 0; j < NY; j++) s += gey[j], gey[j] = 0;
    gfict[t] = s;
    /* ex[i][j] -= 0.5 (hz[i][j] - hz[i][j-1]) for j >= 1, ey[i][j] -= 0.5 (hz[i][j] - hz[i-1][j]) for i >= 1
     * (gey's row 0 is zero now) */
#pragma omp parallel for schedule(static)
    for (int i = 0; i < NX; i++) {
      const double *gx = gex + (size_t)i * NY, *gy = gey + (size_t)i * NY, *below = i < NX - 1 ? gy + NY : gy;
      double *h = ghz + (size_t)i * NY, next = i < NX - 1;
      h[0] += 0.5 * (gx[1] + next * below[0] - gy[0]);
      for (int j = 1; j < NY - 1; j++) h[j] += 0.5 * (gx[j + 1] - gx[j] + next * below[j] - gy[j]);
      h[NY - 1] += 0.5 * (-gx[NY - 1] + next * below[NY - 1] - gy[NY - 1]);
    }
  }
  memcpy(EX(g), gex, sizeof(double) * F), memcpy(EY(g), gey, sizeof(double) * F),
      memcpy(HZ(g), ghz, sizeof(double) * F);
  return J;
}

static void init(double *x) {
  w = malloc(sizeof(double) * F), work = malloc(sizeof(double) * 3 * F), dwork = malloc(sizeof(double) * 3 * F);
  gex = malloc(sizeof(double) * F), gey = malloc(sizeof(double) * F), ghz = malloc(sizeof(double) * F);
  rng_seed(12);
  for (size_t i = 0; i < 3 * F; i++) x[i] = rng_range(-1, 1);
  for (int t = 0; t < T; t++) FICT(x)[t] = t;
  for (size_t i = 0; i < F; i++) w[i] = rng_uniform();
}

int main(void) {
  static const Kernel k = {.name = "fdtd2d",
                           .title = "2-D FDTD (ex, ey, hz), 700 x 700 grid, 50 steps, J = sum w |fields|^2",
                           .parallel = 1,
                           .n = (long)(3 * F + T),
                           .iterations = 3.0 * F * T,
                           .iteration = "cell-step of one field",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
