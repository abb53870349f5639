// A program that asks for no derivative is compiled exactly as clang compiles it: the object's sections
// (code, data, relocations, symbols) are clang's, byte for byte, at each optimisation level, besides the
// section .parad.ir (the IR the object carries for derivatives generated at link time), and the program
// prints the same numbers. The linker drops that section: the executable has none. This text names
// __parad_autodiff, so parad-cc's front end first runs with line tables, guessing a request; finding none,
// it must run again without them and make clang's object all the same.
// RUN: %clang -O2 -c %s -o %t.clang.o && %parad-cc -O2 -c %s -o %t.parad.o
// RUN: llvm-readelf -S %t.parad.o | grep -q '\.parad\.ir'
// RUN: llvm-objcopy --remove-section .parad.ir %t.parad.o %t.plain.o
// RUN: llvm-objdump -s %t.clang.o | tail -n +3 > %t.clang.s && llvm-objdump -s %t.plain.o | tail -n +3 > %t.plain.s && cmp %t.clang.s %t.plain.s
// RUN: %clang -O0 -c %s -o %t.clang0.o && %parad-cc -O0 -c %s -o %t.parad0.o && llvm-objcopy --remove-section .parad.ir %t.parad0.o %t.plain0.o
// RUN: llvm-objdump -s %t.clang0.o | tail -n +3 > %t.clang0.s && llvm-objdump -s %t.plain0.o | tail -n +3 > %t.plain0.s && cmp %t.clang0.s %t.plain0.s
// RUN: %clang -O3 -march=x86-64-v3 -c %s -o %t.clang3.o && %parad-cc -O3 -march=x86-64-v3 -c %s -o %t.parad3.o && llvm-objcopy --remove-section .parad.ir %t.parad3.o %t.plain3.o
// RUN: llvm-objdump -s %t.clang3.o | tail -n +3 > %t.clang3.s && llvm-objdump -s %t.plain3.o | tail -n +3 > %t.plain3.s && cmp %t.clang3.s %t.plain3.s
// RUN: %clang -O2 %s -o %t.clang -lm && %parad-cc -O2 %s -o %t.parad && %t.clang > %t.a && %t.parad > %t.b && cmp %t.a %t.b
// RUN: llvm-readelf -S %t.parad | not grep -q '\.parad\.ir'
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
