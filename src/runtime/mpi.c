/* Parad's MPI runtime: the derivatives of the MPI calls in differentiated code (src/mpi/mpi.h says how
 * generated code calls it). Compiled against the MPI library the program uses (lib/libparad_mpi.a), so
 * handles, datatypes and their sizes are that library's own.
 *
 * Only MPI_DOUBLE and MPI_FLOAT buffers carry derivatives; integer datatypes pass through as they are;
 * any other datatype with a shadow ends the program with a message.
 *
 * Forward mode sends a buffer's tangent in the same message as its values ([values | tangents | a mark]):
 * one message cannot be split by a wildcard receive. Collectives run twice, once for the
 * values and once for the tangents; MAX, MIN and PROD reductions scale the tangents by each rank's local
 * factor (1 on the rank that holds the extremum, the product of the other ranks' values).
 *
 * Reverse mode transposes each call. A send's adjoint receives the adjoint and adds it to the send
 * buffer's; a receive's adjoint sends the receive buffer's adjoint back to the actual source and zeroes
 * it; Bcast <-> Reduce(SUM); Reduce and Allreduce -> Bcast and Allreduce(SUM) of the result's adjoint,
 * scaled by the local factor; Gather <-> Scatter; Allgather -> Reduce_scatter_block; Alltoall ->
 * Alltoall; Barrier -> Barrier. Non-blocking calls leave a record that their wait completes (the actual
 * source and tag); the adjoint of the wait starts the transposed communication and the adjoint of the
 * Isend or Irecv finishes it. A value every rank holds after an Allreduce is one value: seed its
 * adjoint on one rank only.
 *
 * Every wait of the reverse sweep gives up after PARAD_MPI_TIMEOUT seconds (default 600) with a
 * message naming the call and the peer, instead of hanging when a partner never comes. */
#include <mpi.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---- */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "parad: rank %d: ", rank);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  MPI_Abort(MPI_COMM_WORLD, 1);
  abort();
}

static void *alloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p) die("out of memory (%zu bytes)", n);
  return p;
}

/* ---- datatypes ---- */

/* The bytes of one element of a buffer that carries derivatives (8 or 4), or 0 for a datatype that
 * carries none. A datatype Parad cannot differentiate is an error where a shadow says the data is
 * active. */
static int real_size(MPI_Datatype t, const void *shadow, const void *shadow2, const char *call) {
  if (t == MPI_DOUBLE) return 8;
  if (t == MPI_FLOAT) return 4;
  static const MPI_Datatype plain[] = {
      MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT,
      MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_INT8_T, MPI_UINT8_T,
      MPI_INT16_T, MPI_UINT16_T, MPI_INT32_T, MPI_UINT32_T, MPI_INT64_T, MPI_UINT64_T, MPI_C_BOOL, MPI_WCHAR,
      MPI_AINT, MPI_OFFSET,
  };
  for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
    if (t == plain[i]) return 0;
  if (shadow || shadow2)
    die("%s moves active data of a datatype Parad cannot differentiate (only MPI_DOUBLE and MPI_FLOAT carry "
        "derivatives)", call);
  return 0;
}

static size_t bytes(int count, int k) { return (size_t)(count > 0 ? count : 0) * (size_t)k; }

/* dst += src; dst += f * src (f of the same precision); both for n elements of k bytes */
static void add_into(void *dst, const void *src, size_t n, int k) {
  if (!dst) return;
  if (k == 8)
    for (size_t i = 0; i < n; i++) ((double *)dst)[i] += ((const double *)src)[i];
  else
    for (size_t i = 0; i < n; i++) ((float *)dst)[i] += ((const float *)src)[i];
}

static void scale_into(void *dst, const void *f, const void *src, size_t n, int k, int overwrite) {
  if (!dst) return;
  for (size_t i = 0; i < n; i++) {
    double v = k == 8 ? ((const double *)src)[i] : ((const float *)src)[i];
    if (f) v *= k == 8 ? ((const double *)f)[i] : ((const float *)f)[i];
    if (k == 8)
      ((double *)dst)[i] = overwrite ? v : ((double *)dst)[i] + v;
    else
      ((float *)dst)[i] = (float)(overwrite ? v : ((float *)dst)[i] + v);
  }
}

static void zero(void *p, size_t nbytes) {
  if (p) memset(p, 0, nbytes);
}

/* A buffer to send or receive through where a shadow is missing: zeros, freed by the caller. */
static void *or_scratch(void *shadow, size_t nbytes, void **scratch) {
  if (shadow) return shadow;
  return *scratch = alloc(nbytes);
}

static int comm_size(MPI_Comm c) {
  int n;
  MPI_Comm_size(c, &n);
  return n;
}

static int comm_rank(MPI_Comm c) {
  int r;
  MPI_Comm_rank(c, &r);
  return r;
}

/* ---- waiting without hanging ---- */

static double timeout_seconds(void) {
  static double seconds = -1;
  if (seconds < 0) {
    const char *s = getenv("PARAD_MPI_TIMEOUT");
    seconds = s && *s ? atof(s) : 600;
  }
  return seconds;
}

static void finish(MPI_Request *r, MPI_Status *st, const char *what, int peer) {
  double limit = timeout_seconds(), start = MPI_Wtime();
  for (int done = 0;;) {
    MPI_Test(r, &done, st ? st : MPI_STATUS_IGNORE);
    if (done) return;
    if (limit > 0 && MPI_Wtime() - start > limit)
      die("the adjoint of %s waited %g s for rank %d, which never took part: does every rank make the same "
          "communication in the same order (and with the same counts)?", what, limit, peer);
    sched_yield();
  }
}

static void check_count(MPI_Status *st, MPI_Datatype t, int want, const char *what, int peer) {
  if (peer == MPI_PROC_NULL) return; /* nothing comes from MPI_PROC_NULL */
  int got;
  MPI_Get_count(st, t, &got);
  if (got != want)
    die("the adjoint of %s received %d elements from rank %d where %d were expected: the ranks do not make "
        "matching calls", what, got, peer, want);
}

