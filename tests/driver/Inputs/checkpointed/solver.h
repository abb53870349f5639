double solve(const double *u0, int n, int steps); /* n <= 64 */
void step(double *u, int n, double k);
