/* Parad's MPI runtime: the derivatives of the MPI calls in differentiated code (src/mpi/mpi.h says how
 * generated code calls it). Compiled against the MPI library the program uses (lib/libparad_mpi.a for
 * Open MPI, lib/libparad_mpich.a for MPICH), so handles, datatypes and their sizes are that library's
 * own.
 *
 * Which messages carry derivatives, and where their floats lie, is mpi_types.c's: MPI_DOUBLE, MPI_FLOAT,
 * bytes (where the floats lie among them is what the compiler found the buffer to hold), MPI_PACKED
 * (where MPI_Pack put them) and derived datatypes holding any of these; integer datatypes pass through
 * as they are.
 *
 * Forward mode sends a buffer's tangent in the same message as its values, packed with MPI_Pack behind a
 * mark and the count: one message cannot be split by a wildcard receive, and the mark tells a message
 * sent by code Parad did not differentiate. Collectives run twice, once for the values and once for the
 * tangents; reductions add each rank's tangent scaled by its local factor (1 on the rank that holds the
 * extremum for MAX and MIN, the product of the other ranks' values for PROD).
 *
 * Reverse mode transposes each call. A send's adjoint receives the adjoint and adds it into the floats of
 * the send buffer's; a receive's adjoint sends the receive buffer's adjoint back to the actual source and
 * resets its floats; Bcast <-> Reduce(SUM) (a gather of the copies' adjoints, for datatypes other than
 * MPI_DOUBLE and MPI_FLOAT); Reduce and Allreduce -> Bcast and Allreduce(SUM) of the result's adjoint,
 * scaled by the local factor; Gather <-> Scatter; Allgather and Alltoall -> Alltoall. MPI_Pack and
 * MPI_Unpack are copies between typed and packed memory: their adjoints move the floats' adjoints back.
 * Non-blocking calls leave a record that their wait completes (the actual source and tag); the adjoint
 * of the wait starts the transposed communication and the adjoint of the Isend or Irecv finishes it. A
 * value every rank holds after an Allreduce is one value: seed its adjoint on one rank only.
 *
 * Every wait of the reverse sweep gives up after PARAD_MPI_TIMEOUT seconds (default 600) with a
 * message naming the call and the peer, instead of hanging when a partner never comes. */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_types.h"

#define die parad_mpi_die
#define alloc parad_mpi_alloc

/* ---- buffers ---- */

/* A zeroed buffer for `count` elements of a shape: the block to free, and where MPI is to see it start. */
typedef struct {
  char *block, *origin;
} Temp;

static Temp temp(const Shape *s, int count) {
  MPI_Aint lo, hi;
  shape_span(s, count, &lo, &hi);
  Temp t;
  t.block = alloc((size_t)(hi - lo));
  t.origin = t.block - lo;
  return t;
}

/* The shadow, or zeros where the buffer has none (*block, freed by the caller). */
static void *or_zeros(void *shadow, const Shape *s, int count, char **block) {
  if (shadow) return shadow;
  Temp t = temp(s, count);
  *block = t.block;
  return t.origin;
}

static int comm_size(MPI_Comm c) {
  int n;
  MPI_Comm_size(c, &n);
  return n;
}

/* A neighbourhood collective's parts and, when asked, its neighbours' ranks (*peers). On a Cartesian
 * communicator, two per dimension (the neighbour below, then above): its transpose is itself, the part
 * sent to the neighbour above arriving there as the part from below (MPI_PROC_NULL beyond a non-periodic
 * edge, where nothing moves). A graph (MPI_Graph_create) has one list for both ways, and a distributed
 * graph whose sources are its destinations, in the same order (a halo exchange's usual graph), is its own
 * transpose too; another distributed graph would need its transposed communicator. Where one rank is two
 * neighbours (a periodic dimension of 1 or 2 ranks) the library decides which part goes where, and its
 * blocking and non-blocking forms decide differently (at 1 rank, Open MPI and MPICH alike): the tangents
 * and the adjoints take the form the program called (MPICH's v-form decides otherwise than its uniform
 * one), whose matching is its own inverse. An allgather's adjoint adds what comes back from every
 * part: any matching does. */
static int comm_rank(MPI_Comm c);

static int neighbours(MPI_Comm comm, int **peers, const char *call) {
  int status, n = 0, *list = NULL;
  MPI_Topo_test(comm, &status);
  if (status == MPI_CART) {
    int dims;
    MPI_Cartdim_get(comm, &dims);
    n = 2 * dims, list = alloc(sizeof(int) * (size_t)(n + 1));
    for (int d = 0; d < dims; d++) MPI_Cart_shift(comm, d, 1, &list[2 * d], &list[2 * d + 1]);
  } else if (status == MPI_GRAPH) {
    MPI_Graph_neighbors_count(comm, comm_rank(comm), &n);
    list = alloc(sizeof(int) * (size_t)(n + 1));
    MPI_Graph_neighbors(comm, comm_rank(comm), n, list);
  } else if (status == MPI_DIST_GRAPH) {
    int in, out, weighted;
    MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    int *sources = alloc(sizeof(int) * (size_t)(in + 1)), *dests = alloc(sizeof(int) * (size_t)(out + 1));
    int *sw = alloc(sizeof(int) * (size_t)(in + 1)), *dw = alloc(sizeof(int) * (size_t)(out + 1));
    MPI_Dist_graph_neighbors(comm, in, sources, weighted ? sw : MPI_UNWEIGHTED, out, dests, weighted ? dw : MPI_UNWEIGHTED);
    int same = in == out && !memcmp(sources, dests, sizeof(int) * (size_t)in);
    free(dests), free(sw), free(dw);
    if (!same)
      die("Parad differentiates %s on a distributed graph whose sources are its destinations, in the same order "
          "(a halo exchange's), and on Cartesian communicators and graphs: its adjoint goes the other way round "
          "the neighbourhood, which for this graph needs the transposed graph", call);
    n = in, list = sources;
  } else {
    die("%s on a communicator without a topology", call);
  }
  if (peers) *peers = list;
  else free(list);
  return n;
}

/* One part per rank of comm, or per neighbour for a neighbourhood collective. */
static int parts_of(MPI_Comm comm, int neighbourhood, const char *call) {
  return neighbourhood ? neighbours(comm, NULL, call) : comm_size(comm);
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

/* Where a receive's values came from: MPI_PROC_NULL when it was posted for it (MPICH 4.0's MPI_Waitall
 * leaves the status of such a request unset), else the status's source. */
static int source(int posted, const MPI_Status *st) { return posted == MPI_PROC_NULL ? MPI_PROC_NULL : st->MPI_SOURCE; }

/* Sends an adjoint back where values came from: nothing when they came from MPI_PROC_NULL (whose
 * status has no valid tag). */
static void send_back(const void *buf, int count, MPI_Datatype t, int peer, int tag, MPI_Comm comm, MPI_Request *q) {
  if (peer == MPI_PROC_NULL) *q = MPI_REQUEST_NULL;
  else MPI_Isend(buf, count, t, peer, tag, comm, q);
}

/* ---- records ---- */

enum { FWD_ISEND, FWD_IRECV, FWD_IREDUCE, FWD_ICOLL, REV_ISEND, REV_IRECV, REV_ICOLL, REV_OTHER, REV_WAITALL, REV_PACK,
       REV_UNPACK };

typedef struct Record {
  int kind;
  Shape sh, sh2;                     /* the datatypes of the send side and of the receive side */
  MPI_Comm comm;
  int count, count2, peer, tag, peer2, tag2, root, in_place;
  int vform;                         /* Gatherv, Scatterv, Neighbor_alltoallv; an exclusive scan (Exscan) */
  int started;                       /* the adjoint of its wait started the transposed communication */
  int ready;                         /* a non-blocking collective's: its wait's adjoint has run */
  void *shadow, *shadow2;            /* the send buffer's and the receive buffer's shadows */
  void *value;                       /* forward Irecv: the user's buffer */
  char *tmp, *tmp2;                  /* a message's own buffers */
  Floats sent;                       /* a send of packed bytes: where their floats are */
  Reals factor;                      /* MAX/MIN/PROD: local factor of each float */
  Reals sum;                         /* Iallreduce, Ireduce: the reduced tangents or adjoints, as they arrive */
  int *counts, *displs;              /* Gatherv, Scatterv at the root; Allgatherv, Alltoallv: the receive side */
  int *counts2, *displs2;            /* Alltoallv: the send side */
  MPI_Request adj, adj2;             /* the transposed communication, started by the wait's adjoint */
  MPI_Request persistent;            /* an MPI_Start's: the program's persistent request, back in its place at the end */
  const MPI_Request *slot;           /* where the program was given the request */
  int nrec;                          /* Waitall: the records it completed */
  struct Record **recs;
  int *back, *at;                    /* Allgather(v), Alltoall(v): where the adjoints come back from each rank */
  int parts;                         /* a neighbourhood collective's: its neighbours (else one part per rank) */
  int *peers;                        /* and their ranks (MPI_PROC_NULL at a non-periodic edge) */
  const char *call;                  /* a collective's, for messages */
  void (*start)(struct Record *);    /* a collective's adjoint: posts the transposed communication on adj, */
  void (*end)(struct Record *);      /* then completes it, moves the adjoints and releases the record */
} Record;

static void release(Record *r);
static void release_kept(void *r) { release(r); }
void __parad_rt_ckpt_track(void *p, void (*release)(void *)); /* a checkpointed step's: checkpoint.c */
void __parad_rt_release_later(void (*release)(void *), void *handle); /* when the tape ends: tape.h */

static Record *record(int kind) {
  Record *r = alloc(sizeof *r);
  r->kind = kind;
  r->adj = r->adj2 = MPI_REQUEST_NULL;
  r->persistent = MPI_REQUEST_NULL;
  __parad_rt_ckpt_track(r, release_kept); /* released by the reverse sweep, or when a step's tape is dropped */
  return r;
}

/* A record outlives its call: its datatypes are kept (a derived one may be freed before the reverse sweep). */
static void keep(Record *r, const Shape *sh, const Shape *sh2) {
  /* a send's datatype may name an element twice; its adjoints, received back through it, would keep only
     one of the two and add it twice (a wrong gradient): refused (a receive's may not) */
  if ((sh && shape_repeats(sh)) || (sh2 && shape_repeats(sh2)))
    parad_mpi_die("reverse mode cannot send through a datatype that names one element twice (its adjoints would "
                  "come back through it): send each element once, and repeat it in the receiver's datatype");
  if (sh) r->sh = *sh, shape_keep(&r->sh);
  if (sh2) r->sh2 = *sh2, shape_keep(&r->sh2);
}

/* The non-blocking collectives whose adjoints are to come, in the order the forward sweep posted them. */
static struct {
  Record **r;
  size_t len, cap;
} posted;

static void unpost(Record *r) {
  for (size_t i = 0; i < posted.len; i++)
    if (posted.r[i] == r) {
      memmove(&posted.r[i], &posted.r[i + 1], sizeof *posted.r * (posted.len - i - 1));
      if (!--posted.len) free(posted.r), posted.r = NULL, posted.cap = 0;
      return;
    }
}

static void release(Record *r) {
  if (!r) return;
  if (r->kind == REV_ICOLL) unpost(r);
  shape_drop(&r->sh), shape_drop(&r->sh2);
  floats_free(&r->sent);
  free(r->tmp), free(r->tmp2), free(r->factor.v), free(r->sum.v), free(r->counts), free(r->displs), free(r->counts2),
      free(r->displs2), free(r->recs), free(r->back), free(r->at), free(r->peers);
  free(r);
}

/* Outstanding non-blocking calls that carry derivatives: request -> record. */
static struct {
  MPI_Request *req;
  Record **rec;
  size_t len, cap;
} pending;

static void remember(MPI_Request *slot, Record *r) {
  MPI_Request req = *slot;
  r->slot = slot;
  if (pending.len == pending.cap) {
    pending.cap = pending.cap ? 2 * pending.cap : 16;
    pending.req = realloc(pending.req, pending.cap * sizeof *pending.req);
    pending.rec = realloc(pending.rec, pending.cap * sizeof *pending.rec);
    if (!pending.req || !pending.rec) die("out of memory");
  }
  pending.req[pending.len] = req, pending.rec[pending.len++] = r;
}

/* The record of the request a wait or test got in slot, holding value before the call. MPICH gives sends that
 * completed at once one shared handle, so a value may stand for several requests: the one posted into that
 * very slot is taken first. */
static Record *take(MPI_Request value, const MPI_Request *slot) {
  if (value == MPI_REQUEST_NULL) return NULL;
  size_t at = pending.len;
  for (size_t i = 0; i < pending.len; i++)
    if (pending.req[i] == value && (at == pending.len || pending.rec[i]->slot == slot)) at = i;
  if (at == pending.len) return NULL;
  Record *r = pending.rec[at];
  pending.req[at] = pending.req[--pending.len], pending.rec[at] = pending.rec[pending.len];
  if (!pending.len) free(pending.req), free(pending.rec), pending.req = NULL, pending.rec = NULL, pending.cap = 0;
  return r;
}

static int *copy_ints(const int *v, int n) {
  int *c = alloc(sizeof(int) * (size_t)n);
  memcpy(c, v, sizeof(int) * (size_t)n);
  return c;
}

/* The requests as a wait or test got them (it sets those it completes to MPI_REQUEST_NULL). */
static MPI_Request *snapshot(int n, const MPI_Request *reqs) {
  MPI_Request *s = alloc(sizeof *s * (size_t)(n > 0 ? n : 1));
  memcpy(s, reqs, sizeof *s * (size_t)(n > 0 ? n : 0));
  return s;
}

static MPI_Status *statuses_of(MPI_Status *statuses, int n) {
  return statuses == MPI_STATUSES_IGNORE ? alloc(sizeof(MPI_Status) * (size_t)(n > 0 ? n : 1)) : statuses;
}

/* ---- adjoints in and out of buffers ---- */

/* The floats of a send buffer about to be sent with a shadow, where only the sender can tell them: packed
 * bytes (what this rank packed into them). */
static void note_sent(Record *r, const void *buf, int count, const char *call) {
  if (r->shadow && shape_packed(&r->sh)) r->sent = packed_floats(buf, count, call);
}

/* Adjoints that arrived at src, laid out as `count` elements of s, are added into the floats of dst. */
static void add_floats(const Shape *s, char *dst, char *src, int count, const char *call) {
  if (!dst) return;
  Floats f = floats_of(s, 0, count, call);
  floats_move(dst, AT, src, AT, &f, 0);
  floats_free(&f);
}

/* The adjoint a send receives back, added into its buffer's: packed bytes where the sender noted. */
static void add_arrived(Record *r, char *src, const char *call) {
  if (shape_packed(&r->sh)) floats_move(r->shadow, AT, src, AT, &r->sent, 0);
  else add_floats(&r->sh, r->shadow, src, r->count, call);
}

/* A receive buffer's adjoint, once sent back, is reset: its floats (all its bytes for packed data, which
 * holds no pointers whose shadows must stay). */
static void clear(const Shape *s, void *shadow, int first, int count, const char *call) {
  if (!shadow || count <= 0) return;
  if (shape_packed(s)) {
    memset((char *)shadow + first, 0, (size_t)count);
    return;
  }
  Floats f = floats_of(s, first, count, call);
  floats_zero(shadow, &f);
  floats_free(&f);
}

/* A buffer with a shadow: its floats must be placeable before the call is made, on every rank alike. */
static void check(const Shape *s, const void *shadow, const char *call) {
  if (shadow) shape_check(s, call);
}

/* A collective's buffer with a shadow in reverse mode: its floats must be placeable on every rank alike,
 * which packed bytes (whose floats the sender alone knows) are not. */
static void check_collective(const Shape *s, const void *shadow, const char *call) {
  if (shadow && shape_packed(s))
    die("%s of active MPI_PACKED data is not differentiated in reverse mode: where the floats lie in packed bytes, only the "
        "rank that packed them knows; send the values with a datatype of their own (MPI_Type_create_struct)", call);
  check(s, shadow, call);
}

/* ---- the local factor of MAX, MIN and PROD reductions ---- */

/* For each float: 1 on the lowest rank holding the extremum (0 elsewhere; for MAXLOC and MINLOC, the
 * pair of value and index the result holds), or the product of the other ranks' values; none for SUM.
 * x: the floats of the n elements of datatype t in buf. */
static Reals local_factor(const Reals *x, MPI_Op op, MPI_Comm comm, const char *call, const void *buf, MPI_Datatype t, int n) {
  Reals f = {NULL, x->n, x->k, x->type};
  if (op == MPI_SUM) return f;
  int size = comm_size(comm), rank = comm_rank(comm);
  f.v = alloc(x->n * (size_t)x->k);
  if (op == MPI_MAXLOC || op == MPI_MINLOC) {
    if (t != MPI_DOUBLE_INT && t != MPI_FLOAT_INT)
      die("%s with MPI_MAXLOC or MPI_MINLOC is differentiated for MPI_DOUBLE_INT and MPI_FLOAT_INT", call);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(t, &lb, &extent);
    char *best = alloc((size_t)extent * (size_t)(n ? n : 1));
    int *owner = alloc(sizeof(int) * (size_t)(n ? n : 1));
    MPI_Allreduce(buf, best, n, t, op, comm);
    for (int i = 0; i < n; i++) { /* the value, then the index after it */
      const char *mine = (const char *)buf + i * extent, *won = best + i * extent;
      int same = !memcmp(mine + x->k, won + x->k, sizeof(int)) &&
                 (x->k == 8 ? *(const double *)mine == *(const double *)won : *(const float *)mine == *(const float *)won);
      owner[i] = same ? rank : size;
    }
    MPI_Allreduce(MPI_IN_PLACE, owner, n, MPI_INT, MPI_MIN, comm);
    for (int i = 0; i < n; i++) {
      if (x->k == 8) ((double *)f.v)[i] = owner[i] == rank;
      else ((float *)f.v)[i] = owner[i] == rank;
    }
    free(best), free(owner);
  } else if (op == MPI_MAX || op == MPI_MIN) {
    char *best = alloc(x->n * (size_t)x->k);
    int *owner = alloc(sizeof(int) * (x->n ? x->n : 1));
    MPI_Allreduce(x->v, best, (int)x->n, x->type, op, comm);
    for (int i = 0; i < (int)x->n; i++)
      owner[i] = (x->k == 8 ? ((double *)x->v)[i] == ((double *)best)[i] : ((float *)x->v)[i] == ((float *)best)[i]) ? rank : size;
    MPI_Allreduce(MPI_IN_PLACE, owner, (int)x->n, MPI_INT, MPI_MIN, comm);
    for (int i = 0; i < (int)x->n; i++) {
      if (x->k == 8) ((double *)f.v)[i] = owner[i] == rank;
      else ((float *)f.v)[i] = owner[i] == rank;
    }
    free(best), free(owner);
  } else if (op == MPI_PROD) {
    int m = (int)x->n;
    char *all = alloc(x->n * (size_t)x->k * (size_t)size);
    MPI_Allgather(x->v, m, x->type, all, m, x->type, comm);
    for (int i = 0; i < m; i++) {
      double p = 1;
      for (int s = 0; s < size; s++)
        if (s != rank) p *= x->k == 8 ? ((double *)all)[(size_t)s * m + i] : ((float *)all)[(size_t)s * m + i];
      if (x->k == 8) ((double *)f.v)[i] = p;
      else ((float *)f.v)[i] = (float)p;
    }
    free(all);
  } else {
    free(f.v);
    die("%s with a reduction operation Parad cannot differentiate (SUM, PROD, MAX, MIN, MAXLOC and MINLOC can be)", call);
  }
  return f;
}

/* v *= f, float by float (nothing for SUM, whose factor is 1) */
static void scale(Reals *v, const Reals *f) {
  for (size_t i = 0; f->v && i < v->n; i++) {
    if (v->k == 8) ((double *)v->v)[i] *= ((double *)f->v)[i];
    else ((float *)v->v)[i] *= ((float *)f->v)[i];
  }
}

/* Whether a reduction carries derivatives: one of floats (and integers). MPI reduces bytes only bitwise,
 * so bytes, packed data and other data carry none Parad can tell: refused where they are active. */
static int reduces_floats(const Shape *s, int active, const char *call) {
  if (!shape_carries(s)) return 0;
  if (!shape_packed(s) && !s->flat->bytes && !s->flat->other) return 1;
  if (active) die("%s reduces active data that is not floats (bytes, MPI_PACKED, long double, ...): Parad differentiates reductions of floats only", call);
  return 0;
}

/* ==== forward mode ==== */

/* A forward-mode message: [mark | b | the values | their tangents], packed, b the bytes of the packed
 * values. The receiver's datatype may differ from the sender's (MPI matches type signatures): b tells it
 * how many of its own elements arrived, each packing to its datatype's size (MPI_Type_size) as both
 * libraries pack (their own bytes; checked as each message is unpacked). */
static const unsigned char mark[8] = {0x5a, 0xd5, 0xad, 0x5a, 0xd5, 0xad, 0x9a, 0x7e};

/* The most bytes a message of n elements takes. */
static int message_size(int n, const Shape *s, MPI_Comm comm) {
  int head, count, body;
  MPI_Pack_size(8, MPI_BYTE, comm, &head);
  MPI_Pack_size(1, MPI_INT, comm, &count);
  MPI_Pack_size(n, s->type, comm, &body);
  return head + count + 2 * body;
}

static char *message(const void *v, void *d, int n, const Shape *s, MPI_Comm comm, int *size) {
  int max = message_size(n, s, comm), pos = 0, b = 0, at, start;
  char *m = alloc((size_t)max), *block = NULL;
  MPI_Pack(mark, 8, MPI_BYTE, m, max, &pos, comm);
  at = pos;
  MPI_Pack(&b, 1, MPI_INT, m, max, &pos, comm);
  start = pos;
  MPI_Pack(v, n, s->type, m, max, &pos, comm);
  b = pos - start;
  MPI_Pack(or_zeros(d, s, n, &block), n, s->type, m, max, &pos, comm);
  MPI_Pack(&b, 1, MPI_INT, m, max, &at, comm);
  free(block);
  *size = pos;
  return m;
}

/* Splits a received message (posted for source src); the user's status counts the values. */
static void unpack_message(char *m, int src, MPI_Status *st, void *v, void *d, int max, const Shape *s, MPI_Comm comm,
                           const char *call) {
  if (source(src, st) == MPI_PROC_NULL) return; /* nothing arrives from MPI_PROC_NULL */
  int got, pos = 0, b = -1, size, n = -1;
  unsigned char head[8] = {0};
  MPI_Get_count(st, MPI_PACKED, &got);
  MPI_Type_size(s->type, &size);
  if (got >= message_size(0, s, comm)) {
    MPI_Unpack(m, got, &pos, head, 8, MPI_BYTE, comm);
    MPI_Unpack(m, got, &pos, &b, 1, MPI_INT, comm);
    n = size > 0 && b >= 0 && b % size == 0 ? b / size : -1;
  }
  if (memcmp(head, mark, 8) || n < 0 || n > max)
    die("%s from rank %d received a message without its tangent: was it sent by code Parad did not "
        "differentiate?", call, st->MPI_SOURCE);
  char *block = NULL;
  int start = pos;
  MPI_Unpack(m, got, &pos, v, n, s->type, comm);
  if (pos - start != b) die("%s: this MPI library packs data in a form Parad does not know", call);
  MPI_Unpack(m, got, &pos, or_zeros(d, s, n, &block), n, s->type, comm);
  free(block);
  MPI_Status_set_elements(st, s->type, shape_elements(s, n));
}

/* The blocking sends (standard, synchronous, ready) and the non-blocking ones: one body each, the mode the
 * program chose kept for the message that carries values and tangents (a ready send's receive is posted). */
typedef int (*SendCall)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
typedef int (*IsendCall)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

static int fwd_send(SendCall send, const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d,
                    const void *layout) {
  Shape s = shape_of(t, layout);
  if (!shape_carries(&s)) return send(buf, n, t, dest, tag, comm);
  int size;
  char *m = message(buf, d, n, &s, comm, &size);
  if (send == MPI_Send) return parad_mpi_send_parking(m, size, dest, tag, comm); /* takes m */
  int rc = send(m, size, MPI_PACKED, dest, tag, comm);
  free(m);
  return rc;
}

int __parad_mpi_fwd_MPI_Send(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d,
                             const void *layout) {
  return fwd_send(MPI_Send, buf, n, t, dest, tag, comm, d, layout);
}

int __parad_mpi_fwd_MPI_Ssend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d,
                              const void *layout) {
  return fwd_send(MPI_Ssend, buf, n, t, dest, tag, comm, d, layout);
}

