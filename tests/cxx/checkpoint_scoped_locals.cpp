// Variables a checkpointed loop's body declares, which it hands to calls before they are inlined: a
// range-for's range and iterators over a std::vector of structs, a std::initializer_list's array
// (`for (int nb : {i - 1, i + 1})`). Their lifetimes start inside the loop, so nothing of them crosses
// from step to step: they move into the step as its own. They were taken for the loop's variables, and
// at -O1 to -O3 the gradients were refused ("cannot store the integer address of active memory into
// memory with a shadow", "parameter 3 of 'loss(double const*) [clone .ckpt_step.0]', passed as constant").
// The gradients are checked against central differences (h = 1e-6, relative 1e-6) and the range-for's
// against its closed form (1e-12), at -O2, -O1 and -O0. At -O0 (no lifetimes) the initializer_list's int
// array stays a variable of the loop, into which the list (a variable holding a pointer) points: it was
// passed without a shadow, and the store of its address was refused ("needs a shadow for memory that has
// none"); it gets one now.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O1 -I%S/../include %s -o %t1 && %t1
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <vector>
#include "check.h"
#include "parad.h"

struct Body {
  double p[3], v[3];
};

static double bodies(const double *k) {
  std::vector<Body> b(8);
  for (int i = 0; i < 8; i++) b[i] = Body{{0.1 * i, 0, 0}, {0, 0.1 * i, 0}};
  for (int t = 0; t < 100; t++) {
    __parad_checkpoint_loop();
    for (auto &bd : b)
      for (int c = 0; c < 3; c++) bd.p[c] += 0.01 * k[0] * bd.v[c];
  }
  double l = 0;
  for (auto &bd : b) l += bd.p[1] * bd.p[1];
  return l;
}

static double chain(const double *k) {
  std::vector<double> x(8);
  for (int i = 0; i < 8; i++) x[i] = 0.1 * i * i;
  for (int t = 0; t < 50; t++) {
    __parad_checkpoint_loop();
    double f[8] = {0};
    for (int i = 1; i < 7; i++)
      for (int nb : {i - 1, i + 1}) f[i] += k[0] * (x[nb] - x[i]);
    for (int i = 0; i < 8; i++) x[i] += 0.01 * f[i];
  }
  return x[3] * x[4];
}

int main() {
  double k[1] = {2}, g[1] = {0};
  __parad_autodiff((void *)bodies, k, g);
  CHECK_CLOSE(g[0], 2.8 * k[0], 1e-12); /* p_i1 = 0.1 k i: l = 1.4 k^2 */
  CHECK_CLOSE(g[0], fd_component(bodies, k, 1, 0, 1e-6), 1e-6);
  g[0] = 0;
  __parad_autodiff((void *)chain, k, g);
  CHECK_CLOSE(g[0], fd_component(chain, k, 1, 0, 1e-6), 1e-6);
  return check_done();
}
