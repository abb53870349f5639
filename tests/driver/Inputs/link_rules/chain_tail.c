double a_tail(double x) { return x * x; }
