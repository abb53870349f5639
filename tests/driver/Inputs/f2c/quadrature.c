/* A quadrature routine as f2c writes it: every argument by pointer, 1-based arrays through decremented
 * pointers, static locals, and the integrand through an unprototyped function pointer (f2c.h's D_fp). */
typedef double doublereal;
typedef int integer;
typedef doublereal (*D_fp)();

/* 7-point Gauss-Legendre on each of *n panels of [*a, *b] */
int gauss7_(D_fp f, doublereal *a, doublereal *b, integer *n, doublereal *result) {
  static const doublereal x[7] = {-.9491079123427585, -.7415311855993945, -.4058451513773972, 0.,
                                  .4058451513773972, .7415311855993945, .9491079123427585};
  static const doublereal w[7] = {.1294849661688697, .2797053914892766, .3818300505051189, .4179591836734694,
                                  .3818300505051189, .2797053914892766, .1294849661688697};
  static integer i, k;
  doublereal h, c, t, s = 0.;
  const doublereal *xx = x - 1, *ww = w - 1;
  h = (*b - *a) / *n;
  for (k = 1; k <= *n; ++k) {
    c = *a + (k - .5) * h;
    for (i = 1; i <= 7; ++i) {
      t = c + h * .5 * xx[i];
      s += ww[i] * (*f)(&t);
    }
  }
  *result = s * h * .5;
  return 0;
}
