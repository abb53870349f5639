/* ljcells: the Lennard-Jones energy of n particles in a box, truncated and shifted at the cut-off rc,
 * through link cells: the box is cut into cells of side at least rc, the particles are stored cell by cell,
 * and each particle meets the particles of its own and the 26 neighbouring cells; parallel over cells.
 *
 *   E(x) = 1/2 sum_i sum_{j != i, r_ij < rc} 4 ((s/r_ij)^12 - (s/r_ij)^6) - e(rc)
 *
 * J(x) = E. The hand-written gradient is the force loop every MD code has, -dE/dx_i = sum_j w(r_ij) d_ij, a
 * gather over the same cells (each thread writes only its own particles): Parad's gradient must be minus
 * the forces, every component, to 1e-9. The particles sit on a jittered cubic lattice near the potential's
 * minimum. */
#include "kernel.h"

enum { SIDE = 26, NP = SIDE * SIDE * SIDE };
static const double spacing = 1.1, rc = 2.5;
static int nc, *cstart; /* cells per side; cell c holds particles cstart[c] .. cstart[c+1]-1 */

static double ljcells(const double *restrict x, const int *restrict cstart, int nc) {
  double rc2 = rc * rc, ir6c = 1 / (rc2 * rc2 * rc2), ecut = 4 * (ir6c * ir6c - ir6c), e = 0;
#pragma omp parallel for schedule(static) reduction(+ : e)
  for (int c = 0; c < nc * nc * nc; c++) {
    int cx = c / (nc * nc), cy = c / nc % nc, cz = c % nc;
    for (int i = cstart[c]; i < cstart[c + 1]; i++) {
      double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
      for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++)
          for (int dz = -1; dz <= 1; dz++) {
            int px = cx + dx, py = cy + dy, pz = cz + dz;
            if (px < 0 || py < 0 || pz < 0 || px >= nc || py >= nc || pz >= nc) continue;
            int d = (px * nc + py) * nc + pz;
            for (int j = cstart[d]; j < cstart[d + 1]; j++) {
              if (j == i) continue;
              double rx = xi - x[3 * j], ry = yi - x[3 * j + 1], rz = zi - x[3 * j + 2];
              double r2 = rx * rx + ry * ry + rz * rz;
              if (r2 >= rc2) continue;
              double ir2 = 1 / r2, ir6 = ir2 * ir2 * ir2;
              e += 2 * (ir6 * ir6 - ir6) - 0.5 * ecut; /* half the pair: the other half from j */
            }
          }
    }
  }
  return e;
}

static double primal(const double *x) { return ljcells(x, cstart, nc); }

static void gradient(const double *x, double *g) {
  __parad_autodiff((void *)ljcells, x, g, parad_const, cstart, parad_const, nc);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)ljcells, x, v, parad_const, cstart, parad_const, nc);
}

/* The energy and g = -forces: the pair (i, j) pushes i by w d with d = x_i - x_j, w = 24 (2 (1/r2)^6 -
 * (1/r2)^3) / r2. */
static double hand(const double *x, double *g) {
  double rc2 = rc * rc, ir6c = 1 / (rc2 * rc2 * rc2), ecut = 4 * (ir6c * ir6c - ir6c), e = 0;
#pragma omp parallel for schedule(static) reduction(+ : e)
  for (int c = 0; c < nc * nc * nc; c++) {
    int cx = c / (nc * nc), cy = c / nc % nc, cz = c % nc;
    for (int i = cstart[c]; i < cstart[c + 1]; i++) {
      double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2], fx = 0, fy = 0, fz = 0;
      for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++)
          for (int dz = -1; dz <= 1; dz++) {
            int px = cx + dx, py = cy + dy, pz = cz + dz;
            if (px < 0 || py < 0 || pz < 0 || px >= nc || py >= nc || pz >= nc) continue;
            int d = (px * nc + py) * nc + pz;
            for (int j = cstart[d]; j < cstart[d + 1]; j++) {
              if (j == i) continue;
              double rx = xi - x[3 * j], ry = yi - x[3 * j + 1], rz = zi - x[3 * j + 2];
              double r2 = rx * rx + ry * ry + rz * rz;
              if (r2 >= rc2) continue;
              double ir2 = 1 / r2, ir6 = ir2 * ir2 * ir2, wgt = 24 * (2 * ir6 * ir6 - ir6) * ir2;
              e += 2 * (ir6 * ir6 - ir6) - 0.5 * ecut;
              fx += wgt * rx, fy += wgt * ry, fz += wgt * rz;
            }
          }
      g[3 * i] = -fx, g[3 * i + 1] = -fy, g[3 * i + 2] = -fz;
    }
  }
  return e;
}

