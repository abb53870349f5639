/* limiter: T steps of a MUSCL upwind scheme for u_t + u_x = 0 on n periodic cells, the slope limiter
 * called through a table of function pointers (minmod, van Leer), chosen at run time as a solver's option:
 * f_i = u_{i-1} + L(u_{i-1} - u_{i-2}, u_i - u_{i-1}) / 2, u_i -= c (f_{i+1} - f_i). J(u0) = sum_i w_i u_T[i]^2.
 * Every limiter call goes through the pointer: in the derivative, through the runtime's table of
 * derivatives (runtime/indirect.c), once for the augmented function and once for the reverse one.
 * Hand-written adjoint: the states of every step kept, the steps' transposed Jacobians applied backwards
 * (van Leer's partials 2b^2/(a+b)^2 and 2a^2/(a+b)^2, zero where ab <= 0). */
#include "kernel.h"

enum { N = 100000, T = 40 };
typedef double (*limiter_fn)(double, double);
static double minmod(double a, double b) { return a * b <= 0 ? 0 : fabs(a) < fabs(b) ? a : b; }
static double vanleer(double a, double b) { return a * b <= 0 ? 0 : 2 * a * b / (a + b); }
static limiter_fn limiters[2] = {minmod, vanleer};
static int chosen; /* the option: set at start-up */
static double *w, *states, *flux, *gflux;
static const double c = 0.4;

static double advect(const double *u0, const double *w, int which) {
  double *u = malloc(sizeof(double) * N), *f = malloc(sizeof(double) * N);
  limiter_fn L = limiters[which];
  for (int i = 0; i < N; i++) u[i] = u0[i];
  for (int t = 0; t < T; t++) {
    for (int i = 0; i < N; i++) {
      int im = (i + N - 1) % N, imm = (i + N - 2) % N;
      f[i] = u[im] + 0.5 * L(u[im] - u[imm], u[i] - u[im]);
    }
    for (int i = 0; i < N; i++) u[i] -= c * (f[(i + 1) % N] - f[i]);
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += w[i] * u[i] * u[i];
  free(u);
  free(f);
  return J;
}

static double primal(const double *x) { return advect(x, w, chosen); }

static void gradient(const double *x, double *g) { __parad_autodiff((void *)advect, x, g, parad_const, w, chosen); }

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)advect, x, v, parad_const, w, chosen);
}

static double hand(const double *x, double *g) {
  memcpy(states, x, sizeof(double) * N);
  for (int t = 0; t < T; t++) { /* the van Leer steps, each state kept */
    const double *u = states + (size_t)t * N;
    double *next = states + (size_t)(t + 1) * N;
    for (int i = 0; i < N; i++) {
      int im = (i + N - 1) % N, imm = (i + N - 2) % N;
      flux[i] = u[im] + 0.5 * vanleer(u[im] - u[imm], u[i] - u[im]);
    }
    for (int i = 0; i < N; i++) next[i] = u[i] - c * (flux[(i + 1) % N] - flux[i]);
  }
  const double *uT = states + (size_t)T * N;
  double J = 0;
  for (int i = 0; i < N; i++) J += w[i] * uT[i] * uT[i], g[i] = 2 * w[i] * uT[i];
  for (int t = T - 1; t >= 0; t--) {
    const double *u = states + (size_t)t * N;
    for (int i = 0; i < N; i++) gflux[i] = c * (g[i] - g[(i + N - 1) % N]); /* d/d f_i of the update */
    for (int i = 0; i < N; i++) {
      int im = (i + N - 1) % N, imm = (i + N - 2) % N;
      double a = u[im] - u[imm], b = u[i] - u[im], da = 0, db = 0;
      if (a * b > 0) da = 2 * b * b / ((a + b) * (a + b)), db = 2 * a * a / ((a + b) * (a + b));
      double h = 0.5 * gflux[i];
      g[im] += gflux[i] + h * (da - db);
      g[imm] -= h * da;
      g[i] += h * db;
    }
  }
  return J;
}

static void init(double *x) {
  w = malloc(sizeof(double) * N), flux = malloc(sizeof(double) * N), gflux = malloc(sizeof(double) * N);
  states = malloc(sizeof(double) * N * (T + 1));
  chosen = 1;
  rng_seed(17);
  for (int i = 0; i < N; i++) x[i] = sin(2 * M_PI * i / N) + 0.3 * sin(14 * M_PI * i / N) + 0.01 * rng_uniform(), w[i] = rng_uniform();
}

int main(void) {
  static const Kernel k = {.name = "limiter",
                           .title = "MUSCL advection, van Leer through a table of limiters, 100000 cells, 40 steps",
                           .parallel = 0,
                           .n = N,
                           .iterations = (double)N * T,
                           .iteration = "cell-step",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
