// Pointer globals holding heap blocks across files: `double *field, *flux` defined in state.c (not static),
// allocated by its setup(), filled by solve() in solver.c, which also asks for solve's gradient. Compiled
// file by file, solver.c's request waits for the link (the globals may be set in other files), where
// Parad sees setup's allocations and gives the globals shadows (ad/global_blocks.h). Before, solver.c was
// refused ("a pointer loaded from the global variable 'field'"). The gradient, from solver.c's helper and
// from a request here, against central differences (h = 1e-6, tolerance 1e-6 relative), at -O2 file by
// file and at -O0 in one command.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -I%S/Inputs/global_blocks -c %s -o %t/main.o
// RUN: %parad-cc %cflags -c %S/Inputs/global_blocks/solver.c -o %t/solver.o
// RUN: %parad-cc %cflags -c %S/Inputs/global_blocks/state.c -o %t/state.o
// RUN: %parad-cc %t/main.o %t/solver.o %t/state.o -o %t/prog -lm && %t/prog
// RUN: %parad-cc -O0 -I%S/../include -I%S/Inputs/global_blocks %s %S/Inputs/global_blocks/solver.c %S/Inputs/global_blocks/state.c -o %t/prog0 -lm && %t/prog0
#include "check.h"
#include "state.h"

void __parad_autodiff(void *, ...);

enum { N = 12, STEPS = 4 };

int main(void) {
  setup(N);
  double x[N], g[N] = {0}, g2[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.1 * sin(i);
  gradient(x, g, STEPS);
  __parad_autodiff((void *)solve, x, g2, STEPS);
  for (int i = 0; i < N; i++) {
    double h = 1e-6, s = x[i];
    x[i] = s + h;
    double fp = solve(x, STEPS);
    x[i] = s - h;
    double fm = solve(x, STEPS);
    x[i] = s;
    CHECK_CLOSE(g[i], (fp - fm) / (2 * h), 1e-6);
    CHECK_CLOSE(g2[i], g[i], 1e-12);
  }
  return check_done();
}
