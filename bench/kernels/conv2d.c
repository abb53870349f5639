/* conv2d: L layers of a 3 x 3 smoothing of a G x G image, edges clamped (a pixel outside is its nearest
 * edge pixel), each followed by a leaky rectifier, the two images swapped every layer, each layer parallel
 * over rows; the stencil's offsets are loops from -1 to 1, as image code writes them. J(image) = sum_p
 * w_p a_L[p]^2. No hand-written adjoint (the clamped edges' transpose is a scatter): finite differences. */
#include "kernel.h"

enum { G = 1000, L = 3 };
static double *w, *work, *dwork;

static double leaky(double a) { return a > 0 ? a : 0.1 * a; }

static double conv2d(const double *restrict img, double *restrict work, const double *restrict w) {
  double *a = work, *b = work + G * G;
#pragma omp parallel for schedule(static)
  for (int p = 0; p < G * G; p++) a[p] = img[p];
  for (int l = 0; l < L; l++) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < G; i++)
      for (int j = 0; j < G; j++) {
        double acc = 0;
        for (int di = -1; di <= 1; di++)
          for (int dj = -1; dj <= 1; dj++) {
            int ii = i + di < 0 ? 0 : i + di >= G ? G - 1 : i + di, jj = j + dj < 0 ? 0 : j + dj >= G ? G - 1 : j + dj;
            acc += (di == 0 && dj == 0 ? 0.5 : 0.0625) * a[ii * G + jj];
          }
        b[i * G + j] = leaky(acc - 0.25);
      }
    double *s = a;
    a = b, b = s;
  }
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int p = 0; p < G * G; p++) J += w[p] * a[p] * a[p];
  return J;
}

static double primal(const double *x) { return conv2d(x, work, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(dwork, sizeof(double) * 2 * G * G);
  __parad_autodiff((void *)conv2d, x, g, work, dwork, parad_const, w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)conv2d, x, v, work, dwork, parad_const, w);
}

static void init(double *x) {
  w = malloc(sizeof(double) * G * G), work = malloc(sizeof(double) * 2 * G * G), dwork = malloc(sizeof(double) * 2 * G * G);
  rng_seed(21);
  for (int p = 0; p < G * G; p++) x[p] = rng_range(-1, 1), w[p] = rng_range(0.5, 1.5);
}

int main(void) {
  static const Kernel k = {.name = "conv2d",
                           .title = "3 layers of a 3 x 3 smoothing with clamped edges and a leaky rectifier, 1000 x 1000, J = sum w a^2",
                           .parallel = 1,
                           .n = (long)G * G,
                           .iterations = (double)L * G * G * 9,
                           .iteration = "tap",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = NULL};
  return kernel_main(&k);
}
