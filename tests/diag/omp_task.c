// What OpenMP tasks still lack: both modes refuse task reductions other than sums (a product's private
// copies cannot be made the tasks' own and added up), and reverse mode refuses depend(inoutset) (the
// tasks of one set run in no fixed order among themselves, and the reverse sweep needs one; found before
// optimising merges the stores of the dependence kinds: at -O0 and -O2), also beside other dependences.
// Refused at the construct, no output file. (Untied tasks and depend(mutexinoutset) are differentiated:
// tests/omp/task_untied.c, task_mutexinoutset.c.)
// RUN: rm -f %t1 && not %parad-cc %cflags -fopenmp -DFORWARD %s -o %t1 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: test ! -e %t1
// RUN: rm -f %t2 && not %parad-cc %cflags -fopenmp -DMUTEX %s -o %t2 2>&1 | FileCheck %s --check-prefix=MUTEX
// RUN: test ! -e %t2
// RUN: rm -f %t3 && not %parad-cc -O0 -fopenmp -DMUTEX %s -o %t3 2>&1 | FileCheck %s --check-prefix=MUTEX
// RUN: test ! -e %t3
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double g(double *x, int n) {
  double s = 1;
#pragma omp parallel
#pragma omp single
  // LOOP: omp_task.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate this OpenMP construct (__kmpc_task_reduction_get_th_data): task reductions other than sums of scalars and the like are not supported in function
#pragma omp taskloop reduction(* : s)
  for (int i = 0; i < n; i++) s *= x[i] * x[i];
  return s;
}

static double m(double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
    // MUTEX: omp_task.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate a task with depend(inoutset): such tasks run in an order the dependences do not fix, and the reverse sweep needs it
#pragma omp task depend(inoutset : s) depend(in : x[0]) shared(s) firstprivate(i)
    s = s * 0.5 + x[i] * x[i];
  }
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
#ifdef MUTEX
  __parad_autodiff((void *)m, x, dx, 4);
  return 0;
#else
  dx[0] = 1;
  return __parad_fwddiff((void *)g, x, dx, 4) > 0;
#endif
}