int __parad_mpi_fwd_MPI_Rsend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d,
                              const void *layout) {
  return fwd_send(MPI_Rsend, buf, n, t, dest, tag, comm, d, layout);
}

/* ---- probes in forward mode ----
 * A message that carries tangents is bigger than its values, so the status MPI_Probe gives would count
 * the wrong number of elements (a program sizing its receive with MPI_Get_count allocated garbage). Forward
 * mode takes a probed message off the wire (MPI_Mprobe, MPI_Mrecv) into a list of its own, and gives the
 * program a status that counts the values; the MPI_Recv that follows (every receive in differentiated
 * code goes through the runtime in forward mode) takes the message from the list, first, as MPI would. */
typedef struct {
  char *m;           /* the message as it arrived, packed */
  MPI_Status raw;    /* its receive's status (the packed bytes) */
  MPI_Status shown;  /* what the probe said: counting the values */
  MPI_Comm comm;
  int tangents;      /* whether it carries tangents (it starts with the mark) */
} Probed;

static struct {
  Probed *p;
  size_t len, cap;
} probed;

static Probed *probed_match(int src, int tag, MPI_Comm comm) {
  for (size_t i = 0; i < probed.len; i++) {
    Probed *p = &probed.p[i];
    if (p->comm == comm && (src == MPI_ANY_SOURCE || src == p->raw.MPI_SOURCE) && (tag == MPI_ANY_TAG || tag == p->raw.MPI_TAG))
      return p;
  }
  return NULL;
}

static void probe_take(MPI_Message *msg, MPI_Status *st, MPI_Comm comm) {
  int got, pos = 0, b = 0;
  MPI_Get_count(st, MPI_PACKED, &got);
  if (probed.len == probed.cap) {
    probed.cap = probed.cap ? 2 * probed.cap : 8;
    if (!(probed.p = realloc(probed.p, probed.cap * sizeof *probed.p))) die("out of memory");
  }
  Probed *p = &probed.p[probed.len++];
  p->m = alloc((size_t)(got > 0 ? got : 1)), p->comm = comm;
  MPI_Mrecv(p->m, got, MPI_PACKED, msg, &p->raw);
  unsigned char head[8] = {0};
  int head_size;
  MPI_Pack_size(8, MPI_BYTE, comm, &head_size);
  if (got >= head_size) MPI_Unpack(p->m, got, &pos, head, 8, MPI_BYTE, comm);
  p->tangents = !memcmp(head, mark, 8);
  p->shown = p->raw;
  if (p->tangents) {
    MPI_Unpack(p->m, got, &pos, &b, 1, MPI_INT, comm);
    MPI_Status_set_elements(&p->shown, MPI_BYTE, b);
  }
  *st = p->shown;
}

int __parad_mpi_fwd_MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *status) {
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  Probed *p = probed_match(src, tag, comm);
  if (p) {
    *st = p->shown;
    return MPI_SUCCESS;
  }
  MPI_Message msg;
  int rc = MPI_Mprobe(src, tag, comm, &msg, st);
  if (src != MPI_PROC_NULL) probe_take(&msg, st, comm);
  return rc;
}

int __parad_mpi_fwd_MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  Probed *p = probed_match(src, tag, comm);
  if (p) {
    *flag = 1, *st = p->shown;
    return MPI_SUCCESS;
  }
  MPI_Message msg;
  int rc = MPI_Improbe(src, tag, comm, flag, &msg, st);
  if (*flag && src != MPI_PROC_NULL) probe_take(&msg, st, comm);
  return rc;
}

/* Reverse mode sends plain messages: its probes are MPI's. */
Record *__parad_mpi_aug_MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *status) {
  MPI_Probe(src, tag, comm, status);
  return NULL;
}

Record *__parad_mpi_aug_MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  MPI_Iprobe(src, tag, comm, flag, status);
  return NULL;
}

void __parad_mpi_rev_MPI_Probe(Record *r) { (void)r; }
void __parad_mpi_rev_MPI_Iprobe(Record *r) { (void)r; }

/* A receive of a probed message: from the list, values and tangents as the message has them. */
static int probed_receive(Probed *p, void *buf, int n, const Shape *s, void *d, MPI_Comm comm, MPI_Status *status,
                          const char *call) {
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  if (p->tangents != shape_carries(s))
    die("%s received a probed message %s tangents, but its datatype %s (was it sent by code Parad did not "
        "differentiate?)", call, p->tangents ? "with" : "without", p->tangents ? "carries none" : "carries them");
  *st = p->raw;
  if (p->tangents) {
    unpack_message(p->m, st->MPI_SOURCE, st, buf, d, n, s, comm, call);
  } else {
    int got, pos = 0, k;
    MPI_Get_count(st, MPI_PACKED, &got);
    MPI_Get_count(st, s->type, &k);
    if (k == MPI_UNDEFINED || k > n) die("%s: a probed message longer than the receive", call);
    MPI_Unpack(p->m, got, &pos, buf, k, s->type, comm);
    MPI_Status_set_elements(st, s->type, k);
  }
  free(p->m);
  size_t at = (size_t)(p - probed.p);
  memmove(p, p + 1, sizeof *p * (probed.len - at - 1)); /* the rest keep their order, as MPI's queue */
  if (!--probed.len) free(probed.p), probed.p = NULL, probed.cap = 0;
  return MPI_SUCCESS;
}

/* Receives other than MPI_Recv do not take probed messages: they would wait for one that is already here. */
static void probed_refuse(int src, int tag, MPI_Comm comm, const char *call) {
  if (src != MPI_PROC_NULL && probed_match(src, tag, comm))
    die("%s would receive a message that MPI_Probe found: in forward mode Parad hands probed messages to "
        "MPI_Recv only", call);
}

int __parad_mpi_fwd_MPI_Recv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *status,
                             void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  Probed *p = src != MPI_PROC_NULL ? probed_match(src, tag, comm) : NULL;
  if (p) return probed_receive(p, buf, n, &s, d, comm, status, "MPI_Recv");
  if (!shape_carries(&s)) return MPI_Recv(buf, n, t, src, tag, comm, status);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  int size = message_size(n, &s, comm);
  char *m = alloc((size_t)size);
  int rc = MPI_Recv(m, size, MPI_PACKED, src, tag, comm, st);
  unpack_message(m, src, st, buf, d, n, &s, comm, "MPI_Recv");
  free(m);
  return rc;
}

/* Each half of a Sendrecv carries derivatives as its own datatype says (the two messages have different
 * partners, each deciding by the same datatype). */
int __parad_mpi_fwd_MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st_, int dest, int stag, void *rb, int rn,
                                 MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status, void *dsb,
                                 const void *sl, void *drb, const void *rl) {
  Shape ss = shape_of(st_, sl), rs = shape_of(rt, rl);
  int sends = shape_carries(&ss), receives = shape_carries(&rs);
  probed_refuse(src, rtag, comm, "MPI_Sendrecv");
  if (!sends && !receives) return MPI_Sendrecv(sb, sn, st_, dest, stag, rb, rn, rt, src, rtag, comm, status);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  int out_size = sn, in_size = receives ? message_size(rn, &rs, comm) : rn;
  char *out = sends ? message(sb, dsb, sn, &ss, comm, &out_size) : NULL, *in = receives ? alloc((size_t)in_size) : NULL;
  int rc = MPI_Sendrecv(sends ? out : sb, out_size, sends ? MPI_PACKED : st_, dest, stag, receives ? in : rb, in_size,
                        receives ? MPI_PACKED : rt, src, rtag, comm, st);
  if (receives) unpack_message(in, src, st, rb, drb, rn, &rs, comm, "MPI_Sendrecv");
  free(out), free(in);
  return rc;
}

static int fwd_isend(IsendCall isend, const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                     MPI_Request *req, void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  if (!shape_carries(&s)) return isend(buf, n, t, dest, tag, comm, req);
  Record *r = record(FWD_ISEND);
  int size;
  r->tmp = message(buf, d, n, &s, comm, &size);
  int rc = isend(r->tmp, size, MPI_PACKED, dest, tag, comm, req);
  remember(req, r);
  return rc;
}

int __parad_mpi_fwd_MPI_Isend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                              MPI_Request *req, void *d, const void *layout) {
  return fwd_isend(MPI_Isend, buf, n, t, dest, tag, comm, req, d, layout);
}

int __parad_mpi_fwd_MPI_Issend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                               MPI_Request *req, void *d, const void *layout) {
  return fwd_isend(MPI_Issend, buf, n, t, dest, tag, comm, req, d, layout);
}

int __parad_mpi_fwd_MPI_Irsend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                               MPI_Request *req, void *d, const void *layout) {
  return fwd_isend(MPI_Irsend, buf, n, t, dest, tag, comm, req, d, layout);
}

int __parad_mpi_fwd_MPI_Irecv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req,
                              void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  probed_refuse(src, tag, comm, "MPI_Irecv");
  if (!shape_carries(&s)) return MPI_Irecv(buf, n, t, src, tag, comm, req);
  Record *r = record(FWD_IRECV);
  keep(r, NULL, &s);
  int size = message_size(n, &s, comm);
  r->tmp = alloc((size_t)size);
  r->value = buf, r->shadow2 = d, r->count = n, r->comm = comm, r->peer = src;
  int rc = MPI_Irecv(r->tmp, size, MPI_PACKED, src, tag, comm, req);
  remember(req, r);
  return rc;
}

/* Where the tangents or adjoints of a non-blocking reduction's result go: everywhere for Iallreduce, at the
 * root for Ireduce. */
static int gets_result(const Record *r) { return r->root < 0 || comm_rank(r->comm) == r->root; }

