// Arrays of structs that mix doubles with an int, moved by memmove and memcpy of byte counts computed
// from pointers, in helpers kept calls, as growable arrays are written in C (and as std::vector's
// _M_realloc_insert relocates at -Os: tests/cxx/stable_sort.cpp there):
//   sorted_value:  an insertion into a sorted array: the tail shifted by one element in place
//                  (memmove(pos + 1, pos, end - pos)), or, when full, the head and the tail moved into a
//                  new block around the new element;
//   grown_value:   an array grown by doubling, the old elements copied by their byte count (end - begin),
//                  the block's element count taken as (end - begin) / sizeof, which the optimiser marks
//                  an exact division.
// No type says what such a copy moves where the optimiser addresses the elements by bytes: reverse mode
// refused them ("cannot tell what this copy moves (mixed data)"), at -O2 and -Os. Now an end that is, up
// to constant offsets, where the function copies one tagged struct (`*pos = item`) is laid out as an
// array of that struct, and a byte distance the program divides exactly by a struct's size steps by it.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at -O2,
// -Os and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -Os -I%S/../include %s -o %ts -lm && %ts
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 7 };

typedef struct {
  double key, w;
  int id;
} Item;
typedef struct {
  Item *begin, *end, *cap;
} List;

__attribute__((noinline)) static void insert_at(List *l, Item *pos, Item p) {
  if (l->end == l->cap) {
    size_t n = l->end - l->begin, cap = n ? 2 * n : 2;
    Item *nb = malloc(cap * sizeof *nb);
    size_t head = (char *)pos - (char *)l->begin, tail = (char *)l->end - (char *)pos, k = pos - l->begin;
    nb[k] = p;
    if (head) memmove(nb, l->begin, head);
    if (tail) memmove(nb + k + 1, pos, tail);
    free(l->begin);
    l->begin = nb, l->end = nb + n + 1, l->cap = nb + cap;
    return;
  }
  memmove(pos + 1, pos, (char *)l->end - (char *)pos);
  *pos = p;
  l->end++;
}

static double sorted_value(const double *x) {
  List l = {0};
  for (int i = 0; i < N; i++) {
    Item p = {x[i] * x[i], sin(x[i]), i};
    Item *pos = l.begin;
    while (pos != l.end && pos->key < p.key) pos++;
    insert_at(&l, pos, p);
  }
  double s = 0;
  for (Item *q = l.begin; q != l.end; q++) s += q->w * (double)(q - l.begin + 1) + q->key * q->id;
  free(l.begin);
  return s;
}

__attribute__((noinline)) static void push(List *l, Item p) {
  if (l->end == l->cap) {
    size_t bytes = (char *)l->end - (char *)l->begin, n = bytes / sizeof(Item), cap = n ? 2 * n : 1;
    Item *nb = malloc(cap * sizeof *nb);
    if (bytes) memcpy(nb, l->begin, bytes);
    free(l->begin);
    l->begin = nb, l->end = nb + n, l->cap = nb + cap;
  }
  *l->end++ = p;
}

static double grown_value(const double *x) {
  List l = {0};
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < N; i++) push(&l, (Item){x[i] * (r + 1), cos(x[i] * x[(i + r) % N]), i + r});
  double s = 0;
  for (Item *q = l.begin; q != l.end; q++) s += q->key * q->w + q->id * q->key * q->key;
  free(l.begin);
  return s;
}

int main(void) {
  const double x[N] = {0.3, -1.2, 2.5, 0.9, -0.4, 1.7, 0.05};
  CHECK_GRADIENT(sorted_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(grown_value, x, N, 1e-12, 1e-5, 1e-6);
  return check_done();
}
