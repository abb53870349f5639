// Strings beside values with derivatives: std::string's members live in libstdc++ (at -O0 nearly all of
// them; at -O2 those not inlined), and they carry no derivative, whatever struct the string is in.
//   energy     std::vector<Param> of {std::string name, double value}, given with a shadow vector; the
//              weight of each value depends on its name's length: E = sum_i w(name_i) v_i^2
//   copied     a Param copied inside (name and value), its copy's value used: E = sum_i w_i (2 v_i)^2 / 4 + v_0
//   by_name    a std::map<std::string, double> built inside from x, read back by name: E = m["a"] m["bb"] + m["ccc"]^2
// Each in reverse and forward mode, against the analytic derivative (1e-12) and central finite differences
// (h = 1e-6, 1e-6). At -O0 all three (there the string members were refused before: "cannot differentiate
// a call to basic_string::size()"); at -O2 energy and by_name: the copy of a string inlined at -O2 stores
// the pointer libstdc++'s _M_create returns, and the characters, into the struct with derivatives, and is
// still refused (a clean diagnostic). The map keyed by strings was refused at -O1 and up, with a message
// about floats moved as integer bits in basic_string::compare (the keys' common length, umin of the two
// sizes read from the map's nodes, which hold the doubles too).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx -O1 -I%S/../include %s -o %t1 && %t1
#include <map>
#include <string>
#include <vector>
#include "parad.h"
#include "check.h"

struct Param {
  std::string name;
  double value;
};

static double weight(const std::string &s) { return s.size() > 3 ? 2.0 : 1.0; }

static double energy(std::vector<Param> &ps) {
  double e = 0;
  for (auto &p : ps) e += weight(p.name) * p.value * p.value;
  return e;
}

static double copied(std::vector<Param> &ps) {
  double e = 0;
  for (auto &p : ps) {
    Param q = p;
    q.value *= 2;
    e += weight(q.name) * q.value * q.value / 4;
  }
  Param first = ps[0];
  return e + first.value;
}

static double by_name(const double *x) {
  std::map<std::string, double> m;
  m["a"] = x[0];
  m["bb"] = x[1] * 2;
  m["ccc"] = x[0] + x[2];
  return m["a"] * m["bb"] + m["ccc"] * m["ccc"];
}

static std::vector<Param> params() { return {{"alpha", 1.5}, {"b", -2.0}, {"gamma", 0.5}}; }

typedef double (*Fn)(std::vector<Param> &);

static void check_params(Fn f, double extra0) {
  std::vector<Param> ps = params(), dps = params();
  for (auto &d : dps) d.value = 0;
  __enzyme_autodiff<void>((void *)f, enzyme_dup, &ps, &dps);
  for (int i = 0; i < 3; i++) {
    Param p = params()[i];
    double want = 2 * weight(p.name) * p.value + (i == 0 ? extra0 : 0);
    CHECK_CLOSE(dps[i].value, want, 1e-12);
    CHECK_CLOSE(dps[i].name == p.name, 1, 0); /* the shadow's strings as the caller made them */
    std::vector<Param> a = params(), b = params();
    a[i].value += 1e-6, b[i].value -= 1e-6;
    CHECK_CLOSE((f(a) - f(b)) / 2e-6, want, 1e-6);
    std::vector<Param> t = params(), dt = params();
    for (int k = 0; k < 3; k++) dt[k].value = k == i;
    CHECK_CLOSE(__enzyme_fwddiff<double>((void *)f, enzyme_dup, &t, &dt), want, 1e-12);
  }
}

int main() {
  check_params(energy, 0);
#ifndef __OPTIMIZE__
  check_params(copied, 1);
#endif
  double x[3] = {0.5, -1.25, 2.0}, dx[3] = {0, 0, 0};
  __enzyme_autodiff<void>((void *)by_name, enzyme_dup, x, dx);
  double want[3] = {2 * x[1] + 2 * (x[0] + x[2]), 2 * x[0], 2 * (x[0] + x[2])};
  for (int i = 0; i < 3; i++) {
    CHECK_CLOSE(dx[i], want[i], 1e-12);
    double a[3] = {x[0], x[1], x[2]}, b[3] = {x[0], x[1], x[2]}, t[3] = {0, 0, 0};
    a[i] += 1e-6, b[i] -= 1e-6, t[i] = 1;
    CHECK_CLOSE((by_name(a) - by_name(b)) / 2e-6, want[i], 1e-6);
    CHECK_CLOSE(__enzyme_fwddiff<double>((void *)by_name, enzyme_dup, x, t), want[i], 1e-12);
  }
  return check_done();
}