/* A request completed: slot is where the program holds it, which gets back a persistent request that
 * MPI_Start stood in for. */
static void back_to_persistent(const Record *r, MPI_Request *slot) {
  if (r && r->persistent != MPI_REQUEST_NULL) *slot = r->persistent;
}

static void fwd_complete(Record *r, MPI_Status *st, MPI_Request *slot) {
  if (!r) return;
  back_to_persistent(r, slot);
  if (r->kind == FWD_IRECV) unpack_message(r->tmp, r->peer, st, r->value, r->shadow2, r->count, &r->sh2, r->comm, "MPI_Irecv");
  if (r->kind == FWD_IREDUCE) { /* Iallreduce, Ireduce, Iscan, Iexscan (vform: no result on rank 0) */
    finish(&r->adj, NULL, r->call, r->root);
    Floats f = floats_of(&r->sh, 0, r->count, r->call);
    if (gets_result(r) && !(r->vform && comm_rank(r->comm) == 0)) reals_put(r->shadow2, &f, &r->sum, 0);
    floats_free(&f);
  }
  if (r->kind == FWD_ICOLL) finish(&r->adj, NULL, r->call, -1);
  release(r);
}

int __parad_mpi_fwd_MPI_Wait(MPI_Request *req, MPI_Status *status) {
  Record *r = take(*req, req);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Wait(req, st);
  fwd_complete(r, st, req);
  return rc;
}

int __parad_mpi_fwd_MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *statuses) {
  Record **recs = alloc(sizeof *recs * (size_t)(n > 0 ? n : 1));
  MPI_Status *st = statuses_of(statuses, n);
  for (int i = 0; i < n; i++) recs[i] = take(reqs[i], &reqs[i]);
  int rc = MPI_Waitall(n, reqs, st);
  for (int i = 0; i < n; i++) fwd_complete(recs[i], &st[i], &reqs[i]);
  if (st != statuses) free(st);
  free(recs);
  return rc;
}

int __parad_mpi_fwd_MPI_Testall(int n, MPI_Request *reqs, int *flag, MPI_Status *statuses) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status *st = statuses_of(statuses, n);
  int rc = MPI_Testall(n, reqs, flag, st);
  for (int i = 0; *flag && i < n; i++) fwd_complete(take(before[i], &reqs[i]), &st[i], &reqs[i]);
  if (st != statuses) free(st);
  free(before);
  return rc;
}

static void fwd_some(const MPI_Request *before, MPI_Request *reqs, const int *outcount, const int *indices, MPI_Status *st) {
  for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; k++)
    fwd_complete(take(before[indices[k]], &reqs[indices[k]]), &st[k], &reqs[indices[k]]);
}

int __parad_mpi_fwd_MPI_Waitsome(int n, MPI_Request *reqs, int *outcount, int *indices, MPI_Status *statuses) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status *st = statuses_of(statuses, n);
  int rc = MPI_Waitsome(n, reqs, outcount, indices, st);
  fwd_some(before, reqs, outcount, indices, st);
  if (st != statuses) free(st);
  free(before);
  return rc;
}

int __parad_mpi_fwd_MPI_Testsome(int n, MPI_Request *reqs, int *outcount, int *indices, MPI_Status *statuses) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status *st = statuses_of(statuses, n);
  int rc = MPI_Testsome(n, reqs, outcount, indices, st);
  fwd_some(before, reqs, outcount, indices, st);
  if (st != statuses) free(st);
  free(before);
  return rc;
}

int __parad_mpi_fwd_MPI_Waitany(int n, MPI_Request *reqs, int *index, MPI_Status *status) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Waitany(n, reqs, index, st);
  if (*index != MPI_UNDEFINED) fwd_complete(take(before[*index], &reqs[*index]), st, &reqs[*index]);
  free(before);
  return rc;
}

int __parad_mpi_fwd_MPI_Testany(int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *status) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Testany(n, reqs, index, flag, st);
  if (*flag && *index != MPI_UNDEFINED) fwd_complete(take(before[*index], &reqs[*index]), st, &reqs[*index]);
  free(before);
  return rc;
}

int __parad_mpi_fwd_MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
  MPI_Request before = *req;
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Test(req, flag, st);
  if (*flag) fwd_complete(take(before, req), st, req);
  return rc;
}

int __parad_mpi_fwd_MPI_Barrier(MPI_Comm comm) { return MPI_Barrier(comm); }

/* The data-moving collectives run once for the values, once for the tangents: the tangents' collective is
 * posted after the values' (in the same order on every rank) on a request of its own, completed at once for
 * a blocking collective, else by the wait that completes the program's request. */
static Record *tangents(const char *call) {
  Record *r = record(FWD_ICOLL);
  r->call = call;
  return r;
}

static int tangents_posted(Record *r, int rc, MPI_Request *req) {
  if (req) remember(req, r);
  else fwd_complete(r, NULL, NULL);
  return rc;
}

static int fwd_bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req, void *d,
                     const void *layout, const char *call) {
  Shape s = shape_of(t, layout);
  int rc = req ? MPI_Ibcast(buf, n, t, root, comm, req) : MPI_Bcast(buf, n, t, root, comm);
  if (!shape_carries(&s)) return rc;
  Record *r = tangents(call);
  MPI_Ibcast(or_zeros(d, &s, n, &r->tmp), n, t, root, comm, &r->adj);
  return tangents_posted(r, rc, req);
}

int __parad_mpi_fwd_MPI_Bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm, void *d, const void *layout) {
  return fwd_bcast(buf, n, t, root, comm, NULL, d, layout, "MPI_Bcast");
}

int __parad_mpi_fwd_MPI_Ibcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req, void *d,
                               const void *layout) {
  return fwd_bcast(buf, n, t, root, comm, req, d, layout, "MPI_Ibcast");
}

/* Reduce (root >= 0) and Allreduce (root < 0): the tangent of the result is the sum over the ranks of
 * each one's tangent times its local factor. */
static int fwd_reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, void *dsb,
                      const void *sl, void *drb, const char *call) {
  Shape s = shape_of(t, sl);
  int all = root < 0, in_place = sb == MPI_IN_PLACE;
  if (!reduces_floats(&s, dsb || drb, call)) return all ? MPI_Allreduce(sb, rb, n, t, op, comm) : MPI_Reduce(sb, rb, n, t, op, root, comm);
  Floats f = floats_of(&s, 0, n, call);
  Reals x = reals_get(in_place ? rb : sb, &f), dx = reals_get(in_place ? drb : dsb, &f);
  Reals factor = local_factor(&x, op, comm, call, in_place ? rb : sb, t, n), dy = reals_get(NULL, &f);
  int rc = all ? MPI_Allreduce(sb, rb, n, t, op, comm) : MPI_Reduce(sb, rb, n, t, op, root, comm);
  scale(&dx, &factor);
  if (all) MPI_Allreduce(dx.v, dy.v, (int)dx.n, dx.type, MPI_SUM, comm);
  else MPI_Reduce(dx.v, dy.v, (int)dx.n, dx.type, MPI_SUM, root, comm);
  if (all || comm_rank(comm) == root) reals_put(drb, &f, &dy, 0);
  free(x.v), free(dx.v), free(dy.v), free(factor.v);
  floats_free(&f);
  return rc;
}

int __parad_mpi_fwd_MPI_Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                               void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return fwd_reduce(sb, rb, n, t, op, root, comm, dsb, sl, drb, "MPI_Reduce");
}

int __parad_mpi_fwd_MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, void *dsb,
                                  const void *sl, void *drb, const void *rl) {
  (void)rl;
  return fwd_reduce(sb, rb, n, t, op, -1, comm, dsb, sl, drb, "MPI_Allreduce");
}

/* ---- non-blocking reductions: sums ----
 * MPI_Iallreduce and MPI_Ireduce. The values' reduction is the program's request; forward mode reduces the
 * tangents beside it, on a request of its own that the program's wait finishes. Only sums: the local
 * factor of MAX, MIN and PROD needs the result, which exists only once the request completes, and a
 * collective of its own there, which ranks completing their requests in different orders would mismatch. */
static int sum_only(MPI_Op op, const char *call) {
  if (op != MPI_SUM)
    die("%s with active data and an operation other than MPI_SUM: Parad differentiates non-blocking reductions and "
        "prefix sums (Scan, Exscan) and MPI_Reduce_scatter(_block) that sum (the blocking MPI_Allreduce and MPI_Reduce "
        "also take MAX, MIN and PROD)", call);
  return 1;
}

static int fwd_ireduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, MPI_Request *req,
                       void *dsb, const void *sl, void *drb, const char *call) {
  Shape s = shape_of(t, sl);
  int all = root < 0;
  if (!reduces_floats(&s, dsb || drb, call) || !sum_only(op, call))
    return all ? MPI_Iallreduce(sb, rb, n, t, op, comm, req) : MPI_Ireduce(sb, rb, n, t, op, root, comm, req);
  Floats f = floats_of(&s, 0, n, call);
  Record *r = record(FWD_IREDUCE);
  keep(r, &s, NULL);
  r->shadow2 = drb, r->count = n, r->root = root, r->comm = comm, r->call = call;
  Reals dx = reals_get(sb == MPI_IN_PLACE ? drb : dsb, &f);
  r->tmp = dx.v, r->sum = reals_get(NULL, &f);
  if (all) MPI_Iallreduce(dx.v, r->sum.v, (int)dx.n, dx.type, MPI_SUM, comm, &r->adj);
  else MPI_Ireduce(dx.v, r->sum.v, (int)dx.n, dx.type, MPI_SUM, root, comm, &r->adj);
  floats_free(&f);
  int rc = all ? MPI_Iallreduce(sb, rb, n, t, op, comm, req) : MPI_Ireduce(sb, rb, n, t, op, root, comm, req);
  remember(req, r);
  return rc;
}

int __parad_mpi_fwd_MPI_Iallreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                   MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return fwd_ireduce(sb, rb, n, t, op, -1, comm, req, dsb, sl, drb, "MPI_Iallreduce");
}

int __parad_mpi_fwd_MPI_Ireduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                                MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return fwd_ireduce(sb, rb, n, t, op, root, comm, req, dsb, sl, drb, "MPI_Ireduce");
}

/* ---- prefix sums: MPI_Scan (over ranks 0..r) and MPI_Exscan (over ranks 0..r-1; rank 0's result undefined) ----
 * Forward mode scans the tangents as the values. The adjoint of rank r's contribution is the sum of the
 * result's adjoints over the ranks that include it: all ranks from r on (Scan), or after r (Exscan): the
 * total of the adjoints less an exclusive (Scan) or inclusive (Exscan) prefix of them. Sums only. */
static int fwd_scan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req,
                    void *dsb, const void *sl, void *drb, int exclusive, const char *call) {
  Shape s = shape_of(t, sl);
  int rc = req ? (exclusive ? MPI_Iexscan(sb, rb, n, t, op, comm, req) : MPI_Iscan(sb, rb, n, t, op, comm, req))
               : (exclusive ? MPI_Exscan(sb, rb, n, t, op, comm) : MPI_Scan(sb, rb, n, t, op, comm));
  if (!reduces_floats(&s, dsb || drb, call) || !sum_only(op, call)) return rc;
  Floats f = floats_of(&s, 0, n, call);
  Reals dx = reals_get(sb == MPI_IN_PLACE ? drb : dsb, &f), dy = reals_get(NULL, &f);
  if (req) { /* the tangents' scan on a request of its own, completed with the program's */
    Record *r = record(FWD_IREDUCE);
    keep(r, &s, NULL);
    r->shadow2 = drb, r->count = n, r->root = -1, r->comm = comm, r->call = call, r->vform = exclusive;
    r->tmp = dx.v, r->sum = dy;
    if (exclusive) MPI_Iexscan(dx.v, dy.v, (int)dx.n, dx.type, MPI_SUM, comm, &r->adj);
    else MPI_Iscan(dx.v, dy.v, (int)dx.n, dx.type, MPI_SUM, comm, &r->adj);
    remember(req, r);
    floats_free(&f);
    return rc;
  }
  if (exclusive) MPI_Exscan(dx.v, dy.v, (int)dx.n, dx.type, MPI_SUM, comm);
  else MPI_Scan(dx.v, dy.v, (int)dx.n, dx.type, MPI_SUM, comm);
  if (!exclusive || comm_rank(comm) > 0) reals_put(drb, &f, &dy, 0);
  free(dx.v), free(dy.v);
  floats_free(&f);
  return rc;
}

int __parad_mpi_fwd_MPI_Scan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, void *dsb,
                             const void *sl, void *drb, const void *rl) {
  (void)rl;
  return fwd_scan(sb, rb, n, t, op, comm, NULL, dsb, sl, drb, 0, "MPI_Scan");
}

int __parad_mpi_fwd_MPI_Iscan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                              MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return fwd_scan(sb, rb, n, t, op, comm, req, dsb, sl, drb, 0, "MPI_Iscan");
}

int __parad_mpi_fwd_MPI_Exscan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, void *dsb,
                               const void *sl, void *drb, const void *rl) {
  (void)rl;
  return fwd_scan(sb, rb, n, t, op, comm, NULL, dsb, sl, drb, 1, "MPI_Exscan");
}

int __parad_mpi_fwd_MPI_Iexscan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return fwd_scan(sb, rb, n, t, op, comm, req, dsb, sl, drb, 1, "MPI_Iexscan");
}

/* MPI_Reduce_scatter_block (sums): rank r gets block r of the sum of every rank's size x n elements. Forward
 * mode scatters the sum of the tangents the same way. */
int __parad_mpi_fwd_MPI_Reduce_scatter_block(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                             void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  const char *call = "MPI_Reduce_scatter_block";
  Shape s = shape_of(t, sl);
  if (!reduces_floats(&s, dsb || drb, call) || !sum_only(op, call)) return MPI_Reduce_scatter_block(sb, rb, n, t, op, comm);
  Floats all = floats_of(&s, 0, n * comm_size(comm), call), mine = floats_of(&s, 0, n, call);
  Reals dx = reals_get(sb == MPI_IN_PLACE ? drb : dsb, &all), dy = reals_get(NULL, &mine);
  int rc = MPI_Reduce_scatter_block(sb, rb, n, t, op, comm);
  MPI_Reduce_scatter_block(dx.v, dy.v, (int)dy.n, dy.type, MPI_SUM, comm);
  reals_put(drb, &mine, &dy, 0);
  free(dx.v), free(dy.v);
  floats_free(&all), floats_free(&mine);
  return rc;
}

/* MPI_Reduce_scatter (sums): rank r gets the counts[r] elements of block r of the sum, blocks laid end to end.
 * The floats' counts per rank are the elements' times the floats an element holds. */
static int *float_counts(const Shape *s, const int *counts, int size, int *displs, const char *call) {
  Floats one = floats_of(s, 0, 1, call);
  int *fc = alloc(sizeof(int) * (size_t)size);
  for (int k = 0, at = 0; k < size; k++) fc[k] = counts[k] * (int)one.n, displs[k] = at, at += fc[k];
  floats_free(&one);
  return fc;
}

static int sum_of(const int *v, int n) {
  int t = 0;
  for (int i = 0; i < n; i++) t += v[i];
  return t;
}

int __parad_mpi_fwd_MPI_Reduce_scatter(const void *sb, void *rb, const int *counts, MPI_Datatype t, MPI_Op op,
                                       MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  const char *call = "MPI_Reduce_scatter";
  Shape s = shape_of(t, sl);
  if (!reduces_floats(&s, dsb || drb, call) || !sum_only(op, call)) return MPI_Reduce_scatter(sb, rb, counts, t, op, comm);
  int size = comm_size(comm), *displs = alloc(sizeof(int) * (size_t)size);
  int *fc = float_counts(&s, counts, size, displs, call);
  Floats all = floats_of(&s, 0, sum_of(counts, size), call), mine = floats_of(&s, 0, counts[comm_rank(comm)], call);
  Reals dx = reals_get(sb == MPI_IN_PLACE ? drb : dsb, &all), dy = reals_get(NULL, &mine);
  int rc = MPI_Reduce_scatter(sb, rb, counts, t, op, comm);
  MPI_Reduce_scatter(dx.v, dy.v, fc, dy.type, MPI_SUM, comm);
  reals_put(drb, &mine, &dy, 0);
  free(dx.v), free(dy.v), free(fc), free(displs);
  floats_free(&all), floats_free(&mine);
  return rc;
}

/* The extent in elements of a v-collective's root buffer. */
static int v_extent(const int *counts, const int *displs, int size) {
  int e = 0;
  for (int i = 0; i < size; i++)
    if (displs[i] + counts[i] > e) e = displs[i] + counts[i];
  return e;
}

/* A buffer's stand-in in the tangents' collective: its shadow, zeros where it has none, MPI_IN_PLACE kept. */
static void *shadow_of(const void *buf, void *d, const Shape *s, int count, char **block) {
  return buf == MPI_IN_PLACE ? MPI_IN_PLACE : or_zeros(d, s, count, block);
}

/* The shapes of a collective's two sides; whether its tangents move (the side that is not MPI_IN_PLACE
 * says). */
