// A global pointer to an object whose constructor allocates the work array the differentiated function
// writes active values into: the array reaches the global through the object, not stored into it, so it
// has no shadow. At -O2 that is refused where the function loads the array's pointer; at -O0 the run
// stops at the derivative's entry, and the message now names the global as the source spells it
// ('g_ws'), not only by its mangled symbol (runtime/names.c). Found by a probe.
// RUN: rm -f %t && not %parad-cxx %cflags %s -o %t 2>&1 | FileCheck --check-prefix=O2 %s
// RUN: test ! -e %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && not --crash %t0 2>&1 | FileCheck --check-prefix=O0 %s
// O0: parad runtime: a derivative starts while a pointer global holds memory Parad has no shadow for: {{.*}} 'g_ws' (_ZL4g_ws)
extern "C" double __parad_autodiff(void *, ...);

const int N = 4;
struct Workspace {
  double *buf;
  explicit Workspace(int n) : buf(new double[n]) {}
};
static Workspace *g_ws = nullptr;

static double loss(const double *p) {
  // O2: global_member_block.cpp:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}'g_ws'
  for (int i = 0; i < N; ++i) g_ws->buf[i] = p[i] * p[i];
  double s = 0;
  for (int i = 0; i < N; ++i) s += g_ws->buf[i] * p[(i + 1) % N];
  return s;
}

int main() {
  g_ws = new Workspace(N);
  double x[N] = {0.5, -0.3, 0.8, 1.1}, g[N] = {0};
  __parad_autodiff((void *)loss, x, g);
  return 0;
}
