// Data read from outside into memory that then holds active values: a buffer refilled by fread in a
// loop, a heap block a short fread fills in part, variables sscanf and fscanf assign (and one a failed
// conversion leaves as it was), a buffer pread fills and one a failed read leaves. What the library
// writes is a constant (zero derivative); what it leaves keeps its derivative. fread and sscanf were
// refused, and fread declared inactive kept the buffer's old derivative (a gradient 14 for 10). Reverse
// mode against the analytic gradient (1e-12), forward mode's tangents (1e-12) and central differences
// (1e-6), at -O2 and -O0, and with -D_FORTIFY_SOURCE=2 (fread becomes __fread_chk). Rows of a CSV text
// parsed with "%d,%lf%n" into a struct whose int field sits beside a field with a derivative, and "%hd %ld"
// likewise: refused before ("cannot differentiate a call to '__isoc99_sscanf' ... active argument (#2)",
// the int's address), the integers now read into locals of their own as the floats are.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -D_FORTIFY_SOURCE=2 %s -o %t2 -lm && %t2
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
void __parad_autodiff(void *, ...);

static FILE *binary, *text; /* the doubles 1, 2, 3, 4; the text "0.5 2.0" */
static int fd;              /* the binary file again, as a descriptor */

double refill(const double *x) {
  double buf[2], acc = 0;
  rewind(binary);
  for (int c = 0; c < 2; c++) {
    if (fread(buf, sizeof(double), 2, binary) != 2) abort();
    for (int j = 0; j < 2; j++) {
      buf[j] *= x[j];
      acc += buf[j] * buf[j];
    }
  }
  return acc; /* 10 x0^2 + 20 x1^2 */
}

double partial(const double *x) {
  double *buf = malloc(4 * sizeof(double));
  for (int j = 0; j < 4; j++) buf[j] = x[j] * x[j];
  fseek(binary, 2 * sizeof(double), SEEK_SET);
  size_t got = fread(buf, sizeof(double), 4, binary); /* 2 of 4: {3, 4, x2^2, x3^2} */
  double s = 0;
  for (int j = 0; j < 4; j++) s += buf[j] * x[j];
  free(buf);
  return s + got; /* 3 x0 + 4 x1 + x2^3 + x3^3 + 2 */
}

double parsed(const double *x) {
  int n = 0;
  double a = x[0] * x[0], c = x[2];
  float b = (float)x[1];
  int got = sscanf("3 1.5 0.25", "%d %lf %f", &n, &a, &b);
  a *= x[0];
  b *= 2.0f;
  int none = sscanf("oops", "%lf", &c); /* no conversion: c keeps x2 */
  return n * a + b * x[1] + c * c * x[1] + got + none; /* 4.5 x0 + 0.5 x1 + x2^2 x1 + 2 */
}

/* rows of a CSV text parsed into a struct whose int field sits beside a field with a derivative (the
   int's address is memory with a shadow): "%d,%lf%n", then "%hd %ld" into a short and a long */
typedef struct {
  int id;
  double v, eta;
} Row;
double rows(const double *x) {
  Row r = {0, 0, 0}, kept[4];
  const char *p = "1,1.0 2,2.0 3,-0.5";
  int n = 0, k = 0;
  while (n < 4 && sscanf(p, "%d,%lf%n", &r.id, &r.v, &k) == 2) {
    p += k;
    r.eta = x[0] * r.v * r.id;
    kept[n++] = r;
  }
  struct {
    short s;
    double w;
    long l;
  } q = {0, x[1], 0};
  sscanf("7 9", "%hd %ld", &q.s, &q.l);
  double s = q.s * q.w * q.l;
  for (int i = 0; i < n; i++) s += kept[i].eta * kept[i].eta;
  return s; /* x0^2 (1 + 16 + 2.25) + 63 x1 */
}

double scanned(const double *x) {
  double s = 0, v = x[1];
  rewind(text);
  for (int k = 0; k < 2; k++) {
    if (fscanf(text, "%lf", &v) != 1) abort();
    v *= x[0];
    s += v * v;
  }
  return s; /* 4.25 x0^2 */
}

double raw(const double *x) {
  double buf[2] = {x[0], x[1]}, kept[2] = {x[2], x[3]};
  if (pread(fd, buf, sizeof buf, 0) != sizeof buf) abort();
  if (read(-1, kept, sizeof kept) != -1) abort();
  return buf[0] * x[0] + buf[1] * x[1] * x[1] + kept[0] * kept[1]; /* x0 + 2 x1^2 + x2 x3 */
}

#define CHECK_READS(f, want)                                                                       \
  do {                                                                                             \
    double g[4] = {0};                                                                             \
    __parad_autodiff((void *)f, x, g);                                                             \
    for (int j = 0; j < 4; j++) {                                                                  \
      double v[4] = {j == 0, j == 1, j == 2, j == 3};                                              \
      CHECK_CLOSE(g[j], want[j], 1e-12);                                                           \
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[j], 1e-12);                               \
      CHECK_CLOSE(fd_component(f, x, 4, j, 1e-6), want[j], 1e-6);                                  \
    }                                                                                              \
  } while (0)

int main(void) {
  double d[4] = {1, 2, 3, 4};
  binary = tmpfile();
  text = tmpfile();
  fwrite(d, sizeof d, 1, binary);
  fflush(binary);
  fputs("0.5 2.0\n", text);
  fflush(text);
  fd = fileno(binary);
  double x[4] = {0.7, -1.3, 0.4, 2.1};
  double want[6][4] = {{20 * x[0], 40 * x[1], 0, 0},
                       {3, 4, 3 * x[2] * x[2], 3 * x[3] * x[3]},
                       {4.5, 0.5 + x[2] * x[2], 2 * x[2] * x[1], 0},
                       {8.5 * x[0], 0, 0, 0},
                       {1, 4 * x[1], x[3], x[2]},
                       {2 * 19.25 * x[0], 63, 0, 0}};
  CHECK_READS(refill, want[0]);
  CHECK_READS(partial, want[1]);
  CHECK_READS(parsed, want[2]);
  CHECK_READS(scanned, want[3]);
  CHECK_READS(raw, want[4]);
  CHECK_READS(rows, want[5]);
  return check_done();
}
