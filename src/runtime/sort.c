/* qsort's and qsort_r's derivatives (ad/library.h registers them). The sort permutes the array's elements; the
 * derivative permutes their tangents, or their adjoints back, the same way: a comparison's outcome has no
 * derivative. The permutation comes from sorting the elements' indices with the program's comparator,
 * equal elements in their first order (as glibc's merge sort leaves them). Forward mode moves whole
 * elements' shadows, so the shadows of pointers in them follow their pointers too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*Compare)(const void *, const void *);
typedef int (*CompareWith)(const void *, const void *, void *); /* qsort_r's, with its context */

/* What the index comparison compares: one sort per thread at a time (a comparator that sorts again
 * saves and restores it). */
static _Thread_local struct {
  const char *base;
  size_t size;
  Compare cmp;
  CompareWith cmp_with;
  void *context;
} sorting;

static int compare_indices(const void *a, const void *b) {
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  const char *x = sorting.base + i * sorting.size, *y = sorting.base + j * sorting.size;
  int c = sorting.cmp_with ? sorting.cmp_with(x, y, sorting.context) : sorting.cmp(x, y);
  return c ? c : (i > j) - (i < j);
}

static void *or_die(void *p) {
  if (!p) {
    fprintf(stderr, "parad runtime: out of memory in qsort's derivative\n");
    exit(70);
  }
  return p;
}

/* order[k]: the element that goes to position k (by cmp, or by cmp_with given context). */
static size_t *sorted_order(const void *base, size_t n, size_t size, Compare cmp, CompareWith cmp_with, void *context) {
  size_t *order = or_die(malloc((n ? n : 1) * sizeof *order));
  for (size_t k = 0; k < n; k++) order[k] = k;
  __typeof__(sorting) saved = sorting;
  sorting.base = base, sorting.size = size, sorting.cmp = cmp, sorting.cmp_with = cmp_with, sorting.context = context;
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

static void forward(void *base, void *dbase, size_t n, size_t size, size_t *order) {
  permute(base, order, n, size, 0);
  permute(dbase, order, n, size, 0);
  free(last.order);
  last.order = order, last.n = n, last.size = size;
}

void __parad_rt_qsort_forward(void *base, void *dbase, size_t n, size_t size, Compare cmp, void *dcmp) {
  (void)dcmp;
  forward(base, dbase, n, size, sorted_order(base, n, size, cmp, NULL, NULL));
}

void __parad_rt_qsort_r_forward(void *base, void *dbase, size_t n, size_t size, CompareWith cmp, void *dcmp,
                                void *context, void *dcontext) {
  (void)dcmp, (void)dcontext;
  forward(base, dbase, n, size, sorted_order(base, n, size, NULL, cmp, context));
}

void __parad_rt_qsort_forward_next(void *base, void *dbase, size_t n, size_t size, Compare cmp, void *dcmp) {
  (void)base, (void)cmp, (void)dcmp;
  if (!last.order || last.n != n || last.size != size) {
    fprintf(stderr, "parad runtime: qsort's derivative for a further direction without the first's\n");
    exit(70);
  }
  permute(dbase, last.order, n, size, 0);
}

void __parad_rt_qsort_r_forward_next(void *base, void *dbase, size_t n, size_t size, CompareWith cmp, void *dcmp,
                                     void *context, void *dcontext) {
  (void)cmp, (void)context, (void)dcontext;
  __parad_rt_qsort_forward_next(base, dbase, n, size, NULL, dcmp);
}

typedef struct {
  size_t *order, n, size;
} SortTape;

static SortTape *augment(void *base, size_t n, size_t size, size_t *order) {
  SortTape *t = or_die(malloc(sizeof *t));
  t->order = order, t->n = n, t->size = size;
  permute(base, t->order, n, size, 0);
  /* the floats' adjoints stay: the forward sweep does not move them (the output's seeds may be there
     already); elements holding pointers are refused (ad/library.h) */
  return t;
}

void *__parad_rt_qsort_augment(void *base, void *dbase, size_t n, size_t size, Compare cmp, void *dcmp) {
  (void)dbase, (void)dcmp;
  return augment(base, n, size, sorted_order(base, n, size, cmp, NULL, NULL));
}

void *__parad_rt_qsort_r_augment(void *base, void *dbase, size_t n, size_t size, CompareWith cmp, void *dcmp,
                                 void *context, void *dcontext) {
  (void)dbase, (void)dcmp, (void)dcontext;
  return augment(base, n, size, sorted_order(base, n, size, NULL, cmp, context));
}

void __parad_rt_qsort_gradient(void *base, void *dbase, size_t n, size_t size, Compare cmp, void *dcmp, void *tape) {
  (void)base, (void)n, (void)size, (void)cmp, (void)dcmp;
  SortTape *t = tape;
  permute(dbase, t->order, t->n, t->size, 1);
  free(t->order);
  free(t);
}

void __parad_rt_qsort_r_gradient(void *base, void *dbase, size_t n, size_t size, CompareWith cmp, void *dcmp,
                                 void *context, void *dcontext, void *tape) {
  (void)cmp, (void)context, (void)dcontext;
  __parad_rt_qsort_gradient(base, dbase, n, size, NULL, dcmp, tape);
}
