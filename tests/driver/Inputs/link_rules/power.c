// g(x) = x^POWER, strong: one definition per archive or object of the link-rules test.
double g(double x) {
  double y = 1;
  for (int i = 0; i < POWER; i++) y *= x;
  return y;
}
