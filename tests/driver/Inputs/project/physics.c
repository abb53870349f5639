#include <math.h>
double potential(double x) { return x * sin(x); }
