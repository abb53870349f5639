// The memory a gradient keeps between calls, computed again and again, where its shadows and tapes come
// and go other ways than malloc and one thread (a probe's optimiser loops):
//   grown:   the function grows a work buffer with realloc; realloc's shadows were made outside the
//            runtime's pool and given back to it, which then held blocks no request took: 430 KB more per
//            call at n = 20000, up to the pool's 2 GiB, each call slower;
//   aligned: a scratch block from aligned_alloc and one from posix_memalign, likewise (310 and 160 KB);
//   tasks:   a region of tasks, each with a tape of its own, reversed by whichever thread runs it: the
//            chunks went to the pool of the thread reversing them while the recording thread made new
//            ones (40-100 KB per call at 2 and 3 threads, without end);
//   split:   __parad_augmentfwd on this thread, __parad_reverse on another (700 MB after 2000 calls).
// Checked: the heap in use (mallinfo2: the arena's and the mapped blocks) grows by under 1 MB from the
// 30th call of each to its 300th (tasks: under 16 MB from the 500th to the 1500th, where it was 40-70 MB:
// the pools grow in steps until they have met the most tapes alive at once, which the scheduling decides,
// 4.3 MB once at 2 threads), and every gradient against the analytic one (1e-12). At 1 to 3 threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm -pthread && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
double __parad_reverse(void *, ...);
extern int parad_tape;

enum { N = 20000, CALLS = 300, WARM = 30, TASK_N = 4000, TASK_CALLS = 1500, TASK_WARM = 500 };

/* sum_i x_i^2 through a buffer grown by doubling */
double grown(const double *x, int n) {
  double *b = NULL;
  int cap = 0;
  for (int i = 0; i < n; i++) {
    if (i == cap) b = realloc(b, sizeof *b * (cap = cap ? 2 * cap : 64));
    b[i] = x[i] * x[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += b[i];
  free(b);
  return s;
}

/* sum_i 3 x_i^2 through aligned scratch */
double aligned(const double *x, int n) {
  double *a = aligned_alloc(64, sizeof *a * n), *p;
  if (posix_memalign((void **)&p, 32, sizeof *p * n)) return 0;
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i], p[i] = 2 * a[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] + p[i];
  free(a), free(p);
  return s;
}

/* sum_i x_i^2 sin x_i, y filled by tasks */
double tasks(const double *x, double *y, int n) {
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < n; b += 64) {
#pragma omp task firstprivate(b)
    for (int i = b; i < b + 64 && i < n; i++) y[i] = x[i] * x[i] * sin(x[i]);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i];
  return s;
}

static size_t heap(void) {
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

static double x[N], g[N], y[N], dy[N];

typedef struct {
  void *tape;
} Job;

static void *reverse_there(void *arg) {
  Job *j = arg;
  __parad_reverse((void *)grown, x, g, N, 1.0, parad_tape, j->tape);
  return NULL;
}

static void check_growth(const char *what, size_t warm, size_t end, size_t most) {
  CHECK_CLOSE(end < warm + most, 1, 0);
  if (end >= warm + most) printf("%s: the heap grew from %zu to %zu bytes\n", what, warm, end);
}

int main(void) {
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.001 * (i % 997);
  size_t warm = 0;
  for (int call = 0; call < CALLS; call++) {
    memset(g, 0, sizeof g);
    __parad_autodiff((void *)grown, x, g, N);
    if (call == WARM) warm = heap();
  }
  check_growth("realloc", warm, heap(), 1 << 20);
  for (int i = 0; i < N; i += 97) CHECK_CLOSE(g[i], 2 * x[i], 1e-12);
  for (int call = 0; call < CALLS; call++) {
    memset(g, 0, sizeof g);
    __parad_autodiff((void *)aligned, x, g, N);
    if (call == WARM) warm = heap();
  }
  check_growth("aligned_alloc", warm, heap(), 1 << 20);
  for (int i = 0; i < N; i += 97) CHECK_CLOSE(g[i], 6 * x[i], 1e-12);
  for (int call = 0; call < TASK_CALLS; call++) {
    memset(g, 0, sizeof g), memset(dy, 0, sizeof dy);
    __parad_autodiff((void *)tasks, x, g, y, dy, TASK_N);
    if (call == TASK_WARM) warm = heap();
  }
  check_growth("tasks", warm, heap(), 16 << 20);
  for (int i = 0; i < TASK_N; i += 97) CHECK_CLOSE(g[i], 2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i]), 1e-12);
  for (int call = 0; call < CALLS; call++) {
    memset(g, 0, sizeof g);
    Job j = {__parad_augmentfwd((void *)grown, x, g, N)};
    pthread_t t;
    pthread_create(&t, NULL, reverse_there, &j);
    pthread_join(t, NULL);
    if (call == WARM) warm = heap();
  }
  check_growth("split on two threads", warm, heap(), 1 << 20);
  for (int i = 0; i < N; i += 97) CHECK_CLOSE(g[i], 2 * x[i], 1e-12);
  return check_done();
}
