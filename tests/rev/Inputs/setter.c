/* The other file of tests/rev/global_setter_elsewhere.c: module state set by a setter, read by a helper. */
static const double *U;
static int n_bound;
void bind(const double *u, int n) { U = u, n_bound = n; }
double energy(void) {
  double s = 0;
  for (int i = 0; i < n_bound; i++) s += U[i] * U[i] * (i + 1);
  return s;
}