static int collective_shapes(Shape *s, Shape *r, const void *sb, MPI_Datatype st, const void *sl, MPI_Datatype rt,
                             const void *rl) {
  *s = shape_of(st, sl), *r = shape_of(rt, rl);
  return shape_carries(sb == MPI_IN_PLACE ? r : s);
}

static int fwd_gather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, int v, const int *rcounts,
                      const int *displs, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req, void *dsb,
                      const void *sl, void *drb, const void *rl, const char *call) {
  Shape s, r;
  int rc;
  if (v)
    rc = req ? MPI_Igatherv(sb, sn, st, rb, rcounts, displs, rt, root, comm, req)
             : MPI_Gatherv(sb, sn, st, rb, rcounts, displs, rt, root, comm);
  else rc = req ? MPI_Igather(sb, sn, st, rb, rn, rt, root, comm, req) : MPI_Gather(sb, sn, st, rb, rn, rt, root, comm);
  if (!collective_shapes(&s, &r, sb, st, sl, rt, rl)) return rc;
  int is_root = comm_rank(comm) == root, size = comm_size(comm);
  int ext = !is_root ? 0 : v ? v_extent(rcounts, displs, size) : rn * size;
  Record *t = tangents(call);
  void *dsend = shadow_of(sb, dsb, &s, sn, &t->tmp), *drecv = shadow_of(rb, drb, &r, ext, &t->tmp2);
  if (v) MPI_Igatherv(dsend, sn, st, drecv, rcounts, displs, rt, root, comm, &t->adj);
  else MPI_Igather(dsend, sn, st, drecv, rn, rt, root, comm, &t->adj);
  return tangents_posted(t, rc, req);
}

static int fwd_scatter(const void *sb, int sn, int v, const int *scounts, const int *displs, MPI_Datatype st, void *rb,
                       int rn, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl,
                       void *drb, const void *rl, const char *call) {
  Shape s, r;
  int rc;
  if (v)
    rc = req ? MPI_Iscatterv(sb, scounts, displs, st, rb, rn, rt, root, comm, req)
             : MPI_Scatterv(sb, scounts, displs, st, rb, rn, rt, root, comm);
  else rc = req ? MPI_Iscatter(sb, sn, st, rb, rn, rt, root, comm, req) : MPI_Scatter(sb, sn, st, rb, rn, rt, root, comm);
  if (!collective_shapes(&r, &s, rb, rt, rl, st, sl)) return rc;
  int is_root = comm_rank(comm) == root, size = comm_size(comm);
  int ext = !is_root ? 0 : v ? v_extent(scounts, displs, size) : sn * size;
  Record *t = tangents(call);
  void *dsend = shadow_of(sb, dsb, &s, ext, &t->tmp), *drecv = shadow_of(rb, drb, &r, rn, &t->tmp2);
  if (v) MPI_Iscatterv(dsend, scounts, displs, st, drecv, rn, rt, root, comm, &t->adj);
  else MPI_Iscatter(dsend, sn, st, drecv, rn, rt, root, comm, &t->adj);
  return tangents_posted(t, rc, req);
}

/* Allgather(v) and Alltoall(v), or with nb their neighbourhood forms: the uniform or v-form (rcounts),
 * non-blocking on req, blocking where req is NULL. */
static int post_allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, const int *rcounts,
                          const int *displs, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req, int nb) {
  if (nb && req)
    return rcounts ? MPI_Ineighbor_allgatherv(sb, sn, st, rb, rcounts, displs, rt, comm, req)
                   : MPI_Ineighbor_allgather(sb, sn, st, rb, rn, rt, comm, req);
  if (nb)
    return rcounts ? MPI_Neighbor_allgatherv(sb, sn, st, rb, rcounts, displs, rt, comm)
                   : MPI_Neighbor_allgather(sb, sn, st, rb, rn, rt, comm);
  if (req)
    return rcounts ? MPI_Iallgatherv(sb, sn, st, rb, rcounts, displs, rt, comm, req)
                   : MPI_Iallgather(sb, sn, st, rb, rn, rt, comm, req);
  return rcounts ? MPI_Allgatherv(sb, sn, st, rb, rcounts, displs, rt, comm) : MPI_Allgather(sb, sn, st, rb, rn, rt, comm);
}

static int post_alltoall(const void *sb, int sn, const int *scounts, const int *sdispls, MPI_Datatype st, void *rb,
                         int rn, const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req,
                         int nb) {
  if (nb && req)
    return rcounts ? MPI_Ineighbor_alltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm, req)
                   : MPI_Ineighbor_alltoall(sb, sn, st, rb, rn, rt, comm, req);
  if (nb)
    return rcounts ? MPI_Neighbor_alltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm)
                   : MPI_Neighbor_alltoall(sb, sn, st, rb, rn, rt, comm);
  if (req)
    return rcounts ? MPI_Ialltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm, req)
                   : MPI_Ialltoall(sb, sn, st, rb, rn, rt, comm, req);
  return rcounts ? MPI_Alltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm)
                 : MPI_Alltoall(sb, sn, st, rb, rn, rt, comm);
}

/* Allgather(v), and with nb the neighbourhood's (MPI_Neighbor_allgather(v): one part per neighbour). */
static int fwd_allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, const int *rcounts, const int *displs,
                         MPI_Datatype rt, MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb,
                         const void *rl, const char *call, int nb) {
  Shape s, r;
  int rc = post_allgather(sb, sn, st, rb, rn, rcounts, displs, rt, comm, req, nb);
  if (!collective_shapes(&s, &r, sb, st, sl, rt, rl)) return rc;
  int size = parts_of(comm, nb, call), ext = rcounts ? v_extent(rcounts, displs, size) : rn * size;
  Record *t = tangents(call);
  void *dsend = shadow_of(sb, dsb, &s, sn, &t->tmp), *drecv = shadow_of(rb, drb, &r, ext, &t->tmp2);
  /* non-blocking on t->adj; a neighbourhood's in the program's form (neighbours()) */
  post_allgather(dsend, sn, st, drecv, rn, rcounts, displs, rt, comm, nb && !req ? NULL : &t->adj, nb);
  return tangents_posted(t, rc, req);
}

/* Alltoall(v), and with nb the neighbourhood's (MPI_Neighbor_alltoall(v)). */
static int fwd_alltoall(const void *sb, int sn, const int *scounts, const int *sdispls, MPI_Datatype st, void *rb, int rn,
                        const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req, void *dsb,
                        const void *sl, void *drb, const void *rl, const char *call, int nb) {
  Shape s, r;
  int rc = post_alltoall(sb, sn, scounts, sdispls, st, rb, rn, rcounts, rdispls, rt, comm, req, nb);
  if (!collective_shapes(&s, &r, sb, st, sl, rt, rl)) return rc;
  int size = parts_of(comm, nb, call), sext = sb == MPI_IN_PLACE ? 0 : scounts ? v_extent(scounts, sdispls, size) : sn * size;
  int rext = rcounts ? v_extent(rcounts, rdispls, size) : rn * size;
  Record *t = tangents(call);
  void *dsend = shadow_of(sb, dsb, &s, sext, &t->tmp), *drecv = shadow_of(rb, drb, &r, rext, &t->tmp2);
  /* non-blocking on t->adj; a neighbourhood's in the program's form (neighbours()) */
  post_alltoall(dsend, sn, scounts, sdispls, st, drecv, rn, rcounts, rdispls, rt, comm, nb && !req ? NULL : &t->adj, nb);
  return tangents_posted(t, rc, req);
}

int __parad_mpi_fwd_MPI_Gather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                               MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_gather(sb, sn, st, rb, rn, 0, NULL, NULL, rt, root, comm, NULL, dsb, sl, drb, rl, "MPI_Gather");
}

int __parad_mpi_fwd_MPI_Igather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_gather(sb, sn, st, rb, rn, 0, NULL, NULL, rt, root, comm, req, dsb, sl, drb, rl, "MPI_Igather");
}

int __parad_mpi_fwd_MPI_Gatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                const int *displs, MPI_Datatype rt, int root, MPI_Comm comm, void *dsb, const void *sl,
                                void *drb, const void *rl) {
  return fwd_gather(sb, sn, st, rb, 0, 1, rcounts, displs, rt, root, comm, NULL, dsb, sl, drb, rl, "MPI_Gatherv");
}

int __parad_mpi_fwd_MPI_Igatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                 const int *displs, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req, void *dsb,
                                 const void *sl, void *drb, const void *rl) {
  return fwd_gather(sb, sn, st, rb, 0, 1, rcounts, displs, rt, root, comm, req, dsb, sl, drb, rl, "MPI_Igatherv");
}

int __parad_mpi_fwd_MPI_Scatter(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_scatter(sb, sn, 0, NULL, NULL, st, rb, rn, rt, root, comm, NULL, dsb, sl, drb, rl, "MPI_Scatter");
}

int __parad_mpi_fwd_MPI_Iscatter(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                 MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_scatter(sb, sn, 0, NULL, NULL, st, rb, rn, rt, root, comm, req, dsb, sl, drb, rl, "MPI_Iscatter");
}

int __parad_mpi_fwd_MPI_Scatterv(const void *sb, const int *scounts, const int *displs, MPI_Datatype st, void *rb,
                                 int rn, MPI_Datatype rt, int root, MPI_Comm comm, void *dsb, const void *sl, void *drb,
                                 const void *rl) {
  return fwd_scatter(sb, 0, 1, scounts, displs, st, rb, rn, rt, root, comm, NULL, dsb, sl, drb, rl, "MPI_Scatterv");
}

int __parad_mpi_fwd_MPI_Iscatterv(const void *sb, const int *scounts, const int *displs, MPI_Datatype st, void *rb,
                                  int rn, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req, void *dsb,
                                  const void *sl, void *drb, const void *rl) {
  return fwd_scatter(sb, 0, 1, scounts, displs, st, rb, rn, rt, root, comm, req, dsb, sl, drb, rl, "MPI_Iscatterv");
}

int __parad_mpi_fwd_MPI_Allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                  MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_allgather(sb, sn, st, rb, rn, NULL, NULL, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Allgather", 0);
}

int __parad_mpi_fwd_MPI_Iallgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                   MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_allgather(sb, sn, st, rb, rn, NULL, NULL, rt, comm, req, dsb, sl, drb, rl, "MPI_Iallgather", 0);
}

int __parad_mpi_fwd_MPI_Allgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                   const int *displs, MPI_Datatype rt, MPI_Comm comm, void *dsb, const void *sl, void *drb,
                                   const void *rl) {
  return fwd_allgather(sb, sn, st, rb, 0, rcounts, displs, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Allgatherv", 0);
}

int __parad_mpi_fwd_MPI_Iallgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                    const int *displs, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req, void *dsb,
                                    const void *sl, void *drb, const void *rl) {
  return fwd_allgather(sb, sn, st, rb, 0, rcounts, displs, rt, comm, req, dsb, sl, drb, rl, "MPI_Iallgatherv", 0);
}

int __parad_mpi_fwd_MPI_Alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                 MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_alltoall(sb, sn, NULL, NULL, st, rb, rn, NULL, NULL, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Alltoall", 0);
}

int __parad_mpi_fwd_MPI_Ialltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                  MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_alltoall(sb, sn, NULL, NULL, st, rb, rn, NULL, NULL, rt, comm, req, dsb, sl, drb, rl, "MPI_Ialltoall", 0);
}

int __parad_mpi_fwd_MPI_Alltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st, void *rb,
                                  const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm comm, void *dsb,
                                  const void *sl, void *drb, const void *rl) {
  return fwd_alltoall(sb, 0, scounts, sdispls, st, rb, 0, rcounts, rdispls, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Alltoallv", 0);
}

int __parad_mpi_fwd_MPI_Ialltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st, void *rb,
                                   const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req,
                                   void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_alltoall(sb, 0, scounts, sdispls, st, rb, 0, rcounts, rdispls, rt, comm, req, dsb, sl, drb, rl, "MPI_Ialltoallv", 0);
}

int __parad_mpi_fwd_MPI_Neighbor_allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                           MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_allgather(sb, sn, st, rb, rn, NULL, NULL, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Neighbor_allgather", 1);
}

int __parad_mpi_fwd_MPI_Neighbor_allgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                            const int *displs, MPI_Datatype rt, MPI_Comm comm, void *dsb, const void *sl,
                                            void *drb, const void *rl) {
  return fwd_allgather(sb, sn, st, rb, 0, rcounts, displs, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Neighbor_allgatherv", 1);
}

int __parad_mpi_fwd_MPI_Neighbor_alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                          MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_alltoall(sb, sn, NULL, NULL, st, rb, rn, NULL, NULL, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Neighbor_alltoall", 1);
}

int __parad_mpi_fwd_MPI_Neighbor_alltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st,
                                           void *rb, const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm comm,
                                           void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_alltoall(sb, 0, scounts, sdispls, st, rb, 0, rcounts, rdispls, rt, comm, NULL, dsb, sl, drb, rl,
                      "MPI_Neighbor_alltoallv", 1);
}

int __parad_mpi_fwd_MPI_Ineighbor_allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                            MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb,
                                            const void *rl) {
  return fwd_allgather(sb, sn, st, rb, rn, NULL, NULL, rt, comm, req, dsb, sl, drb, rl, "MPI_Ineighbor_allgather", 1);
}

int __parad_mpi_fwd_MPI_Ineighbor_allgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                             const int *displs, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req,
                                             void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_allgather(sb, sn, st, rb, 0, rcounts, displs, rt, comm, req, dsb, sl, drb, rl, "MPI_Ineighbor_allgatherv", 1);
}

int __parad_mpi_fwd_MPI_Ineighbor_alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                           MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb,
                                           const void *rl) {
  return fwd_alltoall(sb, sn, NULL, NULL, st, rb, rn, NULL, NULL, rt, comm, req, dsb, sl, drb, rl, "MPI_Ineighbor_alltoall", 1);
}

int __parad_mpi_fwd_MPI_Ineighbor_alltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st,
                                            void *rb, const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm comm,
                                            MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return fwd_alltoall(sb, 0, scounts, sdispls, st, rb, 0, rcounts, rdispls, rt, comm, req, dsb, sl, drb, rl,
                      "MPI_Ineighbor_alltoallv", 1);
}

/* MPI_Pack and MPI_Unpack copy between typed memory and packed bytes: the shadows are packed and unpacked
 * the same way, at the same position. */
int __parad_mpi_fwd_MPI_Pack(const void *in, int n, MPI_Datatype t, void *out, int size, int *position, MPI_Comm comm,
                             void *din, const void *layout, void *dout, const void *packed_layout) {
  (void)packed_layout;
  Shape s = shape_of(t, layout);
  int at = *position, rc = MPI_Pack(in, n, t, out, size, position, comm);
  if (!dout) return rc;
  char *block = NULL;
  MPI_Pack(or_zeros(din, &s, n, &block), n, t, dout, size, &at, comm);
  free(block);
  return rc;
}

int __parad_mpi_fwd_MPI_Unpack(const void *in, int size, int *position, void *out, int n, MPI_Datatype t, MPI_Comm comm,
                               void *din, const void *packed_layout, void *dout, const void *layout) {
  (void)packed_layout, (void)layout;
  int at = *position, rc = MPI_Unpack(in, size, position, out, n, t, comm);
  if (!dout) return rc;
  char *zeros = din ? NULL : alloc((size_t)size);
  MPI_Unpack(din ? din : zeros, size, &at, dout, n, t, comm);
  free(zeros);
  return rc;
}

/* ==== reverse mode: the augmented forward sweep (the call, and a record) ==== */

static Record *aug_send(SendCall send, const char *call, const void *buf, int n, MPI_Datatype t, int dest, int tag,
                        MPI_Comm comm, void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  check(&s, d, call);
  Record *r = NULL;
  if (shape_carries(&s)) {
    r = record(REV_OTHER);
    keep(r, &s, NULL);
    r->shadow = d, r->count = n, r->peer = dest, r->tag = tag, r->comm = comm;
    note_sent(r, buf, n, call);
  }
  send(buf, n, t, dest, tag, comm);
  return r;
}

Record *__parad_mpi_aug_MPI_Send(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d,
                                 const void *layout) {
  return aug_send(MPI_Send, "MPI_Send", buf, n, t, dest, tag, comm, d, layout);
}

Record *__parad_mpi_aug_MPI_Ssend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d,
                                  const void *layout) {
  return aug_send(MPI_Ssend, "MPI_Ssend", buf, n, t, dest, tag, comm, d, layout);
}

Record *__parad_mpi_aug_MPI_Rsend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm, void *d,
                                  const void *layout) {
  return aug_send(MPI_Rsend, "MPI_Rsend", buf, n, t, dest, tag, comm, d, layout);
}

/* The adjoint of a send: receive the adjoint from the destination, add it into the buffer's. */
static void rev_send(Record *r, const char *call) {
  MPI_Request q;
  MPI_Status st;
  Temp t = temp(&r->sh, r->count);
  MPI_Irecv(t.origin, r->count, r->sh.type, r->peer, r->tag, r->comm, &q);
  finish(&q, &st, call, r->peer);
  check_count(&st, r->sh.type, r->count, call, r->peer);
  if (r->peer != MPI_PROC_NULL) add_arrived(r, t.origin, call);
  free(t.block);
  release(r);
}

