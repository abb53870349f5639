// A class hierarchy with virtual calls, both modes: an abstract base Term with a pure virtual energy(),
// a virtual penalty() with a base definition, and a virtual destructor; three derived classes (Spring,
// Torsion, Wall), Wall's penalty() override calling Base::penalty (Term::penalty) explicitly. The terms
// live in a std::vector<std::unique_ptr<Term>> made by the caller (constant), and the differentiated
// function also makes a Wall with new and deletes it through a Term * (the virtual destructor). At
// x in R^4:
//   Spring(k, i, j, r): 0.5 k (x_j - x_i - r)^2        Torsion(a, i): a (1 - cos x_i)
//   Wall(b, i): exp(b x_i),  penalty 0.1 x_i^2 (the base's) + 0.5 x_i^3 (Wall's own)
//   E = sum_terms (energy + penalty) + energy of the temporary Wall(0.3, 2)
// Gradient against the analytic one (1e-12), itself checked against central finite differences
// (h = 1e-5, 1e-6); forward tangents along each unit direction against it (1e-12); the destructors
// counted (every temporary destroyed once per evaluation), at -O2 and -O0 (where the differentiated
// function, having the virtual functions' type and being called by invoke, must not be taken for one of
// them).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <memory>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 4 };

static int destroyed;

struct Term {
  explicit Term(int i) : i(i) {}
  virtual ~Term() { destroyed++; }
  virtual double energy(const double *x) const = 0;
  virtual double penalty(const double *x) const { return 0.1 * x[i] * x[i]; }
  int i;
};

struct Spring : Term {
  Spring(double k, int i, int j, double r) : Term(i), k(k), j(j), r(r) {}
  double energy(const double *x) const override {
    double d = x[j] - x[i] - r;
    return 0.5 * k * d * d;
  }
  double k;
  int j;
  double r;
};

struct Torsion : Term {
  Torsion(double a, int i) : Term(i), a(a) {}
  double energy(const double *x) const override { return a * (1 - std::cos(x[i])); }
  double a;
};

struct Wall : Term {
  Wall(double b, int i) : Term(i), b(b) {}
  double energy(const double *x) const override { return std::exp(b * x[i]); }
  double penalty(const double *x) const override { return Term::penalty(x) + 0.5 * x[i] * x[i] * x[i]; }
  double b;
};

using Terms = std::vector<std::unique_ptr<Term>>;

static double total(const double *x, const Terms &terms) {
  double e = 0;
  for (const auto &t : terms) e += t->energy(x) + t->penalty(x);
  Term *extra = new Wall(0.3, 2);
  e += extra->energy(x);
  delete extra;
  return e;
}

int main() {
  Terms terms;
  terms.push_back(std::make_unique<Spring>(2.0, 0, 1, 0.5));
  terms.push_back(std::make_unique<Torsion>(1.5, 2));
  terms.push_back(std::make_unique<Wall>(-0.8, 3));
  terms.push_back(std::make_unique<Spring>(0.7, 1, 3, -0.2));
  terms.push_back(std::make_unique<Wall>(0.4, 0));
  const double x[N] = {0.3, 1.1, -0.6, 0.4};
  double want[N] = {0};
  for (const auto &t : terms) {
    int i = t->i;
    want[i] += 0.2 * x[i];
    if (auto *s = dynamic_cast<const Spring *>(t.get())) {
      double d = x[s->j] - x[i] - s->r;
      want[s->j] += s->k * d, want[i] -= s->k * d;
    } else if (auto *q = dynamic_cast<const Torsion *>(t.get())) {
      want[i] += q->a * std::sin(x[i]);
    } else if (auto *w = dynamic_cast<const Wall *>(t.get())) {
      want[i] += w->b * std::exp(w->b * x[i]) + 1.5 * x[i] * x[i];
    }
  }
  want[2] += 0.3 * std::exp(0.3 * x[2]);
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-5;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((total(xp, terms) - total(xm, terms)) / (2 * h), want[i], 1e-6);
  }
  destroyed = 0;
  double dx[N] = {0};
  __parad_autodiff((void *)total, x, dx, parad_const, &terms);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  CHECK_CLOSE(destroyed, 1, 0);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)total, x, v, parad_const, &terms), want[i], 1e-12);
  }
  CHECK_CLOSE(destroyed, 1 + N, 0);
  terms.clear(); /* the owned objects destroyed through the base's virtual destructor */
  CHECK_CLOSE(destroyed, 1 + N + 5, 0);
  return check_done();
}
