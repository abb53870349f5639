// A table of function pointers that is not const, in another file, with an entry registered at run time
// (Inputs/fluxes): the solver stores the chosen flux and its name (from a mutable table of names) in a
// struct that also holds its fields, so the pointers loaded from the tables need shadows: each is its own.
// Reverse mode against central finite differences of every component (h = 1e-6; the initial state is
// smooth and varies everywhere, so no maximum in the solver is near a tie; tolerance 1e-6 relative),
// forward tangents along a direction against the gradient (1e-12), for each of the three fluxes, at 1 and
// 3 threads, compiled file by file and at -O0 in one command.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -fopenmp -I%S/Inputs/fluxes -c %s -o %t/main.o
// RUN: %parad-cc %cflags -fopenmp -c %S/Inputs/fluxes/solver.c -o %t/solver.o
// RUN: %parad-cc %cflags -c %S/Inputs/fluxes/fluxes.c -o %t/fluxes.o
// RUN: %parad-cc -fopenmp %t/main.o %t/solver.o %t/fluxes.o -o %t/prog -lm && OMP_NUM_THREADS=1 %t/prog && OMP_NUM_THREADS=3 %t/prog
// RUN: %parad-cc -O0 -fopenmp -I%S/../include -I%S/Inputs/fluxes %s %S/Inputs/fluxes/solver.c %S/Inputs/fluxes/fluxes.c -o %t/prog0 -lm && OMP_NUM_THREADS=2 %t/prog0
#include <math.h>
#include <string.h>
#include "check.h"
#include "fluxes.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 40, S = 12 };

int main(void) {
  double x[N], g[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 1 + 0.3 * exp(-4 * (i / (double)N - 0.4) * (i / (double)N - 0.4)) + 0.05 * sin(0.7 * i);
  for (int i = 0; i < N; i++) v[i] = cos(1.3 * i);
  for (int which = 0; which < FLUXES; which++) {
    memset(g, 0, sizeof g);
    __parad_autodiff((void *)run, x, g, parad_const, N, parad_const, S, parad_const, which);
    double along = 0;
    for (int k = 0; k < N; k++) {
      double h = 1e-6, s = x[k];
      x[k] = s + h;
      double fp = run(x, N, S, which);
      x[k] = s - h;
      double fm = run(x, N, S, which);
      x[k] = s;
      CHECK_CLOSE(g[k], (fp - fm) / (2 * h), 1e-6);
      along += g[k] * v[k];
    }
    CHECK_CLOSE(__parad_fwddiff((void *)run, x, v, parad_const, N, parad_const, S, parad_const, which), along, 1e-12);
  }
  if (strcmp(flux_names[2], "lax-friedrichs")) return 1;
  return check_done();
}
