/* Compiled by plain clang (no IR for Parad): a function handed out through a pointer. */
static double cube(double v) { return v * v * v; }
double (*plain_callback(void))(double) { return cube; }