void __parad_mpi_rev_MPI_Send(Record *r) {
  if (r) rev_send(r, "MPI_Send");
}

void __parad_mpi_rev_MPI_Ssend(Record *r) {
  if (r) rev_send(r, "MPI_Ssend");
}

void __parad_mpi_rev_MPI_Rsend(Record *r) {
  if (r) rev_send(r, "MPI_Rsend");
}

/* What a receive into buf brought: packed bytes are noted, as bytes Parad cannot read floats in until
 * they are unpacked. */
static void received(const Shape *s, void *buf, int count) {
  if (shape_packed(s) && count > 0) packed_note(buf, (char *)buf + count, NULL);
}

Record *__parad_mpi_aug_MPI_Recv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *status,
                                 void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  check(&s, d, "MPI_Recv");
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Recv(buf, n, t, src, tag, comm, st);
  if (!shape_carries(&s)) return NULL;
  Record *r = record(REV_OTHER);
  keep(r, NULL, &s);
  MPI_Get_count(st, t, &r->count);
  r->shadow2 = d, r->peer = source(src, st), r->tag = st->MPI_TAG, r->comm = comm;
  received(&s, buf, r->count);
  return r;
}

/* The adjoint of a receive: send the buffer's adjoint back to where the values came from, reset it. */
void __parad_mpi_rev_MPI_Recv(Record *r) {
  if (!r) return;
  char *block = NULL;
  MPI_Request q;
  send_back(or_zeros(r->shadow2, &r->sh2, r->count, &block), r->count, r->sh2.type, r->peer, r->tag, r->comm, &q);
  finish(&q, NULL, "MPI_Recv", r->peer);
  clear(&r->sh2, r->shadow2, 0, r->count, "MPI_Recv");
  free(block);
  release(r);
}

Record *__parad_mpi_aug_MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st_, int dest, int stag, void *rb, int rn,
                                     MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status, void *dsb,
                                     const void *sl, void *drb, const void *rl) {
  Shape ss = shape_of(st_, sl), rs = shape_of(rt, rl);
  check(&ss, dsb, "MPI_Sendrecv"), check(&rs, drb, "MPI_Sendrecv");
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  Record *r = NULL;
  if (shape_carries(&ss) || shape_carries(&rs)) {
    r = record(REV_OTHER);
    keep(r, &ss, &rs);
    r->shadow = dsb, r->count = sn, r->peer = dest, r->tag = stag, r->comm = comm, r->shadow2 = drb;
    note_sent(r, sb, sn, "MPI_Sendrecv");
  }
  MPI_Sendrecv(sb, sn, st_, dest, stag, rb, rn, rt, src, rtag, comm, st);
  if (!r) return NULL;
  r->peer2 = source(src, st), r->tag2 = st->MPI_TAG;
  MPI_Get_count(st, rt, &r->count2);
  received(&rs, rb, r->count2);
  return r;
}

/* The send's adjoint comes back while the receive's goes back, each where its half carries derivatives. */
void __parad_mpi_rev_MPI_Sendrecv(Record *r) {
  if (!r) return;
  int sends = shape_carries(&r->sh), receives = shape_carries(&r->sh2);
  char *block = NULL;
  MPI_Request q[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status st;
  Temp t = temp(&r->sh, sends ? r->count : 0);
  if (sends) MPI_Irecv(t.origin, r->count, r->sh.type, r->peer, r->tag, r->comm, &q[0]);
  if (receives)
    send_back(or_zeros(r->shadow2, &r->sh2, r->count2, &block), r->count2, r->sh2.type, r->peer2, r->tag2, r->comm, &q[1]);
  finish(&q[0], &st, "MPI_Sendrecv", r->peer);
  finish(&q[1], NULL, "MPI_Sendrecv", r->peer2);
  if (receives) clear(&r->sh2, r->shadow2, 0, r->count2, "MPI_Sendrecv");
  if (sends && r->peer != MPI_PROC_NULL) {
    check_count(&st, r->sh.type, r->count, "MPI_Sendrecv", r->peer);
    add_arrived(r, t.origin, "MPI_Sendrecv");
  }
  free(block), free(t.block);
  release(r);
}

/* MPI_Sendrecv_replace is a Sendrecv from a copy of the buffer (and of its shadow) into the buffer; its
 * adjoint is that Sendrecv's, the receive's adjoint sent back from the shadow before the send's comes into
 * it. */
static char *copy_of(const void *buf, const Shape *s, int n, Temp *t) {
  MPI_Aint lo, hi;
  shape_span(s, n, &lo, &hi);
  *t = temp(s, n);
  memcpy(t->block, (const char *)buf + lo, (size_t)(hi - lo));
  return t->origin;
}

int __parad_mpi_fwd_MPI_Sendrecv_replace(void *buf, int n, MPI_Datatype t, int dest, int stag, int src, int rtag,
                                         MPI_Comm comm, MPI_Status *status, void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  if (!shape_carries(&s)) return MPI_Sendrecv_replace(buf, n, t, dest, stag, src, rtag, comm, status);
  Temp v, dv = {0};
  char *copy = copy_of(buf, &s, n, &v), *dcopy = d ? copy_of(d, &s, n, &dv) : NULL;
  int rc = __parad_mpi_fwd_MPI_Sendrecv(copy, n, t, dest, stag, buf, n, t, src, rtag, comm, status, dcopy, layout, d, layout);
  free(v.block), free(dv.block);
  return rc;
}

Record *__parad_mpi_aug_MPI_Sendrecv_replace(void *buf, int n, MPI_Datatype t, int dest, int stag, int src, int rtag,
                                             MPI_Comm comm, MPI_Status *status, void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  if (!shape_carries(&s)) {
    MPI_Sendrecv_replace(buf, n, t, dest, stag, src, rtag, comm, status);
    return NULL;
  }
  Temp v;
  char *copy = copy_of(buf, &s, n, &v);
  Record *r = __parad_mpi_aug_MPI_Sendrecv(copy, n, t, dest, stag, buf, n, t, src, rtag, comm, status, d, layout, d, layout);
  free(v.block);
  return r;
}

void __parad_mpi_rev_MPI_Sendrecv_replace(Record *r) { __parad_mpi_rev_MPI_Sendrecv(r); }

static Record *aug_isend(IsendCall isend, const char *call, const void *buf, int n, MPI_Datatype t, int dest, int tag,
                         MPI_Comm comm, MPI_Request *req, void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  check(&s, d, call);
  Record *r = NULL;
  if (shape_carries(&s)) {
    r = record(REV_ISEND);
    keep(r, &s, NULL);
    r->shadow = d, r->count = n, r->peer = dest, r->tag = tag, r->comm = comm;
    note_sent(r, buf, n, call);
  }
  isend(buf, n, t, dest, tag, comm, req);
  if (r) remember(req, r);
  return r;
}

Record *__parad_mpi_aug_MPI_Isend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                                  MPI_Request *req, void *d, const void *layout) {
  return aug_isend(MPI_Isend, "MPI_Isend", buf, n, t, dest, tag, comm, req, d, layout);
}

Record *__parad_mpi_aug_MPI_Issend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                                   MPI_Request *req, void *d, const void *layout) {
  return aug_isend(MPI_Issend, "MPI_Issend", buf, n, t, dest, tag, comm, req, d, layout);
}

Record *__parad_mpi_aug_MPI_Irsend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                                   MPI_Request *req, void *d, const void *layout) {
  return aug_isend(MPI_Irsend, "MPI_Irsend", buf, n, t, dest, tag, comm, req, d, layout);
}

Record *__parad_mpi_aug_MPI_Irecv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req,
                                  void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  check(&s, d, "MPI_Irecv");
  MPI_Irecv(buf, n, t, src, tag, comm, req);
  if (!shape_carries(&s)) return NULL;
  Record *r = record(REV_IRECV);
  keep(r, NULL, &s);
  r->shadow2 = d, r->value = buf, r->count = n, r->peer = src, r->tag = tag, r->comm = comm;
  remember(req, r);
  return r;
}

/* A non-blocking call's adjoint cannot end before its wait's has started it. */
static void never_completed(const Record *r, const char *call) {
  if (!r->started)
    die("an %s whose request was never completed by a wait or a successful test (Parad knows MPI_Wait, MPI_Waitall, "
        "MPI_Waitany, MPI_Waitsome and the four tests)", call);
}

/* Each collective's adjoint has two halves: start posts the transposed communication, end completes it and
 * moves the adjoints. A blocking collective's adjoint runs both at once. A non-blocking one's starts at the
 * adjoint of the wait that completed its request and ends at its own, as the point-to-point calls' do. The
 * record, or none where the collective's data carries no derivatives: */
static Record *collective(Record *r, const char *call, void (*start)(Record *), void (*end)(Record *), MPI_Request *req) {
  if (!r) return NULL;
  r->call = call, r->start = start, r->end = end;
  if (req) {
    r->kind = REV_ICOLL;
    remember(req, r);
    if (posted.len == posted.cap) {
      posted.cap = posted.cap ? 2 * posted.cap : 16;
      if (!(posted.r = realloc(posted.r, posted.cap * sizeof *posted.r))) die("out of memory");
    }
    posted.r[posted.len++] = r;
  }
  return r;
}

static void adjoint_now(Record *r) {
  if (!r) return;
  r->start(r);
  r->end(r);
}

static void adjoint_end(Record *r) {
  if (!r) return;
  never_completed(r, r->call);
  r->end(r);
}

/* A wait completed an Irecv: the adjoint goes back to the actual source, with the actual tag. */
static void aug_complete(Record *r, MPI_Status *st, MPI_Request *slot) {
  back_to_persistent(r, slot);
  if (r && r->kind == REV_IRECV) {
    r->peer = source(r->peer, st), r->tag = st->MPI_TAG;
    if (r->peer == MPI_PROC_NULL) r->count = 0;
    else MPI_Get_count(st, r->sh2.type, &r->count);
    received(&r->sh2, r->value, r->count);
  }
}

/* Every rank must start the adjoints of its non-blocking collectives on a communicator in one order, but
 * ranks may complete the collectives in different orders (Waitany, Waitsome, tests): in the reverse of the
 * order they were posted in, each once its wait's adjoint has run. A receive buffer's adjoint is whole by
 * then (no code between the call and its wait may touch the buffer), so a start may wait for a later
 * collective's. Each ends at its own adjoint, by which time every collective posted after it has started. */
static void start_in_order(MPI_Comm comm) {
  for (size_t i = posted.len; i-- > 0;) {
    Record *r = posted.r[i];
    if (r->comm != comm || r->started) continue;
    if (!r->ready) return;
    r->started = 1;
    r->start(r);
  }
}

/* The adjoint of a wait starts the transposed communication... */
static void rev_start(Record *r) {
  if (!r) return;
  if (r->kind == REV_ICOLL) {
    r->ready = 1;
    start_in_order(r->comm);
    return;
  }
  r->started = 1;
  if (r->kind == REV_ISEND) { /* what arrives */
    Temp t = temp(&r->sh, r->count);
    r->tmp = t.block, r->value = t.origin;
    MPI_Irecv(t.origin, r->count, r->sh.type, r->peer, r->tag, r->comm, &r->adj);
  } else {
    send_back(or_zeros(r->shadow2, &r->sh2, r->count, &r->tmp), r->count, r->sh2.type, r->peer, r->tag, r->comm, &r->adj);
  }
}

/* ... and the adjoint of the Isend or Irecv finishes it. */

static void rev_isend(Record *r, const char *call) {
  if (!r) return;
  MPI_Status st;
  never_completed(r, call);
  finish(&r->adj, &st, call, r->peer);
  check_count(&st, r->sh.type, r->count, call, r->peer);
  if (r->peer != MPI_PROC_NULL) add_arrived(r, r->value, call);
  release(r);
}

void __parad_mpi_rev_MPI_Isend(Record *r) { rev_isend(r, "MPI_Isend"); }
void __parad_mpi_rev_MPI_Issend(Record *r) { rev_isend(r, "MPI_Issend"); }
void __parad_mpi_rev_MPI_Irsend(Record *r) { rev_isend(r, "MPI_Irsend"); }

static void rev_irecv(Record *r, const char *call) {
  if (!r) return;
  never_completed(r, call);
  finish(&r->adj, NULL, call, r->peer);
  clear(&r->sh2, r->shadow2, 0, r->count, call);
  release(r);
}

void __parad_mpi_rev_MPI_Irecv(Record *r) { rev_irecv(r, "MPI_Irecv"); }

/* The record of a sum's adjoint (a scan's, a non-blocking reduction's). */
static Record *sum_record(const Shape *s, const void *sb, void *dsb, void *drb, int n, int root, MPI_Comm comm) {
  Record *r = record(REV_OTHER);
  keep(r, s, NULL);
  r->in_place = sb == MPI_IN_PLACE;
  r->shadow = dsb, r->shadow2 = drb, r->count = n, r->root = root, r->comm = comm;
  return r;
}

/* Its adjoint gathers every rank's result adjoint back to each rank, whose send buffer's adjoint is the whole
 * of it, added once the result's adjoint is taken (in place, into the receive buffer's shadow: the input was
 * there, and what the result did not overwrite may have been read since). */
Record *__parad_mpi_aug_MPI_Reduce_scatter_block(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op,
                                                 MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  const char *call = "MPI_Reduce_scatter_block";
  Shape s = shape_of(t, sl);
  Record *r = NULL;
  if (reduces_floats(&s, dsb || drb, call) && sum_only(op, call)) r = sum_record(&s, sb, dsb, drb, n, -1, comm);
  MPI_Reduce_scatter_block(sb, rb, n, t, op, comm);
  return r;
}

void __parad_mpi_rev_MPI_Reduce_scatter_block(Record *r) {
  if (!r) return;
  const char *call = "MPI_Reduce_scatter_block";
  Floats all = floats_of(&r->sh, 0, r->count * comm_size(r->comm), call), mine = floats_of(&r->sh, 0, r->count, call);
  Reals dy = reals_get(r->shadow2, &mine), g = reals_get(NULL, &all);
  MPI_Request q;
  MPI_Iallgather(dy.v, (int)dy.n, dy.type, g.v, (int)dy.n, g.type, r->comm, &q);
  finish(&q, NULL, call, -1);
  clear(&r->sh, r->shadow2, 0, r->count, call);
  reals_put(r->in_place ? r->shadow2 : r->shadow, &all, &g, 1);
  free(dy.v), free(g.v);
  floats_free(&all), floats_free(&mine);
  release(r);
}

/* MPI_Reduce_scatter's adjoint: an Allgatherv of the results' adjoints, the counts kept in the record. */
Record *__parad_mpi_aug_MPI_Reduce_scatter(const void *sb, void *rb, const int *counts, MPI_Datatype t, MPI_Op op,
                                           MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  const char *call = "MPI_Reduce_scatter";
  Shape s = shape_of(t, sl);
  Record *r = NULL;
  if (reduces_floats(&s, dsb || drb, call) && sum_only(op, call)) {
    r = sum_record(&s, sb, dsb, drb, counts[comm_rank(comm)], -1, comm);
    r->counts = copy_ints(counts, comm_size(comm));
  }
  MPI_Reduce_scatter(sb, rb, counts, t, op, comm);
  return r;
}

void __parad_mpi_rev_MPI_Reduce_scatter(Record *r) {
  if (!r) return;
  const char *call = "MPI_Reduce_scatter";
  int size = comm_size(r->comm), *displs = alloc(sizeof(int) * (size_t)size);
  int *fc = float_counts(&r->sh, r->counts, size, displs, call);
  Floats all = floats_of(&r->sh, 0, sum_of(r->counts, size), call), mine = floats_of(&r->sh, 0, r->count, call);
  Reals dy = reals_get(r->shadow2, &mine), g = reals_get(NULL, &all);
  MPI_Request q;
  MPI_Iallgatherv(dy.v, (int)dy.n, dy.type, g.v, fc, displs, g.type, r->comm, &q);
  finish(&q, NULL, call, -1);
  clear(&r->sh, r->shadow2, 0, r->count, call);
  reals_put(r->in_place ? r->shadow2 : r->shadow, &all, &g, 1);
  free(dy.v), free(g.v), free(fc), free(displs);
  floats_free(&all), floats_free(&mine);
  release(r);
}

/* The adjoint of rank r's contribution: the total of the result's adjoints (an Iallreduce on adj) less a
 * prefix of them (an Iexscan or Iscan on adj2). */
static void scan_start(Record *r) {
  int exclusive = r->vform, first = comm_rank(r->comm) == 0;
  Floats f = floats_of(&r->sh, 0, r->count, r->call);
  /* Exscan's result on rank 0 is undefined: nothing of it goes back */
  Reals dy = reals_get(exclusive && first ? NULL : r->shadow2, &f), prefix = reals_get(NULL, &f);
  r->sum = reals_get(NULL, &f), r->tmp = dy.v, r->tmp2 = prefix.v;
  MPI_Iallreduce(dy.v, r->sum.v, (int)dy.n, dy.type, MPI_SUM, r->comm, &r->adj);
  if (exclusive) MPI_Iscan(dy.v, prefix.v, (int)dy.n, dy.type, MPI_SUM, r->comm, &r->adj2);
  else MPI_Iexscan(dy.v, prefix.v, (int)dy.n, dy.type, MPI_SUM, r->comm, &r->adj2);
  floats_free(&f);
}

