// Not a test: a limiter of another file, which tests/rev/pointer_call_loops.c calls through its table.
double other_limiter(double a, double b) { return a * b / (1 + a * a + b * b); }
