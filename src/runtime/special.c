/* Special functions that derivative rules need and libm lacks (rules/rules_table.c calls them by name, with
 * libm's suffixes: f for float, l for long double). */
#include <math.h>

static const double pi = 3.14159265358979323846;

/* The digamma function psi = Gamma'/Gamma, the derivative of lgamma: reflected below 1/2 (psi(1 - x) -
 * psi(x) = pi cot(pi x)), raised above 10 by psi(x) = psi(x + 1) - 1/x, then the asymptotic series, whose
 * first omitted term, 691/(32760 x^12), is below 3e-14 there. */
double __parad_digamma(double x) {
  if (x <= 0 && x == floor(x)) return NAN; /* a pole */
  if (x < 0.5) return __parad_digamma(1 - x) - pi / tan(pi * x);
  double shift = 0;
  for (; x < 10; x += 1) shift -= 1 / x;
  double r = 1 / (x * x);
  double series = r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240 - r * (1.0 / 132)))));
  return shift + log(x) - 0.5 / x - series;
}

float __parad_digammaf(float x) { return (float)__parad_digamma(x); }
long double __parad_digammal(long double x) { return __parad_digamma((double)x); }

/* The trigamma function psi' (the derivative of digamma, for second derivatives of lgamma and tgamma):
 * reflected below 1/2 (psi'(1 - x) + psi'(x) = pi^2 / sin^2(pi x)), raised above 10 by psi'(x) =
 * psi'(x + 1) + 1/x^2, then the asymptotic series 1/x + 1/2x^2 + sum B_2k / x^(2k+1), whose first omitted
 * term, 691/(2730 x^13), is below 3e-14 there. */
double __parad_trigamma(double x) {
  if (x <= 0 && x == floor(x)) return NAN; /* a pole */
  if (x < 0.5) {
    double s = sin(pi * x);
    return pi * pi / (s * s) - __parad_trigamma(1 - x);
  }
  double shift = 0;
  for (; x < 10; x += 1) shift += 1 / (x * x);
  double r = 1 / (x * x);
  double series = (1 + r * (1.0 / 6 - r * (1.0 / 30 - r * (1.0 / 42 - r * (1.0 / 30 - r * (5.0 / 66)))))) / x;
  return shift + 0.5 * r + series;
}

float __parad_trigammaf(float x) { return (float)__parad_trigamma(x); }
long double __parad_trigammal(long double x) { return __parad_trigamma((double)x); }

/* The tetragamma function psi'' (trigamma's derivative, for third derivatives of lgamma): the recurrence
 * psi''(x) = psi''(x + 1) - 2 / x^3 up to x >= 10, then the asymptotic series (trigamma's differentiated);
 * below 1/2 the reflection psi''(x) = psi''(1 - x) - 2 pi^3 cos(pi x) / sin^3(pi x). */
double __parad_tetragamma(double x) {
  if (x <= 0 && x == floor(x)) return NAN; /* a pole */
  if (x < 0.5) {
    double s = sin(pi * x);
    return __parad_tetragamma(1 - x) - 2 * pi * pi * pi * cos(pi * x) / (s * s * s);
  }
  double shift = 0;
  for (; x < 10; x += 1) shift -= 2 / (x * x * x);
  double r = 1 / (x * x);
  double series = -r * (1 + 1 / x + r * (0.5 - r * (1.0 / 6 - r * (1.0 / 6 - r * (3.0 / 10 - r * (5.0 / 6))))));
  return shift + series;
}

float __parad_tetragammaf(float x) { return (float)__parad_tetragamma(x); }
long double __parad_tetragammal(long double x) { return __parad_tetragamma((double)x); }

/* The identity, which the compiler knows as a call with no derivative (analysis/calls.c): the complex
 * inverse functions' library value is taken at an operand passed through it (ad/body.c). Out of the
 * compiler's sight, so that nothing folds z - constant(z) to zero before the derivative is made. */
double __parad_rt_constant(double x) { return x; }
float __parad_rt_constant_f(float x) { return x; }
