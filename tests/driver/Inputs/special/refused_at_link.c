/* Compiles (-c gives an object), refused as it links, where the derivative of a function of another file
 * (tagged.c) is made. */
double __parad_autodiff(void *, ...);
double tagged_square(double *x);

int main(void) {
  double x = 2, dx = 0;
  __parad_autodiff((void *)tagged_square, &x, &dx);
  return dx != 4;
}
