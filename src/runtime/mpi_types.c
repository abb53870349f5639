/* What MPI data holds for derivatives (see mpi_types.h): datatypes flattened from the library's own
 * description, the floats of a buffer, and the packed bytes this rank wrote. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "mpi_types.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The file:line of the MPI call whose runtime entry point runs, which the generated code sets before it
 * (mpi/mpi_calls.c, mpi_set_site): a refusal made here names it. */
_Thread_local const char *__parad_mpi_site;

void parad_mpi_die(const char *fmt, ...) {
  int rank = -1;
  char msg[1024];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (__parad_mpi_site) /* one write: other ranks' messages do not cut into it */
    fprintf(stderr, "parad: rank %d: %s (the MPI call at %s)\n", rank, msg, __parad_mpi_site);
  else
    fprintf(stderr, "parad: rank %d: %s\n", rank, msg);
  /* MPICH's launcher may drop what is still on its way when an abort ends the ranks: give it time */
  nanosleep(&(struct timespec){0, 200000000}, NULL);
  MPI_Abort(MPI_COMM_WORLD, 1);
  abort();
}

void *parad_mpi_alloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p) parad_mpi_die("out of memory (%zu bytes)", n);
  return p;
}

#define die parad_mpi_die
#define alloc parad_mpi_alloc

/* ---- flattening a datatype ---- */

/* What a predefined datatype is: bytes carry what the buffer holds, integers nothing. */
static int named_kind(MPI_Datatype t) {
  static const MPI_Datatype bytes[] = {MPI_BYTE, MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_INT8_T, MPI_UINT8_T, MPI_PACKED};
  static const MPI_Datatype integers[] = {
      MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
      MPI_UNSIGNED_LONG_LONG, MPI_INT16_T, MPI_UINT16_T, MPI_INT32_T, MPI_UINT32_T, MPI_INT64_T, MPI_UINT64_T,
      MPI_C_BOOL, MPI_WCHAR, MPI_AINT, MPI_OFFSET, MPI_COUNT,
  };
  if (t == MPI_DOUBLE) return E_F64;
  if (t == MPI_FLOAT) return E_F32;
  for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++)
    if (t == bytes[i]) return E_BYTES;
  for (size_t i = 0; i < sizeof integers / sizeof integers[0]; i++)
    if (t == integers[i]) return E_INT;
  return E_OTHER; /* long double, complex, the other pairs for MAXLOC, ... */
}

static int combiner(MPI_Datatype t) {
  int ni, na, nd, c;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
  return c;
}

static MPI_Aint extent_of(MPI_Datatype t) {
  MPI_Aint lb, extent;
  MPI_Type_get_extent(t, &lb, &extent);
  return extent;
}

/* Appends a run, merged into the last one where it continues it. */
static void push_entry(Flat *f, MPI_Aint disp, MPI_Aint len, int kind) {
  Entry *last = f->n ? &f->e[f->n - 1] : NULL;
  if (last && last->kind == kind && last->disp + last->len == disp) {
    last->len += len;
    return;
  }
  if (f->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 8;
    f->e = realloc(f->e, f->cap * sizeof *f->e);
    if (!f->e) die("out of memory");
  }
  f->e[f->n++] = (Entry){disp, len, 0, kind};
}

static void flatten(Flat *f, MPI_Datatype t, MPI_Aint at);

/* count consecutive elements of t from at */
static void block(Flat *f, MPI_Datatype t, MPI_Aint at, int count) {
  MPI_Aint extent = extent_of(t);
  for (int i = 0; i < count; i++) flatten(f, t, at + i * extent);
}

/* A subarray's elements from dimension d on, in the order of their addresses: ints is the library's
 * description (ndims, sizes, subsizes, starts, order); `at` the byte of the element the dimensions before d
 * chose. The fastest dimension is the last in C order, the first in Fortran order. */
static void subarray(Flat *f, const int *ints, MPI_Datatype old, MPI_Aint at, int level) {
  int nd = ints[0], c_order = ints[1 + 3 * nd] == MPI_ORDER_C;
  const int *sizes = ints + 1, *subsizes = ints + 1 + nd, *starts = ints + 1 + 2 * nd;
  int d = c_order ? level : nd - 1 - level; /* the dimension this level goes along */
  MPI_Aint stride = extent_of(old);
  for (int e = c_order ? d + 1 : 0; c_order ? e < nd : e < d; e++) stride *= sizes[e];
  if (level == nd - 1) {
    block(f, old, at + starts[d] * stride, subsizes[d]);
    return;
  }
  for (int k = 0; k < subsizes[d]; k++) subarray(f, ints, old, at + (MPI_Aint)(starts[d] + k) * stride, level + 1);
}

