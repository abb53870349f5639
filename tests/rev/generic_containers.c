// Containers as C libraries write them, holding values with derivatives that they move as bytes:
// - a growable array of elements of any size (void *data, realloc, memcpy of `size` bytes), holding
//   doubles and records mixing doubles and an int;
// - an intrusive list (a link inside the record, container_of to get back to it), values memcpy'd in;
// - a chained hash table whose entries keep their value in a flexible `char val[]` payload, filled by
//   memcpy. At -O0 its copy was judged by the entry's layout, in which a char array holds no float: the
//   values' adjoints were dropped (a zero gradient, no message).
// f = sum_i y_i * p_i.pos[1] + p_i.w * p_i.pos[0] over the array, plus sum_i 3 a_i b_i over the table,
// where y_i = x_i^2, p_i = ((x_i, 2 x_i), i, x_{i+1}), a_i = x_i, b_i = x_i x_{i+1}.
// Gradient against central finite differences (h = 1e-6, 1e-6) and forward tangents along each unit
// direction against it (1e-9), at -O2 and -O1; at -O0 the array and the tables each in a file of their
// own (both in one file are refused there: docs/design.md, "Generic containers").
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 && %t1
// RUN: %parad-cc -O0 -DONLY_ARRAYS -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cc -O0 -DONLY_TABLES -I%S/../include %s -o %t0 && %t0
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "parad.h"
#include "check.h"

enum { N = 5 };

typedef struct {
  void *data;
  size_t n, cap, size;
} Vec;

static void vec_init(Vec *v, size_t size) {
  v->data = NULL;
  v->n = v->cap = 0;
  v->size = size;
}

static void vec_push(Vec *v, const void *elem) {
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 2;
    v->data = realloc(v->data, v->cap * v->size);
  }
  memcpy((char *)v->data + v->n++ * v->size, elem, v->size);
}

static void *vec_at(Vec *v, size_t i) { return (char *)v->data + i * v->size; }

typedef struct {
  double pos[2];
  int id;
  double w;
} Particle;

static double arrays(const double *x, int n) {
  Vec a, b;
  vec_init(&a, sizeof(double));
  vec_init(&b, sizeof(Particle));
  for (int i = 0; i < n; i++) {
    double y = x[i] * x[i];
    vec_push(&a, &y);
    Particle p = {{x[i], 2 * x[i]}, i, x[(i + 1) % n]};
    vec_push(&b, &p);
  }
  double s = 0;
  for (size_t i = 0; i < a.n; i++) {
    double *y = vec_at(&a, i);
    Particle *p = vec_at(&b, i);
    s += *y * p->pos[1] + p->w * p->pos[0];
  }
  free(a.data);
  free(b.data);
  return s;
}

struct link {
  struct link *next;
};
typedef struct {
  int key;
  struct link link;
  double v[2];
} Item;
#define ITEM_OF(l) ((Item *)((char *)(l) - offsetof(Item, link)))

typedef struct Entry {
  struct Entry *next;
  int key;
  char val[];
} Entry;
typedef struct {
  Entry *bucket[8];
  size_t val_size;
} Table;

static void put(Table *t, int key, const void *val) {
  Entry *e = malloc(sizeof *e + t->val_size);
  e->key = key;
  e->next = t->bucket[key & 7];
  t->bucket[key & 7] = e;
  memcpy(e->val, val, t->val_size);
}

static void *get(Table *t, int key) {
  for (Entry *e = t->bucket[key & 7]; e; e = e->next)
    if (e->key == key) return e->val;
  return NULL;
}

static double tables(const double *x, int n) {
  struct link *head = NULL;
  for (int i = 0; i < n; i++) {
    Item *it = malloc(sizeof *it);
    it->key = i;
    memcpy(it->v, x + i, sizeof(double));
    it->v[1] = x[i] * x[(i + 1) % n];
    it->link.next = head;
    head = &it->link;
  }
  Table t = {{0}, sizeof(double[2])};
  for (struct link *l = head; l; l = l->next) {
    Item *it = ITEM_OF(l);
    double pair[2] = {3 * it->v[0], it->v[1]};
    put(&t, 3 * it->key, pair);
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *v = get(&t, 3 * i);
    s += v[0] * v[1];
  }
  while (head) {
    struct link *next = head->next;
    free(ITEM_OF(head));
    head = next;
  }
  for (int k = 0; k < 8; k++)
    while (t.bucket[k]) {
      Entry *next = t.bucket[k]->next;
      free(t.bucket[k]);
      t.bucket[k] = next;
    }
  return s;
}

#if defined ONLY_ARRAYS
static double f(const double *x, int n) { return arrays(x, n); }
#elif defined ONLY_TABLES
static double f(const double *x, int n) { return tables(x, n); }
#else
static double f(const double *x, int n) { return arrays(x, n) + tables(x, n); }
#endif

int main(void) {
  double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4}, dx[N] = {0};
  __parad_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) {
    double p[N], m[N], v[N] = {0}, h = 1e-6;
    for (int j = 0; j < N; j++) p[j] = m[j] = x[j];
    p[i] += h, m[i] -= h, v[i] = 1;
    CHECK_CLOSE((f(p, N) - f(m, N)) / (2 * h), dx[i], 1e-6);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, N), dx[i], 1e-9);
  }
  return check_done();
}