/* Sends an adjoint back where values came from: nothing when they came from MPI_PROC_NULL (whose
 * status has no valid tag). */
static void send_back(const void *buf, int count, MPI_Datatype t, int peer, int tag, MPI_Comm comm, MPI_Request *q) {
  if (peer == MPI_PROC_NULL) *q = MPI_REQUEST_NULL;
  else MPI_Isend(buf, count, t, peer, tag, comm, q);
}

/* ---- records ---- */

enum { FWD_ISEND, FWD_IRECV, REV_ISEND, REV_IRECV, REV_OTHER, REV_WAITALL };

typedef struct Record {
  int kind, k;                       /* see above; element bytes */
  MPI_Datatype type;
  MPI_Comm comm;
  MPI_Op op;
  int count, count2, peer, tag, peer2, tag2, root, in_place;
  int vform;                         /* Gatherv, Scatterv */
  int started;                       /* the adjoint of its wait started the transposed communication */
  void *shadow, *shadow2;            /* the send buffer's and the receive buffer's shadows */
  void *value;                       /* forward Irecv: the user's buffer */
  void *tmp;                         /* a message's own buffer */
  void *factor;                      /* MAX/MIN/PROD: local factor of each element */
  int *counts, *displs;              /* Gatherv, Scatterv at the root */
  MPI_Request adj;                   /* the transposed communication, started by the wait's adjoint */
  int nrec;                          /* Waitall: the records it completed */
  struct Record **recs;
} Record;

static Record *record(int kind, int k) {
  Record *r = alloc(sizeof *r);
  r->kind = kind, r->k = k;
  r->adj = MPI_REQUEST_NULL;
  return r;
}

static void release(Record *r) {
  if (!r) return;
  free(r->tmp), free(r->factor), free(r->counts), free(r->displs), free(r->recs);
  free(r);
}

/* Outstanding non-blocking calls that carry derivatives: request -> record. */
static struct {
  MPI_Request *req;
  Record **rec;
  size_t len, cap;
} pending;

static void remember(MPI_Request req, Record *r) {
  if (pending.len == pending.cap) {
    pending.cap = pending.cap ? 2 * pending.cap : 16;
    pending.req = realloc(pending.req, pending.cap * sizeof *pending.req);
    pending.rec = realloc(pending.rec, pending.cap * sizeof *pending.rec);
    if (!pending.req || !pending.rec) die("out of memory");
  }
  pending.req[pending.len] = req, pending.rec[pending.len++] = r;
}

static Record *take(MPI_Request req) {
  if (req == MPI_REQUEST_NULL) return NULL;
  for (size_t i = 0; i < pending.len; i++)
    if (pending.req[i] == req) {
      Record *r = pending.rec[i];
      pending.req[i] = pending.req[--pending.len], pending.rec[i] = pending.rec[pending.len];
      if (!pending.len) free(pending.req), free(pending.rec), pending.req = NULL, pending.rec = NULL, pending.cap = 0;
      return r;
    }
  return NULL;
}

/* ---- the local factor of MAX, MIN and PROD reductions ---- */

/* For each element: 1 on the lowest rank holding the extremum (0 elsewhere), or the product of the
 * other ranks' values; NULL for SUM. */
static void *local_factor(const void *x, int n, MPI_Datatype t, int k, MPI_Op op, MPI_Comm comm, const char *call) {
  if (op == MPI_SUM) return NULL;
  int size = comm_size(comm), rank = comm_rank(comm);
  void *f = alloc(bytes(n, k));
  if (op == MPI_MAX || op == MPI_MIN) {
    void *best = alloc(bytes(n, k));
    int *owner = alloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    MPI_Allreduce(x, best, n, t, op, comm);
    for (int i = 0; i < n; i++)
      owner[i] = (k == 8 ? ((const double *)x)[i] == ((double *)best)[i] : ((const float *)x)[i] == ((float *)best)[i]) ? rank : size;
    MPI_Allreduce(MPI_IN_PLACE, owner, n, MPI_INT, MPI_MIN, comm);
    for (int i = 0; i < n; i++) {
      if (k == 8) ((double *)f)[i] = owner[i] == rank;
      else ((float *)f)[i] = owner[i] == rank;
    }
    free(best), free(owner);
  } else if (op == MPI_PROD) {
    void *all = alloc(bytes(n, k) * (size_t)size);
    MPI_Allgather(x, n, t, all, n, t, comm);
    for (int i = 0; i < n; i++) {
      double p = 1;
      for (int s = 0; s < size; s++)
        if (s != rank) p *= k == 8 ? ((double *)all)[(size_t)s * n + i] : ((float *)all)[(size_t)s * n + i];
      if (k == 8) ((double *)f)[i] = p;
      else ((float *)f)[i] = (float)p;
    }
    free(all);
  } else {
    free(f);
    die("%s with a reduction operation Parad cannot differentiate (SUM, PROD, MAX and MIN can be)", call);
  }
  return f;
}

/* ==== forward mode ==== */

/* A forward-mode message is [values | tangents | mark]: the mark tells a message that carries tangents
 * from one sent by code Parad did not differentiate. */
static const double mark_double = -0x1.5ad5ad5ad5ad5p-999;
static const float mark_float = -0x1.5ad5aep-120f;

static int packed(int n) { return 2 * n + 1; }

static void *pack(const void *v, const void *d, int n, int k) {
  char *p = alloc(bytes(packed(n), k));
  memcpy(p, v, bytes(n, k));
  if (d) memcpy(p + bytes(n, k), d, bytes(n, k));
  memcpy(p + bytes(2 * n, k), k == 8 ? (const void *)&mark_double : (const void *)&mark_float, (size_t)k);
  return p;
}

