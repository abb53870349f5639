// Operator overloading and value types: a Vec3 with +, -, * (scalar), dot and cross as operators and
// friends, passed by const reference and returned by value, particles as std::vector<Vec3> (AoS) walked by
// range-for and by index; E = sum_i |v_i x v_{i+1}|^2 + sum_i (v_i . c)^3, c a constant vector. Gradient
// against the analytic one (1e-12) and tangents against the gradient (1e-12), at -O2 and -O0 (the vector of
// particles built outside the differentiated code at -O0).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

struct Vec3 {
  double x, y, z;
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  Vec3 &operator+=(const Vec3 &o) {
    x += o.x, y += o.y, z += o.z;
    return *this;
  }
};
static double dot(const Vec3 &a, const Vec3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static Vec3 cross(const Vec3 &a, const Vec3 &b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

enum { N = 5 };

static double energy(const std::vector<Vec3> *ps) {
  const std::vector<Vec3> &p = *ps;
  const Vec3 c{0.3, -0.2, 0.5};
  double e = 0;
  for (size_t i = 0; i + 1 < p.size(); i++) {
    Vec3 w = cross(p[i], p[i + 1]);
    e += dot(w, w);
  }
  for (const Vec3 &v : p) {
    double d = dot(v, c);
    e += d * d * d;
  }
  return e;
}

int main() {
  std::vector<Vec3> p(N), dp(N, Vec3{0, 0, 0});
  for (int i = 0; i < N; i++) p[i] = Vec3{0.1 * i + 0.2, 0.3 - 0.05 * i, 0.1 * i * i - 0.4};
  __parad_autodiff((void *)energy, &p, &dp);
  /* analytic: d|a x b|^2/da = 2 (b x (a x b)), d/db = 2 ((a x b) x a); d(v.c)^3/dv = 3 (v.c)^2 c */
  std::vector<Vec3> want(N, Vec3{0, 0, 0});
  const Vec3 c{0.3, -0.2, 0.5};
  for (int i = 0; i + 1 < N; i++) {
    Vec3 w = cross(p[i], p[i + 1]);
    want[i] += cross(p[i + 1], w) * 2.0, want[i + 1] += cross(w, p[i]) * 2.0;
  }
  for (int i = 0; i < N; i++) want[i] += c * (3 * dot(p[i], c) * dot(p[i], c));
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dp[i].x, want[i].x, 1e-12);
    CHECK_CLOSE(dp[i].y, want[i].y, 1e-12);
    CHECK_CLOSE(dp[i].z, want[i].z, 1e-12);
  }
  for (int i = 0; i < N; i++) {
    std::vector<Vec3> t(N, Vec3{0, 0, 0});
    t[i] = Vec3{1, 0, 0};
    CHECK_CLOSE(__parad_fwddiff((void *)energy, &p, &t), want[i].x, 1e-12);
  }
  return check_done();
}
