/* A 1-D shallow-water solver over three files: the numerical fluxes in a table of function pointers
 * (mutable, in fluxes.c; one entry registered at run time), the solver (solver.c) keeping the chosen flux
 * and its name in a struct with its fields. */
typedef struct { double h, hu; } Cell;
typedef void (*FluxFn)(const Cell *l, const Cell *r, double g, double *fh, double *fhu);
typedef struct {
  int n;
  double g, dx, cfl;
  Cell *u, *unew;
  double *fh, *fhu;
  FluxFn flux;
  const char *name;
} Solver;
enum { FLUXES = 3 };
extern FluxFn flux_table[FLUXES];
extern const char *flux_names[FLUXES];
void register_fluxes(void);
double run(double *h0, int n, int steps, int which);