/* Splits a received message; the user's status counts the values. */
static void unpack(const void *p, void *v, void *d, MPI_Status *st, MPI_Datatype t, int max, int k, const char *call) {
  if (st->MPI_SOURCE == MPI_PROC_NULL) return; /* nothing arrives from MPI_PROC_NULL */
  int got;
  MPI_Get_count(st, t, &got);
  int n = (got - 1) / 2;
  const void *mark = k == 8 ? (const void *)&mark_double : (const void *)&mark_float;
  if (got % 2 == 0 || n > max || memcmp((const char *)p + bytes(2 * n, k), mark, (size_t)k))
    die("%s from rank %d received a message without its tangent: was it sent by code Parad did not "
        "differentiate?", call, st->MPI_SOURCE);
  memcpy(v, p, bytes(n, k));
  if (d) memcpy(d, (const char *)p + bytes(n, k), bytes(n, k));
  MPI_Status_set_elements(st, t, n);
}

static int fwd_send(int sync, const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d) {
  const char *call = sync ? "MPI_Ssend" : "MPI_Send";
  int k = real_size(t, d, NULL, call);
  if (!k) return sync ? MPI_Ssend(buf, n, t, dest, tag, comm) : MPI_Send(buf, n, t, dest, tag, comm);
  void *p = pack(buf, d, n, k);
  int rc = sync ? MPI_Ssend(p, packed(n), t, dest, tag, comm) : MPI_Send(p, packed(n), t, dest, tag, comm);
  free(p);
  return rc;
}

int __parad_mpi_fwd_MPI_Send(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d) {
  return fwd_send(0, buf, n, t, dest, tag, comm, d);
}

int __parad_mpi_fwd_MPI_Ssend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d) {
  return fwd_send(1, buf, n, t, dest, tag, comm, d);
}

int __parad_mpi_fwd_MPI_Recv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *status,
                             void *d) {
  int k = real_size(t, d, NULL, "MPI_Recv");
  if (!k) return MPI_Recv(buf, n, t, src, tag, comm, status);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  void *p = alloc(bytes(packed(n), k));
  int rc = MPI_Recv(p, packed(n), t, src, tag, comm, st);
  unpack(p, buf, d, st, t, n, k, "MPI_Recv");
  free(p);
  return rc;
}

int __parad_mpi_fwd_MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st_, int dest, int stag, void *rb, int rn,
                                 MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status, void *dsb,
                                 void *drb) {
  int k = real_size(rt, dsb, drb, "MPI_Sendrecv");
  if (!k) return MPI_Sendrecv(sb, sn, st_, dest, stag, rb, rn, rt, src, rtag, comm, status);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  void *out = pack(sb, dsb, sn, k), *in = alloc(bytes(packed(rn), k));
  int rc = MPI_Sendrecv(out, packed(sn), st_, dest, stag, in, packed(rn), rt, src, rtag, comm, st);
  unpack(in, rb, drb, st, rt, rn, k, "MPI_Sendrecv");
  free(out), free(in);
  return rc;
}

int __parad_mpi_fwd_MPI_Isend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                              MPI_Request *req, void *d) {
  int k = real_size(t, d, NULL, "MPI_Isend");
  if (!k) return MPI_Isend(buf, n, t, dest, tag, comm, req);
  Record *r = record(FWD_ISEND, k);
  r->tmp = pack(buf, d, n, k);
  int rc = MPI_Isend(r->tmp, packed(n), t, dest, tag, comm, req);
  remember(*req, r);
  return rc;
}

int __parad_mpi_fwd_MPI_Irecv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req,
                              void *d) {
  int k = real_size(t, d, NULL, "MPI_Irecv");
  if (!k) return MPI_Irecv(buf, n, t, src, tag, comm, req);
  Record *r = record(FWD_IRECV, k);
  r->tmp = alloc(bytes(packed(n), k));
  r->value = buf, r->shadow2 = d, r->count = n, r->type = t;
  int rc = MPI_Irecv(r->tmp, packed(n), t, src, tag, comm, req);
  remember(*req, r);
  return rc;
}

static void fwd_complete(Record *r, MPI_Status *st) {
  if (!r) return;
  if (r->kind == FWD_IRECV) unpack(r->tmp, r->value, r->shadow2, st, r->type, r->count, r->k, "MPI_Irecv");
  release(r);
}

int __parad_mpi_fwd_MPI_Wait(MPI_Request *req, MPI_Status *status) {
  Record *r = take(*req);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Wait(req, st);
  fwd_complete(r, st);
  return rc;
}

int __parad_mpi_fwd_MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *statuses) {
  Record **recs = alloc(sizeof *recs * (size_t)(n > 0 ? n : 1));
  MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? alloc(sizeof *st * (size_t)(n > 0 ? n : 1)) : statuses;
  for (int i = 0; i < n; i++) recs[i] = take(reqs[i]);
  int rc = MPI_Waitall(n, reqs, st);
  for (int i = 0; i < n; i++) fwd_complete(recs[i], &st[i]);
  if (st != statuses) free(st);
  free(recs);
  return rc;
}

static MPI_Request *snapshot(int n, const MPI_Request *reqs) {
  MPI_Request *s = alloc(sizeof *s * (size_t)(n > 0 ? n : 1));
  memcpy(s, reqs, sizeof *s * (size_t)(n > 0 ? n : 0));
  return s;
}

int __parad_mpi_fwd_MPI_Waitany(int n, MPI_Request *reqs, int *index, MPI_Status *status) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Waitany(n, reqs, index, st);
  if (*index != MPI_UNDEFINED) fwd_complete(take(before[*index]), st);
  free(before);
  return rc;
}

int __parad_mpi_fwd_MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
  MPI_Request before = *req;
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Test(req, flag, st);
  if (*flag) fwd_complete(take(before), st);
  return rc;
}

int __parad_mpi_fwd_MPI_Barrier(MPI_Comm comm) { return MPI_Barrier(comm); }

int __parad_mpi_fwd_MPI_Bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm, void *d) {
  int k = real_size(t, d, NULL, "MPI_Bcast");
  int rc = MPI_Bcast(buf, n, t, root, comm);
  if (!k) return rc;
  void *scratch = NULL;
  MPI_Bcast(or_scratch(d, bytes(n, k), &scratch), n, t, root, comm);
  free(scratch);
  return rc;
}

