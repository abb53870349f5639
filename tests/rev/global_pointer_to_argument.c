// Pointer globals the differentiated code points at what it was given, as modules keep their state:
//   term_value:  `X = x`, read by a helper kept a call;
//   rows_value:  `rows[0] = x, rows[1] = x + 2` (an array of pointer globals);
//   ctx_value:   a global context struct holding the argument and a scale computed from it;
//   model_value: `M->params = x`, a field of a block a global pointer holds (main allocates it), with a
//                plain call before the derivatives and a tangent after the gradient;
//   bound_value: a setter `bind(u, n)` that points the global at the caller's local array, called twice;
//   copied_value: `A = x`, then a helper copies one global into another (`B = A`) and the reads go through B;
//   lazy_value:  a workspace W allocated on the first call, which a helper hands to another global
//                (`B = W`) and fills through it with values of x; read through both (at -O0 the reads
//                through W had no derivative: W's block was asked only of the writes through W);
//   and a heap x given to a plain call first, then to a gradient, then freed with the gradient's buffer.
// The globals' blocks were asked whether derivative code writes active data into them; the argument's
// data is active without any write, so the reads through the globals had no derivative: gradients and
// tangents of zero, no message (the context struct's at -O2: the scale's part only). A pointer the code
// was given, stored into such a global, now makes it active. And a field of the block (`M->params`), or a
// global a setter sets, left pointing at an earlier call's array stopped the next derivative at its entry
// ("holds memory Parad has no shadow for"): such a slot set before it is read, in the function or by a
// setter it calls first, asks for no shadow at the entry now. Made active, such a global ended the
// derivative holding the caller's gradient buffer as its block's shadow, which the runtime took over and
// freed with the block (`free(x)`, then the program's `free(g)`: a double free); the runtime takes over only
// the shadows of blocks the derivative allocated itself.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at -O0,
// -O2 and -O3.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4 };

static const double *X;
__attribute__((noinline)) static double term(int k) { return X[k] * X[k] * (k + 1); }
static double term_value(const double *x) {
  X = x;
  double s = 0;
  for (int i = 0; i < N; i++) s += term(i);
  return s;
}

static const double *rows[2];
__attribute__((noinline)) static double cross(void) { return rows[0][0] * rows[1][1] - rows[0][1] * rows[1][0]; }
static double rows_value(const double *x) {
  rows[0] = x, rows[1] = x + 2;
  return cross() + sin(rows[1][0]);
}

static struct {
  const double *x;
  int n;
  double scale;
} ctx;
__attribute__((noinline)) static double ctx_term(int k) { return ctx.scale * ctx.x[k] * ctx.x[k]; }
static double ctx_value(const double *x) {
  ctx.x = x, ctx.n = N, ctx.scale = 2.0 * x[0];
  double s = 0;
  for (int i = 0; i < ctx.n; i++) s += ctx_term(i);
  return s;
}

typedef struct {
  const double *params;
  int n;
  double scale;
} Model;
static Model *M;
__attribute__((noinline)) static double model_term(int k) { return M->scale * M->params[k] * cos(M->params[k]); }
static double model_value(const double *x) {
  M->params = x, M->n = N, M->scale = 1.5 + x[1];
  double s = 0;
  for (int i = 0; i < M->n; i++) s += model_term(i);
  return s;
}

static double *field;
static int nloc;
__attribute__((noinline)) static void bind(double *u, int n) { field = u, nloc = n; }
__attribute__((noinline)) static double energy(void) {
  double s = 0;
  for (int i = 0; i < nloc; i++) s += field[i] * field[i] * field[(i + 1) % nloc];
  return s;
}
static double bound_value(const double *x) {
  double u[N];
  for (int i = 0; i < N; i++) u[i] = 2 * x[i] + 0.5;
  bind(u, N);
  return energy();
}

static const double *A, *B;
__attribute__((noinline)) static void alias(void) { B = A; }
static double copied_value(const double *x) {
  A = x;
  alias();
  double s = 0;
  for (int i = 0; i < N; i++) s += B[i] * B[i] * B[(i + 1) % N];
  return s;
}

static double *W, *WB;
static const double *WX;
__attribute__((noinline)) static void fill(void) {
  WB = W;
  for (int i = 0; i < N; i++) WB[i] = WX[i] * 2;
}
__attribute__((noinline)) static double lazy_term(int i) { return WB[i] * W[(i + 1) % N] * WX[i]; }
static double lazy_value(const double *x) {
  WX = x;
  if (!W) W = malloc(N * sizeof(double));
  fill();
  double s = 0;
  for (int i = 0; i < N; i++) s += lazy_term(i);
  return s;
}

int main(void) {
  double x[N] = {0.7, -1.1, 0.4, 1.3};
  M = malloc(sizeof *M);
  CHECK_CLOSE(model_value(x), model_value(x), 0); /* a plain call first: M->params left at main's x */
  CHECK_GRADIENT(term_value, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(rows_value, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(ctx_value, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(model_value, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(bound_value, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(bound_value, x, N, 1e-12, 1e-6, 1e-6); /* field left at the last call's dead array */
  CHECK_GRADIENT(copied_value, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(lazy_value, x, N, 1e-12, 1e-6, 1e-6);
  free(M);
  double *hx = malloc(N * sizeof(double)), *hg = calloc(N, sizeof(double));
  for (int i = 0; i < N; i++) hx[i] = x[i];
  CHECK_CLOSE(term_value(hx), term_value(x), 0); /* X left holding hx, which main allocated */
  __parad_autodiff((void *)term_value, hx, hg);
  for (int i = 0; i < N; i++) CHECK_CLOSE(hg[i], 2 * hx[i] * (i + 1), 1e-12);
  free(hx);
  free(hg);
  return check_done();
}
