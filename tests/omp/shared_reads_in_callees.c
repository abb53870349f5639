// A parallel loop whose per-iteration work is a call the optimiser does not inline (noinline here; a large
// helper elsewhere), given pointers into shared arrays that the callee only reads. The region's plan for
// shared adjoints gave up at such a call: every adjoint update of those arrays atomic at 2 threads, the
// gradient 20-35 times the primal. The callee now notes the addresses it reads and adds each adjoint where
// the region's plan says: plainly where the thread owns the address, into its private buffer, else
// atomically (reverse/rev_redirect.c).
//   model:   a small dense layer per sample, reading the shared parameters in nested loops (noted per run)
//            and a second shared array; w.r.t. both.
//   nested:  the model's callee handing the parameters on to a further helper per output (through a pointer
//            for one of them).
//   layer:   the model's callee given a record of the arrays (`const Layer *L`: L->W, L->b, and L->act called
//            through its pointer), the record built before the region.
//   swapped: such a record whose arrays a `single` swaps between two loops (a pointer stored where other
//            threads see it): planned as before (atomically); its numbers only.
//   pairs:   all-pairs energies through a potential handle's table of functions (`p->ops->pair(p, r2)`), the
//            pair function reading the handle's own parameters (p->eps, p->sig) beside the table's pointer
//            the region reads: w.r.t. the positions and the parameters.
//   stencil: a callee reading u[i-1], u[i], u[i+1] (noted per block): neighbouring threads read each
//            other's edges; static and dynamic schedules.
//   table:   the stencil's callee chosen per element from a table of function pointers (each function the
//            pointer may hold reads only).
//   gather:  a callee reading a table through an index array (addresses not linear).
//   floats:  the stencil on floats.
//   written: a callee that also writes through its pointer: planned as before (atomically); its numbers only.
// Gradients against central differences (h = 1e-6, tolerance 1e-6 relative; floats: h = 1e-2, 1e-2) at 1, 2
// and 3 threads, -O2 and -O0; built counting adjoint updates: model's, nested's, layer's, pairs', stencil's, table's and gather's under 5% atomic
// at 2 and 3 threads (all were atomic); built with PARAD_CHECK_CLEAN, every add a callee takes as the thread's
// own because the thread owns all it read is checked to lie in what the thread noted.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t.count -lm && OMP_NUM_THREADS=2 %t.count && OMP_NUM_THREADS=3 %t.count
// RUN: env PARAD_CHECK_CLEAN=1 %parad-cc %cflags -fopenmp %s -o %t.check -lm && OMP_NUM_THREADS=1 %t.check && OMP_NUM_THREADS=2 %t.check
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <parad.h>
#include <stdio.h>
#include "check.h"
#include "update_counts.h"

double __parad_autodiff(void *, ...);

enum { NI = 6, NO = 5, NP = NO * NI + NO, NS = 300, N = 400, NT = 50 };

__attribute__((noinline)) static double eval(const double *theta, const double *bias, const double *x) {
  double s = 0;
  for (int o = 0; o < NO; ++o) {
    double z = theta[NO * NI + o] + bias[o];
    for (int i = 0; i < NI; ++i) z += theta[o * NI + i] * x[i];
    s += tanh(z);
  }
  return s;
}

__attribute__((noinline)) double model(const double *theta, const double *bias, const double *X, const double *Y, int ns) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int s = 0; s < ns; ++s) {
    double r = eval(theta, bias, X + s * NI) - Y[s];
    L += r * r;
  }
  return L / ns;
}

__attribute__((noinline)) static double unit(const double *w, const double *x) {
  double z = w[NI];
  for (int i = 0; i < NI; ++i) z += w[i] * x[i];
  return tanh(z);
}

__attribute__((noinline)) static double unit_soft(const double *w, const double *x) {
  double z = w[NI];
  for (int i = 0; i < NI; ++i) z += w[i] * x[i];
  return z / (1 + fabs(z));
}

double (*units[2])(const double *, const double *) = {unit, unit_soft};

