// What OpenMP tasks still lack: reverse mode refuses untied tasks (each task records on a tape of its own,
// made current on the thread that runs it, and an untied task may move between threads), both modes
// refuse task reductions other than sums (a product's private copies cannot be made the tasks' own and
// added up), and reverse mode refuses depend(mutexinoutset) (the tasks' order is not fixed, and the
// reverse sweep needs it; found before optimising merges the stores of the dependence kinds: at -O0 and
// -O2). Refused at the construct, no output file.
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t1 && not %parad-cc %cflags -fopenmp -DFORWARD %s -o %t1 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: test ! -e %t1
// RUN: rm -f %t2 && not %parad-cc %cflags -fopenmp -DMUTEX %s -o %t2 2>&1 | FileCheck %s --check-prefix=MUTEX
// RUN: test ! -e %t2
// RUN: rm -f %t3 && not %parad-cc -O0 -fopenmp -DMUTEX %s -o %t3 2>&1 | FileCheck %s --check-prefix=MUTEX
// RUN: test ! -e %t3
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double f(double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
    // CHECK: omp_task.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate this task: its body is not in the program, it is untied or detachable, or its private copies have destructors in function 'f'
#pragma omp task shared(s) untied
    {
#pragma omp atomic
      s += x[i] * x[i];
    }
  }
  return s;
}

static double g(double *x, int n) {
  double s = 1;
#pragma omp parallel
#pragma omp single
  // LOOP: omp_task.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate this OpenMP construct (__kmpc_task_reduction_get_th_data): task reductions other than sums of scalars, copyprivate and the like are not supported in function
#pragma omp taskloop reduction(* : s)
  for (int i = 0; i < n; i++) s *= x[i] * x[i];
  return s;
}

static double m(double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
    // MUTEX: omp_task.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate a task with depend(mutexinoutset) or depend(inoutset): such tasks run in an order the dependences do not fix, and the reverse sweep needs it
#pragma omp task depend(mutexinoutset : s) shared(s) firstprivate(i)
    s = s * 0.5 + x[i] * x[i];
  }
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
#ifdef MUTEX
  __parad_autodiff((void *)m, x, dx, 4);
  return 0;
#endif
#ifdef FORWARD
  dx[0] = 1;
  return __parad_fwddiff((void *)g, x, dx, 4) > 0;
#else
  __parad_autodiff((void *)f, x, dx, 4);
  return 0;
#endif
}
