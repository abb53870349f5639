/* A file without requests of its own (compiled without line tables), whose code a derivative reaches. */
double mystery(double);

double through(double x) {
  double y = x * x;
  return mystery(y);
}
