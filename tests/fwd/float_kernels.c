// Single precision kernels: float arrays through a loop with sinf, expf, sqrtf and float arithmetic, a
// float result, float tangents. Compared with central finite differences of the same formulas evaluated
// in double (h = 1e-6), tolerance 1e-4 (relative above 1; float rounding of the tangent computation),
// for every third basis direction and a general one, plus the shadow of an output array.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

float __parad_fwddiff_f(void *, ...);

enum { N = 16 };

__attribute__((noinline)) static float kernel(const float *x, float *y, int n, float a) {
  float s = 0;
  for (int i = 0; i < n; i++) {
    float v = sinf(a * x[i]) + expf(-x[i] * x[i]) * sqrtf(1.0f + x[i] * x[i] + i);
    y[i] = v * a;
    s += v * v;
  }
  return sqrtf(s);
}

/* the same in double */
static double kernel_d(const double *x, double *y, int n, double a) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = sin(a * x[i]) + exp(-x[i] * x[i]) * sqrt(1.0 + x[i] * x[i] + i);
    y[i] = v * a;
    s += v * v;
  }
  return sqrt(s);
}

typedef struct { const float *x0; const float *dir; double da; int comp; } Ctx;

static double along(void *p, double t) {
  Ctx *c = p;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = c->x0[i] + t * c->dir[i];
  double r = kernel_d(x, y, N, 0.8 + t * c->da);
  return c->comp < 0 ? r : y[c->comp];
}

int main(void) {
  float x[N], dx[N], y[N], dy[N];
  for (int i = 0; i < N; i++) x[i] = 0.2f * i - 1.3f;
  for (int k = 0; k < N; k += 3) {
    for (int i = 0; i < N; i++) dx[i] = i == k;
    float d = __parad_fwddiff_f((void *)kernel, x, dx, y, dy, parad_const, N, 0.8f, 0.0f);
    Ctx c = {x, dx, 0, -1};
    CHECK_CLOSE(d, fd_central(along, &c, 0, 1e-6), 1e-4);
    c.comp = k;
    CHECK_CLOSE(dy[k], fd_central(along, &c, 0, 1e-6), 1e-4);
  }
  for (int i = 0; i < N; i++) dx[i] = cosf(i);
  float d = __parad_fwddiff_f((void *)kernel, x, dx, y, dy, parad_const, N, 0.8f, 0.5f);
  Ctx c = {x, dx, 0.5, -1};
  CHECK_CLOSE(d, fd_central(along, &c, 0, 1e-6), 1e-4);
  for (int k = 0; k < N; k += 5) {
    c.comp = k;
    CHECK_CLOSE(dy[k], fd_central(along, &c, 0, 1e-6), 1e-4);
  }
  return check_done();
}
