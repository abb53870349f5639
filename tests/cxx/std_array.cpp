// std::array in differentiated code, both modes: a nested std::array<std::array<double, 3>, 4> of rows
// r_k = (x_{3k}, x_{3k+1}, x_{3k+2}) filled from the input, helpers taking std::array<double, 3> by value
// and by const reference and returning one by value (cross, scaled), an in-place update through a
// reference (add_to), range-for over the rows, and a struct with std::array members (Frame). The entry
// point takes the whole input as const std::array<double, 12> &.
//   E = r2 . (r0 x r1) + 0.5 sum_k |r_k|^2 + 0.5 |sum_k r_k|^2 + x0 (r3 . r1) + s1 |o|^2,
// with o = r3 copied into Frame::origin and s1 = Frame::scale[1] = 1.5.
// Gradient against the analytic one (1e-12), itself checked against central finite differences
// (h = 1e-5, 1e-6); forward tangents against the analytic gradient along every unit direction and a mixed
// one (1e-12), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <array>
#include <cmath>
#include "parad.h"
#include "check.h"

using Vec3 = std::array<double, 3>;
using Rows = std::array<std::array<double, 3>, 4>;
using Input = std::array<double, 12>;
enum { N = 12 };

struct Frame {
  Vec3 origin;
  std::array<double, 2> scale;
};

static Vec3 cross(const Vec3 &a, const Vec3 &b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

__attribute__((noinline)) static double dot(Vec3 a, Vec3 b) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += a[i] * b[i];
  return s;
}

static Vec3 scaled(Vec3 v, double s) {
  for (double &e : v) e *= s;
  return v;
}

__attribute__((noinline)) static void add_to(Vec3 &acc, const Vec3 &v) {
  for (int i = 0; i < 3; i++) acc[i] += v[i];
}

static double energy(const Input &x) {
  Rows m;
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 3; c++) m[r][c] = x[3 * r + c];
  Frame f{m[3], {0.5, 1.5}};
  double e = dot(m[2], cross(m[0], m[1]));
  Vec3 sum{};
  for (const auto &row : m) {
    e += f.scale[0] * dot(row, row);
    add_to(sum, row);
  }
  e += 0.5 * dot(sum, sum);
  e += dot(scaled(f.origin, x[0]), m[1]);
  e += f.scale[1] * dot(f.origin, f.origin);
  return e;
}

static Vec3 row(const Input &x, int k) { return {x[3 * k], x[3 * k + 1], x[3 * k + 2]}; }

int main() {
  Input x;
  for (int i = 0; i < N; i++) x[i] = 0.3 * std::sin(1.7 * i + 0.2) + 0.1 * i;
  /* analytic gradient, per row */
  Vec3 r[4] = {row(x, 0), row(x, 1), row(x, 2), row(x, 3)}, g[4], sum{};
  for (int k = 0; k < 4; k++) add_to(sum, r[k]);
  g[0] = cross(r[1], r[2]), g[1] = cross(r[2], r[0]), g[2] = cross(r[0], r[1]), g[3] = Vec3{0, 0, 0};
  for (int k = 0; k < 4; k++)
    for (int c = 0; c < 3; c++) g[k][c] += r[k][c] + sum[c];
  for (int c = 0; c < 3; c++) g[3][c] += x[0] * r[1][c] + 3.0 * r[3][c], g[1][c] += x[0] * r[3][c];
  g[0][0] += dot(r[3], r[1]);
  double want[N];
  for (int i = 0; i < N; i++) want[i] = g[i / 3][i % 3];
  for (int i = 0; i < N; i++) {
    Input xp = x, xm = x;
    double h = 1e-5;
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((energy(xp) - energy(xm)) / (2 * h), want[i], 1e-6);
  }
  Input dx{};
  __parad_autodiff((void *)energy, &x, &dx);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  Input mix{};
  double want_mix = 0;
  for (int i = 0; i < N; i++) {
    Input v{};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)energy, &x, &v), want[i], 1e-12);
    mix[i] = 1.0 - 0.15 * i, want_mix += mix[i] * want[i];
  }
  CHECK_CLOSE(__parad_fwddiff((void *)energy, &x, &mix), want_mix, 1e-12);
  return check_done();
}
