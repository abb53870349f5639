/* Refused as it compiles: a derivative request naming no function. */
double __parad_autodiff(void *, ...);

double g(double x) { return __parad_autodiff(0, x); }