__attribute__((noinline)) static double net(const double *theta, const double *x) {
  double s = 0;
  for (int o = 0; o < NO; ++o) s += o % 2 ? unit(theta + o * (NI + 1), x) : units[o % 4 == 0](theta + o * (NI + 1), x);
  return s;
}

__attribute__((noinline)) double nested(const double *theta, const double *X, const double *Y, int ns) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int s = 0; s < ns; ++s) {
    double r = net(theta, X + s * NI) - Y[s];
    L += r * r;
  }
  return L;
}

typedef struct {
  const double *W, *b;
  double (*act)(double);
} Layer;

static double soft(double z) { return z / (1 + fabs(z)); }

__attribute__((noinline)) static double forward(const Layer *L, const double *x) {
  double s = 0;
  for (int o = 0; o < NO; ++o) {
    double z = L->b[o];
    for (int i = 0; i < NI; ++i) z += L->W[o * NI + i] * x[i];
    s += L->act(z);
  }
  return s;
}

__attribute__((noinline)) double layer(const double *W, const double *b, const double *X, const double *Y, int ns) {
  Layer L = {W, b, soft};
  double loss = 0;
#pragma omp parallel for reduction(+ : loss)
  for (int s = 0; s < ns; ++s) {
    double r = forward(&L, X + s * NI) - Y[s];
    loss += r * r;
  }
  return loss;
}

__attribute__((noinline)) double swapped(const double *W, const double *W2, const double *b, const double *X, int ns) {
  Layer L = {W, b, tanh};
  double loss = 0;
#pragma omp parallel reduction(+ : loss)
  {
#pragma omp for
    for (int s = 0; s < ns; ++s) loss += forward(&L, X + s * NI);
#pragma omp single
    L.W = W2;
#pragma omp for
    for (int s = 0; s < ns; ++s) loss += forward(&L, X + s * NI);
  }
  return loss;
}

typedef struct Pot Pot;
typedef struct {
  double (*pair)(const Pot *, double r2);
} PotOps;
struct Pot {
  const PotOps *ops;
  double eps, sig;
};

static double lj(const Pot *p, double r2) {
  double s2 = p->sig * p->sig / r2, s6 = s2 * s2 * s2;
  return 4 * p->eps * (s6 * s6 - s6);
}

static const PotOps lj_ops = {lj};

__attribute__((noinline)) double pairs(const double *x, const Pot *p, int n) {
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      double r2 = 0;
      for (int k = 0; k < 3; k++) {
        double d = x[3 * i + k] - x[3 * j + k];
        r2 += d * d;
      }
      e += 0.5 * p->ops->pair(p, r2);
    }
  return e;
}

__attribute__((noinline)) static double curvature(const double *u, int i) { return u[i - 1] - 2 * u[i] + u[i + 1]; }

__attribute__((noinline)) double stencil(const double *u, int n) {
  double L = 0;
#pragma omp parallel for schedule(static) reduction(+ : L)
  for (int i = 1; i < n - 1; i++) {
    double c = curvature(u, i);
    L += c * c * (1 + 0.01 * i);
  }
  return L;
}

__attribute__((noinline)) double stencil_dynamic(const double *u, int n) {
  double L = 0;
#pragma omp parallel for schedule(dynamic, 7) reduction(+ : L)
  for (int i = 1; i < n - 1; i++) {
    double c = curvature(u, i);
    L += sin(c) * u[i];
  }
  return L;
}

__attribute__((noinline)) static double slope(const double *u, int i) { return 0.5 * (u[i + 1] - u[i - 1]); }

typedef double (*Operator)(const double *, int);
Operator operators[2] = {curvature, slope};

__attribute__((noinline)) double stencil_table(const double *u, int n, Operator *ops) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int i = 1; i < n - 1; i++) {
    double c = ops[i % 3 == 0](u, i);
    L += c * c * u[i];
  }
  return L;
}

__attribute__((noinline)) static double lookup(const double *table, const int *idx, int m) {
  double s = 0;
  for (int j = 0; j < m; j++) s += table[idx[j]] * table[idx[j]];
  return s;
}

__attribute__((noinline)) double gather(const double *table, const int *idx, int n) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int i = 0; i < n; i++) L += sqrt(1 + lookup(table, idx + 4 * i, 4));
  return L;
}

