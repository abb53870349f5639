// A loss over samples in an OpenMP loop, each sample's prediction a virtual call reading the shared
// parameter vector (two models behind one base class, chosen at run time). Every adjoint update of the
// parameters was atomic at 2 threads (a gradient 25-35 times the primal); the models only read the
// parameters, so each call notes what it reads and adds its adjoints where the region's plan says
// (reverse/rev_redirect.c).
// Gradients against central differences (h = 1e-6, tolerance 1e-6 relative) at 1, 2 and 3 threads, -O2
// and -O0; built counting adjoint updates: under 5% atomic at 2 and 3 threads.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cxx %cflags -DCOUNTED -fopenmp %s -o %t.count && OMP_NUM_THREADS=2 %t.count && OMP_NUM_THREADS=3 %t.count
// RUN: %parad-cxx -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <parad.h>
#include <cmath>
#include <cstdio>
#include <vector>
#include "check.h"
#include "update_counts.h"

extern "C" double __parad_autodiff(void *, ...);

enum { NI = 4, NO = 6, NP = NO * NI + NO };

struct Model {
  virtual ~Model() = default;
  virtual double eval(const double *theta, const double *x) const = 0;
};

struct Dense : Model {
  double eval(const double *theta, const double *x) const override {
    double s = 0;
    for (int o = 0; o < NO; ++o) {
      double z = theta[NO * NI + o];
      for (int i = 0; i < NI; ++i) z += theta[o * NI + i] * x[i];
      s += std::tanh(z);
    }
    return s;
  }
};

struct Quadratic : Model {
  double eval(const double *theta, const double *x) const override {
    double s = 0;
    for (int i = 0; i < NI; ++i) s += theta[i] * x[i] * x[i] + theta[NP - 1 - i] * x[i];
    return s;
  }
};

double loss(const double *theta, const Model *m, const double *X, const double *Y, int ns) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int s = 0; s < ns; ++s) {
    double r = m->eval(theta, X + s * NI) - Y[s];
    L += r * r;
  }
  return L / ns;
}

static void check(const Model &model, const char *what) {
  const int ns = 500;
  std::vector<double> X(ns * NI), Y(ns), theta(NP), g(NP);
  for (int i = 0; i < ns * NI; ++i) X[i] = std::sin(0.37 * i);
  for (int s = 0; s < ns; ++s) Y[s] = std::cos(0.1 * s);
  for (int k = 0; k < NP; ++k) theta[k] = 0.3 * std::sin(1.7 * k);
  count_from();
  __parad_autodiff((void *)loss, theta.data(), g.data(), parad_const, &model, parad_const, X.data(), parad_const, Y.data(), ns);
  counted(what);
  for (int k = 0; k < NP; ++k) {
    double keep = theta[k], h = 1e-6;
    theta[k] = keep + h;
    double up = loss(theta.data(), &model, X.data(), Y.data(), ns);
    theta[k] = keep - h;
    double down = loss(theta.data(), &model, X.data(), Y.data(), ns);
    theta[k] = keep;
    CHECK_CLOSE(g[k], (up - down) / (2 * h), 1e-6);
  }
}

int main() {
  Dense dense;
  Quadratic quadratic;
  check(dense, "dense");
  check(quadratic, "quadratic");
  return check_done();
}