/* Appends one element of t placed at byte `at`, from the library's description of how t was built. */
static void flatten(Flat *f, MPI_Datatype t, MPI_Aint at) {
  int ni, na, nd, c;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
  if (t == MPI_DOUBLE_INT || t == MPI_FLOAT_INT) { /* MAXLOC's and MINLOC's pairs: a value, then an int */
    int k = t == MPI_DOUBLE_INT ? 8 : 4;
    push_entry(f, at, k, k == 8 ? E_F64 : E_F32);
    push_entry(f, at + k, sizeof(int), E_INT);
    f->elements += 2;
    return;
  }
  if (c == MPI_COMBINER_NAMED) {
    int size, kind = named_kind(t);
    MPI_Type_size(t, &size);
    push_entry(f, at, size, kind);
    f->elements += kind == E_BYTES ? size : 1;
    return;
  }
  int *ints = alloc(sizeof *ints * (size_t)(ni + 1));
  MPI_Aint *aints = alloc(sizeof *aints * (size_t)(na + 1));
  MPI_Datatype *types = alloc(sizeof *types * (size_t)(nd + 1));
  MPI_Type_get_contents(t, ni, na, nd, ints, aints, types);
  int n = ni ? ints[0] : 0;
  switch (c) {
  case MPI_COMBINER_DUP:
  case MPI_COMBINER_RESIZED: flatten(f, types[0], at); break; /* resizing moves the bounds, not the data */
  case MPI_COMBINER_CONTIGUOUS: block(f, types[0], at, n); break;
  case MPI_COMBINER_VECTOR:
    for (int i = 0; i < n; i++) block(f, types[0], at + (MPI_Aint)i * ints[2] * extent_of(types[0]), ints[1]);
    break;
  case MPI_COMBINER_HVECTOR:
    for (int i = 0; i < n; i++) block(f, types[0], at + i * aints[0], ints[1]);
    break;
  case MPI_COMBINER_INDEXED:
    for (int i = 0; i < n; i++) block(f, types[0], at + ints[1 + n + i] * extent_of(types[0]), ints[1 + i]);
    break;
  case MPI_COMBINER_HINDEXED:
    for (int i = 0; i < n; i++) block(f, types[0], at + aints[i], ints[1 + i]);
    break;
  case MPI_COMBINER_INDEXED_BLOCK:
    for (int i = 0; i < n; i++) block(f, types[0], at + ints[2 + i] * extent_of(types[0]), ints[1]);
    break;
  case MPI_COMBINER_HINDEXED_BLOCK:
    for (int i = 0; i < n; i++) block(f, types[0], at + aints[i], ints[1]);
    break;
  case MPI_COMBINER_STRUCT:
    for (int i = 0; i < n; i++) block(f, types[i], at + aints[i], ints[1 + i]);
    break;
  case MPI_COMBINER_SUBARRAY: subarray(f, ints, types[0], at, 0); break;
  default: { /* darray, ...: data Parad does not look into */
    int size;
    MPI_Type_size(t, &size);
    push_entry(f, at, size, E_OTHER);
    f->elements++;
  }
  }
  for (int i = 0; i < nd; i++)
    if (combiner(types[i]) != MPI_COMBINER_NAMED) MPI_Type_free(&types[i]);
  free(ints), free(aints), free(types);
}

static int by_disp(const void *a, const void *b) {
  MPI_Aint x = ((const Entry *)a)->disp, y = ((const Entry *)b)->disp;
  return (x > y) - (x < y);
}

/* Whether two of f's entries that may hold floats overlap. */
static int repeated_entries(const Flat *f) {
  Entry *e = alloc(sizeof *e * (f->n ? f->n : 1));
  size_t n = 0;
  for (size_t i = 0; i < f->n; i++)
    if (f->e[i].kind == E_F64 || f->e[i].kind == E_F32 || f->e[i].kind == E_BYTES) e[n++] = f->e[i];
  qsort(e, n, sizeof *e, by_disp);
  int repeats = 0;
  for (size_t i = 1; i < n && !repeats; i++) repeats = e[i].disp < e[i - 1].disp + e[i - 1].len;
  free(e);
  return repeats;
}

