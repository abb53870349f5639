// The visitor pattern built at -O0: Term::accept(Visitor &) calls v.visit(*this) through the visitor's
// table, the visitor holding the positions and the energy it adds up; the model (constant) holds the
// terms. At -O0 a function reached only through a pointer was differentiated as compiled: accept()
// keeps `this` (constant) in a stack slot and passes it on through another pointer, which stopped the
// gradient at run time ("needs a shadow for memory that has none"), and a virtual call's derivative ran
// unoptimised code (a loop of virtual calls 5 times its primal, against 0.3 through optimised copies).
// The functions a call through a pointer may reach are copied and optimised as the rest; the pointer is
// still compared with the original, and a copy that cannot be differentiated falls back to the original.
//   E = sum over bonds 0.5 k (x_j - x_i - 1)^2
// Gradient against the analytic one (1e-12) and central differences (h = 1e-6, 1e-7), tangents (1e-12),
// at -O0, -O0 -g and -O2.
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx -O0 -g -I%S/../include %s -o %tg && %tg
// RUN: %parad-cxx %cflags %s -o %t && %t
#include <cmath>
#include <memory>
#include <vector>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

struct Bond;
struct Visitor {
  virtual void visit(const Bond &) = 0;
};
struct Term {
  virtual ~Term() = default;
  virtual void accept(Visitor &v) const = 0;
};
struct Bond : Term {
  int i, j;
  double k;
  Bond(int i, int j, double k) : i(i), j(j), k(k) {}
  void accept(Visitor &v) const override { v.visit(*this); }
};
struct EnergyVisitor : Visitor {
  const double *x;
  double E = 0;
  explicit EnergyVisitor(const double *x) : x(x) {}
  void visit(const Bond &b) override {
    double d = x[b.j] - x[b.i] - 1.0;
    E += 0.5 * b.k * d * d;
  }
};
struct Model {
  std::vector<std::unique_ptr<Term>> terms;
};

double energy(const double *x, const Model *m) {
  EnergyVisitor v(x);
  for (const auto &t : m->terms) t->accept(v);
  return v.E;
}

enum { N = 6 };
static Model model;
static double energy_at(const double *x) { return energy(x, &model); }

int main() {
  for (int i = 0; i + 1 < N; ++i) model.terms.push_back(std::make_unique<Bond>(i, i + 1, 2.0 + i));
  double x[N], g[N] = {0}, v[N] = {0};
  for (int i = 0; i < N; ++i) x[i] = 1.1 * i + 0.1 * std::sin(i);
  __parad_autodiff((void *)energy, x, g, parad_const, &model);
  for (int i = 0; i < N; ++i) {
    double want = 0; /* bond (i-1, i) and bond (i, i+1) */
    if (i > 0) want += (2.0 + i - 1) * (x[i] - x[i - 1] - 1);
    if (i + 1 < N) want -= (2.0 + i) * (x[i + 1] - x[i] - 1);
    CHECK_CLOSE(g[i], want, 1e-12);
    CHECK_CLOSE(g[i], fd_component(energy_at, x, N, i, 1e-6), 1e-7);
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)energy, x, v, parad_const, &model), g[i], 1e-12);
    v[i] = 0;
  }
  return check_done();
}
