double logistic(double x);
void fill(double *x, int n, double start, double step);
#ifndef SCALE
#error "SCALE must be defined with -D"
#endif
