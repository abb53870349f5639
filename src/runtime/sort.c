/* qsort's derivatives (ad/library.h registers them). The sort permutes the array's elements; the
 * derivative permutes their tangents, or their adjoints back, the same way: a comparison's outcome has no
 * derivative. The permutation comes from sorting the elements' indices with the program's comparator,
 * equal elements in their first order (as glibc's merge sort leaves them). Forward mode moves whole
 * elements' shadows, so the shadows of pointers in them follow their pointers too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*Compare)(const void *, const void *);

/* What the index comparison compares: one sort per thread at a time (a comparator that sorts again
 * saves and restores it). */
static _Thread_local struct {
  const char *base;
  size_t size;
  Compare cmp;
} sorting;

static int compare_indices(const void *a, const void *b) {
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  int c = sorting.cmp(sorting.base + i * sorting.size, sorting.base + j * sorting.size);
  return c ? c : (i > j) - (i < j);
}

static void *or_die(void *p) {
  if (!p) {
    fprintf(stderr, "parad runtime: out of memory in qsort's derivative\n");
    exit(70);
  }
  return p;
}

/* order[k]: the element that goes to position k. */
static size_t *sorted_order(const void *base, size_t n, size_t size, Compare cmp) {
  size_t *order = or_die(malloc((n ? n : 1) * sizeof *order));
  for (size_t k = 0; k < n; k++) order[k] = k;
  __typeof__(sorting) saved = sorting;
  sorting.base = base, sorting.size = size, sorting.cmp = cmp;
  qsort(order, n, sizeof *order, compare_indices);
  sorting = saved;
  return order;
}

/* a[k] = old a[order[k]] (forward), or a[order[k]] = old a[k] (back). */
static void permute(void *a, const size_t *order, size_t n, size_t size, int back) {
  if (!a || !n) return;
  char *old = or_die(malloc(n * size));
  memcpy(old, a, n * size);
  for (size_t k = 0; k < n; k++) {
    if (back) memcpy((char *)a + order[k] * size, old + k * size, size);
    else memcpy((char *)a + k * size, old + order[k] * size, size);
  }
  free(old);
}

/* The last forward sort's order, per thread: vector forward mode's other directions move their tangents
 * by it (the first direction's call has sorted the values). Kept until the thread's next sort. */
static _Thread_local struct {
  size_t *order, n, size;
} last;

void __parad_rt_qsort_forward(void *base, void *dbase, size_t n, size_t size, Compare cmp, void *dcmp) {
  (void)dcmp;
  size_t *order = sorted_order(base, n, size, cmp);
  permute(base, order, n, size, 0);
  permute(dbase, order, n, size, 0);
  free(last.order);
  last.order = order, last.n = n, last.size = size;
}

void __parad_rt_qsort_forward_next(void *base, void *dbase, size_t n, size_t size, Compare cmp, void *dcmp) {
  (void)base, (void)cmp, (void)dcmp;
  if (!last.order || last.n != n || last.size != size) {
    fprintf(stderr, "parad runtime: qsort's derivative for a further direction without the first's\n");
    exit(70);
  }
  permute(dbase, last.order, n, size, 0);
}

typedef struct {
  size_t *order, n, size;
} SortTape;

void *__parad_rt_qsort_augment(void *base, void *dbase, size_t n, size_t size, Compare cmp, void *dcmp) {
  (void)dcmp;
  SortTape *t = or_die(malloc(sizeof *t));
  t->order = sorted_order(base, n, size, cmp), t->n = n, t->size = size;
  permute(base, t->order, n, size, 0);
  (void)dbase; /* the floats' adjoints stay: the forward sweep does not move them (the output's seeds may be
                  there already); elements holding pointers are refused (ad/library.h) */
  return t;
}

void __parad_rt_qsort_gradient(void *base, void *dbase, size_t n, size_t size, Compare cmp, void *dcmp, void *tape) {
  (void)base, (void)n, (void)size, (void)cmp, (void)dcmp;
  SortTape *t = tape;
  permute(dbase, t->order, t->n, t->size, 1);
  free(t->order);
  free(t);
}
