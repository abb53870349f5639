#include "system.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A uniform number in [-1, 1) from a key (splitmix64's finaliser). */
static double noise(uint64_t key) {
  key += 0x9e3779b97f4a7c15u;
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9u;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebu;
  key ^= key >> 31;
  return (double)(key >> 11) * 0x1p-52 - 1;
}

int system_create(System *s, int natoms, double density, double cutoff, MPI_Comm comm) {
  *s = (System){.comm = comm};
  MPI_Comm_rank(comm, &s->rank);
  MPI_Comm_size(comm, &s->nranks);
  int side = (int)lround(cbrt(natoms));
  double spacing = cbrt(1 / density);
  s->box = side * spacing;
  if (s->box / s->nranks < cutoff || s->box < 3 * cutoff) {
    if (s->rank == 0)
      fprintf(stderr, "md: a box of %d atoms (edge %.2f) is too small for %d slabs at least %.2f wide\n",
              side * side * side, s->box, s->nranks, cutoff);
    return -1;
  }
  s->lo = s->box * s->rank / s->nranks;
  s->hi = s->box * (s->rank + 1) / s->nranks;
  s->down = (s->rank + s->nranks - 1) % s->nranks;
  s->up = (s->rank + 1) % s->nranks;

  for (int id = 0; id < side * side * side; id++) {
    int site[3] = {id / (side * side), id / side % side, id % side};
    double x[3];
    for (int a = 0; a < 3; a++) {
      x[a] = spacing * (site[a] + 0.5 + 0.1 * noise(3 * (uint64_t)id + a));
      x[a] -= s->box * floor(x[a] / s->box);
    }
    if (system_owner(s, x[0]) != s->rank) continue;
    system_reserve(s, s->n + 1);
    s->id[s->n] = id;
    s->type[s->n] = id % 5 == 4;
    for (int a = 0; a < 3; a++) {
      s->x[3 * s->n + a] = x[a];
      s->v[3 * s->n + a] = 0;
    }
    s->n++;
  }
  return 0;
}

void system_destroy(System *s) {
  free(s->id);
  free(s->type);
  free(s->x);
  free(s->v);
  free(s->f);
}

void system_reserve(System *s, int n) {
  if (n <= s->capacity) return;
  s->capacity = n > 2 * s->capacity ? n : 2 * s->capacity;
  s->id = realloc(s->id, sizeof(int) * s->capacity);
  s->type = realloc(s->type, sizeof(int) * s->capacity);
  s->x = realloc(s->x, sizeof(double) * 3 * s->capacity);
  s->v = realloc(s->v, sizeof(double) * 3 * s->capacity);
  s->f = realloc(s->f, sizeof(double) * 3 * s->capacity);
}

int system_owner(const System *s, double x) {
  int r = (int)(x / s->box * s->nranks);
  return r < s->nranks ? r : s->nranks - 1;
}

int system_count(const System *s) {
  int total;
  MPI_Allreduce(&s->n, &total, 1, MPI_INT, MPI_SUM, s->comm);
  return total;
}
