// C++ references in differentiated code, both modes.
//  - polar_out(const double &r, const double &t, double &ox, double &oy): outputs by reference,
//    ox = r cos t, oy = r sin t; the reverse request seeds the shadows of ox and oy (0.3, -0.7):
//    dr = 0.3 cos t - 0.7 sin t, dt = -0.3 r sin t - 0.7 r cos t; forward tangents arrive in the shadows.
//  - constref(const double &a, const double &b) = a^2 b + sin(a b), const-reference parameters.
//  - energy(x): members returning references into an array (Grid::at, const and non-const), a free
//    function returning double & (pick), one returning const double & to the larger of two (larger), an
//    output parameter (square_into), and a struct with reference members (Spring):
//    g_i = c_i x_i (1 + 0.1 x_i), c_2 = 2, c_i = 1 otherwise;
//    E = sum_i 0.75 (g_{i+1} - g_i)^2 + max(g_0, g_4)^2.
// Gradients against the analytic ones (1e-12), which are checked against central finite differences
// (h = 1e-5, 1e-6); forward tangents against the analytic gradients (1e-12), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include "parad.h"
#include "check.h"

extern "C" void __parad_autodiff_v(void *, ...);
extern "C" void __parad_fwddiff_v(void *, ...);

enum { N = 5 };

static void polar_out(const double &r, const double &t, double &ox, double &oy) {
  ox = r * std::cos(t);
  oy = r * std::sin(t);
}

static double constref(const double &a, const double &b) { return a * a * b + std::sin(a * b); }

struct Grid {
  double v[N];
  double &at(int i) { return v[(i + N) % N]; }
  const double &at(int i) const { return v[(i + N) % N]; }
};

__attribute__((noinline)) static double &pick(double *a, int i) { return a[i]; }
__attribute__((noinline)) static const double &larger(const double &a, const double &b) { return a < b ? b : a; }
__attribute__((noinline)) static void square_into(const double &a, double &out) { out = a * a; }

struct Spring {
  const double &left, &right;
  double &total;
  double k;
  void apply() const {
    double d = right - left;
    total += 0.5 * k * d * d;
  }
};

static double energy(const double *x) {
  Grid g;
  for (int i = 0; i < N; i++) g.at(i) = x[i];
  for (int i = 0; i < N; i++) g.at(i) *= 1 + 0.1 * x[i];
  pick(g.v, 2) *= 2;
  const Grid &cg = g;
  double total = 0;
  for (int i = 0; i + 1 < N; i++) {
    Spring s{cg.at(i), cg.at(i + 1), total, 1.5};
    s.apply();
  }
  const double &m = larger(cg.at(0), cg.at(-1));
  double m2;
  square_into(m, m2);
  return total + m2;
}

int main() {
  /* outputs by reference */
  double r = 1.7, t = 0.4, ox = 0, oy = 0;
  double dr = 0, dt = 0, dox = 0.3, doy = -0.7;
  __parad_autodiff_v((void *)polar_out, &r, &dr, &t, &dt, &ox, &dox, &oy, &doy);
  CHECK_CLOSE(dr, 0.3 * std::cos(t) - 0.7 * std::sin(t), 1e-12);
  CHECK_CLOSE(dt, -0.3 * r * std::sin(t) - 0.7 * r * std::cos(t), 1e-12);
  CHECK_CLOSE(ox, r * std::cos(t), 1e-15);
  CHECK_CLOSE(oy, r * std::sin(t), 1e-15);
  {
    double tr = 0.5, tt = 2.0, tox = 0, toy = 0;
    ox = oy = 0;
    __parad_fwddiff_v((void *)polar_out, &r, &tr, &t, &tt, &ox, &tox, &oy, &toy);
    CHECK_CLOSE(tox, 0.5 * std::cos(t) - 2.0 * r * std::sin(t), 1e-12);
    CHECK_CLOSE(toy, 0.5 * std::sin(t) + 2.0 * r * std::cos(t), 1e-12);
    CHECK_CLOSE(ox, r * std::cos(t), 1e-15);
    /* the formula against finite differences along the same direction */
    double h = 1e-5, rp = r + 0.5 * h, tp = t + 2.0 * h, rm = r - 0.5 * h, tm = t - 2.0 * h, xp, yp, xm, ym;
    polar_out(rp, tp, xp, yp);
    polar_out(rm, tm, xm, ym);
    CHECK_CLOSE((xp - xm) / (2 * h), tox, 1e-6);
    CHECK_CLOSE((yp - ym) / (2 * h), toy, 1e-6);
  }

  /* const-reference parameters */
  double a = 0.8, b = -1.2, da = 0, db = 0;
  double wa = 2 * a * b + b * std::cos(a * b), wb = a * a + a * std::cos(a * b);
  __parad_autodiff((void *)constref, &a, &da, &b, &db);
  CHECK_CLOSE(da, wa, 1e-12);
  CHECK_CLOSE(db, wb, 1e-12);
  double ta = 1.0, tb = -3.0;
  CHECK_CLOSE(__parad_fwddiff((void *)constref, &a, &ta, &b, &tb), wa - 3.0 * wb, 1e-12);
  {
    double h = 1e-5, ap = a + h, am = a - h;
    CHECK_CLOSE((constref(ap, b) - constref(am, b)) / (2 * h), wa, 1e-6);
  }

  /* references returned into arrays, reference members */
  const double x[N] = {0.2, -0.5, 0.9, 0.1, 1.4};
  double g[N], dEdg[N] = {0}, want[N];
  for (int i = 0; i < N; i++) g[i] = (i == 2 ? 2 : 1) * x[i] * (1 + 0.1 * x[i]);
  for (int i = 0; i + 1 < N; i++) {
    double d = g[i + 1] - g[i];
    dEdg[i + 1] += 1.5 * d, dEdg[i] -= 1.5 * d;
  }
  int sel = g[0] < g[N - 1] ? N - 1 : 0;
  dEdg[sel] += 2 * g[sel];
  for (int i = 0; i < N; i++) want[i] = dEdg[i] * (i == 2 ? 2 : 1) * (1 + 0.2 * x[i]);
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-5;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((energy(xp) - energy(xm)) / (2 * h), want[i], 1e-6);
  }
  double dx[N] = {0};
  __parad_autodiff((void *)energy, x, dx);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)energy, x, v), want[i], 1e-12);
  }
  return check_done();
}
