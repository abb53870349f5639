// A program's own allocator, registered as Enzyme programs register it, gets shadow blocks like malloc's:
//   __enzyme_allocation_like = {bump, (void *)1, "2,-1", release}: bump(pool, size, &offset) hands out
//   blocks of a global pool (size: argument 1, in bytes); release(&offset, block) takes the block as its
//   argument 1 (the -1 of "2,-1"); without the registration Parad refuses the stores into the pool;
//   __attribute__((enzyme_allocator(0))) on arena_get(n) and enzyme_deallocator(0) on arena_put(p): the
//   same with attributes.
//   f(x, n): a block of n values v_i = x_i^2 + x_{i+1}, then sum_i sin(v_i) v_{i+1} (one block from each
//   allocator): the gradient against the analytic one (1e-12) in reverse mode, and the tangent along a
//   direction against it (1e-12). Under valgrind, the shadow blocks are freed with their blocks (the
//   deallocators, which do nothing, keep their calls).
// At -O2, -O0, and -Os and -Oz (whose optsize beside the deallocators' optnone made the module invalid).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -Os -I%S/../include %s -o %ts -lm && %ts
// RUN: %parad-cc -Oz -I%S/../include %s -o %tz -lm && %tz
// RUN: valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=9 %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static char pool[1 << 16];
static int offset;

void *bump(void *buffer, int size, int *off) {
  char *cur = (char *)buffer;
  int prev = *off;
  *off += (size + 15) / 16 * 16;
  return &cur[prev];
}
void release(int *off, void *block) { (void)off, (void)block; }
void *__enzyme_allocation_like[4] = {(void *)bump, (void *)1, (void *)"2,-1", (void *)release};

static char arena[1 << 16];
static unsigned long arena_used;
__attribute__((enzyme_allocator(0))) void *arena_get(unsigned long n) {
  void *p = arena + arena_used;
  arena_used += (n + 15) / 16 * 16;
  return p;
}
__attribute__((enzyme_deallocator(0))) void arena_put(void *p) { (void)p; }

enum { N = 6 };

static double f(const double *x, int n) {
  double *v = bump(pool, n * (int)sizeof(double), &offset);
  double *w = arena_get(n * sizeof(double));
  for (int i = 0; i < n; i++) v[i] = x[i] * x[i] + x[(i + 1) % n];
  for (int i = 0; i < n; i++) w[i] = sin(v[i]);
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += w[i] * v[i + 1];
  release(&offset, v);
  arena_put(w);
  return s;
}

static void wrapped(const double *x, int n, double *out) { *out = f(x, n); }

int main(void) {
  double x[N] = {0.4, -0.3, 0.8, 0.1, -0.9, 0.5}, v[N], want[N] = {0};
  for (int i = 0; i < N; i++) v[i] = x[i] * x[i] + x[(i + 1) % N];
  /* df/dv_i = cos(v_i) v_{i+1} [i < N-1] + sin(v_{i-1}) [i > 0]; dv_i/dx_i = 2 x_i, dv_i/dx_{i+1} = 1 */
  for (int i = 0; i < N; i++) {
    double dv = (i + 1 < N ? cos(v[i]) * v[i + 1] : 0) + (i > 0 ? sin(v[i - 1]) : 0);
    want[i] += 2 * x[i] * dv;
    want[(i + 1) % N] += dv;
  }
  double g[N] = {0}, out, dout = 1;
  offset = 0, arena_used = 0;
  __enzyme_autodiff((void *)wrapped, enzyme_dup, x, g, enzyme_const, N, enzyme_dup, &out, &dout);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], want[i], 1e-12);

  double dir[N] = {1, -2, 0.5, 0, 3, -1}, dot = 0;
  for (int i = 0; i < N; i++) dot += want[i] * dir[i];
  offset = 0, arena_used = 0;
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, dir, enzyme_const, N), dot, 1e-12);
  return check_done();
}
