// A program that asks for no derivative is compiled exactly as clang compiles it: the object files are
// byte for byte the same at each optimisation level, and the program prints the same numbers.
// RUN: %clang -O2 -c %s -o %t.clang.o && %parad-cc -O2 -c %s -o %t.parad.o && cmp %t.clang.o %t.parad.o
// RUN: %clang -O0 -c %s -o %t.clang0.o && %parad-cc -O0 -c %s -o %t.parad0.o && cmp %t.clang0.o %t.parad0.o
// RUN: %clang -O3 -march=x86-64-v3 -c %s -o %t.clang3.o && %parad-cc -O3 -march=x86-64-v3 -c %s -o %t.parad3.o && cmp %t.clang3.o %t.parad3.o
// RUN: %clang -O2 %s -o %t.clang -lm && %parad-cc -O2 %s -o %t.parad && %t.clang > %t.a && %t.parad > %t.b && cmp %t.a %t.b
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void matmul(int n, const double *a, const double *b, double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 60;
  double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n), *c = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; i++) a[i] = sin(i), b[i] = cos(i);
  matmul(n, a, b, c);
  double s = 0;
  for (int i = 0; i < n * n; i++) s += c[i];
  printf("%.17g\n", s);
  free(a), free(b), free(c);
  return 0;
}
