// Forward mode over a gradient whose function checkpoints its time loop (a Hessian-vector product through
// __parad_checkpoint_loop()) is refused at the request, naming the checkpointed loop. It named "a local
// array kept on the heap for the reverse sweep (one given to qsort, to a registered derivative, or of
// 1 MiB or more)", the loop's variables, which the program does not have. At -O2 and -O0; no output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 %s -o %t 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t
// CHECK: hvp_checkpointed_loop.c:[[@LINE+16]]:{{[0-9]+}}: error: __parad_fwddiff of 'grad': forward mode over a reverse-mode derivative computed here cannot differentiate a loop checkpointed with __parad_checkpoint_loop() in it yet
extern double __parad_autodiff(void *, ...);
extern double __parad_fwddiff(void *, ...);
void __parad_checkpoint_loop(void);

static double sim(const double *p) {
  double x = 1, v = p[0];
  for (int t = 0; t < 100; t++) {
    __parad_checkpoint_loop();
    v += 0.01 * (-p[1] * x - 0.1 * v);
    x += 0.01 * v;
  }
  return x * x + v;
}
static void grad(const double *p, double *g) {
  g[0] = g[1] = 0;
  __parad_autodiff((void *)sim, p, g);
}
int main(void) {
  double p[2] = {0.5, 3.0}, v[2] = {1, -0.5}, g[2], hv[2] = {0, 0};
  __parad_fwddiff((void *)grad, p, v, g, hv);
  return hv[0] == 0;
}