static void scan_end(Record *r) {
  int exclusive = r->vform, first = comm_rank(r->comm) == 0;
  finish(&r->adj, NULL, r->call, -1);
  finish(&r->adj2, NULL, r->call, -1);
  Reals *total = &r->sum;
  for (size_t i = 0; i < total->n && !(!exclusive && first); i++) { /* Exscan's prefix on rank 0: nothing before */
    if (total->k == 8) ((double *)total->v)[i] -= ((double *)r->tmp2)[i];
    else ((float *)total->v)[i] -= ((float *)r->tmp2)[i];
  }
  Floats f = floats_of(&r->sh, 0, r->count, r->call);
  if (r->in_place) {
    reals_put(r->shadow2, &f, total, 0);
  } else {
    floats_zero(r->shadow2, &f);
    reals_put(r->shadow, &f, total, 1);
  }
  floats_free(&f);
  release(r);
}

static Record *aug_scan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req,
                        void *dsb, const void *sl, void *drb, int exclusive, const char *call) {
  Shape s = shape_of(t, sl);
  Record *r = NULL;
  if (reduces_floats(&s, dsb || drb, call) && sum_only(op, call)) {
    r = sum_record(&s, sb, dsb, drb, n, -1, comm);
    r->vform = exclusive;
  }
  if (req) exclusive ? MPI_Iexscan(sb, rb, n, t, op, comm, req) : MPI_Iscan(sb, rb, n, t, op, comm, req);
  else exclusive ? MPI_Exscan(sb, rb, n, t, op, comm) : MPI_Scan(sb, rb, n, t, op, comm);
  return collective(r, call, scan_start, scan_end, req);
}

Record *__parad_mpi_aug_MPI_Scan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, void *dsb,
                                 const void *sl, void *drb, const void *rl) {
  (void)rl;
  return aug_scan(sb, rb, n, t, op, comm, NULL, dsb, sl, drb, 0, "MPI_Scan");
}

Record *__parad_mpi_aug_MPI_Iscan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                  MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return aug_scan(sb, rb, n, t, op, comm, req, dsb, sl, drb, 0, "MPI_Iscan");
}

Record *__parad_mpi_aug_MPI_Exscan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, void *dsb,
                                   const void *sl, void *drb, const void *rl) {
  (void)rl;
  return aug_scan(sb, rb, n, t, op, comm, NULL, dsb, sl, drb, 1, "MPI_Exscan");
}

Record *__parad_mpi_aug_MPI_Iexscan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                    MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return aug_scan(sb, rb, n, t, op, comm, req, dsb, sl, drb, 1, "MPI_Iexscan");
}

void __parad_mpi_rev_MPI_Scan(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Exscan(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Iscan(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Iexscan(Record *r) { adjoint_end(r); }

/* The reverse of a non-blocking sum: the adjoint of the blocking one, its communication started by the
 * adjoint of the wait and finished here, where the program started the reduction. */
/* The result's adjoint, summed (Iallreduce) or sent from the root (Ireduce)... */
static void ireduce_start(Record *r) {
  Floats f = floats_of(&r->sh, 0, r->count, r->call);
  int got = gets_result(r);
  Reals dy = reals_get(got ? r->shadow2 : NULL, &f);
  if (got && !r->in_place) floats_zero(r->shadow2, &f);
  r->sum = reals_get(NULL, &f);
  if (r->root < 0) {
    r->tmp = dy.v;
    MPI_Iallreduce(dy.v, r->sum.v, (int)dy.n, dy.type, MPI_SUM, r->comm, &r->adj);
  } else {
    memcpy(r->sum.v, dy.v, dy.n * (size_t)dy.k);
    free(dy.v);
    MPI_Ibcast(r->sum.v, (int)r->sum.n, r->sum.type, r->root, r->comm, &r->adj);
  }
  floats_free(&f);
}

/* ... is every rank's contribution's. */
static void ireduce_end(Record *r) {
  finish(&r->adj, NULL, r->call, r->root);
  Floats f = floats_of(&r->sh, 0, r->count, r->call);
  if (r->in_place) reals_put(r->shadow2, &f, &r->sum, 0);
  else reals_put(r->shadow, &f, &r->sum, 1);
  floats_free(&f);
  release(r);
}

static Record *aug_ireduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                           MPI_Request *req, void *dsb, const void *sl, void *drb, const char *call) {
  Shape s = shape_of(t, sl);
  Record *r = NULL;
  if (reduces_floats(&s, dsb || drb, call) && sum_only(op, call)) r = sum_record(&s, sb, dsb, drb, n, root, comm);
  if (root < 0) MPI_Iallreduce(sb, rb, n, t, op, comm, req);
  else MPI_Ireduce(sb, rb, n, t, op, root, comm, req);
  return collective(r, call, ireduce_start, ireduce_end, req);
}

Record *__parad_mpi_aug_MPI_Iallreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                       MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return aug_ireduce(sb, rb, n, t, op, -1, comm, req, dsb, sl, drb, "MPI_Iallreduce");
}

void __parad_mpi_rev_MPI_Iallreduce(Record *r) { adjoint_end(r); }

Record *__parad_mpi_aug_MPI_Ireduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                                    MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return aug_ireduce(sb, rb, n, t, op, root, comm, req, dsb, sl, drb, "MPI_Ireduce");
}

void __parad_mpi_rev_MPI_Ireduce(Record *r) { adjoint_end(r); }

Record *__parad_mpi_aug_MPI_Wait(MPI_Request *req, MPI_Status *status) {
  Record *r = take(*req, req);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Wait(req, st);
  aug_complete(r, st, req);
  return r;
}

void __parad_mpi_rev_MPI_Wait(Record *r) { rev_start(r); }

/* The records of the requests a wait or test completed, in the order of the requests. */
static Record *completed(Record **recs, int n) {
  Record *all = record(REV_WAITALL);
  all->recs = recs, all->nrec = n;
  return all;
}

Record *__parad_mpi_aug_MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *statuses) {
  Record **recs = alloc(sizeof *recs * (size_t)(n > 0 ? n : 1));
  MPI_Status *st = statuses_of(statuses, n);
  for (int i = 0; i < n; i++) recs[i] = take(reqs[i], &reqs[i]);
  MPI_Waitall(n, reqs, st);
  for (int i = 0; i < n; i++) aug_complete(recs[i], &st[i], &reqs[i]);
  if (st != statuses) free(st);
  return completed(recs, n);
}

/* Testall completes every request or none. */
Record *__parad_mpi_aug_MPI_Testall(int n, MPI_Request *reqs, int *flag, MPI_Status *statuses) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status *st = statuses_of(statuses, n);
  MPI_Testall(n, reqs, flag, st);
  Record *all = NULL;
  if (*flag) {
    Record **recs = alloc(sizeof *recs * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) aug_complete(recs[i] = take(before[i], &reqs[i]), &st[i], &reqs[i]);
    all = completed(recs, n);
  }
  if (st != statuses) free(st);
  free(before);
  return all;
}

/* Waitsome and Testsome: the requests at indices[0..outcount) completed. */
static Record *aug_some(int done, int n, const MPI_Request *before, MPI_Request *reqs, const int *outcount, const int *indices,
                        MPI_Status *st) {
  if (!done || *outcount == MPI_UNDEFINED || *outcount <= 0) return NULL;
  Record **recs = alloc(sizeof *recs * (size_t)*outcount);
  for (int k = 0; k < *outcount; k++) {
    if (indices[k] < 0 || indices[k] >= n) die("MPI_Waitsome or MPI_Testsome gave an index out of range");
    aug_complete(recs[k] = take(before[indices[k]], &reqs[indices[k]]), &st[k], &reqs[indices[k]]);
  }
  return completed(recs, *outcount);
}

Record *__parad_mpi_aug_MPI_Waitsome(int n, MPI_Request *reqs, int *outcount, int *indices, MPI_Status *statuses) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status *st = statuses_of(statuses, n);
  MPI_Waitsome(n, reqs, outcount, indices, st);
  Record *all = aug_some(1, n, before, reqs, outcount, indices, st);
  if (st != statuses) free(st);
  free(before);
  return all;
}

Record *__parad_mpi_aug_MPI_Testsome(int n, MPI_Request *reqs, int *outcount, int *indices, MPI_Status *statuses) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status *st = statuses_of(statuses, n);
  MPI_Testsome(n, reqs, outcount, indices, st);
  Record *all = aug_some(1, n, before, reqs, outcount, indices, st);
  if (st != statuses) free(st);
  free(before);
  return all;
}

static void rev_completed(Record *all) {
  if (!all) return;
  for (int i = all->nrec - 1; i >= 0; i--) rev_start(all->recs[i]);
  release(all);
}

void __parad_mpi_rev_MPI_Waitall(Record *all) { rev_completed(all); }
void __parad_mpi_rev_MPI_Testall(Record *all) { rev_completed(all); }
void __parad_mpi_rev_MPI_Waitsome(Record *all) { rev_completed(all); }
void __parad_mpi_rev_MPI_Testsome(Record *all) { rev_completed(all); }

Record *__parad_mpi_aug_MPI_Waitany(int n, MPI_Request *reqs, int *index, MPI_Status *status) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Waitany(n, reqs, index, st);
  Record *r = *index != MPI_UNDEFINED ? take(before[*index], &reqs[*index]) : NULL;
  if (r) aug_complete(r, st, &reqs[*index]);
  free(before);
  return r;
}

void __parad_mpi_rev_MPI_Waitany(Record *r) { rev_start(r); }

Record *__parad_mpi_aug_MPI_Testany(int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *status) {
  MPI_Request *before = snapshot(n, reqs);
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Testany(n, reqs, index, flag, st);
  Record *r = *flag && *index != MPI_UNDEFINED ? take(before[*index], &reqs[*index]) : NULL;
  if (r) aug_complete(r, st, &reqs[*index]);
  free(before);
  return r;
}

void __parad_mpi_rev_MPI_Testany(Record *r) { rev_start(r); }

Record *__parad_mpi_aug_MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
  MPI_Request before = *req;
  MPI_Status own, *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Test(req, flag, st);
  if (!*flag) return NULL;
  Record *r = take(before, req);
  aug_complete(r, st, req);
  return r;
}

void __parad_mpi_rev_MPI_Test(Record *r) { rev_start(r); }

Record *__parad_mpi_aug_MPI_Barrier(MPI_Comm comm) {
  MPI_Barrier(comm);
  Record *r = record(REV_OTHER);
  r->comm = comm;
  return r;
}

void __parad_mpi_rev_MPI_Barrier(Record *r) {
  MPI_Request q;
  MPI_Ibarrier(r->comm, &q);
  finish(&q, NULL, "MPI_Barrier", -1);
  release(r);
}

/* ---- a communicator or datatype the program frees ----
 * The reverse sweep sends the adjoints of a collective or a message on its communicator after the forward
 * sweep has gone past the program's MPI_Comm_free, and runs a checkpointed loop's steps again with the
 * datatypes they were given (MPI_Type_free after the loop had left them dangling: Open MPI stopped in
 * MPI_Type_get_envelope, MPICH crashed): each is freed when the tape ends. The program's handle is null
 * at once, as the call leaves it. */
static void comm_free_now(void *kept) {
  MPI_Comm_free((MPI_Comm *)kept);
  free(kept);
}

static void type_free_now(void *kept) {
  MPI_Type_free((MPI_Datatype *)kept);
  free(kept);
}

/* A copy of the handle (size bytes) at `handle`, released by `release` when the tape ends. */
static void keep_until_tape_ends(const void *handle, size_t size, void (*release)(void *)) {
  void *kept = malloc(size);
  if (!kept) die("out of memory for a handle kept for the reverse sweep");
  memcpy(kept, handle, size);
  __parad_rt_release_later(release, kept);
}

Record *__parad_mpi_aug_MPI_Comm_free(MPI_Comm *comm) {
  keep_until_tape_ends(comm, sizeof *comm, comm_free_now);
  *comm = MPI_COMM_NULL;
  return NULL;
}

void __parad_mpi_rev_MPI_Comm_free(Record *r) { (void)r; }

Record *__parad_mpi_aug_MPI_Type_free(MPI_Datatype *type) {
  keep_until_tape_ends(type, sizeof *type, type_free_now);
  *type = MPI_DATATYPE_NULL;
  return NULL;
}

void __parad_mpi_rev_MPI_Type_free(Record *r) { (void)r; }

/* ---- collectives ---- */

/* A copy of a shadow (or zeros) for MPI to send from while adjoints may still be added into the shadow. */
static void *send_copy(const void *shadow, const Shape *s, int count, char **block) {
  Temp t = {0};
  void *origin = shadow ? copy_of(shadow, s, count, &t) : (t = temp(s, count)).origin;
  *block = t.block;
  return origin;
}

/* Bcast's adjoint: the adjoints of every rank's copy are summed into the root's: by a reduction of the
 * floats of MPI_DOUBLE and MPI_FLOAT data, else by gathering the copies' adjoints whole to the root. The
 * root may read its buffer while a non-blocking one is under way: adjoints added then stay, added to. */
static void bcast_start(Record *r) {
  int root = comm_rank(r->comm) == r->root, size = comm_size(r->comm);
  void *mine = send_copy(r->shadow2, &r->sh2, r->count, &r->tmp);
  if (!root || r->sh2.k) clear(&r->sh2, r->shadow2, 0, r->count, r->call);
  Temp all = temp(&r->sh2, root ? r->count * (r->sh2.k ? 1 : size) : 0);
  r->tmp2 = all.block, r->value = all.origin;
  if (r->sh2.k) MPI_Ireduce(mine, all.origin, r->count, r->sh2.type, MPI_SUM, r->root, r->comm, &r->adj);
  else MPI_Igather(mine, r->count, r->sh2.type, all.origin, r->count, r->sh2.type, r->root, r->comm, &r->adj);
}

static void bcast_end(Record *r) {
  int rank = comm_rank(r->comm), size = comm_size(r->comm);
  finish(&r->adj, NULL, r->call, r->root);
  if (rank == r->root && r->shadow2) {
    if (r->sh2.k) add_floats(&r->sh2, r->shadow2, r->value, r->count, r->call);
    else
      for (int s = 0; s < size; s++)
        if (s != rank)
          add_floats(&r->sh2, r->shadow2, (char *)r->value + shape_offset(&r->sh2, s * r->count), r->count, r->call);
  }
  release(r);
}

static Record *aug_bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req, void *d,
                         const void *layout, const char *call) {
  Shape s = shape_of(t, layout);
  check_collective(&s, d, call);
  req ? MPI_Ibcast(buf, n, t, root, comm, req) : MPI_Bcast(buf, n, t, root, comm);
  if (!shape_carries(&s)) return NULL;
  Record *r = record(REV_OTHER);
  keep(r, NULL, &s);
  r->shadow2 = d, r->count = n, r->root = root, r->comm = comm;
  return collective(r, call, bcast_start, bcast_end, req);
}

Record *__parad_mpi_aug_MPI_Bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm, void *d, const void *layout) {
  return aug_bcast(buf, n, t, root, comm, NULL, d, layout, "MPI_Bcast");
}

Record *__parad_mpi_aug_MPI_Ibcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req, void *d,
                                   const void *layout) {
  return aug_bcast(buf, n, t, root, comm, req, d, layout, "MPI_Ibcast");
}

void __parad_mpi_rev_MPI_Bcast(Record *r) { adjoint_now(r); }

static Record *aug_reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                          void *dsb, const void *sl, void *drb, const char *call) {
  Shape s = shape_of(t, sl);
  int all = root < 0;
  Record *r = NULL;
  if (reduces_floats(&s, dsb || drb, call)) {
    Floats f = floats_of(&s, 0, n, call);
    r = record(REV_OTHER);
    keep(r, &s, NULL);
    r->in_place = sb == MPI_IN_PLACE;
    r->shadow = dsb, r->shadow2 = drb, r->count = n, r->root = root, r->comm = comm;
    Reals x = reals_get(r->in_place ? rb : sb, &f); /* before rb changes */
    r->factor = local_factor(&x, op, comm, call, r->in_place ? rb : sb, t, n);
    free(x.v);
    floats_free(&f);
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
  Floats f = floats_of(&r->sh, 0, r->count, call);
  Reals dy = reals_get(is_root ? r->shadow2 : NULL, &f), g = reals_get(NULL, &f);
  MPI_Request q;
  if (all) {
    MPI_Iallreduce(dy.v, g.v, (int)g.n, g.type, MPI_SUM, r->comm, &q);
  } else {
    memcpy(g.v, dy.v, g.n * (size_t)g.k);
    MPI_Ibcast(g.v, (int)g.n, g.type, r->root, r->comm, &q);
  }
  finish(&q, NULL, call, all ? -1 : r->root);
  scale(&g, &r->factor);
  if (r->in_place) {
    reals_put(r->shadow2, &f, &g, 0);
  } else {
    if (is_root) floats_zero(r->shadow2, &f);
    reals_put(r->shadow, &f, &g, 1);
  }
  free(dy.v), free(g.v);
  floats_free(&f);
  release(r);
}

Record *__parad_mpi_aug_MPI_Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                                   void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return aug_reduce(sb, rb, n, t, op, root, comm, dsb, sl, drb, "MPI_Reduce");
}

