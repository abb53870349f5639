// A global pointer to a struct whose field points to a heap block (`mesh->u`), as the README shows, with
// the struct allocated once by calloc in main and never freed. LLVM's global optimiser then makes the
// struct's block a global of its own (`mesh.body`, 24 bytes), read and written as a pointer at offset 0,
// an int at 8 and a double at 16. At -O2 reverse mode refused it ("the global variable 'mesh.body', which
// has no shadow"); -O0 and a program that frees the struct were right. Such bytes, read and written as
// pointers, now hold blocks as a struct global's fields do: their slots get shadows of the blocks at each
// derivative's entry.
//   energy(x) = sum_i scale u_i^2 with u = x, scale = 2 x_0 + x_1.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), twice; at
// -O2, -O0 and -O3.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 3 };
typedef struct {
  double *u;
  int n;
  double scale;
} Mesh;
static Mesh *mesh;

__attribute__((noinline)) static double term(int k) { return mesh->scale * mesh->u[k] * mesh->u[k]; }

static double energy(const double *x) {
  mesh->scale = 2 * x[0] + x[1];
  for (int i = 0; i < mesh->n; i++) mesh->u[i] = x[i];
  double s = 0;
  for (int i = 0; i < mesh->n; i++) s += term(i);
  return s;
}

int main(void) {
  mesh = calloc(1, sizeof *mesh);
  mesh->n = N;
  mesh->u = malloc(N * sizeof(double));
  double x[N] = {1.0, -0.5, 2.0};
  CHECK_GRADIENT(energy, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(energy, x, N, 1e-12, 1e-6, 1e-6);
  return check_done();
}
