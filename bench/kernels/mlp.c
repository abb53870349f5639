/* mlp: a network of D tanh layers, H wide, over a batch of B samples (the inputs), its weights a global
 * table the function fills the first time it runs (lazily initialised state, as a program keeps a model it
 * loads once), the batch parallel over samples. J(inputs) = sum over samples and outputs of y^2.
 * Hand-written adjoint: each sample's layers backwards, its activations kept, the weights read again. */
#include "kernel.h"

enum { H = 64, D = 3, B = 4000 };
static double W[D][H][H];
static int loaded;
static double *kept; /* the hand-written adjoint's: every sample's activations, layer by layer */

static double mlp(const double *restrict in) {
  if (!loaded) {
    for (int l = 0; l < D; l++)
      for (int i = 0; i < H; i++)
        for (int j = 0; j < H; j++) W[l][i][j] = 0.02 * ((i * 7 + j * 13 + l * 5) % 17 - 8);
    loaded = 1;
  }
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int s = 0; s < B; s++) {
    double h[H], t[H];
    for (int j = 0; j < H; j++) h[j] = in[s * H + j];
    for (int l = 0; l < D; l++) {
      for (int i = 0; i < H; i++) {
        double a = 0;
        for (int j = 0; j < H; j++) a += W[l][i][j] * h[j];
        t[i] = tanh(a);
      }
      for (int i = 0; i < H; i++) h[i] = t[i];
    }
    for (int i = 0; i < H; i++) J += h[i] * h[i];
  }
  return J;
}

static double primal(const double *x) { return mlp(x); }

static void gradient(const double *x, double *g) { __parad_autodiff((void *)mlp, x, g); }

static double tangent(const double *x, const double *v) { return __parad_fwddiff((void *)mlp, x, v); }

/* kept[s][l]: the input of layer l of sample s (its output is layer l + 1's, the last one's J's) */
static double hand(const double *x, double *g) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int s = 0; s < B; s++) {
    double *k = kept + (size_t)s * (D + 1) * H, bar[H], next[H];
    for (int j = 0; j < H; j++) k[j] = x[s * H + j];
    for (int l = 0; l < D; l++)
      for (int i = 0; i < H; i++) {
        double a = 0;
        for (int j = 0; j < H; j++) a += W[l][i][j] * k[l * H + j];
        k[(l + 1) * H + i] = tanh(a);
      }
    for (int i = 0; i < H; i++) J += k[D * H + i] * k[D * H + i], bar[i] = 2 * k[D * H + i];
    for (int l = D - 1; l >= 0; l--) {
      for (int j = 0; j < H; j++) next[j] = 0;
      for (int i = 0; i < H; i++) {
        double y = k[(l + 1) * H + i], da = bar[i] * (1 - y * y);
        for (int j = 0; j < H; j++) next[j] += W[l][i][j] * da;
      }
      for (int j = 0; j < H; j++) bar[j] = next[j];
    }
    for (int j = 0; j < H; j++) g[s * H + j] = bar[j];
  }
  return J;
}

static void init(double *x) {
  kept = malloc(sizeof(double) * (size_t)B * (D + 1) * H);
  rng_seed(34);
  for (int p = 0; p < B * H; p++) x[p] = rng_range(-1, 1);
}

int main(void) {
  static const Kernel k = {.name = "mlp",
                           .title = "3 tanh layers 64 wide over 4000 samples, weights filled on the first call, J = sum y^2",
                           .parallel = 1,
                           .n = (long)B * H,
                           .iterations = (double)B * D * H * H,
                           .iteration = "multiply-add",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
