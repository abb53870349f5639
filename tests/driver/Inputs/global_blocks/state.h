/* The state of global_blocks_across_files.c's solver: fields kept in pointer globals, defined in state.c,
 * allocated by setup(), filled by solve() in solver.c. */
extern double *field, *flux;
extern int cells;
void setup(int n);
double solve(const double *x, int steps);
void gradient(const double *x, double *g, int steps); /* solver.c: asks for solve's gradient there */
