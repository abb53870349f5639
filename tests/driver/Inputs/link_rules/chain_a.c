// A member of liba.a that needs one of libb.a, which needs a second of liba.a (a --start-group).
double b_part(double);
double g(double x) { return b_part(x) + x; }
