// ld's --wrap=g sends main's calls of g here, and this one's __real_g to g.
double __real_g(double);
double __wrap_g(double x) { return 3 * __real_g(x); }
