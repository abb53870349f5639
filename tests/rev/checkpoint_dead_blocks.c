// A checkpointed loop whose body holds a loop that always leaves in its first iteration (its increment,
// which clang emits at -O0, has no way in). Outlining the marked loop moved the inner loop's blocks into a
// function of their own and left that dead block behind, branching into them: the module was invalid
// after differentiation (fuzz seed 5477). Dead blocks of a function with markers are deleted first.
// Against the same function without the marker and against central differences (h = 1e-6, 1e-6), at -O0
// and -O2.
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags %s -o %t -lm && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { N = 8, T = 12 };

#define RELAX(NAME, MARK)                                                                                   \
  __attribute__((noinline)) static void NAME##_steps(double *u) {                                          \
    for (int t = 0; t < T; t++) {                                                                          \
      MARK;                                                                                                \
      for (int i = 1; i < N; i++) {                                                                        \
        u[i] = 0.8 * u[i] + 0.2 * sin(u[i - 1]);                                                           \
        break; /* the first point only */                                                                 \
      }                                                                                                    \
      for (int i = 2; i < N; i++) u[i] += 0.1 * u[i - 1] * u[i - 2];                                       \
    }                                                                                                      \
  }                                                                                                        \
  double NAME(const double *x) {                                                                           \
    double u[N], s = 0;                                                                                    \
    for (int i = 0; i < N; i++) u[i] = x[i];                                                               \
    NAME##_steps(u);                                                                                       \
    for (int i = 0; i < N; i++) s += u[i] * u[i];                                                          \
    return s;                                                                                              \
  }
RELAX(checkpointed, __parad_checkpoint_loop())
RELAX(taped, (void)0)

#define ONCE(NAME, MARK)                                                                                    \
  double NAME(const double *x) {                                                                           \
    double s = 0;                                                                                          \
    for (int t = 0; t < T; t++) {                                                                          \
      MARK;                                                                                                \
      for (int i = 0; i < N; i++) s += sin(x[i]) * x[(i + 1) % N];                                         \
      return s * s;                                                                                        \
    }                                                                                                      \
    return s;                                                                                              \
  }
ONCE(once_checkpointed, __parad_checkpoint_loop())
ONCE(once_taped, (void)0)

int main(void) {
  double x[N], want[N] = {0}, got[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.05 * i;
  __parad_autodiff((void *)taped, x, want);
  __parad_autodiff((void *)checkpointed, x, got);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(got[i], want[i], 1e-12);
    CHECK_CLOSE(got[i], fd_component(checkpointed, x, N, i, 1e-6), 1e-6);
  }
  for (int i = 0; i < N; i++) want[i] = got[i] = 0;
  __parad_autodiff((void *)once_taped, x, want);
  __parad_autodiff((void *)once_checkpointed, x, got);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(got[i], want[i], 1e-12);
    CHECK_CLOSE(got[i], fd_component(once_checkpointed, x, N, i, 1e-6), 1e-6);
  }
  return check_done();
}