void __parad_mpi_rev_MPI_Reduce(Record *r) { rev_reduce(r, "MPI_Reduce"); }

Record *__parad_mpi_aug_MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                      void *dsb, const void *sl, void *drb, const void *rl) {
  (void)rl;
  return aug_reduce(sb, rb, n, t, op, -1, comm, dsb, sl, drb, "MPI_Allreduce");
}

void __parad_mpi_rev_MPI_Allreduce(Record *r) { rev_reduce(r, "MPI_Allreduce"); }

/* Gather(v), Scatter(v), Allgather and Alltoall keep both sides' datatypes and counts (count: this rank's
 * part, in the send side's datatype for Gather and in the receive side's for Scatter; count2: the root's
 * per-rank count, or counts/displs for the v forms). */
static Record *gs_record(const Shape *s, const Shape *rs, int n, int rn, int vform, const int *counts,
                         const int *displs, int root, MPI_Comm comm, void *dsb, void *drb, int in_place) {
  Record *r = record(REV_OTHER);
  keep(r, s, rs);
  r->count = n, r->count2 = rn, r->root = root, r->comm = comm, r->vform = vform;
  r->shadow = dsb, r->shadow2 = drb, r->in_place = in_place;
  if (vform && comm_rank(comm) == root) {
    int size = comm_size(comm);
    r->counts = copy_ints(counts, size), r->displs = copy_ints(displs, size);
  }
  return r;
}

/* The shapes of a collective about to be recorded, checked. */
static int aug_shapes(Shape *s, Shape *rs, const void *sb, MPI_Datatype st, const void *sl, MPI_Datatype rt,
                      const void *rl, void *dsb, void *drb, const char *call) {
  int carries = collective_shapes(s, rs, sb, st, sl, rt, rl);
  check_collective(s, dsb, call), check_collective(rs, drb, call);
  return carries;
}

/* The root's buffer of a gather (or scatter): element offset and count of rank s's part. */
static void part(Record *r, int s, int *off, int *n) {
  if (r->counts) *off = r->displs[s], *n = r->counts[s];
  else *off = s * r->count2, *n = r->count2;
}

static int root_extent(Record *r) {
  return r->counts ? v_extent(r->counts, r->displs, comm_size(r->comm)) : r->count2 * comm_size(r->comm);
}

/* A gather's adjoint scatters the root's buffer adjoint back to the parts' owners. */
static void gather_start(Record *r) {
  int is_root = comm_rank(r->comm) == r->root;
  void *from = is_root ? or_zeros(r->shadow2, &r->sh2, root_extent(r), &r->tmp) : NULL;
  Temp g = temp(&r->sh, r->count);
  r->tmp2 = g.block, r->value = g.origin;
  void *to = r->in_place ? MPI_IN_PLACE : g.origin;
  if (r->vform)
    MPI_Iscatterv(from, r->counts, r->displs, r->sh2.type, to, r->count, r->sh.type, r->root, r->comm, &r->adj);
  else
    MPI_Iscatter(from, r->count2, r->sh2.type, to, r->count, r->sh.type, r->root, r->comm, &r->adj);
}

static void gather_end(Record *r) {
  int rank = comm_rank(r->comm);
  finish(&r->adj, NULL, r->call, r->root);
  if (rank == r->root) {
    for (int s = 0, size = comm_size(r->comm); s < size; s++) {
      int off, n;
      part(r, s, &off, &n);
      if (!(r->in_place && s == rank)) clear(&r->sh2, r->shadow2, off, n, r->call);
    }
  }
  if (!r->in_place) add_floats(&r->sh, r->shadow, r->value, r->count, r->call);
  release(r);
}

/* A scatter's adjoint gathers the parts' adjoints into the root's buffer adjoint. Here shadow is the
 * root's (send) buffer and shadow2 each rank's part. A Scatterv's parts may overlap in the root's buffer
 * (it is only read), where the adjoints of every part that read a value add up: they are gathered one
 * part after another (at, at the root), never two into one place, and added into the parts after. */
static void scatter_start(Record *r) {
  int is_root = comm_rank(r->comm) == r->root, total = 0;
  if (is_root && r->vform) {
    int size = comm_size(r->comm);
    r->at = alloc(sizeof(int) * (size_t)size);
    for (int s = 0; s < size; s++) r->at[s] = total, total += r->counts[s];
  } else if (is_root) total = root_extent(r);
  Temp g = temp(&r->sh, total);
  r->tmp2 = g.block, r->value = g.origin;
  const void *from = r->in_place ? MPI_IN_PLACE : or_zeros(r->shadow2, &r->sh2, r->count, &r->tmp);
  if (r->vform)
    MPI_Igatherv(from, r->count, r->sh2.type, g.origin, r->counts, r->at, r->sh.type, r->root, r->comm, &r->adj);
  else
    MPI_Igather(from, r->count, r->sh2.type, g.origin, r->count2, r->sh.type, r->root, r->comm, &r->adj);
}

static void scatter_end(Record *r) {
  int is_root = comm_rank(r->comm) == r->root;
  finish(&r->adj, NULL, r->call, r->root);
  if (!r->in_place) clear(&r->sh2, r->shadow2, 0, r->count, r->call);
  for (int s = 0, size = comm_size(r->comm); is_root && s < size; s++) {
    int off, n;
    part(r, s, &off, &n);
    MPI_Aint at = shape_offset(&r->sh, off), from = shape_offset(&r->sh, r->at ? r->at[s] : off);
    if (r->shadow) add_floats(&r->sh, (char *)r->shadow + at, (char *)r->value + from, n, r->call);
  }
  release(r);
}

/* The adjoints of Allgather(v) and Alltoall(v): an Alltoallv of the receive buffer's adjoint back the way
 * the values came, part s to rank s, and what comes from rank s is the adjoint of what this rank sent it,
 * added into the send buffer's adjoint: of its one part for Allgather (every rank's return summed), of
 * its part s for Alltoall. In place the send side is the receive buffer, whose adjoint is reset first. */
static void exchange_start(Record *r, int gather) {
  int size = r->parts ? r->parts : comm_size(r->comm), rank = comm_rank(r->comm), each = r->in_place ? r->counts[rank] : r->count;
  const Shape *in = r->in_place ? &r->sh2 : &r->sh;
  const int *scounts = r->in_place ? r->counts : r->counts2;
  r->back = alloc(sizeof(int) * (size_t)size), r->at = alloc(sizeof(int) * (size_t)size);
  /* the adjoints come back one part after another: an Alltoallv's send parts may overlap (its send buffer
   * is only read), and a receive must not write one place twice; exchange_end adds each into its part */
  for (int k = 0, next = 0; k < size; k++)
    r->back[k] = gather ? each : scounts[k], r->at[k] = gather ? k * each : next, next += r->back[k];
  Temp g = temp(in, v_extent(r->back, r->at, size));
  r->tmp2 = g.block, r->value = g.origin;
  void *adjoints = or_zeros(r->shadow2, &r->sh2, v_extent(r->counts, r->displs, size), &r->tmp);
  /* a neighbourhood is its own transpose: the program's form, blocking or not (neighbours); the others post */
  MPI_Request *req = r->parts && r->kind != REV_ICOLL ? NULL : &r->adj;
  if (r->parts && !gather && !r->vform)
    post_alltoall(adjoints, r->count2, NULL, NULL, r->sh2.type, g.origin, r->count, NULL, NULL, in->type, r->comm, req, 1);
  else
    post_alltoall(adjoints, 0, r->counts, r->displs, r->sh2.type, g.origin, 0, r->back, r->at, in->type, r->comm, req,
                  r->parts != 0);
}

static void exchange_end(Record *r, int gather) {
  int size = r->parts ? r->parts : comm_size(r->comm), rank = comm_rank(r->comm);
  const Shape *in = r->in_place ? &r->sh2 : &r->sh;
  const int *sdispls = r->in_place ? r->displs : r->displs2;
  char *into = r->in_place ? r->shadow2 : r->shadow;
  finish(&r->adj, NULL, r->call, -1);
  /* no part came from or went to a neighbour beyond a non-periodic edge (MPI_PROC_NULL): its adjoint stays */
  for (int k = 0; k < size; k++)
    if (!r->peers || r->peers[k] != MPI_PROC_NULL) clear(&r->sh2, r->shadow2, r->displs[k], r->counts[k], r->call);
  for (int k = 0; k < size && into; k++) {
    if (r->peers && r->peers[k] == MPI_PROC_NULL) continue;
    int part = !gather ? sdispls[k] : r->in_place ? r->displs[rank] : 0;
    add_floats(in, into + shape_offset(in, part), (char *)r->value + shape_offset(in, r->at[k]), r->back[k], r->call);
  }
  release(r);
}

static void allgather_start(Record *r) { exchange_start(r, 1); }
static void allgather_end(Record *r) { exchange_end(r, 1); }
static void alltoall_start(Record *r) { exchange_start(r, 0); }
static void alltoall_end(Record *r) { exchange_end(r, 0); }

/* Every rank's count elements from each of size parts (Allgather, Alltoall: the v-forms' counts, uniform). */
static void uniform(int **counts, int **displs, int count, int size) {
  *counts = alloc(sizeof(int) * (size_t)size), *displs = alloc(sizeof(int) * (size_t)size);
  for (int k = 0; k < size; k++) (*counts)[k] = count, (*displs)[k] = k * count;
}

static Record *aug_gather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, int v, const int *rcounts,
                          const int *displs, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req, void *dsb,
                          const void *sl, void *drb, const void *rl, const char *call) {
  Shape s, rs;
  int carries = aug_shapes(&s, &rs, sb, st, sl, rt, rl, dsb, drb, call);
  if (v)
    req ? MPI_Igatherv(sb, sn, st, rb, rcounts, displs, rt, root, comm, req)
        : MPI_Gatherv(sb, sn, st, rb, rcounts, displs, rt, root, comm);
  else req ? MPI_Igather(sb, sn, st, rb, rn, rt, root, comm, req) : MPI_Gather(sb, sn, st, rb, rn, rt, root, comm);
  if (!carries) return NULL;
  Record *r = gs_record(&s, &rs, sn, rn, v, rcounts, displs, root, comm, dsb, drb, sb == MPI_IN_PLACE);
  return collective(r, call, gather_start, gather_end, req);
}

static Record *aug_scatter(const void *sb, int sn, int v, const int *scounts, const int *displs, MPI_Datatype st, void *rb,
                           int rn, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req, void *dsb,
                           const void *sl, void *drb, const void *rl, const char *call) {
  Shape s, rs;
  int carries = aug_shapes(&rs, &s, rb, rt, rl, st, sl, drb, dsb, call);
  if (v)
    req ? MPI_Iscatterv(sb, scounts, displs, st, rb, rn, rt, root, comm, req)
        : MPI_Scatterv(sb, scounts, displs, st, rb, rn, rt, root, comm);
  else req ? MPI_Iscatter(sb, sn, st, rb, rn, rt, root, comm, req) : MPI_Scatter(sb, sn, st, rb, rn, rt, root, comm);
  if (!carries) return NULL;
  Record *r = gs_record(&s, &rs, rn, sn, v, scounts, displs, root, comm, dsb, drb, rb == MPI_IN_PLACE);
  return collective(r, call, scatter_start, scatter_end, req);
}

/* The v-forms keep their counts and displacements on every rank: the receive side's in counts/displs,
 * the send side's (Alltoallv, not in place) in counts2/displs2. Allgatherv's send side is one part of
 * count elements; in place, this rank's part of the receive buffer. The uniform forms get uniform ones. */
/* A neighbourhood collective's record: its parts, its neighbours' ranks for the edges, whether the program
 * called the v-form (vform). */
static void neighbourhood(Record *r, int nb, int v, const char *call) {
  if (nb) r->parts = neighbours(r->comm, &r->peers, call), r->vform = v;
}

/* With nb, the neighbourhood's (MPI_Neighbor_allgather(v), blocking). */
static Record *aug_allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, const int *rcounts,
                             const int *displs, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req, void *dsb,
                             const void *sl, void *drb, const void *rl, const char *call, int nb) {
  Shape s, rs;
  int carries = aug_shapes(&s, &rs, sb, st, sl, rt, rl, dsb, drb, call), size = parts_of(comm, nb, call);
  post_allgather(sb, sn, st, rb, rn, rcounts, displs, rt, comm, req, nb);
  if (!carries) return NULL;
  Record *r = gs_record(&s, &rs, sn, rn, 0, NULL, NULL, -1, comm, dsb, drb, sb == MPI_IN_PLACE);
  neighbourhood(r, nb, rcounts != NULL, call);
  if (rcounts) r->counts = copy_ints(rcounts, size), r->displs = copy_ints(displs, size);
  else uniform(&r->counts, &r->displs, rn, size);
  return collective(r, call, allgather_start, allgather_end, req);
}

/* With nb, the neighbourhood's (MPI_Neighbor_alltoall(v), blocking). */
static Record *aug_alltoall(const void *sb, int sn, const int *scounts, const int *sdispls, MPI_Datatype st, void *rb,
                            int rn, const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req,
                            void *dsb, const void *sl, void *drb, const void *rl, const char *call, int nb) {
  Shape s, rs;
  int carries = aug_shapes(&s, &rs, sb, st, sl, rt, rl, dsb, drb, call), size = parts_of(comm, nb, call);
  post_alltoall(sb, sn, scounts, sdispls, st, rb, rn, rcounts, rdispls, rt, comm, req, nb);
  if (!carries) return NULL;
  Record *r = gs_record(&s, &rs, sn, rn, 0, NULL, NULL, -1, comm, dsb, drb, sb == MPI_IN_PLACE);
  neighbourhood(r, nb, rcounts != NULL, call);
  if (rcounts) {
    r->counts = copy_ints(rcounts, size), r->displs = copy_ints(rdispls, size);
    if (!r->in_place) r->counts2 = copy_ints(scounts, size), r->displs2 = copy_ints(sdispls, size);
  } else {
    uniform(&r->counts, &r->displs, rn, size);
    if (!r->in_place) uniform(&r->counts2, &r->displs2, sn, size);
  }
  return collective(r, call, alltoall_start, alltoall_end, req);
}

Record *__parad_mpi_aug_MPI_Gather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                   MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_gather(sb, sn, st, rb, rn, 0, NULL, NULL, rt, root, comm, NULL, dsb, sl, drb, rl, "MPI_Gather");
}

Record *__parad_mpi_aug_MPI_Igather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                    MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_gather(sb, sn, st, rb, rn, 0, NULL, NULL, rt, root, comm, req, dsb, sl, drb, rl, "MPI_Igather");
}

Record *__parad_mpi_aug_MPI_Gatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                    const int *displs, MPI_Datatype rt, int root, MPI_Comm comm, void *dsb,
                                    const void *sl, void *drb, const void *rl) {
  return aug_gather(sb, sn, st, rb, 0, 1, rcounts, displs, rt, root, comm, NULL, dsb, sl, drb, rl, "MPI_Gatherv");
}

Record *__parad_mpi_aug_MPI_Igatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                     const int *displs, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req,
                                     void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_gather(sb, sn, st, rb, 0, 1, rcounts, displs, rt, root, comm, req, dsb, sl, drb, rl, "MPI_Igatherv");
}

Record *__parad_mpi_aug_MPI_Scatter(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                    MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_scatter(sb, sn, 0, NULL, NULL, st, rb, rn, rt, root, comm, NULL, dsb, sl, drb, rl, "MPI_Scatter");
}

Record *__parad_mpi_aug_MPI_Iscatter(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                                     MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_scatter(sb, sn, 0, NULL, NULL, st, rb, rn, rt, root, comm, req, dsb, sl, drb, rl, "MPI_Iscatter");
}

Record *__parad_mpi_aug_MPI_Scatterv(const void *sb, const int *scounts, const int *displs, MPI_Datatype st, void *rb,
                                     int rn, MPI_Datatype rt, int root, MPI_Comm comm, void *dsb, const void *sl,
                                     void *drb, const void *rl) {
  return aug_scatter(sb, 0, 1, scounts, displs, st, rb, rn, rt, root, comm, NULL, dsb, sl, drb, rl, "MPI_Scatterv");
}

Record *__parad_mpi_aug_MPI_Iscatterv(const void *sb, const int *scounts, const int *displs, MPI_Datatype st, void *rb,
                                      int rn, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req, void *dsb,
                                      const void *sl, void *drb, const void *rl) {
  return aug_scatter(sb, 0, 1, scounts, displs, st, rb, rn, rt, root, comm, req, dsb, sl, drb, rl, "MPI_Iscatterv");
}

Record *__parad_mpi_aug_MPI_Allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                      MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_allgather(sb, sn, st, rb, rn, NULL, NULL, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Allgather", 0);
}

