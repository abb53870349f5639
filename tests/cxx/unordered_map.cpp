// std::unordered_map with active values, both modes: integer keys (a histogram of x_i^2 into buckets
// i mod 5, grown past several rehashes by 40 more keys of their own; a second map read with find),
// erase and iteration. libstdc++'s policy for the bucket count (its _M_need_rehash, out of Parad's sight,
// takes the table, which holds active data) moves no derivative: known as such (it was refused as a call
// with an active argument). Not yet: std::string keys (std::string's members live in libstdc++).
//   f(x) = sum_{b<5} (b + 1) h_b + sum_{k<40} k e_k + 3 s_a s_b, with h_b = sum_{i = b mod 5} x_i^2,
//   e_k = x_{k mod N} / 10, s_a = x_0 + x_1, s_b = sin x_2 (bucket 4 erased before the sum).
// Gradient and tangents along each unit direction against the analytic derivative (1e-12), -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <unordered_map>
#include "check.h"

extern "C" {
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
}

enum { N = 8 };

static double f(const double *x) {
  std::unordered_map<int, double> h;
  for (int i = 0; i < N; i++) h[i % 5] += x[i] * x[i];
  for (int k = 0; k < 40; k++) h[100 + k] = x[k % N] / 10;
  h.erase(4);
  double e = 0;
  for (auto &kv : h) e += kv.first < 100 ? (kv.first + 1) * kv.second : (kv.first - 100) * kv.second;
  std::unordered_map<long, double> named;
  named[17] = x[0] + x[1];
  named[-3] = std::sin(x[2]);
  auto a = named.find(17), b = named.find(-3);
  if (a != named.end() && b != named.end()) e += 3 * a->second * b->second;
  return e;
}

int main() {
  double x[N], g[N] = {0}, want[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.25 + 0.1 * i;
  for (int i = 0; i < N; i++) want[i] = i % 5 == 4 ? 0 : 2 * x[i] * (i % 5 + 1);
  for (int k = 0; k < 40; k++) want[k % N] += k / 10.0;
  want[0] += 3 * std::sin(x[2]), want[1] += 3 * std::sin(x[2]), want[2] += 3 * (x[0] + x[1]) * std::cos(x[2]);
  __parad_autodiff((void *)f, x, g);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(g[i], want[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[i], 1e-12);
  }
  return check_done();
}
