/* A function the differentiated file sees no body of, built with plain clang. */
double ext_cubic(double x) { return x * x * x; }