Record *__parad_mpi_aug_MPI_Iallgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                       MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_allgather(sb, sn, st, rb, rn, NULL, NULL, rt, comm, req, dsb, sl, drb, rl, "MPI_Iallgather", 0);
}

Record *__parad_mpi_aug_MPI_Allgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                       const int *displs, MPI_Datatype rt, MPI_Comm comm, void *dsb, const void *sl,
                                       void *drb, const void *rl) {
  return aug_allgather(sb, sn, st, rb, 0, rcounts, displs, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Allgatherv", 0);
}

Record *__parad_mpi_aug_MPI_Iallgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                        const int *displs, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req, void *dsb,
                                        const void *sl, void *drb, const void *rl) {
  return aug_allgather(sb, sn, st, rb, 0, rcounts, displs, rt, comm, req, dsb, sl, drb, rl, "MPI_Iallgatherv", 0);
}

Record *__parad_mpi_aug_MPI_Alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                     MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_alltoall(sb, sn, NULL, NULL, st, rb, rn, NULL, NULL, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Alltoall", 0);
}

Record *__parad_mpi_aug_MPI_Ialltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                      MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_alltoall(sb, sn, NULL, NULL, st, rb, rn, NULL, NULL, rt, comm, req, dsb, sl, drb, rl, "MPI_Ialltoall", 0);
}

Record *__parad_mpi_aug_MPI_Alltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st, void *rb,
                                      const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm comm, void *dsb,
                                      const void *sl, void *drb, const void *rl) {
  return aug_alltoall(sb, 0, scounts, sdispls, st, rb, 0, rcounts, rdispls, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Alltoallv", 0);
}

Record *__parad_mpi_aug_MPI_Ialltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st, void *rb,
                                       const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm comm,
                                       MPI_Request *req, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_alltoall(sb, 0, scounts, sdispls, st, rb, 0, rcounts, rdispls, rt, comm, req, dsb, sl, drb, rl, "MPI_Ialltoallv", 0);
}

Record *__parad_mpi_aug_MPI_Neighbor_allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                               MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_allgather(sb, sn, st, rb, rn, NULL, NULL, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Neighbor_allgather", 1);
}

Record *__parad_mpi_aug_MPI_Neighbor_allgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                                const int *displs, MPI_Datatype rt, MPI_Comm comm, void *dsb,
                                                const void *sl, void *drb, const void *rl) {
  return aug_allgather(sb, sn, st, rb, 0, rcounts, displs, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Neighbor_allgatherv", 1);
}

Record *__parad_mpi_aug_MPI_Neighbor_alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                              MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_alltoall(sb, sn, NULL, NULL, st, rb, rn, NULL, NULL, rt, comm, NULL, dsb, sl, drb, rl, "MPI_Neighbor_alltoall", 1);
}

Record *__parad_mpi_aug_MPI_Neighbor_alltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st,
                                               void *rb, const int *rcounts, const int *rdispls, MPI_Datatype rt,
                                               MPI_Comm comm, void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_alltoall(sb, 0, scounts, sdispls, st, rb, 0, rcounts, rdispls, rt, comm, NULL, dsb, sl, drb, rl,
                      "MPI_Neighbor_alltoallv", 1);
}

Record *__parad_mpi_aug_MPI_Ineighbor_allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                                MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb,
                                                const void *rl) {
  return aug_allgather(sb, sn, st, rb, rn, NULL, NULL, rt, comm, req, dsb, sl, drb, rl, "MPI_Ineighbor_allgather", 1);
}

Record *__parad_mpi_aug_MPI_Ineighbor_allgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int *rcounts,
                                                 const int *displs, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req,
                                                 void *dsb, const void *sl, void *drb, const void *rl) {
  return aug_allgather(sb, sn, st, rb, 0, rcounts, displs, rt, comm, req, dsb, sl, drb, rl, "MPI_Ineighbor_allgatherv", 1);
}

Record *__parad_mpi_aug_MPI_Ineighbor_alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                                               MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb,
                                               const void *rl) {
  return aug_alltoall(sb, sn, NULL, NULL, st, rb, rn, NULL, NULL, rt, comm, req, dsb, sl, drb, rl, "MPI_Ineighbor_alltoall", 1);
}

Record *__parad_mpi_aug_MPI_Ineighbor_alltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st,
                                                void *rb, const int *rcounts, const int *rdispls, MPI_Datatype rt,
                                                MPI_Comm comm, MPI_Request *req, void *dsb, const void *sl, void *drb,
                                                const void *rl) {
  return aug_alltoall(sb, 0, scounts, sdispls, st, rb, 0, rcounts, rdispls, rt, comm, req, dsb, sl, drb, rl,
                      "MPI_Ineighbor_alltoallv", 1);
}

void __parad_mpi_rev_MPI_Gather(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Gatherv(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Scatter(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Scatterv(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Allgather(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Allgatherv(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Alltoall(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Alltoallv(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Neighbor_allgather(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Neighbor_allgatherv(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Neighbor_alltoall(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Neighbor_alltoallv(Record *r) { adjoint_now(r); }
void __parad_mpi_rev_MPI_Ineighbor_allgather(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Ineighbor_allgatherv(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Ineighbor_alltoall(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Ineighbor_alltoallv(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Ibcast(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Igather(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Igatherv(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Iscatter(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Iscatterv(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Iallgather(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Iallgatherv(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Ialltoall(Record *r) { adjoint_end(r); }
void __parad_mpi_rev_MPI_Ialltoallv(Record *r) { adjoint_end(r); }

/* ---- MPI_Pack, MPI_Unpack ---- */

/* MPI_Pack and MPI_Unpack copy n elements of typed memory to and from packed bytes [lo, hi): the bytes are
 * noted with where their floats are, for the send that takes them. The record moves the adjoints back
 * the other way (into the typed buffer's shadow for a pack, into the packed bytes' for an unpack) and
 * resets those of the copy's destination. typed, packed: the shadows (the packed one at lo). */
static Record *aug_packing(int pack, MPI_Datatype t, const void *layout, int n, char *lo, char *hi, void *typed,
                           void *packed, const char *call) {
  Shape s = shape_of(t, layout);
  if (shape_packed(&s)) die("%s of MPI_PACKED data is not differentiated", call);
  Floats f = typed || packed ? floats_packed(&s, n, call) : (Floats){0};
  packed_note(lo, hi, &f);
  if (!(pack ? packed : typed)) { /* the destination is not active: nothing goes back */
    floats_free(&f);
    return NULL;
  }
  Record *r = record(pack ? REV_PACK : REV_UNPACK);
  r->shadow = typed, r->shadow2 = packed, r->sent = f;
  return r;
}

static void rev_packing(Record *r) {
  if (!r) return;
  if (r->kind == REV_PACK) floats_move(r->shadow, AT, r->shadow2, PACKED_AT, &r->sent, 1);
  else floats_move(r->shadow2, PACKED_AT, r->shadow, AT, &r->sent, 1);
  release(r);
}

Record *__parad_mpi_aug_MPI_Pack(const void *in, int n, MPI_Datatype t, void *out, int size, int *position, MPI_Comm comm,
                                 void *din, const void *layout, void *dout, const void *packed_layout) {
  (void)packed_layout;
  int at = *position;
  MPI_Pack(in, n, t, out, size, position, comm);
  return aug_packing(1, t, layout, n, (char *)out + at, (char *)out + *position, din, dout ? (char *)dout + at : NULL,
                     "MPI_Pack");
}

void __parad_mpi_rev_MPI_Pack(Record *r) { rev_packing(r); }

Record *__parad_mpi_aug_MPI_Unpack(const void *in, int size, int *position, void *out, int n, MPI_Datatype t,
                                   MPI_Comm comm, void *din, const void *packed_layout, void *dout, const void *layout) {
  (void)packed_layout;
  int at = *position;
  MPI_Unpack(in, size, position, out, n, t, comm);
  return aug_packing(0, t, layout, n, (char *)in + at, (char *)in + *position, dout, din ? (char *)din + at : NULL,
                     "MPI_Unpack");
}

void __parad_mpi_rev_MPI_Unpack(Record *r) { rev_packing(r); }

/* ---- persistent requests ----
 * MPI_Send_init (and its synchronous and ready forms) and MPI_Recv_init make a request that MPI_Start runs
 * again and again. Where its data carries derivatives the request the program holds is a real one that is
 * never started: MPI_Start posts an Isend or Irecv of its own in the program's request (with the tangents in
 * forward mode, with a record in reverse mode), and the wait or test that completes it puts the persistent
 * request back. The adjoint is that Isend's or Irecv's: started by the wait's adjoint, ended by the adjoint
 * of the MPI_Start. */
typedef struct {
  MPI_Request req;
  IsendCall isend; /* null for a receive */
  const char *call;
  void *buf, *shadow;
  const void *layout;
  int n, peer, tag;
  Shape shape; /* kept: the program may free a derived datatype once the request holds it (shape.type then) */
  MPI_Comm comm;
} Persistent;

static struct {
  Persistent *p;
  size_t len, cap;
} persistents;

/* Persistent requests the program made outside the code derivatives run (its set-up), whose datatype may
 * carry derivatives: the compiler notes each MPI_*_init call there (mpi/mpi_set_up.c). Started inside a
 * derivative, such a request would move the values without their derivatives (its buffer's shadow is not
 * known there): the program stops instead. */
static struct {
  MPI_Request *req;
  size_t len, cap;
} outside;

static Persistent *persistent_of(MPI_Request req);

void __parad_mpi_note_outside_init(MPI_Request *req, MPI_Datatype t) {
  Shape s = shape_of(t, NULL);
  if (!shape_carries(&s) || persistent_of(*req)) return; /* (a derivative's copy of the set-up code: its own) */
  if (outside.len == outside.cap) {
    outside.cap = outside.cap ? 2 * outside.cap : 16;
    if (!(outside.req = realloc(outside.req, outside.cap * sizeof *outside.req))) die("out of memory");
  }
  outside.req[outside.len++] = *req;
}

/* Before the program's own MPI_Request_free: the handle may come back for another request. */
void __parad_mpi_note_outside_free(MPI_Request *req) {
  for (size_t i = 0; i < outside.len; i++)
    if (outside.req[i] == *req) outside.req[i--] = outside.req[--outside.len];
}

static int persistent_init(IsendCall isend, const char *call, const void *buf, int n, MPI_Datatype t, int peer, int tag,
                           MPI_Comm comm, MPI_Request *req, void *d, const void *layout) {
  Shape s = shape_of(t, layout);
  if (!isend) check(&s, d, call);
  int rc = !isend ? MPI_Recv_init((void *)buf, n, t, peer, tag, comm, req)
           : isend == MPI_Issend ? MPI_Ssend_init(buf, n, t, peer, tag, comm, req)
           : isend == MPI_Irsend ? MPI_Rsend_init(buf, n, t, peer, tag, comm, req)
                                 : MPI_Send_init(buf, n, t, peer, tag, comm, req);
  __parad_mpi_note_outside_free(req); /* a handle a freed request of the set-up's had */
  if (!shape_carries(&s)) return rc;
  if (isend) check(&s, d, call);
  if (persistents.len == persistents.cap) {
    persistents.cap = persistents.cap ? 2 * persistents.cap : 16;
    if (!(persistents.p = realloc(persistents.p, persistents.cap * sizeof *persistents.p))) die("out of memory");
  }
  Persistent *p = &persistents.p[persistents.len++];
  *p = (Persistent){*req, isend, call, (void *)buf, d, layout, n, peer, tag, s, comm};
  shape_keep(&p->shape);
  return rc;
}

static void stop_if_made_outside(MPI_Request req) {
  for (size_t i = 0; i < outside.len; i++)
    if (outside.req[i] == req)
      die("MPI_Start of a persistent request made before the derivative (by MPI_Send_init or MPI_Recv_init in code "
          "it does not run), whose data may carry derivatives: Parad does not know its buffer's derivatives there; "
          "make the request (MPI_*_init and MPI_Request_free) inside the differentiated function");
}

static Persistent *persistent_of(MPI_Request req) {
  for (size_t i = 0; i < persistents.len; i++)
    if (persistents.p[i].req == req) return &persistents.p[i];
  return NULL;
}

#define SEND_INIT(NAME, ISEND)                                                                                  \
  int __parad_mpi_fwd_MPI_##NAME(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,        \
                                 MPI_Request *req, void *d, const void *layout) {                               \
    return persistent_init(ISEND, "MPI_" #NAME, buf, n, t, dest, tag, comm, req, d, layout);                    \
  }                                                                                                             \
  Record *__parad_mpi_aug_MPI_##NAME(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,    \
                                     MPI_Request *req, void *d, const void *layout) {                           \
    persistent_init(ISEND, "MPI_" #NAME, buf, n, t, dest, tag, comm, req, d, layout);                           \
    return NULL;                                                                                                \
  }                                                                                                             \
  void __parad_mpi_rev_MPI_##NAME(Record *r) { (void)r; }
SEND_INIT(Send_init, MPI_Isend)
SEND_INIT(Ssend_init, MPI_Issend)
SEND_INIT(Rsend_init, MPI_Irsend)
#undef SEND_INIT

int __parad_mpi_fwd_MPI_Recv_init(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req,
                                  void *d, const void *layout) {
  return persistent_init(NULL, "MPI_Recv_init", buf, n, t, src, tag, comm, req, d, layout);
}

Record *__parad_mpi_aug_MPI_Recv_init(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req,
                                      void *d, const void *layout) {
  persistent_init(NULL, "MPI_Recv_init", buf, n, t, src, tag, comm, req, d, layout);
  return NULL;
}

void __parad_mpi_rev_MPI_Recv_init(Record *r) { (void)r; }

/* The Isend or Irecv that stands in for a start of p, in the program's request (forward mode). */
static int fwd_start(MPI_Request *req) {
  Persistent *p = persistent_of(*req);
  if (!p) stop_if_made_outside(*req);
  if (!p) return MPI_Start(req);
  MPI_Request kept = *req;
  MPI_Datatype t = p->shape.type;
  int rc = p->isend ? fwd_isend(p->isend, p->buf, p->n, t, p->peer, p->tag, p->comm, req, p->shadow, p->layout)
                    : __parad_mpi_fwd_MPI_Irecv(p->buf, p->n, t, p->peer, p->tag, p->comm, req, p->shadow, p->layout);
  pending.rec[pending.len - 1]->persistent = kept; /* the record just remembered: the data carries derivatives */
  return rc;
}

int __parad_mpi_fwd_MPI_Start(MPI_Request *req) { return fwd_start(req); }

int __parad_mpi_fwd_MPI_Startall(int n, MPI_Request *reqs) {
  for (int i = 0; i < n; i++) fwd_start(&reqs[i]);
  return MPI_SUCCESS;
}

static Record *aug_start(MPI_Request *req) {
  Persistent *p = persistent_of(*req);
  if (!p) stop_if_made_outside(*req);
  if (!p) {
    MPI_Start(req);
    return NULL;
  }
  MPI_Request kept = *req;
  MPI_Datatype t = p->shape.type;
  Record *r = p->isend ? aug_isend(p->isend, p->call, p->buf, p->n, t, p->peer, p->tag, p->comm, req, p->shadow, p->layout)
                       : __parad_mpi_aug_MPI_Irecv(p->buf, p->n, t, p->peer, p->tag, p->comm, req, p->shadow, p->layout);
  r->persistent = kept;
  return r;
}

Record *__parad_mpi_aug_MPI_Start(MPI_Request *req) { return aug_start(req); }

Record *__parad_mpi_aug_MPI_Startall(int n, MPI_Request *reqs) {
  Record **recs = alloc(sizeof *recs * (size_t)(n > 0 ? n : 1));
  for (int i = 0; i < n; i++) recs[i] = aug_start(&reqs[i]);
  return completed(recs, n);
}

/* The adjoint of a start ends the adjoint of the Isend or Irecv it stood for. */
static void rev_start_call(Record *r) {
  if (r && r->kind == REV_ISEND) rev_isend(r, "MPI_Start");
  else if (r) rev_irecv(r, "MPI_Start");
}

void __parad_mpi_rev_MPI_Start(Record *r) { rev_start_call(r); }

void __parad_mpi_rev_MPI_Startall(Record *all) {
  for (int i = all->nrec - 1; i >= 0; i--) rev_start_call(all->recs[i]);
  release(all);
}

static int request_free(MPI_Request *req) {
  Persistent *p = persistent_of(*req);
  if (p) {
    shape_drop(&p->shape);
    *p = persistents.p[--persistents.len];
  }
  return MPI_Request_free(req);
}

int __parad_mpi_fwd_MPI_Request_free(MPI_Request *req) { return request_free(req); }

Record *__parad_mpi_aug_MPI_Request_free(MPI_Request *req) {
  request_free(req);
  return NULL;
}

void __parad_mpi_rev_MPI_Request_free(Record *r) { (void)r; }

/* ---- checkpointed loops whose steps communicate ---- */

/* The least of v over the ranks: each choice of the checkpointing schedule (runtime/checkpoint.c), so that
 * every rank runs the same steps in the same order. The loop runs on every rank of MPI_COMM_WORLD. */
long __parad_mpi_ckpt_agree(long v) {
  long least = v;
  MPI_Allreduce(&v, &least, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  return least;
}
