// A region's copy loop between a thread's private array and shared memory, which the optimiser turns into
// a memcpy: PolyBench's doitgen (each thread's rows times a shared matrix, summed in a private array and
// copied back in place), a row copied out of shared memory into a private array and back, rows copied
// between two shared arrays, and floats. The memcpy becomes the loop it was before the reverse sweep plans
// the region (omp/omp_shared_copies.c), so the shared matrix's adjoint goes to the threads' buffers, not
// atomically (every update was atomic, a gradient 26-30 times the primal at 2 threads); and the slice that
// doitgen's inner loop reads again for every output comes from a snapshot of the loop, not from a record
// per read (its tape under what those records alone take). A region that zeroes a local array (a
// memset) still has its gathers of a vector it does not write read back from the region's copy (the
// tape under what recording them takes: 55 KB against a 74 KB bound; 129 KB when any memset stopped
// the copies). Built with PARAD_COUNT_UPDATES: at 2 and 4 threads under 5% of the updates are atomic. Every gradient against
// central finite differences (h = 1e-6, tolerance 1e-7; floats h = 1e-2, 2e-3) at 1, 2 and 4 threads,
// and at -O0.
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <omp.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);
size_t parad_tape_recorded_bytes(void);

enum { NR = 8, NQ = 3, NP = 12, NA = NR * NQ * NP, NC = NP * NP };

/* A[r][q][:] = tanh(A[r][q][:] C4), in place, the sums in a private array */
__attribute__((noinline)) static double doitgen(const double *restrict A0, const double *restrict C4, double *restrict A,
                                                const double *restrict W) {
  memcpy(A, A0, sizeof(double) * NA);
#pragma omp parallel for schedule(static)
  for (int r = 0; r < NR; r++) {
    double sum[NP];
    for (int q = 0; q < NQ; q++) {
      double *a = A + (r * NQ + q) * NP;
      for (int p = 0; p < NP; p++) {
        sum[p] = 0;
        for (int s = 0; s < NP; s++) sum[p] += a[s] * C4[s * NP + p];
      }
      for (int p = 0; p < NP; p++) a[p] = sum[p];
    }
  }
  double J = 0;
  for (int i = 0; i < NA; i++) J += W[i] * sin(A[i]);
  return J;
}

/* a row copied out of shared memory into a private array, changed there, and copied back */
__attribute__((noinline)) static double row_through_private(const double *restrict A0, const double *restrict C4,
                                                            double *restrict A, const double *restrict W) {
  memcpy(A, A0, sizeof(double) * NA);
#pragma omp parallel for schedule(static)
  for (int r = 0; r < NR * NQ; r++) {
    double row[NP];
    for (int p = 0; p < NP; p++) row[p] = A[r * NP + p];
    for (int p = 0; p < NP; p++) row[p] = row[p] * row[p] * C4[p * NP + p] + C4[p];
    for (int p = 0; p < NP; p++) A[r * NP + p] = row[p];
  }
  double J = 0;
  for (int i = 0; i < NA; i++) J += W[i] * A[i];
  return J;
}

/* rows copied between two shared arrays, the second read back by the next rows' products */
__attribute__((noinline)) static double shared_to_shared(const double *restrict A0, const double *restrict C4,
                                                         double *restrict A, const double *restrict W) {
  double *B = A + NA / 2;
#pragma omp parallel for schedule(static)
  for (int r = 0; r < NR * NQ / 2; r++) {
    for (int p = 0; p < NP; p++) B[r * NP + p] = A0[r * NP + p];
    double s = 0;
    for (int p = 0; p < NP; p++) s += B[r * NP + p] * C4[p];
    A[r * NP] = s * s;
  }
  double J = 0;
  for (int r = 0; r < NR * NQ / 2; r++) J += W[r] * A[r * NP];
  for (int i = 0; i < NA / 2; i++) J += W[i] * B[i] * B[i];
  return J;
}

/* gathers of a vector the function overwrites after the region, in a region that zeroes a local array
 * (a memset): the region's copy of what each thread read serves the gathers, the memset writing nothing
 * another thread sees */
__attribute__((noinline)) static double gather_local(const double *restrict A0, const double *restrict C4,
                                                     double *restrict A, const double *restrict W) {
  memcpy(A, A0, sizeof(double) * NA);
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int r = 0; r < NA; r++) {
    double local[NP] = {0};
    for (int k = 0; k < 16; k++) local[k % NP] += A[(r * 7 + k * 13) % NA] * A[(r * 5 + k * 11) % NA] * C4[k];
    J += W[r] * local[r % NP] * local[(r + 3) % NP];
  }
  for (int i = 0; i < NA; i++) A[i] = sin(A[i]);
  for (int i = 0; i < NA; i++) J += W[i] * A[i];
  return J;
}

