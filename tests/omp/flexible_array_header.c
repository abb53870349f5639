// A tensor as ML code in plain C writes it: `struct {int rows, cols; T data[];}` (a header and a flexible
// array in one malloc'd block), read in a parallel loop; after the gradient the caller takes a step
// through a pointer chosen between the tensor's data and another array. Built with -ffast-math the loads
// of the header lose their type tags, and the memory analysis asked the caller what the block holds: the
// chosen pointer counted as the block's start, so its float stores covered the header, which was taken
// for floats. The float tensor's gradient then zeroed the shadow's header (dW->rows 0, wrong with no
// message), the double one was refused ("a part of a float's bits moved as a smaller integer"). A phi or
// select among an object's pointers now starts where the lowest of them does (analysis/memtype.c).
//   loss(W) = sum_i tanh(sum_j W_ij x_j)^2      d/dW_ij = 2 y_i (1 - y_i^2) x_j,  y_i = tanh(...)
// Gradients of the float and the double tensor against the analytic derivative (float: 1e-5, double:
// 1e-12) and central differences (double, h = 1e-6, 1e-7); the shadows' headers exactly; tangents along
// two directions against the gradient (1e-12). At 1 to 3 threads, at -O2 and -O3 with -ffast-math.
// RUN: %parad-cc %cflags -ffast-math -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O3 -ffast-math -fopenmp -I%S/../include %s -o %t3 -lm && OMP_NUM_THREADS=2 %t3
// RUN: %parad-cc %cflags -fopenmp %s -o %t2 -lm && OMP_NUM_THREADS=2 %t2
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { R = 7, C = 5 };

typedef struct {
  int rows, cols;
  float data[];
} TensorF;

typedef struct {
  int rows, cols;
  double data[];
} TensorD;

static float loss_f(TensorF *W, const float *x, float *y) {
  int rows = W->rows, cols = W->cols;
#pragma omp parallel for
  for (int i = 0; i < rows; i++) {
    float s = 0;
    for (int j = 0; j < cols; j++) s += W->data[i * cols + j] * x[j];
    y[i] = tanhf(s);
  }
  float l = 0;
  for (int i = 0; i < rows; i++) l += y[i] * y[i];
  return l;
}

static double loss_d(TensorD *W, const double *x, double *y) {
  int rows = W->rows, cols = W->cols;
#pragma omp parallel for
  for (int i = 0; i < rows; i++) {
    double s = 0;
    for (int j = 0; j < cols; j++) s += W->data[i * cols + j] * x[j];
    y[i] = tanh(s);
  }
  double l = 0;
  for (int i = 0; i < rows; i++) l += y[i] * y[i];
  return l;
}

static void *tensor(size_t element, int rows, int cols) {
  TensorD *t = calloc(1, sizeof(TensorD) + element * rows * cols); /* both headers are two ints */
  t->rows = rows, t->cols = cols;
  return t;
}

static double loss_at(TensorD *W, const double *x, int k, double v) {
  double y[R], save = W->data[k];
  W->data[k] = v;
  double l = loss_d(W, x, y);
  W->data[k] = save;
  return l;
}

int main(int argc, char **argv) {
  (void)argv;
  TensorF *Wf = tensor(sizeof(float), R, C), *dWf = tensor(sizeof(float), R, C);
  TensorD *Wd = tensor(sizeof(double), R, C), *dWd = tensor(sizeof(double), R, C);
  float xf[C], yf[R], dyf[R] = {0}, otherf[R * C] = {0};
  double xd[C], yd[R], dyd[R] = {0}, otherd[R * C] = {0};
  for (int k = 0; k < R * C; k++) Wd->data[k] = 0.1 * sin(k + 1.0), Wf->data[k] = (float)Wd->data[k];
  for (int j = 0; j < C; j++) xd[j] = 0.3 * (j + 1) - 0.7, xf[j] = (float)xd[j];

  __enzyme_autodiff((void *)loss_f, Wf, dWf, enzyme_const, xf, yf, dyf);
  __enzyme_autodiff((void *)loss_d, Wd, dWd, enzyme_const, xd, yd, dyd);
  CHECK_CLOSE(dWf->rows, R, 0);
  CHECK_CLOSE(dWf->cols, C, 0);
  CHECK_CLOSE(dWd->rows, R, 0);
  CHECK_CLOSE(dWd->cols, C, 0);
  for (int i = 0; i < R; i++) {
    double s = 0;
    for (int j = 0; j < C; j++) s += Wd->data[i * C + j] * xd[j];
    double y = tanh(s);
    for (int j = 0; j < C; j++) {
      double want = 2 * y * (1 - y * y) * xd[j];
      CHECK_CLOSE(dWd->data[i * C + j], want, 1e-12);
      CHECK_CLOSE(dWf->data[i * C + j], want, 1e-5);
    }
  }
  for (int k = 0; k < R * C; k += 3) {
    double h = 1e-6, v = Wd->data[k];
    CHECK_CLOSE(dWd->data[k], (loss_at(Wd, xd, k, v + h) - loss_at(Wd, xd, k, v - h)) / (2 * h), 1e-7);
  }
  /* tangents along two directions: the gradient's dot products */
  for (int dir = 0; dir < 2; dir++) {
    TensorD *tW = tensor(sizeof(double), R, C);
    double dot = 0, ty[R];
    for (int k = 0; k < R * C; k++) tW->data[k] = dir ? cos(k) : (k % 4 == 1), dot += tW->data[k] * dWd->data[k];
    CHECK_CLOSE(__enzyme_fwddiff((void *)loss_d, Wd, tW, enzyme_const, xd, yd, ty), dot, 1e-12);
    CHECK_CLOSE(tW->rows, R, 0);
    free(tW);
  }
  /* a step through a pointer chosen between the tensor's data and another array */
  float *pf = argc > 5 ? otherf : Wf->data;
  double *pd = argc > 5 ? otherd : Wd->data;
  for (int k = 0; k < R * C; k++) pf[k] -= 0.01f * dWf->data[k], pd[k] -= 0.01 * dWd->data[k];
  CHECK_CLOSE(Wf->rows + Wd->rows, 2 * R, 0);
  free(Wf), free(dWf), free(Wd), free(dWd);
  return check_done();
}
