/* A small program split over files as users write them: the model (model.c), its pair term in a static
 * library (pairs.c), the integrator with a callback (integrate.c), and main (in the test). */
typedef void (*Rhs)(const double *y, double *dy, const double *p);
double model_energy(const double *x, int n);      /* model.c: sum over pairs (pairs.c) and sites */
double pair_term(double a, double b);             /* pairs.c, in libpairs.a */
void integrate(Rhs f, double *y, const double *p, int steps, double h); /* integrate.c */
void decay_rhs(const double *y, double *dy, const double *p);           /* model.c */
extern const Rhs rhs_table[2];                                          /* model.c */
