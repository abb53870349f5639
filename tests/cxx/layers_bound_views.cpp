// A small network written as C++ programs write one: layers behind base pointers
// (std::vector<std::unique_ptr<Layer>>), a virtual bind() that copies each layer's slice of the parameter
// vector into a member matrix holding a std::vector, and forward() returning matrices by value in a loop
// `h = l->forward(h)`. The question whether a local record's field may hold a pointer that shadows itself
// (ad/constants.c, views in records) walked from a record's field to the records whose pointers were
// stored there and back, two temporaries holding pointers into each other: the compiler recursed without
// end (the stop's own change, before the fix). f = sum of the squares of the output; the gradient against
// tangents along each direction (1e-12) and central differences (h = 1e-6, 1e-7), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <memory>
#include <vector>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

struct Matrix {
  int r = 0, c = 0;
  std::vector<double> d;
  Matrix() {}
  Matrix(int r, int c) : r(r), c(c), d(r * c, 0.0) {}
  Matrix(int r, int c, const double *s) : r(r), c(c), d(s, s + r * c) {}
};

struct Layer {
  virtual ~Layer() = default;
  virtual Matrix forward(const Matrix &x) const = 0;
  virtual int nparams() const { return 0; }
  virtual void bind(const double *) {}
};

struct Dense : Layer {
  int in, out;
  Matrix W;
  Dense(int i, int o) : in(i), out(o) {}
  void bind(const double *p) override { W = Matrix(out, in, p); }
  int nparams() const override { return in * out; }
  Matrix forward(const Matrix &x) const override {
    Matrix y(out, x.c);
    for (int i = 0; i < out; i++)
      for (int k = 0; k < in; k++)
        for (int j = 0; j < x.c; j++) y.d[i * x.c + j] += W.d[i * in + k] * x.d[k * x.c + j];
    return y;
  }
};

struct Tanh : Layer {
  Matrix forward(const Matrix &x) const override {
    Matrix y = x;
    for (double &v : y.d) v = std::tanh(v);
    return y;
  }
};

struct Net {
  std::vector<std::unique_ptr<Layer>> layers;
};

double net_loss(const double *params, Net &net, const Matrix &X) {
  const double *p = params;
  for (auto &l : net.layers) {
    l->bind(p);
    p += l->nparams();
  }
  Matrix h = X;
  for (const auto &l : net.layers) h = l->forward(h);
  double s = 0;
  for (double v : h.d) s += v * v;
  return s;
}

static Net make() {
  Net n;
  n.layers.emplace_back(new Dense(2, 3));
  n.layers.emplace_back(new Tanh);
  n.layers.emplace_back(new Dense(3, 1));
  return n;
}

enum { P = 9 };
static Net net = make(), dnet = make(), tnet = make();
static Matrix X(2, 4);

static double loss_at(const double *p) { return net_loss(p, net, X); }

int main() {
  for (int k = 0; k < 8; k++) X.d[k] = std::sin(k + 1.0);
  double p[P], g[P] = {0}, v[P] = {0};
  for (int k = 0; k < P; k++) p[k] = 0.3 * std::cos(k + 0.5);
  __parad_autodiff((void *)net_loss, p, g, parad_dup, &net, &dnet, parad_const, &X);
  for (int k = 0; k < P; k++) {
    v[k] = 1;
    CHECK_CLOSE(g[k], __parad_fwddiff((void *)net_loss, p, v, parad_dup, &net, &tnet, parad_const, &X), 1e-12);
    v[k] = 0;
    CHECK_CLOSE(g[k], fd_component(loss_at, p, P, k, 1e-6), 1e-7);
  }
  return check_done();
}