/* Reduce (root >= 0) and Allreduce (root < 0). */
static int fwd_reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, void *dsb,
                      void *drb, const char *call) {
  int all = root < 0, k = real_size(t, dsb, drb, call);
  if (!k) return all ? MPI_Allreduce(sb, rb, n, t, op, comm) : MPI_Reduce(sb, rb, n, t, op, root, comm);
  int in_place = sb == MPI_IN_PLACE;
  const void *x = in_place ? rb : sb;
  void *dx_scratch = NULL, *dy_scratch = NULL;
  void *dx = or_scratch(in_place ? drb : dsb, bytes(n, k), &dx_scratch);
  void *f = local_factor(x, n, t, k, op, comm, call);
  int rc = all ? MPI_Allreduce(sb, rb, n, t, op, comm) : MPI_Reduce(sb, rb, n, t, op, root, comm);
  void *contribution = alloc(bytes(n, k));
  scale_into(contribution, f, dx, (size_t)n, k, 1);
  void *dy = or_scratch(drb, bytes(n, k), &dy_scratch);
  if (all) MPI_Allreduce(contribution, dy, n, t, MPI_SUM, comm);
  else MPI_Reduce(contribution, dy, n, t, MPI_SUM, root, comm);
  free(contribution), free(f), free(dx_scratch), free(dy_scratch);
  return rc;
}

int __parad_mpi_fwd_MPI_Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                               void *dsb, void *drb) {
  return fwd_reduce(sb, rb, n, t, op, root, comm, dsb, drb, "MPI_Reduce");
}

int __parad_mpi_fwd_MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, void *dsb,
                                  void *drb) {
  return fwd_reduce(sb, rb, n, t, op, -1, comm, dsb, drb, "MPI_Allreduce");
}

/* The extent in elements of a v-collective's root buffer. */
static int v_extent(const int *counts, const int *displs, int size) {
  int e = 0;
  for (int i = 0; i < size; i++)
    if (displs[i] + counts[i] > e) e = displs[i] + counts[i];
  return e;
}

/* The data-moving collectives run once for the values, once for the tangents; the same call with
 * shadows (zeros where there is none) in place of buffers, MPI_IN_PLACE kept. */
#define SHADOW_OF(buf, d, n, scratch) ((buf) == MPI_IN_PLACE ? MPI_IN_PLACE : or_scratch((d), bytes((n), k), &(scratch)))

int __parad_mpi_fwd_MPI_Gather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                               MPI_Comm comm, void *dsb, void *drb) {
  int rc = MPI_Gather(sb, sn, st, rb, rn, rt, root, comm);
  int k = real_size(sb == MPI_IN_PLACE ? rt : st, dsb, drb, "MPI_Gather");
  if (!k) return rc;
  void *s1 = NULL, *s2 = NULL;
  MPI_Gather(SHADOW_OF(sb, dsb, sn, s1), sn, st, SHADOW_OF(rb, drb, rn * comm_size(comm), s2), rn, rt, root, comm);
  free(s1), free(s2);
  return rc;
}

int __parad_mpi_fwd_MPI_Gatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                const int *displs, MPI_Datatype rt, int root, MPI_Comm comm, void *dsb, void *drb) {
  int rc = MPI_Gatherv(sb, sn, st, rb, rcounts, displs, rt, root, comm);
  int k = real_size(sb == MPI_IN_PLACE ? rt : st, dsb, drb, "MPI_Gatherv");
  if (!k) return rc;
  int ext = comm_rank(comm) == root ? v_extent(rcounts, displs, comm_size(comm)) : 0;
  void *s1 = NULL, *s2 = NULL;
  MPI_Gatherv(SHADOW_OF(sb, dsb, sn, s1), sn, st, SHADOW_OF(rb, drb, ext, s2), rcounts, displs, rt, root, comm);
  free(s1), free(s2);
  return rc;
}

int __parad_mpi_fwd_MPI_Scatter(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                MPI_Comm comm, void *dsb, void *drb) {
  int rc = MPI_Scatter(sb, sn, st, rb, rn, rt, root, comm);
  int k = real_size(rb == MPI_IN_PLACE ? st : rt, dsb, drb, "MPI_Scatter");
  if (!k) return rc;
  void *s1 = NULL, *s2 = NULL;
  MPI_Scatter(SHADOW_OF(sb, dsb, sn * comm_size(comm), s1), sn, st, SHADOW_OF(rb, drb, rn, s2), rn, rt, root, comm);
  free(s1), free(s2);
  return rc;
}

int __parad_mpi_fwd_MPI_Scatterv(const void *sb, const int *scounts, const int *displs, MPI_Datatype st, void *rb,
                                 int rn, MPI_Datatype rt, int root, MPI_Comm comm, void *dsb, void *drb) {
  int rc = MPI_Scatterv(sb, scounts, displs, st, rb, rn, rt, root, comm);
  int k = real_size(rb == MPI_IN_PLACE ? st : rt, dsb, drb, "MPI_Scatterv");
  if (!k) return rc;
  int ext = comm_rank(comm) == root ? v_extent(scounts, displs, comm_size(comm)) : 0;
  void *s1 = NULL, *s2 = NULL;
  MPI_Scatterv(SHADOW_OF(sb, dsb, ext, s1), scounts, displs, st, SHADOW_OF(rb, drb, rn, s2), rn, rt, root, comm);
  free(s1), free(s2);
  return rc;
}

int __parad_mpi_fwd_MPI_Allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                  MPI_Comm comm, void *dsb, void *drb) {
  int rc = MPI_Allgather(sb, sn, st, rb, rn, rt, comm);
  int k = real_size(sb == MPI_IN_PLACE ? rt : st, dsb, drb, "MPI_Allgather");
  if (!k) return rc;
  void *s1 = NULL, *s2 = NULL;
  MPI_Allgather(SHADOW_OF(sb, dsb, sn, s1), sn, st, SHADOW_OF(rb, drb, rn * comm_size(comm), s2), rn, rt, comm);
  free(s1), free(s2);
  return rc;
}