/* A jittered lattice, sorted into cells (a counting sort by cell): the positions into pos. */
static double *pos;
static void build(void) {
  double box = SIDE * spacing, cell_side;
  nc = (int)(box / rc), cell_side = box / nc;
  int ncells = nc * nc * nc, *count = calloc(ncells + 1, sizeof(int)), *cellof = malloc(sizeof(int) * NP);
  double *p = malloc(sizeof(double) * 3 * NP);
  rng_seed(16);
  for (int i = 0; i < NP; i++) {
    int a = i / (SIDE * SIDE), b = i / SIDE % SIDE, c = i % SIDE;
    p[3 * i] = (a + 0.5) * spacing + rng_range(-0.1, 0.1);
    p[3 * i + 1] = (b + 0.5) * spacing + rng_range(-0.1, 0.1);
    p[3 * i + 2] = (c + 0.5) * spacing + rng_range(-0.1, 0.1);
    int ca = (int)(p[3 * i] / cell_side), cb = (int)(p[3 * i + 1] / cell_side), cc = (int)(p[3 * i + 2] / cell_side);
    cellof[i] = (ca * nc + cb) * nc + cc;
    count[cellof[i] + 1]++;
  }
  cstart = malloc(sizeof(int) * (ncells + 1));
  cstart[0] = 0;
  for (int c = 0; c < ncells; c++) cstart[c + 1] = cstart[c] + count[c + 1];
  for (int c = 0; c < ncells; c++) count[c] = cstart[c];
  pos = malloc(sizeof(double) * 3 * NP);
  for (int i = 0; i < NP; i++) {
    int at = count[cellof[i]]++;
    memcpy(pos + 3 * at, p + 3 * i, sizeof(double) * 3);
  }
  free(count), free(cellof), free(p);
}

static void init(double *x) { memcpy(x, pos, sizeof(double) * 3 * NP); }

/* The pairs the innermost loop meets (the particles of each cell times those of its neighbour cells, less
 * each particle itself): the tape's divisor. */
static double candidate_pairs(void) {
  double pairs = 0;
  for (int c = 0; c < nc * nc * nc; c++) {
    int cx = c / (nc * nc), cy = c / nc % nc, cz = c % nc, near = 0;
    for (int d = 0; d < 27; d++) {
      int px = cx + d / 9 - 1, py = cy + d / 3 % 3 - 1, pz = cz + d % 3 - 1;
      if (px >= 0 && py >= 0 && pz >= 0 && px < nc && py < nc && pz < nc)
        near += cstart[(px * nc + py) * nc + pz + 1] - cstart[(px * nc + py) * nc + pz];
    }
    pairs += (double)(cstart[c + 1] - cstart[c]) * (near - 1);
  }
  return pairs;
}

int main(void) {
  build();
  Kernel k = {.name = "ljcells",
              .title = "Lennard-Jones through link cells, 17576 particles, cut-off 2.5, J = E",
              .parallel = 1,
              .n = 3 * NP,
              .iterations = 0,
              .iteration = "particle pair met",
              .init = init,
              .primal = primal,
              .gradient = gradient,
              .tangent = tangent,
              .hand = hand};
  k.iterations = candidate_pairs();
  return kernel_main(&k);
}
