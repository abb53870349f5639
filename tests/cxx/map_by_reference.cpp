// A std::map<int, double> the caller passes by reference with a shadow map of the same keys (enzyme_dup),
// read and modified inside: the shadow map's values are the adjoints (reverse mode) or tangents (forward
// mode) of the map's. With m = {k: v_k} for k = 0..5 and y active:
//   m[2] *= y (present key), m[7] = y^2 (a new key: the derivative makes a shadow node beside it and links
//   it into the caller's shadow map by the mirrored insert), m.erase(3) (its shadow node unlinked and
//   freed), then E = sum over m of (key + 1) v^2 (iterated with _Rb_tree_increment on both maps).
//   dE/dv_k = 2 (k + 1) v_k (k != 2, 3), dE/dv_2 = 2 * 3 v_2 y^2, dE/dv_3 = 0,
//   dE/dy = 2 * 3 v_2^2 y + 8 * 2 y^2 * 2 y = 6 v_2^2 y + 32 y^3.
// The shadow map keeps the map's shape (its links are rewritten by the same library calls), not its
// integers: the key and the count the program stores are not derivatives, so a shadow node the derivative
// adds holds key 0 and the shadow map's size is not kept. The caller reads the shadow map alongside the
// map, iterator by iterator, not by key. Gradient against the
// analytic one (1e-12) and against central finite differences (h = 1e-6, 1e-7); tangents along v_2 and
// along y. At -O2 and -O0, under valgrind: the shadow nodes the derivative adds are made with operator
// new, as the program's, which its delete frees.
// RUN: %parad-cxx %cflags %s -o %t && %t && valgrind -q --error-exitcode=9 %t > /dev/null
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0 && valgrind -q --error-exitcode=9 %t0 > /dev/null
#include <cmath>
#include <iterator>
#include <map>
#include "parad.h"
#include "check.h"

static double energy(std::map<int, double> &m, double y) {
  m[2] *= y;
  m[7] = y * y;
  m.erase(3);
  double e = 0;
  for (auto &kv : m) e += (kv.first + 1) * kv.second * kv.second;
  return e;
}

static std::map<int, double> start(double shift) {
  std::map<int, double> m;
  for (int k = 0; k < 6; k++) m[k] = 0.5 + 0.25 * k + shift;
  return m;
}

static double energy_at(std::map<int, double> m, double y) { return energy(m, y); }

/* The shadow of m's element with key k: at the same place in the shadow map's order. */
static double shadow_of(const std::map<int, double> &m, const std::map<int, double> &dm, int k) {
  auto d = dm.begin();
  for (auto it = m.begin(); it != m.end(); ++it, ++d)
    if (it->first == k) return d->second;
  return NAN;
}

int main() {
  const double y = 1.3;
  std::map<int, double> m = start(0), dm;
  for (int k = 0; k < 6; k++) dm[k] = 0;
  double dy = __enzyme_autodiff<double>((void *)energy, enzyme_dup, &m, &dm, enzyme_out, y);
  std::map<int, double> m0 = start(0);
  CHECK_CLOSE((double)dm.count(3), 0.0, 0); /* key 3's shadow node unlinked with it */
  CHECK_CLOSE((double)std::distance(dm.begin(), dm.end()), 6.0, 0); /* and key 7's added */
  for (int k : {0, 1, 2, 4, 5}) {
    double want = k == 2 ? 6 * m0[2] * y * y : 2 * (k + 1) * m0[k];
    CHECK_CLOSE(shadow_of(m, dm, k), want, 1e-12);
    double h = 1e-6;
    std::map<int, double> p = start(0), q = start(0);
    p[k] += h, q[k] -= h;
    CHECK_CLOSE(shadow_of(m, dm, k), (energy_at(p, y) - energy_at(q, y)) / (2 * h), 1e-7);
  }
  CHECK_CLOSE(shadow_of(m, dm, 7), 0.0, 0); /* m[7]'s adjoint went on to y */
  double want_y = 6 * m0[2] * m0[2] * y + 32 * y * y * y;
  CHECK_CLOSE(dy, want_y, 1e-12);
  CHECK_CLOSE(dy, (energy_at(start(0), y + 1e-6) - energy_at(start(0), y - 1e-6)) / 2e-6, 1e-7);

  /* forward mode: the tangent map holds v_2's direction, y's tangent 0; then y's alone */
  std::map<int, double> a = start(0), ta;
  for (int k = 0; k < 6; k++) ta[k] = k == 2;
  CHECK_CLOSE(__enzyme_fwddiff<double>((void *)energy, enzyme_dup, &a, &ta, enzyme_dup, y, 0.0), 6 * m0[2] * y * y, 1e-12);
  CHECK_CLOSE(shadow_of(a, ta, 2), y, 1e-12); /* the tangent of m[2] = v_2 y along v_2 */
  CHECK_CLOSE(shadow_of(a, ta, 7), 0.0, 0);
  std::map<int, double> b = start(0), tb;
  for (int k = 0; k < 6; k++) tb[k] = 0;
  CHECK_CLOSE(__enzyme_fwddiff<double>((void *)energy, enzyme_dup, &b, &tb, enzyme_dup, y, 1.0), want_y, 1e-12);
  CHECK_CLOSE(shadow_of(b, tb, 7), 2 * y, 1e-12);
  CHECK_CLOSE(shadow_of(b, tb, 2), m0[2], 1e-12);
  return check_done();
}