int __parad_mpi_fwd_MPI_Alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                 MPI_Comm comm, void *dsb, void *drb) {
  int rc = MPI_Alltoall(sb, sn, st, rb, rn, rt, comm);
  int k = real_size(sb == MPI_IN_PLACE ? rt : st, dsb, drb, "MPI_Alltoall");
  if (!k) return rc;
  int size = comm_size(comm);
  void *s1 = NULL, *s2 = NULL;
  MPI_Alltoall(SHADOW_OF(sb, dsb, sn * size, s1), sn, st, SHADOW_OF(rb, drb, rn * size, s2), rn, rt, comm);
  free(s1), free(s2);
  return rc;
}

/* ==== reverse mode: the augmented forward sweep (the call, and a record) ==== */

static Record *aug_send(int sync, const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d) {
  int k = real_size(t, d, NULL, sync ? "MPI_Ssend" : "MPI_Send");
  if (sync) MPI_Ssend(buf, n, t, dest, tag, comm);
  else MPI_Send(buf, n, t, dest, tag, comm);
  if (!k) return NULL;
  Record *r = record(REV_OTHER, k);
  r->shadow = d, r->count = n, r->type = t, r->peer = dest, r->tag = tag, r->comm = comm;
  return r;
}

Record *__parad_mpi_aug_MPI_Send(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d) {
  return aug_send(0, buf, n, t, dest, tag, comm, d);
}

Record *__parad_mpi_aug_MPI_Ssend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d) {
  return aug_send(1, buf, n, t, dest, tag, comm, d);
}

/* The adjoint of a send: receive the adjoint from the destination, add it to the buffer's. */
static void rev_send(Record *r, const char *call) {
  MPI_Request q;
  MPI_Status st;
  r->tmp = alloc(bytes(r->count, r->k));
  MPI_Irecv(r->tmp, r->count, r->type, r->peer, r->tag, r->comm, &q);
  finish(&q, &st, call, r->peer);
  check_count(&st, r->type, r->count, call, r->peer);
  if (r->peer != MPI_PROC_NULL) add_into(r->shadow, r->tmp, (size_t)r->count, r->k);
  release(r);
}

void __parad_mpi_rev_MPI_Send(Record *r) {
  if (r) rev_send(r, "MPI_Send");
}

void __parad_mpi_rev_MPI_Ssend(Record *r) {
  if (r) rev_send(r, "MPI_Ssend");
}

Record *__parad_mpi_aug_MPI_Recv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *status,
                                 void *d) {
  int k = real_size(t, d, NULL, "MPI_Recv");
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Recv(buf, n, t, src, tag, comm, st);
  if (!k) return NULL;
  Record *r = record(REV_OTHER, k);
  MPI_Get_count(st, t, &r->count);
  r->shadow2 = d, r->type = t, r->peer = st->MPI_SOURCE, r->tag = st->MPI_TAG, r->comm = comm;
  return r;
}

/* The adjoint of a receive: send the buffer's adjoint back to where the values came from, zero it. */
void __parad_mpi_rev_MPI_Recv(Record *r) {
  if (!r) return;
  void *scratch = NULL;
  MPI_Request q;
  send_back(or_scratch(r->shadow2, bytes(r->count, r->k), &scratch), r->count, r->type, r->peer, r->tag, r->comm, &q);
  finish(&q, NULL, "MPI_Recv", r->peer);
  zero(r->shadow2, bytes(r->count, r->k));
  free(scratch);
  release(r);
}

Record *__parad_mpi_aug_MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st_, int dest, int stag, void *rb, int rn,
                                     MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status, void *dsb,
                                     void *drb) {
  int k = real_size(rt, dsb, drb, "MPI_Sendrecv");
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Sendrecv(sb, sn, st_, dest, stag, rb, rn, rt, src, rtag, comm, st);
  if (!k) return NULL;
  Record *r = record(REV_OTHER, k);
  r->shadow = dsb, r->count = sn, r->type = st_, r->peer = dest, r->tag = stag, r->comm = comm;
  r->shadow2 = drb, r->peer2 = st->MPI_SOURCE, r->tag2 = st->MPI_TAG;
  MPI_Get_count(st, rt, &r->count2);
  return r;
}

void __parad_mpi_rev_MPI_Sendrecv(Record *r) {
  if (!r) return;
  void *scratch = NULL;
  MPI_Request q[2];
  MPI_Status st[2];
  r->tmp = alloc(bytes(r->count, r->k));
  MPI_Irecv(r->tmp, r->count, r->type, r->peer, r->tag, r->comm, &q[0]);
  send_back(or_scratch(r->shadow2, bytes(r->count2, r->k), &scratch), r->count2, r->type, r->peer2, r->tag2, r->comm, &q[1]);
  finish(&q[0], &st[0], "MPI_Sendrecv", r->peer);
  finish(&q[1], &st[1], "MPI_Sendrecv", r->peer2);
  check_count(&st[0], r->type, r->count, "MPI_Sendrecv", r->peer);
  zero(r->shadow2, bytes(r->count2, r->k));
  if (r->peer != MPI_PROC_NULL) add_into(r->shadow, r->tmp, (size_t)r->count, r->k);
  free(scratch);
  release(r);
}

Record *__parad_mpi_aug_MPI_Isend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                                  MPI_Request *req, void *d) {
  int k = real_size(t, d, NULL, "MPI_Isend");
  MPI_Isend(buf, n, t, dest, tag, comm, req);
  if (!k) return NULL;
  Record *r = record(REV_ISEND, k);
  r->shadow = d, r->count = n, r->type = t, r->peer = dest, r->tag = tag, r->comm = comm;
  remember(*req, r);
  return r;
}