static Flat *flat_build(MPI_Datatype t) {
  Flat *f = alloc(sizeof *f);
  flatten(f, t, 0);
  MPI_Aint lb;
  MPI_Type_get_extent(t, &lb, &f->extent);
  MPI_Type_get_true_extent(t, &f->true_lb, &f->true_extent);
  for (size_t i = 0; i < f->n; i++) {
    Entry *e = &f->e[i];
    e->packed = f->packed_size;
    f->packed_size += e->len;
    f->floats += e->kind == E_F64 || e->kind == E_F32;
    f->bytes += e->kind == E_BYTES;
    f->other += e->kind == E_OTHER;
  }
  f->native = -1;
  f->repeats = repeated_entries(f);
  return f;
}

static void flat_release(Flat *f) {
  if (f && f->refs > 0 && --f->refs == 0) free(f->e), free(f);
}

/* A derived datatype's flat form rides on it as an attribute, so that freeing the datatype (after which
 * the library may reuse its handle) forgets it. */
static int forget(MPI_Datatype t, int key, void *flat, void *extra) {
  (void)t, (void)key, (void)extra;
  flat_release(flat);
  return MPI_SUCCESS;
}

static int keyval = MPI_KEYVAL_INVALID;

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first: the keyval goes then. */
static int at_finalize(MPI_Comm c, int key, void *attr, void *extra) {
  (void)c, (void)attr, (void)extra;
  MPI_Type_free_keyval(&keyval);
  MPI_Comm_free_keyval(&key);
  return MPI_SUCCESS;
}

static Flat *flat_of(MPI_Datatype t) {
  static struct {
    MPI_Datatype t;
    Flat *f;
  } named[64];
  static int nnamed;
  if (combiner(t) == MPI_COMBINER_NAMED) {
    for (int i = 0; i < nnamed; i++)
      if (named[i].t == t) return named[i].f;
    Flat *f = flat_build(t);
    f->refs = -1;
    if (nnamed < 64) named[nnamed].t = t, named[nnamed++].f = f;
    return f;
  }
  if (keyval == MPI_KEYVAL_INVALID) {
    int self;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, forget, &keyval, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &self, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, self, NULL);
  }
  Flat *f;
  int found;
  MPI_Type_get_attr(t, keyval, &f, &found);
  if (found) return f;
  f = flat_build(t);
  f->refs = 1;
  MPI_Type_set_attr(t, keyval, f);
  return f;
}

/* ---- shapes ---- */

Shape shape_of(MPI_Datatype t, const void *layout) {
  static Flat nothing = {.refs = -1}; /* MPI_DATATYPE_NULL: the unused side of MPI_IN_PLACE */
  Shape s = {t, 0, &nothing, layout, 0};
  if (t == MPI_DATATYPE_NULL) return s;
  if (t == MPI_PACKED) return s.flat = NULL, s;
  s.flat = flat_of(t);
  s.k = t == MPI_DOUBLE ? 8 : t == MPI_FLOAT ? 4 : 0;
  return s;
}

void shape_keep(Shape *s) {
  if (!s->flat || s->flat->refs < 0) return; /* predefined: lives as long as MPI */
  MPI_Type_dup(s->type, &s->type);
  s->dup = 1;
  s->flat->refs++;
}

void shape_drop(Shape *s) {
  if (!s->dup) return;
  MPI_Type_free(&s->type);
  flat_release(s->flat);
  s->dup = 0;
}

int shape_carries(const Shape *s) { return !s->flat || s->flat->floats || s->flat->bytes || s->flat->other; }

int shape_packed(const Shape *s) { return !s->flat; }

int shape_repeats(const Shape *s) { return s->flat && s->flat->repeats; }

void shape_span(const Shape *s, int count, MPI_Aint *lo, MPI_Aint *hi) {
  *lo = *hi = 0;
  if (count <= 0) return;
  if (!s->flat) {
    *hi = count;
    return;
  }
  const Flat *f = s->flat;
  MPI_Aint first = f->true_lb, last = (MPI_Aint)(count - 1) * f->extent + f->true_lb + f->true_extent;
  *lo = first < 0 ? first : 0;
  *hi = last > 0 ? last : 0;
}