__attribute__((noinline)) static float curvature_f(const float *u, int i) { return u[i - 1] - 2 * u[i] + u[i + 1]; }

__attribute__((noinline)) float stencil_f(const float *u, int n) {
  float L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int i = 1; i < n - 1; i++) {
    float c = curvature_f(u, i);
    L += c * c;
  }
  return L;
}

__attribute__((noinline)) static double scaled(double *v, int i) {
  v[i] *= 1.5;
  return v[i] * v[i];
}

__attribute__((noinline)) double written(double *v, int n) {
  double L = 0;
#pragma omp parallel for reduction(+ : L)
  for (int i = 0; i < n; i++) L += scaled(v, i);
  return L;
}

static double theta[NP], bias[NO], X[NS * NI], Y[NS], u[N], table[NT];
static int idx[4 * N];
static float uf[N];

static double model_now(void) { return model(theta, bias, X, Y, NS); }
static double layer_now(void) { return layer(theta, bias, X, Y, NS); }
static double nested_now(void) { return nested(theta, X, Y, NS); }
static double W2[NO * NI];
static double swapped_now(void) { return swapped(theta, W2, bias, X, NS); }
static double stencil_now(void) { return stencil(u, N); }
static double stencil_dynamic_now(void) { return stencil_dynamic(u, N); }
static double stencil_table_now(void) { return stencil_table(u, N, operators); }
static double gather_now(void) { return gather(table, idx, N); }

/* The central difference (h = 1e-6) of objective() along the value at v. */
static double central(double *v, double (*objective)(void)) {
  const double h = 1e-6, keep = *v;
  *v = keep + h;
  double up = objective();
  *v = keep - h;
  double down = objective();
  *v = keep;
  return (up - down) / (2 * h);
}

static void check_model(void) {
  static double dtheta[NP], dbias[NO];
  count_from();
  __parad_autodiff((void *)model, theta, dtheta, bias, dbias, parad_const, X, parad_const, Y, NS);
  counted("model");
  for (int k = 0; k < NP; k += 3) CHECK_CLOSE(dtheta[k], central(&theta[k], model_now), 1e-6);
  for (int k = 0; k < NO; k++) CHECK_CLOSE(dbias[k], central(&bias[k], model_now), 1e-6);
  static double dn[NP];
  count_from();
  __parad_autodiff((void *)nested, theta, dn, parad_const, X, parad_const, Y, NS);
  counted("nested");
  for (int k = 0; k < NO * (NI + 1); k += 2) CHECK_CLOSE(dn[k], central(&theta[k], nested_now), 1e-6);
  static double dW[NP], db[NO], dsw[NP];
  count_from();
  __parad_autodiff((void *)layer, theta, dW, bias, db, parad_const, X, parad_const, Y, NS);
  counted("layer");
  for (int k = 0; k < NO * NI; k += 2) CHECK_CLOSE(dW[k], central(&theta[k], layer_now), 1e-6);
  for (int k = 0; k < NO; k++) CHECK_CLOSE(db[k], central(&bias[k], layer_now), 1e-6);
  static double dW2[NO * NI], dsb[NO];
  for (int k = 0; k < NO * NI; k++) W2[k] = 0.2 * cos(0.9 * k);
  __parad_autodiff((void *)swapped, theta, dsw, W2, dW2, bias, dsb, parad_const, X, NS);
  for (int k = 0; k < NO * NI; k += 2) CHECK_CLOSE(dW2[k], central(&W2[k], swapped_now), 1e-6);
  for (int k = 0; k < NO; k++) CHECK_CLOSE(dsb[k], central(&bias[k], swapped_now), 1e-6);
  for (int k = 0; k < NO * NI; k += 2) CHECK_CLOSE(dsw[k], central(&theta[k], swapped_now), 1e-6);
}

enum { NA = 27 };
static double xa[3 * NA];
static Pot pot = {&lj_ops, 1.0, 1.1};
static double pairs_now(void) { return pairs(xa, &pot, NA); }

