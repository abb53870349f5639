// What a checkpointed loop (__parad_checkpoint_loop()) cannot hold yet is refused where it is, at -O2
// and -O0, and no output is written: a call of a function without a body (what it writes could not be
// snapshotted), a pointer stored into the heap (its shadow would not
// follow the snapshots), a marker outside any loop, two markers in one loop, a checkpointed loop running
// another whose steps allocate (nested loops' outer steps must run as the program does), and a local
// variable whose address the function keeps in memory other than the loop's variables (a global), where a
// step finds it (the steps run on a copy of the variables, also after the function returned).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
#include <stdlib.h>

void mystery(double *);

double external(double *u, int n) {
  for (int t = 0; t < n; t++) {
    __parad_checkpoint_loop();
    // CHECK-DAG: checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: error: a call of 'mystery', whose body Parad cannot see (what it writes could not be kept in the snapshots), inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet in function 'external'
    mystery(u);
  }
  return u[0];
}

double pointer_into_heap(double **slots, double *u, int n) {
  for (int t = 0; t < n; t++) {
    __parad_checkpoint_loop();
    // CHECK-DAG: checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: error: storing a pointer into memory other than the loop's variables (its shadow would not follow the snapshots) inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet in function 'pointer_into_heap'
    slots[t % 2] = u;
    u[0] += 1;
  }
  return slots[0][0];
}

double outside(double x) {
  // CHECK-DAG: checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_checkpoint_loop() must be inside the loop it marks in function 'outside'
  __parad_checkpoint_loop();
  return x * x;
}

double twice(double x, int n) {
  for (int t = 0; t < n; t++) {
    // CHECK-DAG: checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_checkpoint_loop() twice in one loop in function 'twice'
    __parad_checkpoint_loop();
    x = x * 0.5 + 1;
    __parad_checkpoint_loop();
  }
  return x;
}

static double inner(double *u, int k) {
  for (int s = 0; s < 4; s++) {
    __parad_checkpoint_loop();
    u[s % k] = u[s % k] * 0.5 + 1;
  }
  return u[0];
}

double nested_allocating(double x, int n) {
  for (int t = 0; t < n; t++) {
    // CHECK-DAG: checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: error: a checkpointed loop that runs another checkpointed loop and allocates memory or moves pointers of its variables in its steps is not supported yet in function 'nested_allocating'
    __parad_checkpoint_loop();
    double *u = malloc(2 * sizeof *u);
    u[0] = u[1] = x;
    x = inner(u, 2);
    free(u);
  }
  return x;
}

static double *kept_at;

double address_kept(double x, int n) {
  double y = x;
  // CHECK-DAG: checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: error: the address of a local variable is kept in memory in a function with a checkpointed loop, whose steps run on a copy of its variables, also after it returned: allocate the variable with malloc in function 'address_kept'
  kept_at = &y;
  for (int t = 0; t < n; t++) {
    __parad_checkpoint_loop();
    *kept_at = *kept_at * 0.9 + 1; /* y is reached through a global: not one of the loop's variables */
  }
  return y;
}

int main(void) {
  double u[2] = {1, 2}, du[2] = {0}, *slots[2];
  return (int)(__parad_autodiff((void *)external, u, du, 3) +
               __parad_autodiff((void *)pointer_into_heap, slots, slots, u, du, 3) + __parad_autodiff((void *)outside, 1.0) +
               __parad_autodiff((void *)twice, 1.0, 3) + __parad_autodiff((void *)address_kept, 1.0, 3) +
               __parad_autodiff((void *)nested_allocating, 1.0, 3));
}