int shape_elements(const Shape *s, int count) { return s->flat ? count * s->flat->elements : count; }

MPI_Aint shape_offset(const Shape *s, int count) { return (MPI_Aint)count * (s->flat ? s->flat->extent : 1); }

/* ---- floats of a buffer ---- */

static void push_float(Floats *f, size_t *cap, MPI_Aint at, MPI_Aint packed, int size) {
  if (f->n == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    f->at = realloc(f->at, *cap * sizeof *f->at);
    f->packed = realloc(f->packed, *cap * sizeof *f->packed);
    f->size = realloc(f->size, *cap);
    if (!f->at || !f->packed || !f->size) die("out of memory");
  }
  f->at[f->n] = at, f->packed[f->n] = packed, f->size[f->n++] = (unsigned char)size;
}

/* The floats the compiler's layout puts in the buffer's bytes [lo, hi); packed offsets from `packed` at lo. */
static void layout_floats(const BytesLayout *l, MPI_Aint lo, MPI_Aint hi, MPI_Aint packed, Floats *f, size_t *cap) {
  MPI_Aint period = l->period, q = lo + (MPI_Aint)l->phase;
  MPI_Aint start = (q >= 0 ? q / period : -((period - 1 - q) / period)) * period - (MPI_Aint)l->phase;
  if (l->period >= LAYOUT_ONCE && (start != -(MPI_Aint)l->phase || hi > start + period))
    die("a message of bytes reaches outside a block with a header and a flexible array member, or past its first GiB");
  for (; start < hi; start += period) /* start: where a pattern begins, in buffer bytes */
    for (unsigned r = 0; r < l->n; r++) {
      unsigned offset = l->runs[r][0], count = l->runs[r][1], kind = l->runs[r][2];
      int size = kind == RUN_F32 ? 4 : 8;
      if (kind == RUN_PTR) continue;
      MPI_Aint first = start + offset;
      MPI_Aint i = first >= lo ? 0 : (lo - first + size - 1) / size; /* the values wholly in [lo, hi) */
      for (; i < (MPI_Aint)count && first + i * size + size <= hi; i++) push_float(f, cap, first + i * size, packed + first + i * size - lo, size);
    }
}

void shape_check(const Shape *s, const char *call) {
  const Flat *fl = s->flat;
  if (!fl) return;
  if (fl->other) die("%s moves active data of a datatype Parad cannot differentiate (doubles, floats and bytes of a known layout carry derivatives)", call);
  if (fl->bytes && (!s->layout || s->layout->period == 0))
    die("%s moves active data as bytes, and Parad could not tell at compile time which of them are floats", call);
}

Floats floats_of(const Shape *s, int first, int count, const char *call) {
  Floats f = {0};
  if (s->k) {
    f.n = (size_t)(count > 0 ? count : 0), f.k = s->k;
    f.at = alloc(sizeof *f.at), f.at[0] = (MPI_Aint)first * s->k; /* where float 0 is */
    return f;
  }
  const Flat *fl = s->flat;
  if (!fl) die("internal error: the floats of MPI_PACKED data come from its MPI_Pack");
  shape_check(s, call);
  size_t cap = 0;
  if (fl->n == 1 && fl->e[0].kind == E_BYTES && fl->e[0].disp == 0 && fl->e[0].len == fl->extent) { /* plain bytes */
    layout_floats(s->layout, (MPI_Aint)first * fl->extent, (MPI_Aint)(first + count) * fl->extent, 0, &f, &cap);
    return f;
  }
  for (int el = 0; el < count; el++) {
    MPI_Aint base = (MPI_Aint)(first + el) * fl->extent, pbase = (MPI_Aint)el * fl->packed_size;
    for (size_t i = 0; i < fl->n; i++) {
      const Entry *e = &fl->e[i];
      if (e->kind == E_BYTES) layout_floats(s->layout, base + e->disp, base + e->disp + e->len, pbase + e->packed, &f, &cap);
      if (e->kind != E_F64 && e->kind != E_F32) continue;
      int size = e->kind == E_F64 ? 8 : 4;
      for (MPI_Aint at = 0; at + size <= e->len; at += size) push_float(&f, &cap, base + e->disp + at, pbase + e->packed + at, size);
    }
  }
  return f;
}