__attribute__((noinline)) static float doitgen_f(const float *restrict A0, const float *restrict C4, float *restrict A,
                                                 const float *restrict W) {
  memcpy(A, A0, sizeof(float) * NA);
#pragma omp parallel for schedule(static)
  for (int r = 0; r < NR; r++) {
    float sum[NP];
    for (int q = 0; q < NQ; q++) {
      float *a = A + (r * NQ + q) * NP;
      for (int p = 0; p < NP; p++) {
        sum[p] = 0;
        for (int s = 0; s < NP; s++) sum[p] += a[s] * C4[s * NP + p];
      }
      for (int p = 0; p < NP; p++) a[p] = sum[p];
    }
  }
  float J = 0;
  for (int i = 0; i < NA; i++) J += W[i] * sinf(A[i]);
  return J;
}

typedef double (*Kernel)(const double *restrict, const double *restrict, double *restrict, const double *restrict);

static double X[NA + NC], G[NA + NC], A[NA], dA[NA], W[NA];
static float Xf[NA + NC], Gf[NA + NC], Af[NA], dAf[NA], Wf[NA];
static unsigned long long atomics, updates;

static void counted(void (*run)(void)) {
  unsigned long long p0, a0, p1, a1;
  parad_adjoint_update_counts(&p0, &a0);
  run();
  parad_adjoint_update_counts(&p1, &a1);
  atomics += a1 - a0, updates += a1 - a0 + p1 - p0;
}

static Kernel current;
static void gradient(void) {
  memset(G, 0, sizeof G);
  memset(dA, 0, sizeof dA);
  if (current == doitgen) __parad_autodiff((void *)doitgen, X, G, X + NA, G + NA, A, dA, parad_const, W);
  if (current == row_through_private) __parad_autodiff((void *)row_through_private, X, G, X + NA, G + NA, A, dA, parad_const, W);
  if (current == gather_local) __parad_autodiff((void *)gather_local, X, G, X + NA, G + NA, A, dA, parad_const, W);
  if (current == shared_to_shared) __parad_autodiff((void *)shared_to_shared, X, G, X + NA, G + NA, A, dA, parad_const, W);
}

static size_t check(Kernel f) {
  current = f;
  size_t before = parad_tape_recorded_bytes();
  counted(gradient);
  size_t bytes = parad_tape_recorded_bytes() - before;
  const double h = 1e-6;
  for (int i = 0; i < NA + NC; i++) {
    double saved = X[i];
    X[i] = saved + h;
    double up = f(X, X + NA, A, W);
    X[i] = saved - h;
    double down = f(X, X + NA, A, W);
    X[i] = saved;
    CHECK_CLOSE(G[i], (up - down) / (2 * h), 1e-7);
  }
  return bytes;
}

static void gradient_f(void) {
  memset(Gf, 0, sizeof Gf);
  memset(dAf, 0, sizeof dAf);
  __parad_autodiff((void *)doitgen_f, Xf, Gf, Xf + NA, Gf + NA, Af, dAf, parad_const, Wf);
}

int main(void) {
  for (int i = 0; i < NA + NC; i++) Xf[i] = (float)(X[i] = 0.4 * sin(0.37 * i + 0.2));
  for (int i = 0; i < NA; i++) Wf[i] = (float)(W[i] = cos(0.11 * i));
  size_t doitgen_bytes = check(doitgen);
  check(row_through_private);
  check(shared_to_shared);
  size_t gather_bytes = check(gather_local);
  counted(gradient_f);
  const float h = 1e-2f;
  for (int i = 0; i < NA + NC; i += 7) {
    float saved = Xf[i];
    Xf[i] = saved + h;
    float up = doitgen_f(Xf, Xf + NA, Af, Wf);
    Xf[i] = saved - h;
    float down = doitgen_f(Xf, Xf + NA, Af, Wf);
    Xf[i] = saved;
    CHECK_CLOSE(Gf[i], (up - down) / (2 * h), 2e-3);
  }
#ifdef COUNTED /* the build counts its updates (and is the -O2 one) */
  /* a[s], read again for every p, comes from a copy of the slice made as the p loop ends (a thread's
     loop may snapshot what it reads: rev_snapshot.c): the tape holds less than those reads' records */
  CHECK_CLOSE((double)(doitgen_bytes < sizeof(double) * NR * NQ * NP * NP), 1, 0);
  /* the gathers (32 a row) from the region's copy of A: the tape under what recording them takes */
  CHECK_CLOSE((double)(gather_bytes < sizeof(double) * NA * 32), 1, 0);
  if (omp_get_max_threads() > 1) {
    CHECK_CLOSE((double)(updates > 0), 1, 0); /* the counts saw the updates */
    if (atomics * 20 >= updates) printf("FAIL: %llu of %llu adjoint updates were atomic\n", atomics, updates), check_failures++;
  }
#endif
  return check_done();
}