Record *__parad_mpi_aug_MPI_Irecv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req,
                                  void *d) {
  int k = real_size(t, d, NULL, "MPI_Irecv");
  MPI_Irecv(buf, n, t, src, tag, comm, req);
  if (!k) return NULL;
  Record *r = record(REV_IRECV, k);
  r->shadow2 = d, r->count = n, r->type = t, r->peer = src, r->tag = tag, r->comm = comm;
  remember(*req, r);
  return r;
}

/* A wait completed an Irecv: the adjoint goes back to the actual source, with the actual tag. */
static void aug_complete(Record *r, MPI_Status *st) {
  if (r && r->kind == REV_IRECV) {
    r->peer = st->MPI_SOURCE, r->tag = st->MPI_TAG;
    MPI_Get_count(st, r->type, &r->count);
  }
}

/* The adjoint of a wait starts the transposed communication... */
static void rev_start(Record *r) {
  if (!r) return;
  r->started = 1;
  /* what arrives (Isend), or zeros to send (Irecv without a shadow) */
  if (r->kind == REV_ISEND || !r->shadow2) r->tmp = alloc(bytes(r->count, r->k));
  if (r->kind == REV_ISEND) {
    MPI_Irecv(r->tmp, r->count, r->type, r->peer, r->tag, r->comm, &r->adj);
  } else {
    send_back(r->shadow2 ? r->shadow2 : r->tmp, r->count, r->type, r->peer, r->tag, r->comm, &r->adj);
  }
}

/* ... and the adjoint of the Isend or Irecv finishes it. */
void __parad_mpi_rev_MPI_Isend(Record *r) {
  if (!r) return;
  MPI_Status st;
  if (!r->started) die("an MPI_Isend whose request was never completed by a wait or a successful test");
  finish(&r->adj, &st, "MPI_Isend", r->peer);
  check_count(&st, r->type, r->count, "MPI_Isend", r->peer);
  if (r->peer != MPI_PROC_NULL) add_into(r->shadow, r->tmp, (size_t)r->count, r->k);
  release(r);
}

void __parad_mpi_rev_MPI_Irecv(Record *r) {
  if (!r) return;
  if (!r->started) die("an MPI_Irecv whose request was never completed by a wait or a successful test");
  finish(&r->adj, NULL, "MPI_Irecv", r->peer);
  zero(r->shadow2, bytes(r->count, r->k));
  release(r);
}

Record *__parad_mpi_aug_MPI_Wait(MPI_Request *req, MPI_Status *status) {
  Record *r = take(*req);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Wait(req, st);
  aug_complete(r, st);
  return r;
}

void __parad_mpi_rev_MPI_Wait(Record *r) { rev_start(r); }

Record *__parad_mpi_aug_MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *statuses) {
  Record *all = record(REV_WAITALL, 0);
  all->recs = alloc(sizeof *all->recs * (size_t)(n > 0 ? n : 1));
  MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? alloc(sizeof *st * (size_t)(n > 0 ? n : 1)) : statuses;
  for (int i = 0; i < n; i++) all->recs[i] = take(reqs[i]);
  MPI_Waitall(n, reqs, st);
  for (int i = 0; i < n; i++) aug_complete(all->recs[i], &st[i]);
  all->nrec = n;
  if (st != statuses) free(st);
  return all;
}

void __parad_mpi_rev_MPI_Waitall(Record *all) {
  if (!all) return;
  for (int i = all->nrec - 1; i >= 0; i--) rev_start(all->recs[i]);
  release(all);
}

Record *__parad_mpi_aug_MPI_Waitany(int n, MPI_Request *reqs, int *index, MPI_Status *status) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Waitany(n, reqs, index, st);
  Record *r = *index != MPI_UNDEFINED ? take(before[*index]) : NULL;
  aug_complete(r, st);
  free(before);
  return r;
}

void __parad_mpi_rev_MPI_Waitany(Record *r) { rev_start(r); }

Record *__parad_mpi_aug_MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
  MPI_Request before = *req;
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Test(req, flag, st);
  if (!*flag) return NULL;
  Record *r = take(before);
  aug_complete(r, st);
  return r;
}

void __parad_mpi_rev_MPI_Test(Record *r) { rev_start(r); }

Record *__parad_mpi_aug_MPI_Barrier(MPI_Comm comm) {
  MPI_Barrier(comm);
  Record *r = record(REV_OTHER, 0);
  r->comm = comm;
  return r;
}

void __parad_mpi_rev_MPI_Barrier(Record *r) {
  MPI_Request q;
  MPI_Ibarrier(r->comm, &q);
  finish(&q, NULL, "MPI_Barrier", -1);
  release(r);
}

/* ---- collectives ---- */

Record *__parad_mpi_aug_MPI_Bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm, void *d) {
  int k = real_size(t, d, NULL, "MPI_Bcast");
  MPI_Bcast(buf, n, t, root, comm);
  if (!k) return NULL;
  Record *r = record(REV_OTHER, k);
  r->shadow2 = d, r->count = n, r->type = t, r->root = root, r->comm = comm;
  return r;
}

/* Bcast's adjoint: the adjoints of every rank's copy are summed into the root's. */
void __parad_mpi_rev_MPI_Bcast(Record *r) {
  if (!r) return;
  int root = comm_rank(r->comm) == r->root;
  void *scratch = NULL, *sum = alloc(bytes(r->count, r->k));
  MPI_Request q;
  MPI_Ireduce(or_scratch(r->shadow2, bytes(r->count, r->k), &scratch), sum, r->count, r->type, MPI_SUM, r->root, r->comm, &q);
  finish(&q, NULL, "MPI_Bcast", r->root);
  if (root && r->shadow2) memcpy(r->shadow2, sum, bytes(r->count, r->k));
  else zero(r->shadow2, bytes(r->count, r->k));
  free(scratch), free(sum);
  release(r);
}

