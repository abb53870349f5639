#include "halo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_COUNT, TAG_GHOSTS, TAG_FORCES, TAG_MIGRANTS, TAG_VELOCITIES };

/* The records to the rank below, the ghosts from the rank above. */
static void send_down(const System *s, const AtomRecord *out, int nout, AtomRecord *in, int nin) {
  MPI_Sendrecv(out, nout * (int)sizeof *out, MPI_BYTE, s->down, TAG_GHOSTS, in, nin * (int)sizeof *in, MPI_BYTE,
               s->up, TAG_GHOSTS, s->comm, MPI_STATUS_IGNORE);
}

void halo_exchange(const System *s, const double *x, double cutoff, Halo *h) {
  h->n = s->n;
  h->sent = malloc(sizeof(int) * s->n);
  h->nsent = 0;
  for (int i = 0; i < s->n; i++)
    if (x[3 * i] - s->lo < cutoff) h->sent[h->nsent++] = i;
  MPI_Sendrecv(&h->nsent, 1, MPI_INT, s->down, TAG_COUNT, &h->nghost, 1, MPI_INT, s->up, TAG_COUNT, s->comm,
               MPI_STATUS_IGNORE);

  /* rank 0's atoms are ghosts of the top slab one box higher (with one rank, of its own) */
  double shift = s->rank == 0 ? s->box : 0;
  AtomRecord *out = malloc(sizeof *out * h->nsent), *in = malloc(sizeof *in * h->nghost);
  for (int k = 0; k < h->nsent; k++) {
    int i = h->sent[k];
    out[k] = (AtomRecord){s->id[i], s->type[i], {x[3 * i] + shift, x[3 * i + 1], x[3 * i + 2]}};
  }
  send_down(s, out, h->nsent, in, h->nghost);

  int total = h->n + h->nghost;
  h->x = malloc(sizeof(double) * 3 * total);
  h->type = malloc(sizeof(int) * total);
  memcpy(h->x, x, sizeof(double) * 3 * h->n);
  memcpy(h->type, s->type, sizeof(int) * h->n);
  for (int k = 0; k < h->nghost; k++) {
    memcpy(&h->x[3 * (h->n + k)], in[k].x, sizeof in[k].x);
    h->type[h->n + k] = in[k].type;
  }
  free(out);
  free(in);
}

void halo_return_forces(const System *s, const Halo *h, double *f) {
  double *back = malloc(sizeof(double) * 3 * h->nsent);
  MPI_Sendrecv(&f[3 * h->n], 3 * h->nghost, MPI_DOUBLE, s->up, TAG_FORCES, back, 3 * h->nsent, MPI_DOUBLE, s->down,
               TAG_FORCES, s->comm, MPI_STATUS_IGNORE);
  for (int k = 0; k < h->nsent; k++)
    for (int a = 0; a < 3; a++) f[3 * h->sent[k] + a] += back[3 * k + a];
  free(back);
}

void halo_free(Halo *h) {
  free(h->x);
  free(h->type);
  free(h->sent);
}

/* Atom from's data into slot to (to <= from: compacts the atoms that stay). */
static void move_atom(System *s, int to, int from) {
  s->id[to] = s->id[from];
  s->type[to] = s->type[from];
  memmove(&s->x[3 * to], &s->x[3 * from], sizeof(double) * 3);
  memmove(&s->v[3 * to], &s->v[3 * from], sizeof(double) * 3);
}

void halo_migrate(System *s) {
  /* leaving[0] go to the rank below, leaving[1] above (with two ranks both are the other rank, and all
   * go in the first message); velocities travel as doubles beside the records */
  AtomRecord *leaving[2] = {malloc(sizeof(AtomRecord) * s->n), malloc(sizeof(AtomRecord) * s->n)};
  double *vleaving[2] = {malloc(sizeof(double) * 3 * s->n), malloc(sizeof(double) * 3 * s->n)};
  int nleaving[2] = {0, 0}, kept = 0;
  for (int i = 0; i < s->n; i++) {
    double *x = &s->x[3 * i];
    for (int a = 0; a < 3; a++) x[a] -= s->box * floor(x[a] / s->box);
    int owner = system_owner(s, x[0]);
    if (owner == s->rank) {
      move_atom(s, kept++, i);
      continue;
    }
    if (owner != s->down && owner != s->up) {
      fprintf(stderr, "md: atom %d moved from rank %d to rank %d in one step: time step too long\n", s->id[i],
              s->rank, owner);
      MPI_Abort(s->comm, 1);
    }
    int to = owner == s->down ? 0 : 1, k = nleaving[to]++;
    leaving[to][k] = (AtomRecord){s->id[i], s->type[i], {x[0], x[1], x[2]}};
    memcpy(&vleaving[to][3 * k], &s->v[3 * i], sizeof(double) * 3);
  }
  s->n = kept;

  for (int to = 0; to < 2; to++) {
    int dest = to ? s->up : s->down, source = to ? s->down : s->up, nin;
    MPI_Sendrecv(&nleaving[to], 1, MPI_INT, dest, TAG_COUNT, &nin, 1, MPI_INT, source, TAG_COUNT, s->comm,
                 MPI_STATUS_IGNORE);
    system_reserve(s, s->n + nin);
    AtomRecord *in = malloc(sizeof *in * nin);
    MPI_Sendrecv(leaving[to], nleaving[to] * (int)sizeof(AtomRecord), MPI_BYTE, dest, TAG_MIGRANTS, in,
                 nin * (int)sizeof *in, MPI_BYTE, source, TAG_MIGRANTS, s->comm, MPI_STATUS_IGNORE);
    MPI_Sendrecv(vleaving[to], 3 * nleaving[to], MPI_DOUBLE, dest, TAG_VELOCITIES, &s->v[3 * s->n], 3 * nin,
                 MPI_DOUBLE, source, TAG_VELOCITIES, s->comm, MPI_STATUS_IGNORE);
    for (int k = 0; k < nin; k++, s->n++) {
      s->id[s->n] = in[k].id;
      s->type[s->n] = in[k].type;
      memcpy(&s->x[3 * s->n], in[k].x, sizeof in[k].x);
    }
    free(in);
    free(leaving[to]);
    free(vleaving[to]);
  }
}
