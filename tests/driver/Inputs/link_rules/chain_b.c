double a_tail(double);
double b_part(double x) { return a_tail(x) * x; }
