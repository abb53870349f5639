typedef double (*objective)(const double *x, int n);
void objective_gradient(objective f, const double *x, double *g, int n);
double directional(objective f, const double *x, const double *v, int n);
double descend(objective f, double *x, int n, int iterations);