static Record *aug_reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                          void *dsb, void *drb, const char *call) {
  int all = root < 0, k = real_size(t, dsb, drb, call);
  Record *r = NULL;
  if (k) {
    r = record(REV_OTHER, k);
    r->in_place = sb == MPI_IN_PLACE;
    r->shadow = dsb, r->shadow2 = drb, r->count = n, r->type = t, r->root = root, r->comm = comm;
    r->factor = local_factor(r->in_place ? rb : sb, n, t, k, op, comm, call); /* before rb changes */
  }
  if (all) MPI_Allreduce(sb, rb, n, t, op, comm);
  else MPI_Reduce(sb, rb, n, t, op, root, comm);
  return r;
}

/* The adjoint of a reduction: every rank gets the result's adjoint (broadcast from the root, or summed
 * over the ranks for Allreduce) times its local factor. */
static void rev_reduce(Record *r, const char *call) {
  if (!r) return;
  int all = r->root < 0, is_root = all || comm_rank(r->comm) == r->root;
  size_t nb = bytes(r->count, r->k);
  void *g = alloc(nb), *scratch = NULL;
  MPI_Request q;
  if (all) {
    MPI_Iallreduce(or_scratch(r->shadow2, nb, &scratch), g, r->count, r->type, MPI_SUM, r->comm, &q);
  } else {
    if (is_root && r->shadow2) memcpy(g, r->shadow2, nb);
    MPI_Ibcast(g, r->count, r->type, r->root, r->comm, &q);
  }
  finish(&q, NULL, call, all ? -1 : r->root);
  if (r->in_place) {
    scale_into(r->shadow2, r->factor, g, (size_t)r->count, r->k, 1);
  } else {
    if (is_root) zero(r->shadow2, nb);
    scale_into(r->shadow, r->factor, g, (size_t)r->count, r->k, 0);
  }
  free(g), free(scratch);
  release(r);
}

Record *__parad_mpi_aug_MPI_Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                                   void *dsb, void *drb) {
  return aug_reduce(sb, rb, n, t, op, root, comm, dsb, drb, "MPI_Reduce");
}

void __parad_mpi_rev_MPI_Reduce(Record *r) { rev_reduce(r, "MPI_Reduce"); }

Record *__parad_mpi_aug_MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                      void *dsb, void *drb) {
  return aug_reduce(sb, rb, n, t, op, -1, comm, dsb, drb, "MPI_Allreduce");
}

void __parad_mpi_rev_MPI_Allreduce(Record *r) { rev_reduce(r, "MPI_Allreduce"); }

/* Gather(v) and Scatter(v) are each other's adjoints; the record keeps both sides' counts (count: this
 * rank's part, count2: the root's per-rank count, or counts/displs for the v forms). */
static Record *gs_record(int k, MPI_Datatype t, int n, int rn, int vform, const int *counts, const int *displs,
                         int root, MPI_Comm comm, void *dsb, void *drb, int in_place) {
  Record *r = record(REV_OTHER, k);
  r->type = t, r->count = n, r->count2 = rn, r->root = root, r->comm = comm, r->vform = vform;
  r->shadow = dsb, r->shadow2 = drb, r->in_place = in_place;
  if (vform && comm_rank(comm) == root) {
    int size = comm_size(comm);
    r->counts = alloc(sizeof(int) * (size_t)size), r->displs = alloc(sizeof(int) * (size_t)size);
    memcpy(r->counts, counts, sizeof(int) * (size_t)size), memcpy(r->displs, displs, sizeof(int) * (size_t)size);
  }
  return r;
}

/* The root's buffer of a gather (or scatter): element offset and count of rank s's part. */
static void part(Record *r, int s, int *off, int *n) {
  if (r->counts) *off = r->displs[s], *n = r->counts[s];
  else *off = s * r->count2, *n = r->count2;
}

static int root_extent(Record *r) {
  return r->counts ? v_extent(r->counts, r->displs, comm_size(r->comm)) : r->count2 * comm_size(r->comm);
}

Record *__parad_mpi_aug_MPI_Gather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                   MPI_Comm comm, void *dsb, void *drb) {
  int in_place = sb == MPI_IN_PLACE, k = real_size(in_place ? rt : st, dsb, drb, "MPI_Gather");
  MPI_Gather(sb, sn, st, rb, rn, rt, root, comm);
  return k ? gs_record(k, in_place ? rt : st, sn, rn, 0, NULL, NULL, root, comm, dsb, drb, in_place) : NULL;
}

Record *__parad_mpi_aug_MPI_Gatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                    const int *displs, MPI_Datatype rt, int root, MPI_Comm comm, void *dsb, void *drb) {
  int in_place = sb == MPI_IN_PLACE, k = real_size(in_place ? rt : st, dsb, drb, "MPI_Gatherv");
  MPI_Gatherv(sb, sn, st, rb, rcounts, displs, rt, root, comm);
  return k ? gs_record(k, in_place ? rt : st, sn, 0, 1, rcounts, displs, root, comm, dsb, drb, in_place) : NULL;
}

/* A gather's adjoint scatters the root's buffer adjoint back to the parts' owners. */
static void rev_gather(Record *r, const char *call) {
  if (!r) return;
  int rank = comm_rank(r->comm), is_root = rank == r->root;
  size_t rb_bytes = is_root ? bytes(root_extent(r), r->k) : 0;
  void *g = alloc(bytes(r->count, r->k)), *scratch = NULL;
  void *from = is_root ? or_scratch(r->shadow2, rb_bytes, &scratch) : NULL;
  void *to = r->in_place ? MPI_IN_PLACE : g;
  MPI_Request q;
  if (r->vform)
    MPI_Iscatterv(from, r->counts, r->displs, r->type, to, r->count, r->type, r->root, r->comm, &q);
  else
    MPI_Iscatter(from, r->count2, r->type, to, r->count, r->type, r->root, r->comm, &q);
  finish(&q, NULL, call, r->root);
  if (is_root && r->shadow2) {
    for (int s = 0, size = comm_size(r->comm); s < size; s++) {
      int off, n;
      part(r, s, &off, &n);
      if (!(r->in_place && s == rank)) zero((char *)r->shadow2 + bytes(off, r->k), bytes(n, r->k));
    }
  }
  if (!r->in_place) add_into(r->shadow, g, (size_t)r->count, r->k);
  free(g), free(scratch);
  release(r);
}

