// A recursive divide-and-conquer sum over a struct frame {long r0, r1, c0, c1; float *data;}: each call
// mallocs two new frames, copies the whole struct into each (*a = *f: the copy moves the data pointer,
// whose shadow must move along, though this function touches only the frame's integer fields), narrows a
// bound in each and recurses; a leaf sums data[r c]^2 over its row. Also the small form that copies a frame
// on the stack and changes a bound before calling a leaf (Frame b = *f; b.r1 = 4). Once the reverse sweep
// read through a null shadow of the data pointer (at -O0: the heap frames' type came only from their
// integer fields). Analytic gradients: 2 data[k] on the rows summed, 0 elsewhere (tolerance 1e-6, float
// data); forward tangents along a few unit directions (1e-6).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
float __parad_fwddiff(void *, ...);

enum { ROWS = 6, COLS = 8 };

typedef struct {
  long r0, r1, c0, c1;
  float *data;
} Frame;

static float sum(const Frame *f) {
  long rows = f->r1 - f->r0;
  if (rows <= 1) {
    float s = 0;
    for (long c = f->c0; c < f->c1; c++) s += f->data[f->r0 * COLS + c] * f->data[f->r0 * COLS + c];
    return s;
  }
  Frame *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  *a = *f;
  *b = *f;
  a->r1 = f->r0 + rows / 2;
  b->r0 = a->r1;
  float s = sum(a) + sum(b);
  free(a);
  free(b);
  return s;
}

__attribute__((noinline)) static float all_rows(float *data) {
  Frame f = {0, ROWS, 0, COLS, data};
  return sum(&f);
}

__attribute__((noinline)) static float leaf(const Frame *f) {
  float s = 0;
  for (long r = f->r0; r < f->r1; r++)
    for (long c = f->c0; c < f->c1; c++) s += f->data[r * COLS + c] * f->data[r * COLS + c];
  return s;
}

__attribute__((noinline)) static float first_rows(const Frame *f) {
  Frame b = *f;
  b.r1 = 4;
  return leaf(&b);
}

int main(void) {
  float d[ROWS * COLS], dd[ROWS * COLS] = {0}, dd2[ROWS * COLS] = {0}, e[ROWS * COLS];
  for (int i = 0; i < ROWS * COLS; i++) d[i] = 0.1f * (float)i - 1.5f;
  __parad_autodiff((void *)all_rows, d, dd);
  for (int i = 0; i < ROWS * COLS; i++) CHECK_CLOSE(dd[i], 2 * d[i], 1e-6);
  Frame f = {0, ROWS, 1, COLS - 1, d}, df = {0, 0, 0, 0, dd2};
  __parad_autodiff((void *)first_rows, &f, &df);
  for (int i = 0; i < ROWS * COLS; i++) {
    int r = i / COLS, c = i % COLS;
    CHECK_CLOSE(dd2[i], r < 4 && c >= 1 && c < COLS - 1 ? 2 * d[i] : 0.0, 1e-6);
  }
  for (int k = 3; k < ROWS * COLS; k += 11) {
    for (int i = 0; i < ROWS * COLS; i++) e[i] = (float)(i == k);
    CHECK_CLOSE(__parad_fwddiff((void *)all_rows, d, e), dd[k], 1e-6);
    Frame te = {0, 0, 0, 0, e};
    CHECK_CLOSE(__parad_fwddiff((void *)first_rows, &f, &te), dd2[k], 1e-6);
  }
  return check_done();
}
