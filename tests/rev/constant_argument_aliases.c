// A struct passed as constant holding a pointer into the memory the differentiated argument points to
// (`loss(pb->params ..., pb)` with `pb.params` passed with a shadow, `pb` constant): the reads through the
// constant's pointer carry no derivative, and the gradient was 0 in every component with no message. Now
// the program stops before the derivative, naming both arguments and the function, in both modes; a
// pointer into the argument's block past its start (theta + 1) too at -O2, where the compiler sees the
// allocation's size. Passed as Enzyme programs do it, the struct with a shadow struct whose pointer is the
// gradient's, the gradient against the analytic one (1e-12) and the tangent (1e-12); a constant struct
// holding only the data (not the argument) runs, its gradient against the analytic one, at -O2 and -O0.
// (At -O0 the compiler does not know the block's size, and only a pointer to its start stops.) The same
// array passed twice, once constant (`dot(x, x)`), is taken as meant, a partial derivative: x (1e-12); with
// the same shadow for both, the gradient 2x (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t right
// RUN: not --crash %t alias 2>&1 | FileCheck %s
// RUN: not --crash %t forward 2>&1 | FileCheck %s --check-prefix=FORWARD
// RUN: not --crash %t inside 2>&1 | FileCheck %s
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0 right
// RUN: not --crash %t0 alias 2>&1 | FileCheck %s
// CHECK: parad: __parad_autodiff: argument #2 of 'loss', passed as constant, holds a pointer into the memory argument #1 points to, which 'loss' reads through it
// FORWARD: parad: __parad_fwddiff: argument #2 of 'loss', passed as constant, holds a pointer into the memory argument #1 points to
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  double *params;
  const double *data;
  int n;
} Problem;

/* the least squares of a line through the data, its parameters read through the problem */
__attribute__((noinline)) static double loss(const double *theta, const Problem *pb) {
  (void)theta;
  double s = 0;
  for (int i = 0; i < pb->n; i++) {
    double r = pb->params[0] * pb->data[i] + pb->params[1] - 1.0;
    s += r * r;
  }
  return s;
}

/* the same with the parameters as the argument and the problem holding only the data */
__attribute__((noinline)) static double fit(const double *theta, const Problem *pb) {
  double s = 0;
  for (int i = 0; i < pb->n; i++) {
    double r = theta[0] * pb->data[i] + theta[1] - 1.0;
    s += r * r;
  }
  return s;
}

__attribute__((noinline)) static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1]; }

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "right";
  double data[5] = {1, 2, 3, 4, 5};
  double *theta = malloc(3 * sizeof(double));
  theta[0] = 0.3, theta[1] = 0.1, theta[2] = 0.2;
  Problem pb = {theta, data, 5};
  double g[3] = {0};
  if (!strcmp(mode, "alias")) {
    __parad_autodiff((void *)loss, theta, g, parad_const, &pb);
    return 0;
  }
  if (!strcmp(mode, "forward")) {
    double t[3] = {1, 0, 0};
    __parad_fwddiff((void *)loss, theta, t, parad_const, &pb);
    return 0;
  }
  if (!strcmp(mode, "inside")) {
    pb.params = theta + 1;
    __parad_autodiff((void *)loss, theta, g, parad_const, &pb);
    return 0;
  }
  /* d/da and d/db of sum (a d_i + b - 1)^2 */
  double ga = 0, gb = 0;
  for (int i = 0; i < 5; i++) {
    double r = theta[0] * data[i] + theta[1] - 1.0;
    ga += 2 * r * data[i], gb += 2 * r;
  }
  double ddata[5] = {0}, tdata[5] = {0};
  Problem shadow = {g, ddata, 0};
  double unused[3] = {0};
  __parad_autodiff((void *)loss, theta, unused, &pb, &shadow);
  CHECK_CLOSE(g[0], ga, 1e-12);
  CHECK_CLOSE(g[1], gb, 1e-12);
  double t[3] = {0}, dp[3] = {1, 0, 0};
  Problem tangent = {dp, tdata, 0};
  CHECK_CLOSE(__parad_fwddiff((void *)loss, theta, t, &pb, &tangent), ga, 1e-12);
  Problem data_only = {NULL, data, 5};
  double gf[2] = {0};
  __parad_autodiff((void *)fit, theta, gf, parad_const, &data_only);
  CHECK_CLOSE(gf[0], ga, 1e-12);
  CHECK_CLOSE(gf[1], gb, 1e-12);
  double gp[3] = {0}, gd[3] = {0};
  __parad_autodiff((void *)dot, theta, gp, parad_const, theta);
  CHECK_CLOSE(gp[0], theta[0], 1e-12);
  CHECK_CLOSE(gp[1], theta[1], 1e-12);
  __parad_autodiff((void *)dot, theta, gd, theta, gd);
  CHECK_CLOSE(gd[0], 2 * theta[0], 1e-12);
  CHECK_CLOSE(gd[1], 2 * theta[1], 1e-12);
  free(theta);
  return check_done();
}
