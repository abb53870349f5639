/* Link cells over one rank's slab of the periodic box.
 *
 * Cells are at least a cutoff wide, so an atom's partners within the cutoff lie in its own cell and the 26
 * around it. Each pair is visited once: from a cell, the pairs inside it and those with 13 of its
 * neighbours (a half shell, all of which lie at +x, or at the same x and +y, or at the same x and y and
 * +z). Across the box's faces in y and z a neighbour is a periodic image; in x the half shell reaches
 * one layer of cells past the slab, which holds the ghost atoms (halo.h): copies of the atoms of the slab
 * above, already at the position of their image. */
#ifndef MD_CELLS_H
#define MD_CELLS_H

enum { HALF_SHELL = 13 };

typedef struct {
  int cell;      /* the neighbour's index */
  double sy, sz; /* added to the neighbour's atoms' y and z: their periodic image next to this cell */
} Neighbour;

typedef struct {
  int nx, ny, nz; /* cells along each axis; the last layer in x holds the ghosts */
  int nowned;     /* the cells of the slab itself: 0 .. nowned - 1 */
  int *head;      /* each cell's first atom, -1 when empty */
  int *next;      /* the next atom in the same cell, -1 at the end */
  Neighbour *shell; /* HALF_SHELL neighbours of each owned cell */
} Cells;

/* Sorts the atoms (x: 3 coordinates each, nowned owned atoms in lo <= x < hi, then nghost ghosts) into
 * cells. y and z lie in [0, box). Cells are rebuilt whenever atoms move: building costs far less than
 * the pair loop. */
void cells_build(Cells *c, const double *x, int nowned, int nghost, double lo, double hi, double box,
                 double cutoff);
void cells_free(Cells *c);

#endif
