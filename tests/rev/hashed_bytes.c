// A hash of a double's bytes (FNV-1a, as hash sets of doubles compute it) that only picks a bucket, or a
// weight: the bytes are read as integers, xor-ed and multiplied, and the hash returned and compared. It was
// refused in reverse mode ("a part of a float's bits moved as a smaller integer"): bytes of a float used
// only as integers, through integer arithmetic and the returns of the functions computing them, carry no
// derivative back. Forward mode was right already.
// f = sum_i w_i x_i^2, w_i = 1 or 2 by the parity of the hash of x_i^2's bytes: a weight that changes with
// every bit of x (finite differences say nothing), whose derivative is 0 as every branch's is.
// Gradient against 2 w_i x_i, w_i computed at x (1e-12), and forward tangents along each unit direction
// against it (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stddef.h>
#include <stdint.h>
#include "parad.h"
#include "check.h"

enum { N = 6 };

__attribute__((noinline)) static uint64_t hash_bytes(const void *p, size_t n) {
  const unsigned char *b = p;
  uint64_t h = 1469598103934665603ull;
  while (n--) {
    h ^= *b++;
    h *= 1099511628211ull;
  }
  return h;
}

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
    s += (hash_bytes(&v, sizeof v) % 2 ? 1.0 : 2.0) * v;
  }
  return s;
}

int main(void) {
  double x[N] = {0.5, -3.0, 0.7, 1.1, -0.2, 2.5}, dx[N] = {0};
  __parad_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) {
    double v[N] = {0}, w = hash_bytes(&(double){x[i] * x[i]}, sizeof(double)) % 2 ? 1.0 : 2.0;
    v[i] = 1;
    CHECK_CLOSE(dx[i], 2 * w * x[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, N), dx[i], 1e-12);
  }
  return check_done();
}