/* Whether MPI_Pack writes an element as its entries' bytes in type-map order (native packing, as Open MPI
 * and MPICH do between like machines): two elements of distinct bytes are packed and compared. */
static int packs_natively(const Shape *s) {
  const Flat *fl = s->flat;
  MPI_Aint lo, hi;
  shape_span(s, 2, &lo, &hi);
  unsigned char *in = alloc((size_t)(hi - lo)), *origin = in - lo;
  uint32_t x = 2463534242u;
  for (MPI_Aint i = 0; i < hi - lo; i++) x ^= x << 13, x ^= x >> 17, x ^= x << 5, in[i] = (unsigned char)x;
  int size, pos = 0, ok;
  MPI_Pack_size(2, s->type, MPI_COMM_SELF, &size);
  unsigned char *out = alloc((size_t)size);
  MPI_Pack(origin, 2, s->type, out, size, &pos, MPI_COMM_SELF);
  ok = pos == 2 * fl->packed_size;
  for (int el = 0; el < 2 && ok; el++)
    for (size_t i = 0; i < fl->n && ok; i++) {
      const Entry *e = &fl->e[i];
      ok = !memcmp(out + el * fl->packed_size + e->packed, origin + el * fl->extent + e->disp, (size_t)e->len);
    }
  free(in), free(out);
  return ok;
}

Floats floats_packed(const Shape *s, int count, const char *call) {
  if (!s->flat) die("%s packs MPI_PACKED data: Parad cannot tell where its floats are", call);
  if (s->flat->native < 0) s->flat->native = packs_natively(s);
  if (!s->flat->native) die("%s: this MPI library's packed format is not the data's own bytes, so Parad cannot tell where the packed floats are", call);
  return floats_of(s, 0, count, call);
}

void floats_free(Floats *f) {
  free(f->at), free(f->packed), free(f->size);
  memset(f, 0, sizeof *f);
}

/* Float i of f: its offset (where: AT or PACKED_AT) and size. */
static MPI_Aint offset(const Floats *f, size_t i, int where) {
  if (f->k) return (where == AT ? f->at[0] : 0) + (MPI_Aint)i * f->k;
  return where == AT ? f->at[i] : f->packed[i];
}

static int size_of(const Floats *f, size_t i) { return f->k ? f->k : f->size[i]; }

/* *d += *s, for a float of `size` bytes wherever they lie */
static void add_at(char *d, const char *s, int size) {
  if (size == 8) {
    double x, y;
    memcpy(&x, d, 8), memcpy(&y, s, 8), x += y, memcpy(d, &x, 8);
  } else {
    float x, y;
    memcpy(&x, d, 4), memcpy(&y, s, 4), x += y, memcpy(d, &x, 4);
  }
}

void floats_move(char *dst, int dst_where, char *src, int src_where, const Floats *f, int zero_src) {
  if (!src) return;
  for (size_t i = 0; i < f->n; i++) {
    char *s = src + offset(f, i, src_where);
    if (dst) add_at(dst + offset(f, i, dst_where), s, size_of(f, i));
    if (zero_src) memset(s, 0, (size_t)size_of(f, i));
  }
}

void floats_zero(char *dst, const Floats *f) {
  if (!dst) return;
  if (f->k) {
    memset(dst + f->at[0], 0, f->n * (size_t)f->k);
    return;
  }
  for (size_t i = 0; i < f->n; i++) memset(dst + f->at[i], 0, f->size[i]);
}

Reals reals_get(const char *base, const Floats *f) {
  Reals r = {NULL, f->n, 4, MPI_FLOAT};
  for (size_t i = 0; i < f->n && r.k == 4; i++)
    if (size_of(f, i) == 8) r.k = 8, r.type = MPI_DOUBLE;
  r.v = alloc(f->n * (size_t)r.k);
  for (size_t i = 0; base && i < f->n; i++) {
    const char *p = base + offset(f, i, AT);
    double x;
    if (size_of(f, i) == 8) memcpy(&x, p, 8);
    else {
      float y;
      memcpy(&y, p, 4);
      x = y;
    }
    if (r.k == 8) ((double *)r.v)[i] = x;
    else ((float *)r.v)[i] = (float)x;
  }
  return r;
}

