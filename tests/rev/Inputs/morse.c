/* Functions whose bodies the differentiated translation unit does not see (custom_gradient_file.c). */
#include <math.h>

/* Morse energy of n particles in the plane: sum over pairs of eps (1 - exp(-(r - 1)))^2 */
double morse_energy(const double *pos, int n, double eps) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = pos[2 * i] - pos[2 * j], dy = pos[2 * i + 1] - pos[2 * j + 1];
      double q = 1 - exp(-(sqrt(dx * dx + dy * dy) - 1));
      e += eps * q * q;
    }
  return e;
}

/* out = R(angle) in, for one point */
void rotate_point(const double *in, double *out, double angle) {
  double c = cos(angle), s = sin(angle);
  out[0] = c * in[0] - s * in[1];
  out[1] = s * in[0] + c * in[1];
}