static void check_pairs(void) {
  for (int i = 0; i < NA; i++)
    xa[3 * i] = 1.3 * (i % 3) + 0.03 * sin(i), xa[3 * i + 1] = 1.3 * (i / 3 % 3), xa[3 * i + 2] = 1.3 * (i / 9) + 0.02 * cos(i);
  static double dx[3 * NA];
  Pot dpot = {&lj_ops, 0, 0};
  count_from();
  __parad_autodiff((void *)pairs, xa, dx, parad_dup, &pot, &dpot, NA);
  counted("pairs");
  for (int i = 0; i < 3 * NA; i += 4) CHECK_CLOSE(dx[i], central(&xa[i], pairs_now), 1e-6);
  CHECK_CLOSE(dpot.eps, central(&pot.eps, pairs_now), 1e-6);
  CHECK_CLOSE(dpot.sig, central(&pot.sig, pairs_now), 1e-6);
}

static void check_stencils(void) {
  static double du[N], dud[N], dut[N];
  count_from();
  __parad_autodiff((void *)stencil_table, u, dut, N, parad_const, operators);
  counted("stencil_table");
  count_from();
  __parad_autodiff((void *)stencil, u, du, N);
  counted("stencil");
  count_from();
  __parad_autodiff((void *)stencil_dynamic, u, dud, N);
  counted("stencil_dynamic");
  for (int i = 0; i < N; i += 7) {
    CHECK_CLOSE(du[i], central(&u[i], stencil_now), 1e-6);
    CHECK_CLOSE(dud[i], central(&u[i], stencil_dynamic_now), 1e-6);
    CHECK_CLOSE(dut[i], central(&u[i], stencil_table_now), 1e-6);
  }
  /* every element, against the analytic adjoint: a lost or doubled update at a thread's edge shows */
  for (int i = 0; i < N; i++) {
    double want = 0;
    for (int j = i - 1; j <= i + 1; j++) {
      if (j < 1 || j > N - 2) continue;
      double c = u[j - 1] - 2 * u[j] + u[j + 1];
      want += 2 * c * (1 + 0.01 * j) * (j == i ? -2 : 1);
    }
    CHECK_CLOSE(du[i], want, 1e-12);
  }
}

static void check_gather(void) {
  static double dtable[NT];
  count_from();
  __parad_autodiff((void *)gather, table, dtable, parad_const, idx, N);
  counted("gather");
  for (int k = 0; k < NT; k++) CHECK_CLOSE(dtable[k], central(&table[k], gather_now), 1e-6);
}

static void check_floats(void) {
  static float duf[N];
  __parad_autodiff((void *)stencil_f, uf, duf, N);
  for (int i = 0; i < N; i += 11) {
    const float h = 1e-2f, keep = uf[i];
    uf[i] = keep + h;
    double up = stencil_f(uf, N);
    uf[i] = keep - h;
    double down = stencil_f(uf, N);
    uf[i] = keep;
    CHECK_CLOSE(duf[i], (up - down) / (2 * h), 1e-2);
  }
}

static void check_written(void) {
  static double v[N], dv[N];
  for (int i = 0; i < N; i++) v[i] = 0.5 + 0.001 * i, dv[i] = 0;
  __parad_autodiff((void *)written, v, dv, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dv[i], 2 * 1.5 * 1.5 * (0.5 + 0.001 * i), 1e-12); /* d(1.5 v)^2 / dv */
}

int main(void) {
  for (int k = 0; k < NP; k++) theta[k] = 0.3 * sin(1.7 * k);
  for (int k = 0; k < NO; k++) bias[k] = 0.1 * cos(k);
  for (int i = 0; i < NS * NI; i++) X[i] = sin(0.37 * i);
  for (int s = 0; s < NS; s++) Y[s] = cos(0.1 * s);
  for (int i = 0; i < N; i++) u[i] = sin(0.05 * i) + 0.3 * cos(0.37 * i), uf[i] = (float)u[i];
  for (int k = 0; k < NT; k++) table[k] = 0.5 + 0.4 * sin(0.9 * k);
  for (int i = 0; i < 4 * N; i++) idx[i] = (i * 7 + i / 13) % NT;
  check_model();
  check_pairs();
  check_stencils();
  check_gather();
  check_floats();
  check_written();
  return check_done();
}