void __parad_mpi_rev_MPI_Gather(Record *r) { rev_gather(r, "MPI_Gather"); }
void __parad_mpi_rev_MPI_Gatherv(Record *r) { rev_gather(r, "MPI_Gatherv"); }

Record *__parad_mpi_aug_MPI_Scatter(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                    MPI_Comm comm, void *dsb, void *drb) {
  int in_place = rb == MPI_IN_PLACE, k = real_size(in_place ? st : rt, dsb, drb, "MPI_Scatter");
  MPI_Scatter(sb, sn, st, rb, rn, rt, root, comm);
  return k ? gs_record(k, in_place ? st : rt, rn, sn, 0, NULL, NULL, root, comm, dsb, drb, in_place) : NULL;
}

Record *__parad_mpi_aug_MPI_Scatterv(const void *sb, const int *scounts, const int *displs, MPI_Datatype st, void *rb,
                                     int rn, MPI_Datatype rt, int root, MPI_Comm comm, void *dsb, void *drb) {
  int in_place = rb == MPI_IN_PLACE, k = real_size(in_place ? st : rt, dsb, drb, "MPI_Scatterv");
  MPI_Scatterv(sb, scounts, displs, st, rb, rn, rt, root, comm);
  return k ? gs_record(k, in_place ? st : rt, rn, 0, 1, scounts, displs, root, comm, dsb, drb, in_place) : NULL;
}

/* A scatter's adjoint gathers the parts' adjoints into the root's buffer adjoint. Here shadow is the
 * root's (send) buffer and shadow2 each rank's part. */
static void rev_scatter(Record *r, const char *call) {
  if (!r) return;
  int is_root = comm_rank(r->comm) == r->root;
  size_t part_bytes = bytes(r->count, r->k);
  void *g = is_root ? alloc(bytes(root_extent(r), r->k)) : NULL, *scratch = NULL;
  const void *from = r->in_place ? MPI_IN_PLACE : or_scratch(r->shadow2, part_bytes, &scratch);
  MPI_Request q;
  if (r->vform)
    MPI_Igatherv(from, r->count, r->type, g, r->counts, r->displs, r->type, r->root, r->comm, &q);
  else
    MPI_Igather(from, r->count, r->type, g, r->count2, r->type, r->root, r->comm, &q);
  finish(&q, NULL, call, r->root);
  if (!r->in_place) zero(r->shadow2, part_bytes);
  if (is_root) add_into(r->shadow, g, (size_t)root_extent(r), r->k);
  free(g), free(scratch);
  release(r);
}

void __parad_mpi_rev_MPI_Scatter(Record *r) { rev_scatter(r, "MPI_Scatter"); }
void __parad_mpi_rev_MPI_Scatterv(Record *r) { rev_scatter(r, "MPI_Scatterv"); }

Record *__parad_mpi_aug_MPI_Allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                      MPI_Comm comm, void *dsb, void *drb) {
  int in_place = sb == MPI_IN_PLACE, k = real_size(in_place ? rt : st, dsb, drb, "MPI_Allgather");
  MPI_Allgather(sb, sn, st, rb, rn, rt, comm);
  if (!k) return NULL;
  return gs_record(k, rt, rn, rn, 0, NULL, NULL, -1, comm, dsb, drb, in_place);
}

/* Allgather's adjoint: each rank's part gets the sum over the ranks of that part's adjoint. */
void __parad_mpi_rev_MPI_Allgather(Record *r) {
  if (!r) return;
  int rank = comm_rank(r->comm), size = comm_size(r->comm);
  size_t part_bytes = bytes(r->count, r->k);
  void *g = alloc(part_bytes), *scratch = NULL;
  MPI_Request q;
  MPI_Ireduce_scatter_block(or_scratch(r->shadow2, part_bytes * (size_t)size, &scratch), g, r->count, r->type, MPI_SUM,
                            r->comm, &q);
  finish(&q, NULL, "MPI_Allgather", -1);
  zero(r->shadow2, part_bytes * (size_t)size);
  if (r->in_place) scale_into((char *)r->shadow2 + part_bytes * (size_t)rank, NULL, g, (size_t)r->count, r->k, 1);
  else add_into(r->shadow, g, (size_t)r->count, r->k);
  free(g), free(scratch);
  release(r);
}

Record *__parad_mpi_aug_MPI_Alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                     MPI_Comm comm, void *dsb, void *drb) {
  int in_place = sb == MPI_IN_PLACE, k = real_size(in_place ? rt : st, dsb, drb, "MPI_Alltoall");
  MPI_Alltoall(sb, sn, st, rb, rn, rt, comm);
  if (!k) return NULL;
  return gs_record(k, rt, rn, rn, 0, NULL, NULL, -1, comm, dsb, drb, in_place);
}

/* Alltoall's adjoint is an Alltoall of the adjoints, back the way they came. */
void __parad_mpi_rev_MPI_Alltoall(Record *r) {
  if (!r) return;
  size_t all_bytes = bytes(r->count, r->k) * (size_t)comm_size(r->comm);
  void *g = alloc(all_bytes), *scratch = NULL;
  MPI_Request q;
  MPI_Ialltoall(or_scratch(r->shadow2, all_bytes, &scratch), r->count, r->type, g, r->count, r->type, r->comm, &q);
  finish(&q, NULL, "MPI_Alltoall", -1);
  zero(r->shadow2, all_bytes);
  if (r->in_place) scale_into(r->shadow2, NULL, g, all_bytes / (size_t)r->k, r->k, 1);
  else add_into(r->shadow, g, all_bytes / (size_t)r->k, r->k);
  free(g), free(scratch);
  release(r);
}