void reals_put(char *base, const Floats *f, const Reals *r, int add) {
  if (!base) return;
  for (size_t i = 0; i < f->n; i++) {
    char *p = base + offset(f, i, AT);
    double x = r->k == 8 ? ((double *)r->v)[i] : ((float *)r->v)[i];
    if (size_of(f, i) == 8) {
      double y = 0;
      if (add) memcpy(&y, p, 8);
      y += x;
      memcpy(p, &y, 8);
    } else {
      float y = 0;
      if (add) memcpy(&y, p, 4);
      y += (float)x;
      memcpy(p, &y, 4);
    }
  }
}

/* ---- packed bytes ---- */

/* Regions of packed bytes, newest last: what MPI_Pack wrote and MPI_Unpack read (floats known, with a
 * hash of the bytes then, which tells when they were overwritten since), or what a receive brought. */
typedef struct {
  char *lo, *hi;
  Floats f; /* at: offsets from lo */
  int known;
  uint64_t hash;
} Region;

enum { MAX_REGIONS = 4096 }; /* past this the oldest go: bytes then unknown are refused, never guessed */
static _Thread_local struct {
  Region *r;
  size_t n;
} regions;

static uint64_t hash(const char *p, size_t n) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211u;
  return h;
}

static void forget_region(size_t i) {
  floats_free(&regions.r[i].f);
  memmove(&regions.r[i], &regions.r[i + 1], (regions.n - i - 1) * sizeof *regions.r);
  regions.n--;
}

void packed_note(char *lo, char *hi, const Floats *f) {
  if (!regions.r) regions.r = alloc(MAX_REGIONS * sizeof *regions.r);
  for (size_t i = regions.n; i-- > 0;) /* what this covers whole is gone */
    if (regions.r[i].lo >= lo && regions.r[i].hi <= hi) forget_region(i);
  if (regions.n == MAX_REGIONS) forget_region(0);
  Region *r = &regions.r[regions.n++];
  *r = (Region){lo, hi, {0}, f != NULL, hash(lo, (size_t)(hi - lo))};
  if (!f) return;
  r->f.n = f->n;
  r->f.at = alloc((f->n ? f->n : 1) * sizeof *r->f.at);
  r->f.size = alloc(f->n ? f->n : 1);
  for (size_t i = 0; i < f->n; i++) r->f.at[i] = offset(f, i, PACKED_AT), r->f.size[i] = (unsigned char)size_of(f, i);
  r->f.packed = alloc((f->n ? f->n : 1) * sizeof *r->f.packed);
  memcpy(r->f.packed, r->f.at, f->n * sizeof *r->f.at);
}

Floats packed_floats(const char *buf, int n, const char *call) {
  Floats f = {0};
  size_t cap = 0;
  char *claimed = alloc((size_t)(n > 0 ? n : 0)); /* bytes a newer region accounts for */
  for (size_t i = regions.n; i-- > 0;) {
    const Region *r = &regions.r[i];
    MPI_Aint lo = r->lo - buf, hi = r->hi - buf, fresh = 0;
    for (MPI_Aint b = lo < 0 ? 0 : lo; b < hi && b < n; b++) fresh |= !claimed[b];
    if (!fresh) continue;
    if (!r->known)
      die("%s sends MPI_PACKED bytes that arrived by a receive and were not unpacked on this rank: Parad cannot tell which of them are floats", call);
    if (lo < 0 || hi > n) die("%s sends part of the bytes one MPI_Pack wrote: Parad cannot tell which floats go", call);
    if (hash(r->lo, (size_t)(hi - lo)) != r->hash)
      die("%s sends MPI_PACKED bytes that were overwritten since MPI_Pack wrote them: Parad cannot tell which of them are floats", call);
    for (size_t j = 0; j < r->f.n; j++) {
      MPI_Aint at = lo + r->f.at[j], unclaimed = 1;
      for (MPI_Aint b = at; b < at + r->f.size[j]; b++) unclaimed &= !claimed[b];
      if (unclaimed) push_float(&f, &cap, at, at, r->f.size[j]);
    }
    memset(claimed + lo, 1, (size_t)(hi - lo));
  }
  for (int b = 0; b < n; b++)
    if (!claimed[b]) die("%s sends MPI_PACKED bytes that no MPI_Pack on this rank wrote (byte %d): Parad cannot tell which of them are floats", call, b);
  free(claimed);
  return f;
}
